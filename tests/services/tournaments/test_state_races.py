"""Results racing the state they depend on, on PostgreSQL: a slip, one game, a player's report
or a judge's confirmation against unpublishing or discarding its round, and a correction
against finishing the event.

Each race is made deterministic: one side runs in a thread and keeps its transaction (and its
locks) open for a second after its work is done; the other side starts meanwhile. The test
shows that the second side waited for the first (the round row is the lock both take: results
``FOR SHARE``, state changes ``FOR UPDATE``), then saw what the first committed: the late write
is refused with the right error, or the result landed first and the state change refuses to
delete it (``round_has_results`` with the counts). Every race ends with 0 lost rows: each game
a caller was told is recorded is in the database or, deleted on purpose, in the action log.
A last test runs plain concurrent pairs (no pause) many times and counts lost rows.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections, transaction

from hkk_tournament.errors import Conflict, InvalidState, NotFound
from tests.factories import UserFactory, make_tournament
from tournaments import selectors, services
from tournaments.models import (
    Game,
    Match,
    Player,
    ResultReport,
    Round,
    Tournament,
    TournamentAction,
)
from tournaments.permissions import SYSTEM

pytestmark = [
    pytest.mark.postgres_only,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="needs PostgreSQL row locks and concurrent connections (SQLite serialises writers)",
    ),
]

HOLD = 1.0  # seconds the first side keeps its transaction open once its work is done
REPEAT = range(2)  # each deterministic race runs twice (fresh event each time)


def _race(first: Callable[[], Any], second: Callable[[], Any]) -> tuple[Any, Any, float]:
    """Run ``first()`` in a thread inside a transaction kept open ``HOLD`` seconds after it
    returned; meanwhile run ``second()`` here. Returns both outcomes (result or exception)
    and the seconds ``second()`` took."""
    done, release = threading.Event(), threading.Event()
    box: dict[str, Any] = {}

    def run_first() -> None:
        try:
            with transaction.atomic():
                box["first"] = first()
                done.set()
                release.wait(timeout=10)
        except Exception as exc:  # the test inspects it
            box["first"] = exc
        finally:
            done.set()
            connections.close_all()

    thread = threading.Thread(target=run_first)
    thread.start()
    assert done.wait(timeout=10)
    assert not isinstance(box.get("first"), Exception), box
    timer = threading.Timer(HOLD, release.set)
    timer.start()
    started = time.monotonic()
    try:
        second_outcome: Any = second()
    except Exception as exc:  # the test inspects it
        second_outcome = exc
    waited = time.monotonic() - started
    release.set()
    timer.cancel()
    thread.join(timeout=15)
    return box["first"], second_outcome, waited


def _published_table() -> tuple[Tournament, Round, Match]:
    """A running event of two entries with round 1 published: one table, nothing recorded."""
    t, _ = make_tournament(entries=2, decks=False)
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t)
    )
    return t, rnd, Match.objects.get(round=rnd)


def _games(m: Match) -> list[dict[str, Any]]:
    a, b = m.entry_a_id, m.entry_b_id
    return [
        {"number": 1, "winner": a, "first": a},
        {"number": 2, "winner": b, "first": b},
        {"number": 3, "winner": a, "first": a},
    ]


def _writer(kind: str, m: Match) -> tuple[Callable[[], Any], int]:
    """One result write to ``m`` and the game rows it records when it succeeds: a judge's slip,
    one game, a player's report (waiting for the opponent: no game) or a judge confirming a
    report filed now."""
    a = m.entry_a_id
    if kind == "slip":
        return (
            lambda: services.match_result_record(
                actor=SYSTEM, match=Match.objects.get(pk=m.pk), result="2-1-0", die_roll_winner=a
            ),
            3,
        )
    if kind == "game":
        return (
            lambda: services.game_record(
                actor=SYSTEM,
                match=Match.objects.get(pk=m.pk),
                number=1,
                winner_entry=a,
                first_entry=a,
                right_holder_entry=a,
            ),
            1,
        )
    user = UserFactory()
    Player.objects.filter(memberships__entry_id=a).update(user=user)
    if kind == "report":
        return (
            lambda: services.result_report_submit(
                match=Match.objects.get(pk=m.pk), entry=a, actor=user, games=_games(m)
            ),
            0,
        )
    report = services.result_report_submit(match=m, entry=a, actor=user, games=_games(m))
    return lambda: services.result_report_confirm(report=report, actor=SYSTEM), 3


def _archived_games(t: Tournament) -> int:
    return sum(
        len(table["games"])
        for action in TournamentAction.objects.filter(tournament=t)
        for table in action.params.get("deleted_results", [])
    )


def _assert_nothing_lost(t: Tournament, recorded: int) -> None:
    """Every game a successful write recorded is in the database or in the action log."""
    stored = Game.objects.filter(match__round__tournament=t).count()
    assert stored + _archived_games(t) == recorded


@pytest.mark.parametrize("repeat", REPEAT)
@pytest.mark.parametrize("kind", ["slip", "game", "report", "confirm"])
def test_a_result_being_written_keeps_its_round_published(kind, repeat):
    """The result holds its round: the unpublish waits for it, then sees it and refuses with
    the counts of what it would delete; the result stays."""
    t, rnd, m = _published_table()
    write, games = _writer(kind, m)

    def unpublish():
        return services.round_unpublish(
            actor=SYSTEM, round=Round.objects.get(pk=rnd.pk), reason="wrong tables"
        )

    written, refused, waited = _race(write, unpublish)
    assert not isinstance(written, Exception), written
    assert isinstance(refused, Conflict) and refused.code == "round_has_results", refused
    assert refused.params["games"] == games
    assert refused.params["reports"] == (1 if kind in ("report", "confirm") else 0)
    assert str(games) in str(refused.message)
    assert waited >= 0.8 * HOLD  # it waited for the result's transaction
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.PUBLISHED
    assert Game.objects.filter(match=m).count() == games
    _assert_nothing_lost(t, games)


@pytest.mark.parametrize("repeat", REPEAT)
@pytest.mark.parametrize("kind", ["slip", "game", "report", "confirm"])
def test_a_result_after_an_unpublish_is_refused(kind, repeat):
    """The unpublish holds the round: the result waits for it, then sees the draft round and
    is refused (``round_not_published``); nothing is written into the draft."""
    t, rnd, m = _published_table()
    write, _games_written = _writer(kind, m)  # "confirm": the report is filed already

    def unpublish():
        return services.round_unpublish(
            actor=SYSTEM,
            round=Round.objects.get(pk=rnd.pk),
            reason="wrong tables",
            delete_results=True,
        )

    unpublished, refused, waited = _race(unpublish, write)
    assert isinstance(unpublished, Round) and unpublished.status == Round.Status.DRAFT
    if kind == "confirm":  # the organiser deleted the report with the round's results
        assert isinstance(refused, NotFound) and refused.code == "report_not_found", refused
    else:
        assert isinstance(refused, InvalidState), refused
        assert refused.code == "round_not_published"
    assert waited >= 0.8 * HOLD
    assert not Game.objects.filter(match=m).exists()
    assert not ResultReport.objects.filter(match=m).exists()  # deleted on purpose, archived
    _assert_nothing_lost(t, 0)


@pytest.mark.parametrize("repeat", REPEAT)
@pytest.mark.parametrize("kind", ["slip", "game", "report"])
def test_a_result_during_a_discard_finds_no_table(kind, repeat):
    """A discard (of the round unpublished just before) holds the round: the result waits,
    then finds the round gone (``match_not_found``), never writes into it."""
    t, rnd, m = _published_table()
    write, _games_written = _writer(kind, m)
    services.round_unpublish(actor=SYSTEM, round=rnd, reason="wrong tables")

    def discard():
        return services.round_discard(
            actor=SYSTEM, round=Round.objects.get(pk=rnd.pk), reason="pair again"
        )

    discarded, refused, waited = _race(discard, write)
    assert discarded is None
    assert isinstance(refused, NotFound) and refused.code == "match_not_found", refused
    assert waited >= 0.8 * HOLD
    assert not Round.objects.filter(pk=rnd.pk).exists()
    _assert_nothing_lost(t, 0)


def _finished_event() -> tuple[Tournament, Match]:
    """A running event whose only round is finished (2–1 recorded at its one table)."""
    t, rnd, m = _published_table()
    services.match_result_record(
        actor=SYSTEM, match=m, result="2-1-0", die_roll_winner=m.entry_a_id
    )
    services.round_finish(actor=SYSTEM, round=rnd)
    return t, m


def _correct_game_1(m: Match) -> Callable[[], Game]:
    """A judge's correction: game 1 (a win of seat B on the slip) becomes a win of seat A, the
    die-roll winner, who went first. Game 1, since a later game's right cannot be taken from
    a slip's games, whose details were not reported."""
    return lambda: services.game_correct(
        actor=SYSTEM,
        game=selectors.game_at(match=Match.objects.get(pk=m.pk), number=1),
        winner_entry=m.entry_a_id,
        first_entry=m.entry_a_id,
        reason="slip misread",
    )


