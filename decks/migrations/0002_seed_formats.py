"""Seed the games, the initial formats and the crawled ban lists (data migration).

Sources: docs/rules.md §3 (HKK deck construction (Hagyományos)), §4 (HKK formats and ban lists
(Retró, TM, Páros); ban lists as crawled), §9 (WoW TCG constructed decks) and §12 (Blue Moon
decks); the HKK FAQ on rule cards and first-player rights (45-card minimum, first-player rule).
Crawled ban lists are dated 2025-01-01 (the crawl year), with the source URL in each entry.
Organisers edit all of this in the admin afterwards. The texts below are those a fresh install
gets; ``0006_relabel_sources`` brings databases seeded with the first wording up to date.

Imports no app code (a migration must not change meaning when the app does): the name
normalisation below is a frozen copy
of ``decks.domain.normalize.normalize_name`` (a test checks that both agree on these names).
"""

import datetime
import re
import unicodedata

from django.db import migrations

_WHITESPACE = re.compile(r"\s+")
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u00b4": "'", "`": "'"})


def _normalize(s):
    text = unicodedata.normalize("NFC", s).translate(_APOSTROPHES).casefold()
    text = unicodedata.normalize("NFC", text)
    return _WHITESPACE.sub(" ", text).strip()


EFFECTIVE = datetime.date(2025, 1, 1)
HKK_COLOURLESS = ["Színtelen", "Bufa"]
HKK_TIEBREAKERS = ["buchholz", "game_points"]

GAMES = [
    ("hkk", "Hatalom Kártyái"),
    ("wow", "World of Warcraft TCG"),
    ("bluemoon", "Blue Moon"),
]

# slug, name, source, [(card name, kind)]
BAN_LISTS = [
    (
        "hkk-all-events",
        "HKK: all events (test prints)",
        "docs/rules.md §4: the four test-print (CM) cards are banned at every HKK event "
        "(beholder.hu event pages, e.g. https://beholder.hu/?cikk=35159).",
        [
            ("A művészet ereje (CM)", "banned"),
            ("Cunami teknős (CM)", "banned"),
            ("Alanor (CM)", "banned"),
            ("Beholder Mágus (CM)", "banned"),
        ],
    ),
    (
        "hkk-hagyomanyos",
        "HKK: Hagyományos",
        "docs/rules.md §4, Hagyományos ban list as crawled 2025: https://beholder.hu/?cikk=35159",
        [
            (name, "banned")
            for name in [
                "A Mennyek Úrnője",
                "Bufa segítsége",
                "Elmerombolás",
                "Iustitia",
                "Kismassza",
                "Krigis, a lélekkufár",
                "Leira, a hangtolvaj",
                "Lépéselőny",
                "Nekrofun máglya",
                "Oz'mogroth univerzumkifordító",
                "Ragyogó manó",
                "Teremtő rakshallion (új)",
                "Tűzmadár (2020)",
                "Vízitündér (új)",
            ]
        ],
    ),
    (
        "hkk-paros",
        "HKK: Páros",
        "docs/rules.md §4, Páros ban list (beholder.hu Páros verseny pages, e.g. "
        "https://beholder.hu/?cikk=18240, http://marcus.beholder.hu/?cikk=27288)",
        [
            (name, "banned")
            for name in [
                "A Mennyek Úrnője",
                "Bufa segítsége",
                "Elmerombolás",
                "Isteni érzés",
                "Isteni érzés (új)",
                "Iustitia",
                "Kismassza",
                "Krigis, a lélekkufár",
                "Leira, a hangtolvaj",
                "Lépéselőny",
                "Napkirály (2023)",
                "Nekrofun máglya",
                "Oz'mogroth univerzumkifordító",
                "Öntörvényű krabber",
                "Ragyogó manó",
                "Szerencsés szám",
                "Szerepcsere",
                "Szürkeállomány aktivizálása",
                "Teremtő rakshallion (új)",
                "Transzformáció",
                "Tűzmadár (2020)",
                "Tűzrakás (új)",
                "Unaloműző (új)",
                "Villámháború",
                "Vízitündér (új)",
            ]
        ],
    ),
    (
        "hkk-retro",
        "HKK: Retró",
        "docs/rules.md §4, Retró ban list (2025-11-08, "
        "https://p0re.beholder.hu/index.php?cikk=35689); "
        "'Tiltott mágia csak a kiegészítő pakliban szerepelhet' from retrohkk.hu",
        [
            ("A mágia létsíkja", "banned"),
            ("Pszi szakértelem", "banned"),
            ("Teológia", "banned"),
            ("A falak ereje", "banned"),
            ("Tiltott mágia", "sideboard_only"),
        ],
    ),
]

_HKK_BASE = {
    "game": "hkk",
    "rule_set": "hkk",
    "max_main": None,
    "copy_limit": 3,
    "first_player_policy": "hkk",
    "games_per_match": 3,
    "default_tiebreakers": HKK_TIEBREAKERS,
    "params": {},
}

