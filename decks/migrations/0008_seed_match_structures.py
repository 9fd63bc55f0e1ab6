"""Seed each format's match structure (first-player policy and games of a match).

HKK formats: three games per opponent, all played, the HKK first-player rule (docs/rules.md §6
(HKK first-player rights), §8 (HKK tournament structure and scoring)); whether game 3 is
played at 2–0 is the ``ends_when_decided`` setting. WoW TCG constructed: best of three, the die
roll winner chooses who starts, later games the loser of the previous game chooses (§11 (WoW
TCG matches and first player)); a WoW TCG Core format: best of one. Blue Moon: one game scored
in crystals (at most 4 in the base game), no drawn games (§13 (Blue Moon matches)).

The values are written out here (a migration must not change when the presets in
``tournaments.domain.match_structure`` do; decks never imports tournaments). Only formats
whose structure is still empty are filled; the reverse empties exactly the seeded values.
"""

from django.db import migrations

BASE = {
    "later_games": None,
    "game_draws": True,
    "game_score_unit": None,
    "game_score_max": None,
    "target_score": None,
}
HKK = {**BASE, "policy": "hkk", "games_per_match": 3, "ends_when_decided": False}
WOW_BEST_OF_THREE = {
    **BASE,
    "policy": "wow",
    "games_per_match": 3,
    "ends_when_decided": True,
    "later_games": "loser_chooses",
}
WOW_BEST_OF_ONE = {**BASE, "policy": "wow", "games_per_match": 1, "ends_when_decided": True}
BLUE_MOON = {
    **BASE,
    "policy": "blue_moon",
    "games_per_match": 1,
    "ends_when_decided": True,
    "game_draws": False,
    "game_score_unit": "crystals",
    "game_score_max": 4,
}


def structure_for(game: str, slug: str) -> dict | None:
    """The seeded structure of a format of ``game`` named ``slug`` (``None``: leave it)."""
    if game == "hkk":
        return HKK
    if game == "wow":
        return WOW_BEST_OF_ONE if "core" in slug else WOW_BEST_OF_THREE
    if game == "bluemoon":
        return BLUE_MOON
    return None


def seed(apps, schema_editor):
    Format = apps.get_model("decks", "Format")
    # Run against a later model state (the browser tests replay this seed), the mirror column
    # dropped since (0014_drop_format_structure_mirror_columns) is left alone.
    mirror = "games_per_match" in {f.name for f in Format._meta.get_fields()}
    for fmt in Format.objects.select_related("game"):
        structure = structure_for(fmt.game.slug, fmt.slug)
        if structure is not None and not fmt.match_structure:
            fmt.match_structure = dict(structure)
            fields = ["match_structure"]
            if mirror:
                fmt.games_per_match = structure["games_per_match"]
                fields.append("games_per_match")
            fmt.save(update_fields=fields)


def unseed(apps, schema_editor):
    Format = apps.get_model("decks", "Format")
    for fmt in Format.objects.select_related("game"):
        if fmt.match_structure and fmt.match_structure == structure_for(fmt.game.slug, fmt.slug):
            fmt.match_structure = {}
            fmt.save(update_fields=["match_structure"])


class Migration(migrations.Migration):
    dependencies = [
        ("decks", "0007_format_match_structure"),
    ]

    operations = [migrations.RunPython(seed, unseed)]