@pytest.mark.parametrize("repeat", REPEAT)
def test_a_correction_being_written_lands_before_the_event_finishes(repeat):
    """The correction holds its round: finishing the event waits for it, then finishes with
    the corrected game; a correction after that is refused (``tournament_finished``)."""
    t, m = _finished_event()
    corrected, finished, waited = _race(
        _correct_game_1(m), lambda: services.tournament_finish(actor=SYSTEM, tournament=t)
    )
    assert isinstance(corrected, Game)
    assert isinstance(finished, Tournament) and finished.status == Tournament.Status.FINISHED
    assert waited >= 0.8 * HOLD
    assert Game.objects.get(match=m, number=1).winner_id == m.entry_a_id
    with pytest.raises(InvalidState) as late:
        _correct_game_1(m)()
    assert late.value.code == "tournament_finished"


@pytest.mark.parametrize("repeat", REPEAT)
def test_a_correction_after_the_event_finished_is_refused(repeat):
    """Finishing the event holds every round: the correction waits, then sees the finished
    event and is refused (``tournament_finished``); the game is unchanged."""
    t, m = _finished_event()
    finished, refused, waited = _race(
        lambda: services.tournament_finish(actor=SYSTEM, tournament=t), _correct_game_1(m)
    )
    assert isinstance(finished, Tournament)
    assert isinstance(refused, InvalidState) and refused.code == "tournament_finished", refused
    assert waited >= 0.8 * HOLD
    assert Game.objects.get(match=m, number=1).winner_id == m.entry_b_id


