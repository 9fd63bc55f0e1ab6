"""Pairing reads the stored standings only when they are provably current.

Every write that changes what the standings are computed from bumps the snapshot's
``inputs_generation`` in its own transaction; a recompute stores the generation it read before
the results as ``rows_generation``; pairing uses the stored rows only when the two are equal
(``services.standings_current_ranks``), else computes them as before. These tests show that
each such write makes the snapshot stale, that pairing with a current snapshot gives exactly the
pairings computed from the results, that a stale snapshot is never read, and (on PostgreSQL)
that a recompute racing a write never leaves stale rows marked current
(docs/rules.md §14 (Swiss pairing and byes), §15 (Match points and tiebreakers)).
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from django.db import connection, connections, transaction

from tests.factories import make_tournament
from tests.services.tournaments.helpers import play
from tournaments import selectors, services
from tournaments.models import Match, StandingsSnapshot, Tournament
from tournaments.permissions import SYSTEM
from tournaments.services import jobs
from tournaments.services import standings as standings_service


def _played(t: Tournament, rounds: int, rng: random.Random, drop_after: int = 0) -> Tournament:
    """Play ``rounds`` rounds of ``t`` (started here) with random results and draws; with
    ``drop_after`` an entry drops after that round."""
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    for number in range(1, rounds + 1):
        rnd = services.round_publish(
            actor=SYSTEM,
            round=services.round_pair_next(actor=SYSTEM, tournament=t, seed=rng.getrandbits(32)),
        )
        for m in rnd.matches.order_by("table"):
            if m.entry_b_id is not None:
                play(m, [rng.choice(("a", "b", "a", "b", None)) for _ in range(3)])
        services.round_finish(actor=SYSTEM, round=rnd)
        if number == drop_after:
            services.entry_drop(entry=t.entries.order_by("id")[rng.randrange(t.entries.count())])
    t.refresh_from_db()
    return t


def _pair_and_roll_back(t: Tournament, seed: int) -> list[tuple[int, int, int | None]]:
    """The tables ``round_pair_next`` draws for ``t`` with ``seed``; nothing is kept."""
    with transaction.atomic():
        rnd = services.round_pair_next(actor=SYSTEM, tournament=t, seed=seed)
        tables: list[tuple[int, int, int | None]] = [
            (table, a, b)
            for table, a, b in Match.objects.filter(round=rnd)
            .order_by("table")
            .values_list("table", "entry_a_id", "entry_b_id")
        ]
        transaction.set_rollback(True)
    return tables


def _current(t: Tournament) -> bool:
    return services.standings_current_ranks(tournament_id=t.pk) is not None


def _no_tallies(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("the results were read although the snapshot is current")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("seed", "chain", "drop_after"),
    [
        (3, ["buchholz", "game_points"], 0),
        (11, ["omw", "gw", "ogw", "head_to_head"], 1),
        (29, ["omw", "gw", "ogw"], 2),
    ],
)
def test_pairing_from_a_current_snapshot_equals_pairing_from_the_results(
    monkeypatch, seed, chain, drop_after
):
    rng = random.Random(seed)
    t, _ = make_tournament(entries=11, decks=False, planned_rounds=6, tiebreakers=chain)
    t = _played(t, 1, rng)
    for _ in range(3):  # rounds 2 to 4, each compared before it is played
        services.standings_refresh(tournament_id=t.pk)
        assert _current(t)
        pair_seed = rng.getrandbits(32)
        with monkeypatch.context() as m:
            m.setattr(selectors, "match_tallies", _no_tallies)  # the snapshot is read instead
            from_snapshot = _pair_and_roll_back(t, pair_seed)
        with transaction.atomic():
            services.standings_inputs_changed(tournament_id=t.pk)  # stale: computed instead
            assert not _current(t)
            from_results = _pair_and_roll_back(t, pair_seed)
            transaction.set_rollback(True)
        assert from_snapshot == from_results
        rows = {
            r["entry"]: (r["match_points"], r["rank"])
            for r in services.standings_rows(tournament=t)
        }
        assert services.pairing_standings(t) == rows
        t = _played_one_more(t, rng, drop=drop_after and t.rounds.count() == drop_after)


def _played_one_more(t: Tournament, rng: random.Random, *, drop: bool) -> Tournament:
    rnd = services.round_publish(
        actor=SYSTEM,
        round=services.round_pair_next(actor=SYSTEM, tournament=t, seed=rng.getrandbits(32)),
    )
    for m in rnd.matches.order_by("table"):
        if m.entry_b_id is not None:
            play(m, [rng.choice(("a", "b", None)) for _ in range(3)])
    services.round_finish(actor=SYSTEM, round=rnd)
    if drop:
        services.entry_drop(entry=t.entries.filter(dropped_after_round=None).order_by("id")[0])
    t.refresh_from_db()
    return t


@pytest.mark.django_db
def test_a_stale_snapshot_is_never_read():
    rng = random.Random(5)
    t, _ = make_tournament(entries=8, decks=False, planned_rounds=5)
    t = _played(t, 2, rng)
    services.standings_refresh(tournament_id=t.pk)
    # Rows nobody computed, with the generations equal: read as they are (the path is taken).
    forged = [
        {**r, "rank": 1, "match_points": 99}
        for r in selectors.snapshot_rows(StandingsSnapshot.objects.get(tournament=t))
    ]
    StandingsSnapshot.objects.filter(tournament=t).update(rows=forged)
    assert set(services.pairing_standings(t).values()) == {(99, 1)}
    with transaction.atomic():
        services.standings_inputs_changed(tournament_id=t.pk)
    expected = {r.entry: (r.match_points, r.rank) for r in services.standings_compute(tournament=t)}
    assert services.pairing_standings(t) == expected
    # A snapshot listing other entries than the event's is not read either.
    services.standings_refresh(tournament_id=t.pk)
    snap = StandingsSnapshot.objects.get(tournament=t)
    StandingsSnapshot.objects.filter(pk=snap.pk).update(rows=snap.rows[1:])
    assert _current(t)
    assert services.pairing_standings(t) == expected


@pytest.mark.django_db
@pytest.mark.parametrize(
    "write",
    [
        "pair_with_bye",
        "publish",
        "result",
        "game",
        "finish",
        "drop",
        "late_entry",
        "unpublish",
        "discard",
    ],
)
def test_every_standings_write_makes_the_snapshot_stale(write):
    t, entries = make_tournament(
        entries=7, decks=False, planned_rounds=4, late_entry_cutoff_round=4
    )
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    services.standings_refresh(tournament_id=t.pk)
    assert _current(t)
    rnd = services.round_pair_next(actor=SYSTEM, tournament=t, seed=1)  # 7 entries: a bye
    if write != "pair_with_bye":
        services.standings_refresh(tournament_id=t.pk)
        assert _current(t)
        rnd = services.round_publish(actor=SYSTEM, round=rnd)
    if write not in ("pair_with_bye", "publish"):
        services.standings_refresh(tournament_id=t.pk)
        match = rnd.matches.filter(entry_b__isnull=False).order_by("table").first()
        if write == "result":
            services.match_result_record(
                actor=SYSTEM, match=match, result="2-1-0", die_roll_winner=match.entry_a_id
            )
        elif write == "finish":
            for m in rnd.matches.filter(entry_b__isnull=False):
                services.match_result_record(
                    actor=SYSTEM, match=m, result="2-0-0", die_roll_winner=m.entry_a_id
                )
            services.standings_refresh(tournament_id=t.pk)
            services.round_finish(actor=SYSTEM, round=rnd)
        elif write == "drop":
            services.entry_drop(entry=entries[0])
        elif write == "game":
            play(match, ["a"])
        elif write == "late_entry":
            services.entry_register_late(tournament=t, player="Késő Kata")
        elif write == "unpublish":
            services.round_unpublish(actor=SYSTEM, round=rnd, reason="wrong tables")
        else:  # a draft round whose tables had results (deleted by unpublishing) is discarded
            play(match, ["a", "a"])
            rnd = services.round_unpublish(
                actor=SYSTEM, round=rnd, reason="wrong tables", delete_results=True
            )
            services.standings_refresh(tournament_id=t.pk)
            assert _current(t)
            services.round_discard(actor=SYSTEM, round=rnd, reason="pair again")
    assert not _current(t)
    services.standings_refresh(tournament_id=t.pk)
    assert _current(t)


@pytest.mark.django_db
@pytest.mark.parametrize("change", ["event", "result"])
def test_a_write_after_the_recompute_read_its_counters_leaves_the_rows_stale(monkeypatch, change):
    """The recompute reads the counters before the results: a change that lands while it
    computes (here: right after the rows are computed; a write under the tournament lock, or a
    result bumping its match's version) keeps the stored rows stale."""
    rng = random.Random(7)
    t, _ = make_tournament(entries=6, decks=False, planned_rounds=4)
    t = _played(t, 1, rng)
    compute = standings_service.standings_rows
    match_id = Match.objects.filter(round__tournament=t).values_list("pk", flat=True).first()

    def compute_then_change(*, tournament: Tournament) -> list[dict[str, Any]]:
        rows = compute(tournament=tournament)
        standings_service.standings_inputs_changed(
            tournament_id=tournament.pk, match_id=match_id if change == "result" else None
        )
        return rows

    monkeypatch.setattr(standings_service, "standings_rows", compute_then_change)
    services.standings_refresh(tournament_id=t.pk)
    assert not _current(t)
    monkeypatch.undo()
    services.standings_refresh(tournament_id=t.pk)
    assert _current(t)


class _NoJobs:
    """Stands in for the job batch: no recompute runs after a commit (the race test decides
    when the snapshot is recomputed)."""

    def run(self, *args: Any, **kwargs: Any) -> None:
        return None


def _in_thread(work: Callable[[], Any]) -> tuple[threading.Thread, dict[str, Any]]:
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["done"] = work()
        except Exception as exc:  # the test inspects it
            box["error"] = exc
        finally:
            connections.close_all()

    return threading.Thread(target=run), box


@pytest.mark.postgres_only
@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="needs PostgreSQL row locks and two connections"
)
@pytest.mark.parametrize("first", ["write", "recompute"])
def test_a_recompute_racing_a_standings_write_never_marks_stale_rows_current(monkeypatch, first):
    """A drop (a standings input) and a recompute of the snapshot overlap on PostgreSQL, in
    either order: the side that started first keeps its transaction open (the drop inside an
    outer transaction; the recompute in its own, held just before its commit) while the other
    runs and waits on the snapshot row. A recompute that started first stored rows without the
    drop, and they are not current; one that started second waited and read the drop, and its
    rows are. Either way pairing draws the tables it draws from the results."""
    monkeypatch.setattr(jobs, "open_batch", _NoJobs)
    rng = random.Random(13)
    t, _ = make_tournament(entries=8, decks=False, planned_rounds=5)
    t = _played(t, 2, rng)
    services.standings_refresh(tournament_id=t.pk)
    assert _current(t)
    leaving = t.entries.order_by("id")[3]
    started, release = threading.Event(), threading.Event()

    def drop_held() -> None:
        with transaction.atomic():
            services.entry_drop(entry=leaving)
            started.set()
            release.wait(timeout=10)

    def held_before_commit(**kwargs: Any) -> None:  # the recompute's last step
        started.set()
        release.wait(timeout=10)

    if first == "write":
        thread, box = _in_thread(drop_held)
        other: Callable[[], Any] = partial(services.standings_refresh, tournament_id=t.pk)
    else:
        monkeypatch.setattr(standings_service, "push_event", held_before_commit)
        thread, box = _in_thread(partial(services.standings_refresh, tournament_id=t.pk))
        other = partial(services.entry_drop, entry=leaving)
    thread.start()
    assert started.wait(timeout=10)
    timer = threading.Timer(0.5, release.set)
    timer.start()
    other()  # waits for the held transaction on the snapshot row, then completes
    thread.join(timeout=15)
    timer.cancel()
    assert "error" not in box, box
    stored = {r["entry"]: r for r in StandingsSnapshot.objects.get(tournament=t).rows}
    if first == "write":  # the recompute waited for the drop, then read it: current
        assert _current(t)
        assert stored[leaving.pk]["dropped"] is True
    else:  # the rows were computed before the drop, which bumped the generation past them
        assert not _current(t)
        assert stored[leaving.pk]["dropped"] is False
    seed = 4242
    from_snapshot = _pair_and_roll_back(t, seed)
    with transaction.atomic():
        services.standings_inputs_changed(tournament_id=t.pk)
        assert _pair_and_roll_back(t, seed) == from_snapshot
        transaction.set_rollback(True)
    monkeypatch.undo()
    services.standings_refresh(tournament_id=t.pk)
    assert _current(t)
    assert _pair_and_roll_back(t, seed) == from_snapshot


