"""WoW TCG formats over every set, read as of the event date; the Contemporary format of the
WoWTCG-Tracker legality tags; the WoW catalogue's source.

- ``wow-classic``: every set released by the event date.
- ``wow-core``: the last three blocks up to the newest block released by the event date (a 2011
  event plays the 2011 Core), no longer pinned to Scourgewar.
- ``wow-block``: the newest block released by the event date.
- ``wow-contemporary`` (new): the cards the WoWTCG-Tracker tags ``Contemporary``.

docs/rules.md §10 (WoW TCG formats and ban lists), §17 (Card data sources and coverage).
"""

import importlib

from django.db import migrations

structure_for = importlib.import_module("decks.migrations.0008_seed_match_structures").structure_for
COPIED = importlib.import_module("decks.migrations.0010_seed_edition_policies").COPIED

UPDATES = {
    "wow-classic": ("WoW TCG Classic", {"as_of_event_date": True}),
    "wow-core": ("WoW TCG Core", {"last_blocks": 3, "as_of_event_date": True}),
    "wow-block": ("WoW TCG Block", {"last_blocks": 1, "as_of_event_date": True}),
}
OLD = {
    "wow-classic": ("WoW TCG Classic", {}),
    "wow-core": ("WoW TCG Core", {"last_blocks": 3, "last_blocks_as_of": "Scourgewar"}),
    "wow-block": ("WoW TCG Block (Scourgewar)", {"legal_blocks": ["Scourgewar"]}),
}
POLICY_KEYS = ("legal_blocks", "last_blocks", "last_blocks_as_of", "as_of_event_date")
WOW_SOURCE = "WoWTCGUtility (MIT) + WoWTCG-Tracker print list (GPL-3.0) (decks/data/wowtcg)"


def _apply(apps, table):
    Format = apps.get_model("decks", "Format")
    for slug, (name, policy) in table.items():
        fmt = Format.objects.filter(slug=slug).first()
        if fmt is None:
            continue
        params = {k: v for k, v in (fmt.params or {}).items() if k not in POLICY_KEYS}
        fmt.params = {**params, **policy}
        fmt.name = name
        fmt.save(update_fields=["params", "name"])


def seed(apps, schema_editor):
    Format = apps.get_model("decks", "Format")
    Game = apps.get_model("decks", "Game")
    _apply(apps, UPDATES)
    base = Format.objects.filter(slug="wow-constructed").first()
    if base is not None:
        values = {field: getattr(base, field) for field in COPIED}
        structure = structure_for("wow", "wow-classic")
        if structure is not None:
            values["match_structure"] = dict(structure)
            values["games_per_match"] = structure["games_per_match"]
        Format.objects.get_or_create(
            slug="wow-contemporary",
            defaults={
                **values,
                "game_id": base.game_id,
                "name": "WoW TCG Contemporary",
                "description": "The cards tagged Contemporary (docs/rules.md §10).",
                "params": {"legality_tag": "Contemporary"},
            },
        )
    Game.objects.filter(slug="wow").update(catalogue_source=WOW_SOURCE)


def unseed(apps, schema_editor):
    Format = apps.get_model("decks", "Format")
    Game = apps.get_model("decks", "Game")
    Format.objects.filter(slug="wow-contemporary").delete()
    _apply(apps, OLD)
    Game.objects.filter(slug="wow").update(catalogue_source="")


class Migration(migrations.Migration):
    dependencies = [("decks", "0011_blue_moon_crystals_and_base_game_format")]

    operations = [migrations.RunPython(seed, unseed)]