def _plain_pair(write: Callable[[], Any], fix: Callable[[], Any]) -> tuple[Any, Any]:
    """``write()`` and ``fix()`` in two threads released together, no pause."""
    barrier = threading.Barrier(2)
    out: list[Any] = [None, None]

    def worker(i: int, fn: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=10)
            out[i] = fn()
        except Exception as exc:  # the test inspects it
            out[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, args=(i, fn)) for i, fn in enumerate((write, fix))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return out[0], out[1]


@pytest.mark.parametrize("kind", ["slip", "game", "report"])
def test_plain_concurrent_pairs_lose_nothing(kind):
    """Eight plain concurrent pairs per writer: the result against an organiser who unpublishes
    the round and discards it. Before the round lock, 15 of 20 slip pairs lost their games.
    Now either the result lands first and the unpublish is refused, or the result is refused:
    no result ever sits in a draft round, and 0 rows are lost."""
    for _ in range(8):
        t, rnd, m = _published_table()
        write, games = _writer(kind, m)

        def fix(rnd: Round = rnd) -> None:
            services.round_unpublish(
                actor=SYSTEM, round=Round.objects.get(pk=rnd.pk), reason="wrong tables"
            )
            services.round_discard(
                actor=SYSTEM, round=Round.objects.get(pk=rnd.pk), reason="pair again"
            )

        written, fixed = _plain_pair(write, fix)
        landed = not isinstance(written, Exception)
        if landed:
            assert isinstance(fixed, Conflict) and fixed.code == "round_has_results", fixed
            assert Round.objects.get(pk=rnd.pk).status == Round.Status.PUBLISHED
            kept = ResultReport.objects.filter(match=m).count() if kind == "report" else None
            assert kept is None or kept == 1
        else:
            assert isinstance(written, InvalidState | NotFound), written
            assert fixed is None
        _assert_nothing_lost(t, games if landed else 0)
