"""Hungarian names and descriptions for the seeded formats (the community's first language).

Only rows still carrying the seeded English text are changed, so an organiser's own edits in
the admin are kept. Reversible: the reverse puts the seeded English text back the same way. The
texts below are those of a fresh install; ``0006_relabel_sources`` brings databases seeded with
the first wording up to date.
"""

from django.db import migrations

# slug: ((seeded name, seeded description), (Hungarian name, Hungarian description))
TEXTS = {
    "hkk": (
        (
            "HKK (FAQ tournament rules)",
            "HKK FAQ on rule cards and first-player rights: at least 45 cards without the rule "
            "card; no sideboard or colour rule stated.",
        ),
        (
            "HKK (versenyszabályok, GYIK)",
            "A HKK GYIK szerint: legalább 45 lap a szabálylap nélkül; kiegészítő pakliról és "
            "színkorlátról nem rendelkezik.",
        ),
    ),
    "hkk-hagyomanyos": (
        (
            "HKK Hagyományos",
            "docs/rules.md §3: min. 50 cards, sideboard exactly 30 when used, at most 3 colours "
            "(Színtelen and Bufa not counted), at most 3 copies.",
        ),
        (
            "HKK Hagyományos",
            "Legalább 50 lap; kiegészítő pakli használata esetén pontosan 30 lap; legfeljebb 3 "
            "szín (a Színtelen és a Bufa nem számít); egy lapból legfeljebb 3 példány.",
        ),
    ),
    "hkk-retro": (
        (
            "HKK Retró",
            "docs/rules.md §4: min. 45 cards, sideboard exactly 20 when used, at most 4 colours "
            "(Színtelen and Bufa not counted), at most 3 copies.",
        ),
        (
            "HKK Retró",
            "Legalább 45 lap; kiegészítő pakli használata esetén pontosan 20 lap; legfeljebb 4 "
            "szín (a Színtelen és a Bufa nem számít); egy lapból legfeljebb 3 példány.",
        ),
    ),
    "hkk-paros": (
        (
            "HKK Páros",
            "docs/rules.md §7: Hagyományos deck rules for each member, the pair uses the same "
            "rule card; own ban list.",
        ),
        (
            "HKK Páros",
            "Mindkét csapattag paklija a Hagyományos szabályok szerint; a páros ugyanazt a "
            "szabálylapot használja; saját tiltólista.",
        ),
    ),
    "wow-constructed": (
        (
            "WoW TCG Constructed",
            "docs/rules.md §9: one hero, min. 60 cards, side deck exactly 10 when used, at most 4 "
            "copies (Unlimited cards exempt).",
        ),
        (
            "WoW TCG Constructed",
            "Egy hős; legalább 60 lap; kiegészítő pakli használata esetén pontosan 10 lap; egy "
            "lapból legfeljebb 4 példány (az Unlimited lapok kivételek).",
        ),
    ),
    "bluemoon-advanced": (
        ("Blue Moon (advanced)", "Blue Moon advanced deck building (docs/rules.md §12)."),
        ("Blue Moon (haladó pakliépítés)", "Blue Moon haladó pakliépítés (Blue Moon GYIK)."),
    ),
    "bluemoon-people": (
        ("Blue Moon (people deck)", "Blue Moon single-people deck (docs/rules.md §12)."),
        ("Blue Moon (néppakli)", "Blue Moon előre összeállított néppakli (Blue Moon GYIK)."),
    ),
}


def _apply(apps, source: int, target: int) -> None:
    Format = apps.get_model("decks", "Format")
    for slug, texts in TEXTS.items():
        old_name, old_description = texts[source]
        new_name, new_description = texts[target]
        Format.objects.filter(slug=slug, name=old_name).update(name=new_name)
        Format.objects.filter(slug=slug, description=old_description).update(
            description=new_description
        )


def to_hungarian(apps, schema_editor):
    _apply(apps, 0, 1)


def to_english(apps, schema_editor):
    _apply(apps, 1, 0)


class Migration(migrations.Migration):
    dependencies = [("decks", "0004_seed_game_start_effects")]

    operations = [migrations.RunPython(to_hungarian, to_english)]
