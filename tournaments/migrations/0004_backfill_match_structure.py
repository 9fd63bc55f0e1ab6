"""Give every existing tournament a match structure built from its older fields: the
first-player policy, games per match and "stop when a player has won the match"
(docs/rules.md §6 (HKK first-player rights), §11 (WoW TCG matches and first player)). The
reverse empties the structure again (the older fields are kept throughout)."""

from django.db import migrations

POLICIES = {"hkk", "wow", "blue_moon", "loser_chooses"}


def backfill(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    for t in Tournament.objects.filter(match_structure={}):
        policy = t.first_player_policy if t.first_player_policy in POLICIES else "hkk"
        games = max(1, min(int(t.games_per_match or 3), 3 if policy == "hkk" else 9))
        t.match_structure = {
            "policy": policy,
            "games_per_match": games,
            "ends_when_decided": bool(t.stop_at_two_wins),
            "later_games": None,
            "game_draws": True,
            "game_score_unit": None,
            "game_score_max": None,
            "target_score": None,
        }
        t.save(update_fields=["match_structure"])


def empty(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    Tournament.objects.update(match_structure={})


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0003_match_structure_chosen_by_score"),
    ]

    operations = [migrations.RunPython(backfill, empty)]
