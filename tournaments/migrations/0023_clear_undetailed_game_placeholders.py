"""Games entered as part of a match score (``details_reported`` false: a result slip, a
player's one-choice report) stored placeholder right holders and first players; they were
never reported, so they are emptied (issue 21). The winners, and so the standings and every
tiebreaker, are unchanged. Reverse: nothing to restore (the placeholders were not facts), so
a reverse migration needs no data step; 0018's reverse then refuses while empty values exist.
"""

from __future__ import annotations

from django.db import migrations


def clear_placeholders(apps, schema_editor):
    Game = apps.get_model("tournaments", "Game")
    Game.objects.filter(details_reported=False).update(
        right_holder=None, first=None, chosen_by=None, waived=False
    )


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0022_undetailed_games_without_holder")]

    operations = [migrations.RunPython(clear_placeholders, migrations.RunPython.noop)]