@pytest.mark.postgres_only
@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="needs PostgreSQL row locks and two connections"
)
def test_a_result_committed_while_a_recompute_runs_leaves_its_rows_stale(monkeypatch):
    """A result never waits for a recompute (it locks only its match): one committed while the
    recompute holds its transaction open, after the rows were computed, leaves those rows
    stale (the event's sum of result versions moved past the one the recompute read)."""
    monkeypatch.setattr(jobs, "open_batch", _NoJobs)
    rng = random.Random(17)
    t, _ = make_tournament(entries=8, decks=False, planned_rounds=5)
    t = _played(t, 2, rng)
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t, seed=3)
    )
    services.standings_refresh(tournament_id=t.pk)
    assert _current(t)
    started, release = threading.Event(), threading.Event()

    def held_before_commit(**kwargs: Any) -> None:
        started.set()
        release.wait(timeout=10)

    monkeypatch.setattr(standings_service, "push_event", held_before_commit)
    thread, box = _in_thread(partial(services.standings_refresh, tournament_id=t.pk))
    thread.start()
    assert started.wait(timeout=10)
    try:
        match = rnd.matches.filter(entry_b__isnull=False).order_by("table").first()
        services.match_result_record(
            actor=SYSTEM, match=match, result="2-0-0", die_roll_winner=match.entry_a_id
        )
        assert thread.is_alive()  # the recompute's transaction was still open meanwhile
    finally:
        release.set()
        thread.join(timeout=15)
    assert "error" not in box, box
    assert not _current(t)
    monkeypatch.undo()
    services.standings_refresh(tournament_id=t.pk)
    assert _current(t)
