"""A stored, indexed duplicate-check key for players and entries: ``name_key`` is the name
casefolded, without accents, spaces collapsed (``tournaments.domain.names.normalise_name``),
so the import preview finds "Kovács Péter" for "KOVACS  peter" with one indexed query instead
of normalising every member of the event per row. The data step fills the key of every
existing row; the models keep it in step on every save. The reverse drops the columns."""

import unicodedata

from django.db import migrations, models

#: Rows updated per statement while filling the keys.
BATCH = 2000
KEY_LENGTH = 240


def _key(name):
    # The rule of tournaments.domain.names.normalise_name, frozen here for this migration.
    decomposed = unicodedata.normalize("NFKD", name or "")
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(plain.casefold().split())[:KEY_LENGTH]


def fill(apps, schema_editor):
    for model_name, source in (("Player", "display_name"), ("Entry", "name")):
        model = apps.get_model("tournaments", model_name)
        batch = []
        for row in model.objects.only("pk", source).order_by("pk").iterator(chunk_size=BATCH):
            row.name_key = _key(getattr(row, source))
            batch.append(row)
            if len(batch) >= BATCH:
                model.objects.bulk_update(batch, ["name_key"])
                batch = []
        if batch:
            model.objects.bulk_update(batch, ["name_key"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0010_action_log_results_restored"),
    ]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="name_key",
            field=models.CharField(
                default="", editable=False, max_length=240, verbose_name="name key"
            ),
        ),
        migrations.AddField(
            model_name="player",
            name="name_key",
            field=models.CharField(
                default="", editable=False, max_length=240, verbose_name="name key"
            ),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name="entry",
            index=models.Index(fields=["tournament", "name_key"], name="entry_tournament_name_key"),
        ),
        migrations.AddIndex(
            model_name="player",
            index=models.Index(fields=["name_key"], name="player_name_key"),
        ),
    ]
