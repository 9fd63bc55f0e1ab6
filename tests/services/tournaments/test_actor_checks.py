"""Services check who acts, without HTTP: every state-changing service takes ``actor`` and
refuses the wrong one with ``hkk_tournament.errors.PermissionDenied`` (the predicates of
``tournaments.permissions``), and nothing is written; ``SYSTEM`` (commands, tasks) passes."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from hkk_tournament.errors import PermissionDenied
from tests.api.tournaments.permission_world import (
    JUDGE,
    OTHER_JUDGE,
    OWNER,
    PLAYER,
    RUN,
    World,
    build,
    hkk_games,
    link,
)
from tournaments import services
from tournaments.models import Entry, Game, Match, ResultReport
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db


def _other_match(w: World) -> Match:
    other = w.match.round.matches.exclude(pk=w.match.pk).order_by("table").first()
    assert other is not None and other.entry_b_id is not None
    return other


def _record_first_game(actor, match: Match) -> Game:
    return services.game_record(
        actor=actor,
        match=match,
        number=1,
        winner_entry=match.entry_a_id,
        first_entry=match.entry_a_id,
        right_holder_entry=match.entry_a_id,
    )


@pytest.fixture
def world() -> World:
    return build(RUN)


def test_a_player_may_not_record_another_tables_result(world):
    other = _other_match(world)
    player = world.users[PLAYER]
    with pytest.raises(PermissionDenied) as slip:
        services.match_result_record(actor=player, match=other, result="2-0")
    assert slip.value.code == "permission_denied"
    with pytest.raises(PermissionDenied):
        services.result_report_submit(
            actor=player, match=other, entry=other.entry_a_id, games=hkk_games(other)
        )
    with pytest.raises(PermissionDenied):
        _record_first_game(player, world.match)  # not even their own table: that is a report
    assert not Game.objects.filter(match__round=world.match.round).exists()
    assert not ResultReport.objects.filter(match=other).exists()


def test_a_judge_of_another_event_may_not_record_or_extend(world):
    judge = world.users[OTHER_JUDGE]
    with pytest.raises(PermissionDenied) as refused:
        _record_first_game(judge, world.match)
    assert refused.value.code == "permission_denied"
    with pytest.raises(PermissionDenied):
        services.round_clock_extend(
            actor=judge, round=world.match.round, minutes=3, table=world.match.table
        )
    with pytest.raises(PermissionDenied):
        services.round_publish(actor=judge, round=world.match.round)
    assert not Game.objects.filter(match=world.match).exists()
    world.match.refresh_from_db()
    assert world.match.extension_seconds == 0


def test_anonymous_is_refused_everywhere(world):
    anonymous = AnonymousUser()
    rnd = world.match.round
    for call in (
        lambda: services.round_clock_start(actor=anonymous, round=rnd),
        lambda: services.round_finish(actor=anonymous, round=rnd),
        lambda: services.match_result_record(actor=anonymous, match=world.match, result="2-0"),
        lambda: services.tournament_finish(actor=anonymous, tournament=world.t),
        lambda: services.staff_remove(actor=anonymous, tournament=world.t, user=world.users[JUDGE]),
    ):
        with pytest.raises(PermissionDenied):
            call()
    rnd.refresh_from_db()
    assert rnd.clock_started_at is None


def test_the_clock_service_decides_who_may_extend_what(world):
    """Judges may extend one table, never their own; the whole round is the organisers'."""
    rnd, judge = world.match.round, world.users[JUDGE]
    with pytest.raises(PermissionDenied):
        services.round_clock_start(actor=judge, round=rnd)
    services.round_clock_start(actor=world.users[OWNER], round=rnd)
    with pytest.raises(PermissionDenied):
        services.round_clock_extend(actor=judge, round=rnd, minutes=3)
    services.round_clock_extend(actor=judge, round=rnd, minutes=3, table=world.match.table)
    link(Entry.objects.get(pk=world.b), judge)  # the judge now plays at this table
    with pytest.raises(PermissionDenied) as own:
        services.round_clock_extend(actor=judge, round=rnd, minutes=3, table=world.match.table)
    assert own.value.code == "own_match"
    world.match.refresh_from_db()
    assert world.match.extension_seconds == 180


def test_the_system_actor_passes_and_is_stored_as_nobody(world):
    game = _record_first_game(SYSTEM, world.match)
    assert game.recorded_by is None
    services.round_clock_start(actor=SYSTEM, round=world.match.round)