FORMATS = [
    dict(
        _HKK_BASE,
        slug="hkk",
        name="HKK (FAQ tournament rules)",
        description="HKK FAQ on rule cards and first-player rights: at least 45 cards without "
        "the rule card; no sideboard or colour rule stated.",
        min_main=45,
        sideboard_mode="any",
        sideboard_size=None,
        colour_limit=None,
        colours_not_counted=[],
        ban_lists=["hkk-all-events"],
    ),
    dict(
        _HKK_BASE,
        slug="hkk-hagyomanyos",
        name="HKK Hagyományos",
        description="docs/rules.md §3: min. 50 cards, sideboard exactly 30 when used, at most 3 "
        "colours (Színtelen and Bufa not counted), at most 3 copies.",
        min_main=50,
        sideboard_mode="exact",
        sideboard_size=30,
        colour_limit=3,
        colours_not_counted=HKK_COLOURLESS,
        ban_lists=["hkk-all-events", "hkk-hagyomanyos"],
    ),
    dict(
        _HKK_BASE,
        slug="hkk-retro",
        name="HKK Retró",
        description="docs/rules.md §4: min. 45 cards, sideboard exactly 20 when used, at most 4 "
        "colours (Színtelen and Bufa not counted), at most 3 copies.",
        min_main=45,
        sideboard_mode="exact",
        sideboard_size=20,
        colour_limit=4,
        colours_not_counted=HKK_COLOURLESS,
        ban_lists=["hkk-all-events", "hkk-retro"],
    ),
    dict(
        _HKK_BASE,
        slug="hkk-paros",
        name="HKK Páros",
        description="docs/rules.md §7: Hagyományos deck rules for each member, the pair uses the "
        "same rule card; own ban list.",
        min_main=50,
        sideboard_mode="exact",
        sideboard_size=30,
        colour_limit=3,
        colours_not_counted=HKK_COLOURLESS,
        params={"pair": True},
        ban_lists=["hkk-all-events", "hkk-paros"],
    ),
    dict(
        slug="wow-constructed",
        game="wow",
        name="WoW TCG Constructed",
        description="docs/rules.md §9: one hero, min. 60 cards, side deck exactly 10 when used, "
        "at most 4 copies (Unlimited cards exempt).",
        rule_set="wow-constructed",
        min_main=60,
        max_main=None,
        sideboard_mode="exact",
        sideboard_size=10,
        copy_limit=4,
        colour_limit=None,
        colours_not_counted=[],
        params={},
        first_player_policy="loser_chooses",
        games_per_match=3,
        default_tiebreakers=["omw", "gw", "ogw"],
        ban_lists=[],
    ),
    dict(
        slug="bluemoon-advanced",
        game="bluemoon",
        name="Blue Moon (advanced)",
        description="Blue Moon advanced deck building (docs/rules.md §12).",
        rule_set="bluemoon-advanced",
        min_main=None,
        max_main=None,
        sideboard_mode="none",
        sideboard_size=None,
        copy_limit=None,
        colour_limit=None,
        colours_not_counted=[],
        params={"deck_size": 30, "moon_budget": 10},
        first_player_policy="loser_chooses",
        games_per_match=1,
        default_tiebreakers=["buchholz"],
        ban_lists=[],
    ),
    dict(
        slug="bluemoon-people",
        game="bluemoon",
        name="Blue Moon (people deck)",
        description="Blue Moon single-people deck (docs/rules.md §12).",
        rule_set="bluemoon-people",
        min_main=None,
        max_main=None,
        sideboard_mode="none",
        sideboard_size=None,
        copy_limit=None,
        colour_limit=None,
        colours_not_counted=[],
        params={"deck_size": 30, "moon_budget": 10},
        first_player_policy="loser_chooses",
        games_per_match=1,
        default_tiebreakers=["buchholz"],
        ban_lists=[],
    ),
]


def seed(apps, schema_editor):
    Game = apps.get_model("decks", "Game")
    BanList = apps.get_model("decks", "BanList")
    BanListEntry = apps.get_model("decks", "BanListEntry")
    Format = apps.get_model("decks", "Format")
    CatalogueVersion = apps.get_model("decks", "CatalogueVersion")

    games = {}
    for slug, name in GAMES:
        games[slug], _ = Game.objects.get_or_create(slug=slug, defaults={"name": name})

    ban_lists = {}
    for slug, name, source, entries in BAN_LISTS:
        ban_list, created = BanList.objects.get_or_create(
            slug=slug, defaults={"game": games["hkk"], "name": name, "source": source}
        )
        ban_lists[slug] = ban_list
        if created:
            BanListEntry.objects.bulk_create(
                BanListEntry(
                    ban_list=ban_list,
                    card_name=card_name,
                    normalized_name=_normalize(card_name),
                    kind=kind,
                    effective_from=EFFECTIVE,
                    source=source,
                )
                for card_name, kind in entries
            )

    for spec in FORMATS:
        values = dict(spec)
        slug = values.pop("slug")
        list_slugs = values.pop("ban_lists")
        values["game"] = games[values["game"]]
        # Run against a later model state (the seed test does), the columns dropped since
        # (0014_drop_format_structure_mirror_columns) are left out; at this state all exist.
        known = {f.name for f in Format._meta.get_fields()}
        values = {k: v for k, v in values.items() if k in known}
        fmt, created = Format.objects.get_or_create(slug=slug, defaults=values)
        if created:
            fmt.ban_lists.set([ban_lists[s] for s in list_slugs])

    version, _ = CatalogueVersion.objects.get_or_create(pk=1)
    version.version += 1
    version.save()


def unseed(apps, schema_editor):
    Format = apps.get_model("decks", "Format")
    BanList = apps.get_model("decks", "BanList")
    Format.objects.filter(slug__in=[spec["slug"] for spec in FORMATS]).delete()
    BanList.objects.filter(slug__in=[b[0] for b in BAN_LISTS]).delete()
    # Games stay when cards were loaded meanwhile (Card.game is PROTECT).
    Game = apps.get_model("decks", "Game")
    for slug, _name in GAMES:
        game = Game.objects.filter(slug=slug).first()
        if game and not game.cards.exists() and not game.formats.exists():
            game.delete()


class Migration(migrations.Migration):
    dependencies = [("decks", "0001_initial")]

    operations = [migrations.RunPython(seed, unseed)]
