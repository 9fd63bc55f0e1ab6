"""Cite docs/rules.md and the original documents in the seeded texts (data migration).

The first seeded ``source`` notes of the ban lists, their entries and the game-start effects,
and the texts of the seeded formats, cited an internal notes file and numbered seed documents.
They now cite docs/rules.md sections (§3 HKK deck construction (Hagyományos), §4 HKK formats
and ban lists (Retró, TM, Páros), §5 HKK game start: opening hand and life points, §7 HKK pair
tournaments, §9 WoW TCG constructed decks, §12 Blue Moon decks) or the original document by
title (the HKK FAQ on rule cards, followers, pair tournaments and first-player rights; the
Blue Moon short FAQ). The ``hkk`` first-player policy gets the label the event forms use
(docs/rules.md §6 (HKK first-player rights)); a choice label changes no column.

Fresh installs are seeded with the new texts already (0002, 0004, 0005 and
``decks/data/game_start_effects.csv``), so there this migration changes nothing. Only rows
still carrying a first seeded text change, so an organiser's own edits in the admin are kept.
Reversible: the reverse puts the first seeded texts back the same way. Imports no app code.
"""

import unicodedata

from django.db import migrations, models

# Each table maps a seeded row to (first seeded text, current text).

#: Ban lists by slug; their seeded entries carry the same source.
BAN_LIST_SOURCES = {
    "hkk-all-events": (
        "RULES.md §1.6: the four test-print (CM) cards are banned at every HKK event "
        "(beholder.hu event pages, e.g. https://beholder.hu/?cikk=35159).",
        "docs/rules.md §4: the four test-print (CM) cards are banned at every HKK event "
        "(beholder.hu event pages, e.g. https://beholder.hu/?cikk=35159).",
    ),
    "hkk-hagyomanyos": (
        "RULES.md §1.6, Hagyományos ban list as crawled 2025: https://beholder.hu/?cikk=35159",
        "docs/rules.md §4, Hagyományos ban list as crawled 2025: https://beholder.hu/?cikk=35159",
    ),
    "hkk-paros": (
        "RULES.md §1.6, Páros ban list (beholder.hu Páros verseny pages, e.g. "
        "https://beholder.hu/?cikk=18240, http://marcus.beholder.hu/?cikk=27288)",
        "docs/rules.md §4, Páros ban list (beholder.hu Páros verseny pages, e.g. "
        "https://beholder.hu/?cikk=18240, http://marcus.beholder.hu/?cikk=27288)",
    ),
    "hkk-retro": (
        "RULES.md §1.6, Retró ban list (2025-11-08, "
        "https://p0re.beholder.hu/index.php?cikk=35689); 'Tiltott mágia csak a kiegészítő "
        "pakliban szerepelhet' from retrohkk.hu",
        "docs/rules.md §4, Retró ban list (2025-11-08, "
        "https://p0re.beholder.hu/index.php?cikk=35689); 'Tiltott mágia csak a kiegészítő "
        "pakliban szerepelhet' from retrohkk.hu",
    ),
}

#: Formats by slug: field -> pairs (the English texts of 0002, the Hungarian ones of 0005).
FORMAT_TEXTS = {
    "hkk": {
        "name": [
            (
                "HKK (S000 tournament rules)",
                "HKK (FAQ tournament rules)",
            ),
            (
                "HKK (versenyszabályok, GYIK S000)",
                "HKK (versenyszabályok, GYIK)",
            ),
        ],
        "description": [
            (
                "Seed FAQ S000: at least 45 cards without the rule card; no sideboard or "
                "colour rule stated.",
                "HKK FAQ on rule cards and first-player rights: at least 45 cards without the "
                "rule card; no sideboard or colour rule stated.",
            ),
            (
                "A GYIK (S000) szerint: legalább 45 lap a szabálylap nélkül; kiegészítő "
                "pakliról és színkorlátról nem rendelkezik.",
                "A HKK GYIK szerint: legalább 45 lap a szabálylap nélkül; kiegészítő pakliról "
                "és színkorlátról nem rendelkezik.",
            ),
        ],
    },
    "hkk-hagyomanyos": {
        "description": [
            (
                "RULES.md §1.3: min. 50 cards, sideboard exactly 30 when used, at most 3 "
                "colours (Színtelen and Bufa not counted), at most 3 copies.",
                "docs/rules.md §3: min. 50 cards, sideboard exactly 30 when used, at most 3 "
                "colours (Színtelen and Bufa not counted), at most 3 copies.",
            ),
        ],
    },
    "hkk-retro": {
        "description": [
            (
                "RULES.md §1.3: min. 45 cards, sideboard exactly 20 when used, at most 4 "
                "colours (Színtelen and Bufa not counted), at most 3 copies.",
                "docs/rules.md §4: min. 45 cards, sideboard exactly 20 when used, at most 4 "
                "colours (Színtelen and Bufa not counted), at most 3 copies.",
            ),
        ],
    },
    "hkk-paros": {
        "description": [
            (
                "RULES.md §1.5: Hagyományos deck rules for each member, the pair uses the same "
                "rule card; own ban list.",
                "docs/rules.md §7: Hagyományos deck rules for each member, the pair uses the "
                "same rule card; own ban list.",
            ),
        ],
    },
    "wow-constructed": {
        "description": [
            (
                "RULES.md §2.1: one hero, min. 60 cards, side deck exactly 10 when used, at "
                "most 4 copies (Unlimited cards exempt).",
                "docs/rules.md §9: one hero, min. 60 cards, side deck exactly 10 when used, at "
                "most 4 copies (Unlimited cards exempt).",
            ),
        ],
    },
    "bluemoon-advanced": {
        "description": [
            (
                "Blue Moon advanced deck building (seed S002).",
                "Blue Moon advanced deck building (docs/rules.md §12).",
            ),
            (
                "Blue Moon haladó pakliépítés (S002 GYIK).",
                "Blue Moon haladó pakliépítés (Blue Moon GYIK).",
            ),
        ],
    },
    "bluemoon-people": {
        "description": [
            (
                "Blue Moon single-people deck (seed S002).",
                "Blue Moon single-people deck (docs/rules.md §12).",
            ),
            (
                "Blue Moon előre összeállított néppakli (S002 GYIK).",
                "Blue Moon előre összeállított néppakli (Blue Moon GYIK).",
            ),
        ],
    },
}

