"""Blue Moon crystals as format data: up to 7 a game where the Emissaries and Inquisitors
expansions are used, 4 in the base game.

The Blue Moon FAQ, "End of Game": "Before Emissaries and Inquisitors was released, the maximum
score from a game was four crystals. When using Emissaries and Inquisitors the maximum score is
now more (seven ...)" (docs/rules.md §13 (Blue Moon matches)).

- ``bluemoon-advanced`` (a self-built deck takes an inquisitor) and ``bluemoon-people`` (a
  pre-constructed deck may take an emissary and its seven cards) use the expansions: their match
  structure allows 1–7 crystals. Only a structure still equal to the seeded one (4) is changed,
  so an organiser's edit in the admin is kept; the reverse puts 4 back the same way.
- New format ``bluemoon-people-basic``: pre-constructed people decks of the base game, without
  emissaries or inquisitors (``allow_emissary`` false), 1–4 crystals. The reverse deletes it
  unless an event uses it.

Events keep the structure they were created with (``Tournament.match_structure``).
"""

from django.db import migrations
from django.db.models import ProtectedError

SEEDED_BASE = {
    "policy": "blue_moon",
    "games_per_match": 1,
    "ends_when_decided": True,
    "later_games": None,
    "game_draws": False,
    "game_score_unit": "crystals",
    "game_score_max": 4,
    "target_score": None,
}
WITH_EXPANSIONS = {**SEEDED_BASE, "game_score_max": 7}
EXPANSION_FORMATS = ("bluemoon-advanced", "bluemoon-people")

BASIC = {
    "slug": "bluemoon-people-basic",
    "name": "Blue Moon (néppakli, küldöttek és inkvizítorok nélkül)",
    "description": (
        "Az alapjáték előre összeállított néppaklija a Küldöttek és inkvizítorok kiegészítők "
        "nélkül; egy játszma legfeljebb 4 kristályt ér (Blue Moon GYIK)."
    ),
    "rule_set": "bluemoon-people",
    "sideboard_mode": "none",
    "colours_not_counted": [],
    "params": {"deck_size": 30, "allow_emissary": False},
    "first_player_policy": "loser_chooses",  # as the other Blue Moon formats
    "games_per_match": 1,
    "match_structure": SEEDED_BASE,
    "default_tiebreakers": ["buchholz"],
}


def forward(apps, schema_editor):
    Format = apps.get_model("decks", "Format")
    Game = apps.get_model("decks", "Game")
    for fmt in Format.objects.filter(slug__in=EXPANSION_FORMATS):
        if fmt.match_structure == SEEDED_BASE:
            fmt.match_structure = dict(WITH_EXPANSIONS)
            fmt.save(update_fields=["match_structure"])
    game = Game.objects.filter(slug="bluemoon").first()
    if game is not None and not Format.objects.filter(slug=BASIC["slug"]).exists():
        Format.objects.create(game=game, **BASIC)


def backward(apps, schema_editor):
    Format = apps.get_model("decks", "Format")
    for fmt in Format.objects.filter(slug__in=EXPANSION_FORMATS):
        if fmt.match_structure == WITH_EXPANSIONS:
            fmt.match_structure = dict(SEEDED_BASE)
            fmt.save(update_fields=["match_structure"])
    try:
        Format.objects.filter(slug=BASIC["slug"]).delete()
    except ProtectedError:
        pass  # an event uses it: keep the format


class Migration(migrations.Migration):
    dependencies = [
        ("decks", "0010_seed_edition_policies"),
    ]

    operations = [migrations.RunPython(forward, backward)]
