"""Drop ``Tournament``'s mirror columns of ``match_structure`` (folded into it by 0016): the
first-player policy, games per match and "stop when a player has won the match". The policy
column gets a default first, so the reverse can add it back to a table that has rows."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0016_fold_structure_mirrors_into_match_structure"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="tournament",
            name="tournament_games_per_match_positive",
        ),
        migrations.AlterField(
            model_name="tournament",
            name="first_player_policy",
            field=models.CharField(
                default="hkk", max_length=32, verbose_name="first-player policy"
            ),
        ),
        migrations.RemoveField(
            model_name="tournament",
            name="first_player_policy",
        ),
        migrations.RemoveField(
            model_name="tournament",
            name="games_per_match",
        ),
        migrations.RemoveField(
            model_name="tournament",
            name="stop_at_two_wins",
        ),
    ]
