"""Concurrent writes on PostgreSQL: two judges recording the same game or the same slip, two
organisers pairing the same round, two players reporting their match at the same instant, and
results of different tables (games, slips, confirmed reports) that never wait for each other.
Each thread has its own database connection; row locks and unique constraints must leave exactly
one result and turn the other request into a ``Conflict`` (or, for reports, let the second see
the first)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest
from django.db import connection, connections, transaction

from hkk_tournament.errors import Conflict
from tests.factories import UserFactory, make_tournament
from tournaments import services
from tournaments.models import Game, Match, Player, ResultReport, Round
from tournaments.permissions import SYSTEM
from tournaments.services import reports as reports_service

pytestmark = [
    pytest.mark.postgres_only,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="needs PostgreSQL row locks and concurrent connections (SQLite serialises writers)",
    ),
]


def run_concurrently(fn: Callable[[], object], n: int = 2) -> list[object]:
    """Run ``fn()`` in ``n`` threads started together; return their results or exceptions."""
    barrier = threading.Barrier(n)
    outcomes: list[object] = [None] * n

    def worker(i: int) -> None:
        try:
            barrier.wait(timeout=10)
            outcomes[i] = fn()
        except Exception as exc:  # any error: the test inspects what each thread got
            outcomes[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    return outcomes


def test_two_judges_record_the_same_game_at_once():
    t, _ = make_tournament(entries=2, decks=False)
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t)
    )
    match = Match.objects.get(round=rnd)
    a, b = match.entry_a_id, match.entry_b_id
    services.match_set_die_roll(actor=SYSTEM, match=match, winner_entry=a)
    winners = iter([a, b])
    lock = threading.Lock()

    def record():
        with lock:
            winner = next(winners)
        return services.game_record(
            actor=SYSTEM,
            match=Match.objects.get(pk=match.pk),
            number=1,
            winner_entry=winner,
            first_entry=a,
        )

    outcomes = run_concurrently(record)
    games = [o for o in outcomes if isinstance(o, Game)]
    conflicts = [o for o in outcomes if isinstance(o, Conflict)]
    assert len(games) == 1 and len(conflicts) == 1, outcomes
    assert conflicts[0].code == "game_already_recorded"
    stored = Game.objects.get(match=match)
    assert Game.objects.filter(match=match).count() == 1
    assert stored.winner_id == games[0].winner_id  # the winner's write is the one kept


def test_pairing_the_same_round_twice_at_once():
    t, entries = make_tournament(entries=6, decks=False)
    t = services.tournament_start(actor=SYSTEM, tournament=t)

    def pair():
        return services.round_pair_next(actor=SYSTEM, tournament=t)

    outcomes = run_concurrently(pair)
    rounds = [o for o in outcomes if isinstance(o, Round)]
    conflicts = [o for o in outcomes if isinstance(o, Conflict)]
    assert len(rounds) == 1 and len(conflicts) == 1, outcomes
    assert Round.objects.filter(tournament=t).count() == 1
    assert Match.objects.filter(round__tournament=t).count() == 3


def test_both_players_report_the_same_result_at_once(monkeypatch):
    """The match row lock serialises the two reports: the second sees the first, so the
    result counts exactly once (two accepted reports, three games), never two pending ones.
    A pause inside the service (after its checks, before it looks for the opponent's report)
    makes the two requests overlap for sure; without the lock both would stay pending."""
    validate = reports_service._check_rules

    def slow_validate(*args, **kwargs):
        result = validate(*args, **kwargs)
        time.sleep(0.5)
        return result

    monkeypatch.setattr(reports_service, "_check_rules", slow_validate)
    t, _ = make_tournament(entries=2, decks=False)
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t)
    )
    match = Match.objects.get(round=rnd)
    a, b = match.entry_a_id, match.entry_b_id
    users = {}
    for entry_id, name in ((a, "anna"), (b, "bela")):
        users[entry_id] = UserFactory(username=name)
        Player.objects.filter(memberships__entry_id=entry_id).update(user=users[entry_id])
    games = [
        {"number": 1, "winner": a, "first": a},
        {"number": 2, "winner": b, "first": b},
        {"number": 3, "winner": a, "first": a},
    ]
    sides = iter([a, b])
    lock = threading.Lock()

    def report():
        with lock:
            side = next(sides)
        return services.result_report_submit(
            match=Match.objects.get(pk=match.pk), entry=side, actor=users[side], games=games
        )

    outcomes = run_concurrently(report)
    assert all(isinstance(o, ResultReport) for o in outcomes), outcomes
    statuses = sorted(ResultReport.objects.filter(match=match).values_list("status", flat=True))
    assert statuses == ["accepted", "accepted"]
    stored = Game.objects.filter(match=match).order_by("number")
    assert [g.winner_id for g in stored] == [a, b, a]


def _two_tables() -> tuple[Match, Match]:
    """A published round of four entries (two tables), die rolls recorded."""
    t, _ = make_tournament(entries=4, decks=False)
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t)
    )
    x, y = Match.objects.filter(round=rnd).order_by("table")
    for m in (x, y):
        services.match_set_die_roll(actor=SYSTEM, match=m, winner_entry=m.entry_a_id)
    return x, y


def _hold_a_result(match: Match, recorded: threading.Event, release: threading.Event) -> None:
    """Record game 1 of ``match`` and keep the transaction (and its locks) open until
    ``release`` is set (at most 10 s)."""
    try:
        with transaction.atomic():
            services.game_record(
                actor=SYSTEM,
                match=Match.objects.get(pk=match.pk),
                number=1,
                winner_entry=match.entry_a_id,
                first_entry=match.entry_a_id,
            )
            recorded.set()
            release.wait(timeout=10)
    finally:
        connections.close_all()


def test_two_different_matches_are_recorded_at_once():
    """A result locks only its match row: while one judge's transaction on table 1 is still
    open, another judge records table 2 without waiting."""
    x, y = _two_tables()
    recorded, release = threading.Event(), threading.Event()
    holder = threading.Thread(target=_hold_a_result, args=(x, recorded, release))
    holder.start()
    try:
        assert recorded.wait(timeout=10)
        started = time.monotonic()
        services.game_record(
            actor=SYSTEM,
            match=Match.objects.get(pk=y.pk),
            number=1,
            winner_entry=y.entry_b_id,
            first_entry=y.entry_a_id,
        )
        waited = time.monotonic() - started
        assert not release.is_set()  # table 1's transaction was still open meanwhile
    finally:
        release.set()
        holder.join(timeout=15)
    assert waited < 2.0
    assert Game.objects.filter(match__in=[x, y]).count() == 2


def test_the_same_match_is_still_serialised():
    """A second write to the same match waits for the first transaction, then sees its game
    (``game_already_recorded``) instead of recording it again."""
    x, _y = _two_tables()
    recorded, release = threading.Event(), threading.Event()
    holder = threading.Thread(target=_hold_a_result, args=(x, recorded, release))
    holder.start()
    timer = threading.Timer(1.0, release.set)
    try:
        assert recorded.wait(timeout=10)
        timer.start()
        started = time.monotonic()
        with pytest.raises(Conflict) as caught:
            services.game_record(
                actor=SYSTEM,
                match=Match.objects.get(pk=x.pk),
                number=1,
                winner_entry=x.entry_b_id,
                first_entry=x.entry_a_id,
            )
        waited = time.monotonic() - started
    finally:
        release.set()
        timer.cancel()
        holder.join(timeout=15)
    assert caught.value.code == "game_already_recorded"
    assert waited >= 0.8  # it waited for the first transaction to commit
    assert Game.objects.filter(match=x).count() == 1


def _record(kind: str, match: Match) -> Callable[[], object]:
    """One judge's write to ``match``: a whole slip, one game, or confirming a player's report
    (the report is filed now, confirmed when the returned call runs)."""
    a, b = match.entry_a_id, match.entry_b_id
    if kind == "slip":
        return lambda: services.match_result_record(
            actor=SYSTEM, match=Match.objects.get(pk=match.pk), result="2-1-0"
        )
    if kind == "game":
        return lambda: services.game_record(
            actor=SYSTEM,
            match=Match.objects.get(pk=match.pk),
            number=1,
            winner_entry=a,
            first_entry=a,
        )
    user = UserFactory()
    Player.objects.filter(memberships__entry_id=a).update(user=user)
    report = services.result_report_submit(
        match=match,
        entry=a,
        actor=user,
        games=[
            {"number": 1, "winner": a, "first": a},
            {"number": 2, "winner": b, "first": b},
            {"number": 3, "winner": a, "first": a},
        ],
    )
    return lambda: services.result_report_confirm(report=report, actor=SYSTEM)


def _hold(record: Callable[[], object], recorded: threading.Event, release: threading.Event):
    """Run ``record()`` and keep its transaction (and its locks) open until ``release``."""
    try:
        with transaction.atomic():
            record()
            recorded.set()
            release.wait(timeout=10)
    finally:
        connections.close_all()


def _never_waiting(record: Callable[[], object]) -> object:
    """``record()`` in a transaction that refuses to wait for any row lock: a lock held by
    another transaction raises ``OperationalError`` (lock timeout) instead of waiting."""
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL lock_timeout = '1s'")
        return record()


@pytest.mark.parametrize(
    ("held", "other"),
    [("slip", "slip"), ("game", "slip"), ("slip", "game"), ("slip", "confirm")],
)
def test_a_slip_locks_only_its_match(held, other):
    """While table 1's result (a slip or one game) is recorded in a transaction still open,
    table 2 is recorded (slip, game or a confirmed player report) without waiting for any of
    its locks: neither takes the tournament's row."""
    x, y = _two_tables()
    on_y = _record(other, y)
    recorded, release = threading.Event(), threading.Event()
    holder = threading.Thread(target=_hold, args=(_record(held, x), recorded, release))
    holder.start()
    try:
        assert recorded.wait(timeout=10)
        _never_waiting(on_y)
        assert not release.is_set() and holder.is_alive()  # table 1 was still open meanwhile
    finally:
        release.set()
        holder.join(timeout=15)
    assert Game.objects.filter(match=y).count() == (1 if other == "game" else 3)
    assert Game.objects.filter(match=x).count() == (1 if held == "game" else 3)


def test_two_slips_of_the_same_match_record_it_once():
    """The second slip of a match waits for the first one's transaction, then finds its games
    (``games_already_recorded``), never a duplicate game."""
    x, _y = _two_tables()
    recorded, release = threading.Event(), threading.Event()
    holder = threading.Thread(target=_hold, args=(_record("slip", x), recorded, release))
    holder.start()
    timer = threading.Timer(0.5, release.set)
    try:
        assert recorded.wait(timeout=10)
        timer.start()
        with pytest.raises(Conflict) as caught:
            services.match_result_record(
                actor=SYSTEM, match=Match.objects.get(pk=x.pk), result="0-2-0"
            )
    finally:
        release.set()
        timer.cancel()
        holder.join(timeout=15)
    assert caught.value.code == "games_already_recorded"
    assert list(Game.objects.filter(match=x).values_list("winner_id", flat=True)) == [
        x.entry_b_id,
        x.entry_a_id,
        x.entry_a_id,
    ]
