"""Migration 0023 empties the placeholder holders of games entered at match level (issue 21):
the winners, and so the standings and tiebreakers, stay as they were."""

from __future__ import annotations

from importlib import import_module

import pytest
from django.apps import apps

from tests.factories import make_tournament
from tournaments import services
from tournaments.models import Game
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db


def test_the_migration_clears_placeholders_and_keeps_the_standings() -> None:
    t, _ = make_tournament(entries=4, decks=False)
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t, seed=1)
    )
    slip, detailed = list(rnd.matches.filter(entry_b__isnull=False).order_by("table"))
    services.match_result_record(
        actor=SYSTEM, match=slip, result="2-1-0", die_roll_winner=slip.entry_a_id
    )
    services.game_record(
        actor=SYSTEM,
        match=detailed,
        number=1,
        winner_entry=detailed.entry_a_id,
        first_entry=detailed.entry_a_id,
        right_holder_entry=detailed.entry_a_id,  # the die roll's winner
    )
    # as stored before: placeholder holders on the slip's games
    Game.objects.filter(match=slip).update(
        right_holder=slip.entry_a_id, first=slip.entry_a_id, chosen_by=None
    )
    before = services.standings_rows(tournament=t)
    import_module(
        "tournaments.migrations.0023_clear_undetailed_game_placeholders"
    ).clear_placeholders(apps, None)
    cleared = Game.objects.filter(match=slip).values_list("right_holder", "first")
    assert len(cleared) == 3 and all(h is None and f is None for h, f in cleared)
    kept = Game.objects.get(match=detailed)
    assert (kept.right_holder_id, kept.first_id) == (detailed.entry_a_id, detailed.entry_a_id)
    assert services.standings_rows(tournament=t) == before
