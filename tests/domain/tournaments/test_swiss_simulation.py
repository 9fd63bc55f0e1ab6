"""Whole simulated tournaments: pairing invariants after every round (hypothesis).

An independent networkx matching checks feasibility and pair-down minimality (a random
tournament generator plus a pairing checker; docs/rules.md §14 Swiss pairing and byes).
"""

from __future__ import annotations

import random

import networkx as nx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.domain.standings import HKK_TIEBREAKERS, compute_standings
from tournaments.domain.swiss import pair_round
from tournaments.domain.types import GameRecord, MatchRecord, PairingCandidate, Scoring


def _perfect(ids, opponents, allow=frozenset()):
    graph = nx.Graph()
    graph.add_nodes_from(ids)
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            if b not in opponents[a] or frozenset((a, b)) in allow:
                graph.add_edge(a, b)
    return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) == len(ids)


def _min_pair_downs(ids, points, opponents):
    """The lexicographic minimum (pair-downs, summed point gap) over rematch-free pairings."""
    graph = nx.Graph()
    graph.add_nodes_from(ids)
    spread = max(points.values()) - min(points.values()) if points else 0
    level = spread * len(ids) + 1  # one pair-down outweighs any total gap
    big = 2 * level * (len(ids) + 1)
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            if b not in opponents[a]:
                gap = abs(points[a] - points[b])
                graph.add_edge(a, b, weight=big - ((gap > 0) * level + gap))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    gaps = [abs(points[a] - points[b]) for a, b in matching if points[a] != points[b]]
    return len(gaps), sum(gaps)


def _random_match(rnd, rng, a, b):
    games = []
    for number in range(1, 4):
        roll = rng.random()
        winner = None if roll < 0.1 else (a if roll < 0.55 else b)
        games.append(GameRecord(number, a, False, a, winner))
    return MatchRecord(rnd, a, b, tuple(games))


def _check_round(cands, result, minimal=True):
    ids = [c.id for c in cands]
    by_id = {c.id: c for c in cands}
    opponents = {c.id: c.opponents for c in cands}
    points = {c.id: c.match_points for c in cands}
    seen = [p.a for p in result.pairings] + [p.b for p in result.pairings if p.b is not None]
    assert sorted(seen) == sorted(ids)
    codes = [r.code for r in result.relaxations]
    rematches = {frozenset(r.entries) for r in result.relaxations if r.code == "rematch"}
    tables = [(p.a, p.b) for p in result.pairings if p.b is not None]
    for a, b in tables:
        if b in opponents[a]:
            assert frozenset((a, b)) in rematches
    byes = [p.a for p in result.pairings if p.b is None]
    assert len(byes) == len(ids) % 2
    order = sorted(cands, key=lambda c: (-c.match_points, c.rank, c.id))
    rest = [c.id for c in cands if c.id not in byes]
    if byes:
        bye = by_id[byes[0]]
        if bye.byes > 0:
            assert "second_bye" in codes
        else:
            assert "second_bye" not in codes
        first_round = all(c.match_points == 0 and not c.opponents and not c.byes for c in cands)
        if "rematch" not in codes and not first_round:
            # nobody with fewer byes, and nobody lower-ranked with as many, could take it
            below = order[order.index(bye) + 1 :]
            for other in order:
                if other.byes < bye.byes or (other.byes == bye.byes and other in below):
                    others = [i for i in ids if i != other.id]
                    assert not _perfect(others, opponents)
    if rematches:
        # a rematch is reported only when no bye choice at all avoids one
        candidates = [c.id for c in cands] if byes else [None]
        for choice in candidates:
            assert not _perfect([i for i in ids if i != choice], opponents)
    cross = sum(points[a] != points[b] for a, b in tables)
    assert result.pair_downs == cross
    assert result.pair_down_gap == sum(abs(points[a] - points[b]) for a, b in tables)
    if not rematches and minimal:
        assert (cross, result.pair_down_gap) == _min_pair_downs(rest, points, opponents)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    size=st.integers(min_value=2, max_value=40),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    extra_rounds=st.integers(min_value=0, max_value=4),
)
def test_simulated_tournaments_keep_the_pairing_invariants(size, seed, extra_rounds):
    _simulate(size, seed, extra_rounds)


def _simulate(size, seed, extra_rounds, minimal=True):
    rng = random.Random(seed)
    scoring = Scoring()
    entries = list(range(1, size + 1))
    active = set(entries)
    matches: list[MatchRecord] = []
    rounds = max(1, min(size + 1, size.bit_length() + 1 + extra_rounds))
    for rnd in range(1, rounds + 1):
        if len(active) < 2:
            break
        standings = compute_standings(
            entries, matches, scoring=scoring, tiebreakers=HKK_TIEBREAKERS
        )
        position = {row.entry: i + 1 for i, row in enumerate(standings)}
        points = {row.entry: row.match_points for row in standings}
        opps = {e: set() for e in entries}
        byes = dict.fromkeys(entries, 0)
        for m in matches:
            if m.b is None:
                byes[m.a] += 1
            else:
                opps[m.a].add(m.b)
                opps[m.b].add(m.a)
        cands = [
            PairingCandidate(e, points[e], frozenset(opps[e]), byes[e], position[e])
            for e in sorted(active)
        ]
        result = pair_round(cands, rng=random.Random(seed + rnd), round_number=rnd)
        _check_round(cands, result, minimal)
        again = pair_round(cands, rng=random.Random(seed + rnd), round_number=rnd)
        assert again == result
        for p in result.pairings:
            if p.b is None:
                matches.append(MatchRecord(rnd, p.a, None))
            else:
                matches.append(_random_match(rnd, rng, p.a, p.b))
        if rng.random() < 0.3 and len(active) > 2:
            active.discard(rng.choice(sorted(active)))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    size=st.integers(min_value=10, max_value=40),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    extra_rounds=st.integers(min_value=0, max_value=3),
    window=st.sampled_from([2, 4, 6]),
)
def test_sparse_path_keeps_the_pairing_invariants(size, seed, extra_rounds, window):
    """The sparse path used above ``EXACT_LIMIT`` entries, forced on small fields so that the
    independent networkx checker can judge it: same invariants, same minimality."""
    from tournaments.domain import swiss

    saved = swiss.EXACT_LIMIT, swiss.WINDOW
    swiss.EXACT_LIMIT, swiss.WINDOW = 4, window
    try:
        _simulate(size, seed, extra_rounds)
    finally:
        swiss.EXACT_LIMIT, swiss.WINDOW = saved


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    size=st.integers(min_value=10, max_value=40),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    extra_rounds=st.integers(min_value=0, max_value=3),
)
def test_widening_path_keeps_the_hard_rules(size, seed, extra_rounds):
    """Fields above ``FALLBACK_EXACT_LIMIT`` never fall back to the complete graph: when the
    bound is missed they widen the window and may end with the best answer found, which must
    still be a legal pairing (everyone once, no rematch, the bye rules)."""
    from tournaments.domain import swiss

    saved = swiss.EXACT_LIMIT, swiss.FALLBACK_EXACT_LIMIT, swiss.WINDOW_LIMIT
    swiss.EXACT_LIMIT, swiss.FALLBACK_EXACT_LIMIT, swiss.WINDOW_LIMIT = 4, 4, 16
    try:
        _simulate(size, seed, extra_rounds, minimal=False)
    finally:
        swiss.EXACT_LIMIT, swiss.FALLBACK_EXACT_LIMIT, swiss.WINDOW_LIMIT = saved
