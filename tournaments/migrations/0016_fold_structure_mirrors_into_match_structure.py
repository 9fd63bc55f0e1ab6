"""Fold the older mirror columns of ``Tournament`` (``first_player_policy``,
``games_per_match``, ``stop_at_two_wins``) into ``match_structure`` before
0017_drop_structure_mirror_columns removes them: a tournament with no stored structure gets
the one those columns implied (docs/rules.md §6 (HKK first-player rights), §11 (WoW TCG
matches and first player)); a stored structure is kept as it is (it was the one in force).

The reverse writes the columns back from the structure (0017's reverse adds them first)."""

from django.db import migrations

#: The policies registered when this migration was written; an unknown code becomes HKK.
POLICIES = {"hkk", "wow", "blue_moon", "loser_chooses"}


def fold(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    for t in Tournament.objects.filter(match_structure={}).iterator():
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


def unfold(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    for t in Tournament.objects.exclude(match_structure={}).iterator():
        data = t.match_structure
        t.first_player_policy = str(data.get("policy") or "hkk")
        t.games_per_match = int(data.get("games_per_match") or 3)
        t.stop_at_two_wins = bool(data.get("ends_when_decided"))
        t.save(update_fields=["first_player_policy", "games_per_match", "stop_at_two_wins"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0015_game_details_reported"),
    ]

    operations = [migrations.RunPython(fold, unfold)]