#: Game-start effects by printed name.
EFFECT_SOURCES = {
    "Életenergia (új)": (
        'S000 "Kétféle szabálylap/követő van": fixed max ÉP; 28 example (at the opponent, sets '
        "mine) implies value 30 and scope everyone; kind inferred",
        'HKK FAQ "Kétféle szabálylap/követő van": fixed max ÉP; 28 example (at the opponent, '
        "sets mine) implies value 30 and scope everyone; kind inferred",
    ),
    "Sokszínűség": (
        'S000 pair paragraph "Sokszínűségnél mindketten 27 ÉP-vel kezdenek, azaz összesen '
        '54-gyel": 27, affects its user; kind inferred',
        'HKK FAQ pair paragraph "Sokszínűségnél mindketten 27 ÉP-vel kezdenek, azaz összesen '
        '54-gyel": 27, affects its user; kind inferred',
    ),
    "Terrgath": (
        'S000 "Terrgath -2 ÉP", "(nálam)"; kind inferred (szabálylap/követő not stated)',
        'HKK FAQ "Terrgath -2 ÉP", "(nálam)"; kind inferred (szabálylap/követő not stated)',
    ),
    "A bőség zavara": (
        "S000 AK36 (+3 cards, do not stack); RULES.md §1.5 lists it as affecting everyone",
        "HKK FAQ AK36 (+3 cards, do not stack); docs/rules.md §7 lists it as affecting everyone",
    ),
    "Arochos": (
        'S000 "Arochos … továbbra is 1 ÉP-vel kezd", does not change max ÉP; shared/data '
        "cards-sample has Arochos (2020) as a horde commander, printed hand unknown",
        'HKK FAQ "Arochos … továbbra is 1 ÉP-vel kezd", does not change max ÉP; '
        "decks/data/hkk/cards-sample.csv has Arochos (2020) as a horde commander, printed hand "
        "unknown",
    ),
    "Együgyű": (
        "S000 names it as a fixed max ÉP card below 30; value, kind and scope not stated",
        "HKK FAQ names it as a fixed max ÉP card below 30; value, kind and scope not stated",
    ),
    "A fájdalom szépsége": (
        "S000 pair paragraph: affects everyone, applies once; no hand/ÉP value stated",
        "HKK FAQ pair paragraph: affects everyone, applies once; no hand/ÉP value stated",
    ),
    "Lassan járj!": (
        "S000 pair paragraph: affects everyone, applies once; no hand/ÉP value stated",
        "HKK FAQ pair paragraph: affects everyone, applies once; no hand/ÉP value stated",
    ),
    "Lépéselőny": (
        "S000 pair paragraph: affects its user (2 VP, 1 SZK each); no hand/ÉP value",
        "HKK FAQ pair paragraph: affects its user (2 VP, 1 SZK each); no hand/ÉP value",
    ),
}


def _normalise(name):
    """Frozen copy of the game-start effect name key of 0004."""
    return " ".join(unicodedata.normalize("NFC", name).casefold().split())


def _relabel(apps, source, target):
    """Rewrite every text still equal to pair element ``source`` to element ``target``."""
    BanList = apps.get_model("decks", "BanList")
    BanListEntry = apps.get_model("decks", "BanListEntry")
    Format = apps.get_model("decks", "Format")
    GameStartEffect = apps.get_model("decks", "GameStartEffect")
    for slug, texts in BAN_LIST_SOURCES.items():
        BanList.objects.filter(slug=slug, source=texts[source]).update(source=texts[target])
        BanListEntry.objects.filter(ban_list__slug=slug, source=texts[source]).update(
            source=texts[target]
        )
    for slug, fields in FORMAT_TEXTS.items():
        for field, pairs in fields.items():
            for texts in pairs:
                Format.objects.filter(slug=slug, **{field: texts[source]}).update(
                    **{field: texts[target]}
                )
    for name, texts in EFFECT_SOURCES.items():
        GameStartEffect.objects.filter(
            normalized_name=_normalise(name), source=texts[source]
        ).update(source=texts[target])


def relabel(apps, schema_editor):
    _relabel(apps, 0, 1)


def restore_first_texts(apps, schema_editor):
    _relabel(apps, 1, 0)


class Migration(migrations.Migration):
    dependencies = [("decks", "0005_hungarian_format_names")]

    operations = [
        migrations.AlterField(
            model_name="format",
            name="first_player_policy",
            field=models.CharField(
                choices=[
                    ("hkk", "HKK: die roll for game 1, then player 2, then player 1"),
                    ("loser_chooses", "loser of the previous game chooses"),
                ],
                default="hkk",
                max_length=32,
                verbose_name="default first-player policy",
            ),
        ),
        migrations.RunPython(relabel, restore_first_texts),
    ]
