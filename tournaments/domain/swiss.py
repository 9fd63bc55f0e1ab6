"""Swiss pairing of one round (pure; no Django).

Rules implemented (issue text; RULES.md §1.7 and §4; TOURNAMENT-PRACTICE.md §2.3, §3, §4.1):

* **Round 1** (every entry at 0 match points with no history): the entries, sorted by id, are
  shuffled with the injected ``rng`` (the service stores the seed) and paired in that order;
  with an odd count the last entry of the shuffled order receives the bye.
* **Later rounds** – hard rules: no rematch; at most one bye per entry; the bye goes to the
  lowest-ranked entry without a bye *such that the others can still be paired without a rematch*
  (checked exactly). A bye counts as a match win 2–0 in games (see ``standings``).
* **Objective** for the other entries, lexicographically (integer weights, exact):

  1. no rematch (missing edges; a penalty level only when the rule has to be relaxed);
  2. as few pair-downs (matches between different match-point groups) as possible;
  3. the smallest total point gap over those pair-downs;
  4. pairs as close in the standings as possible: ``sum |pos(a) - pos(b)|`` over the order
     (match points desc, rank asc, id).  Inside a score group this pairs 1v2, 3v4 … ("adjacent",
     i.e. power pairing within the bracket, as swisspair's ``power_pairing`` option); across
     groups it floats the *lowest-ranked* entry of the upper group against the *highest-ranked*
     entry of the lower group;
  5. a seeded random tiebreak (``rng``), so equal choices are still reproducible.

  Note (2): the count is minimised over the whole round, not group by group: with groups
  6,6,6 | 3,3 | 0 the result is one pair-down (the lowest 6 plays the 0), not two.

* **Relaxation** (documented order, as Wizards' reporter does – judge forum 35339 cited in
  TOURNAMENT-PRACTICE.md §3): when nobody without a bye can take it while the rest stays
  pairable, a *second bye* is given first (``Relaxation("second_bye")``); only when no bye choice
  at all leaves a rematch-free pairing is a *rematch* allowed (``Relaxation("rematch")``, one
  per rematched table, the number of rematches being minimised first).

Engine: maximum-weight matching of rustworkx (Edmonds' blossom, integer weights, with
``max_cardinality=True``). Up to ``EXACT_LIMIT`` entries one graph over all entries is solved;
above it the graph is kept small: every score group contributes only its top and bottom
``boundary`` entries (all members of small groups) to one exact graph, which decides every
cross-group pair, and each group's even-sized interior is paired adjacently (1v2, 3v4 …; a
sparse matching over near neighbours when an adjacent pair would be a rematch). The split's
answer is accepted when its pair-downs and their gap meet provable lower bounds (then it is
optimal on objective levels 2 and 3); otherwise, or if an interior cannot be paired, the
boundary is doubled, up to one graph over the whole field (or ``SPLIT_BORDER_LIMIT`` entries in
the graph, past which the best answer found is used).

Determinism: the same candidates and the same ``rng`` state give the same result; inputs are
sorted, sets are never iterated unsorted.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import rustworkx as rx

from tournaments.domain.types import (
    EntryId,
    Pairing,
    PairingCandidate,
    PairingResult,
    Relaxation,
)

#: Above this many entries to pair, the boundary/interior split is used (see module docstring).
EXACT_LIMIT = 256
#: Entries taken from the top and from the bottom of a large score group into the exact graph.
BOUNDARY = 6
#: The split widens its boundary (doubling) until its answer meets the pair-down lower bounds or
#: the exact graph would hold more than this many entries.
SPLIT_BORDER_LIMIT = 1024
#: Neighbours per entry in the sparse interior graph used when adjacent pairing hits a rematch.
INTERIOR_WINDOW = 8
_RANDOM_BITS = 4
_RANDOM_SPAN = 1 << _RANDOM_BITS


class PairingError(Exception):
    """Organiser-facing pairing problem (e.g. duplicate entries in the input)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class _Node:
    id: EntryId
    points: int
    pos: int  # position in the order (points desc, rank asc, id)
    opponents: frozenset[EntryId]
    byes: int


def pair_round(
    candidates: Sequence[PairingCandidate], *, rng: random.Random, round_number: int
) -> PairingResult:
    """Pair one Swiss round.

    Args:
        candidates: the *active* entries (dropped ones left out), each with match points,
            opponents met, byes received and current rank (1 = best).
        rng: the seeded random source (the service persists the seed); used for round 1 and
            for exact-tie breaks.
        round_number: 1-based number of the round being paired (informational; round 1 is
            recognised from the history, so a late first round with no results is also random).

    Returns:
        ``PairingResult``: tables ordered by the higher match points of the two entries
        (descending), then the better position; the bye last. ``a`` is the better-placed entry.
        ``relaxations`` lists any relaxed hard rule. ``pair_downs``/``pair_down_gap`` count the
        cross-group tables and their summed point differences.

    Invariants (tested): every candidate appears exactly once; at most one bye (odd count only);
    no rematch and no second bye unless reported in ``relaxations``.

    Raises:
        PairingError: ``duplicate_entry`` when an id occurs twice.
    """
    del round_number  # round 1 is recognised from the history itself
    ids = [c.id for c in candidates]
    if len(set(ids)) != len(ids):
        raise PairingError("duplicate_entry", "an entry occurs twice among the candidates")
    if not candidates:
        return PairingResult(pairings=())
    if all(c.match_points == 0 and not c.opponents and c.byes == 0 for c in candidates):
        return _first_round(sorted(ids), rng)

    ordered = sorted(candidates, key=lambda c: (-c.match_points, c.rank, c.id))
    nodes = [
        _Node(c.id, c.match_points, i, frozenset(c.opponents), c.byes)
        for i, c in enumerate(ordered)
    ]
    relaxations: list[Relaxation] = []
    bye: _Node | None = None
    rest = nodes
    allow_rematch = False
    if len(nodes) % 2:
        bye, relax = _choose_bye(nodes)
        if bye is None:  # no bye choice keeps the others rematch-free: relax rematches
            allow_rematch = True
            bye = _fallback_bye(nodes)
        if bye.byes > 0:
            relaxations.append(
                Relaxation(
                    "second_bye",
                    (bye.id,),
                    {"byes_before": bye.byes, "reason": relax or "no_entry_without_bye"},
                )
            )
        rest = [n for n in nodes if n.id != bye.id]
    elif not _perfectly_pairable(nodes):
        allow_rematch = True

    pairs = sorted(_pair_all(rest, rng, allow_rematch), key=lambda p: (p[0].pos, p[1].pos))
    for x, y in pairs:
        if y.id in x.opponents:
            relaxations.append(
                Relaxation(
                    "rematch",
                    (x.id, y.id),
                    {"reason": "no_pairing_without_rematch"},
                )
            )
    return _result(pairs, bye, relaxations)


def _first_round(ids: list[EntryId], rng: random.Random) -> PairingResult:
    order = list(ids)
    rng.shuffle(order)
    pairings = [
        Pairing(table=i // 2 + 1, a=order[i], b=order[i + 1]) for i in range(0, len(order) - 1, 2)
    ]
    if len(order) % 2:
        pairings.append(Pairing(table=len(pairings) + 1, a=order[-1], b=None))
    return PairingResult(pairings=tuple(pairings))


def _result(
    pairs: list[tuple[_Node, _Node]], bye: _Node | None, relaxations: list[Relaxation]
) -> PairingResult:
    norm = [(x, y) if x.pos < y.pos else (y, x) for x, y in pairs]
    norm.sort(key=lambda p: (-p[0].points, p[0].pos))
    pairings = [Pairing(table=i + 1, a=x.id, b=y.id) for i, (x, y) in enumerate(norm)]
    if bye is not None:
        pairings.append(Pairing(table=len(pairings) + 1, a=bye.id, b=None))
    downs = [abs(x.points - y.points) for x, y in norm if x.points != y.points]
    return PairingResult(
        pairings=tuple(pairings),
        relaxations=tuple(relaxations),
        pair_downs=len(downs),
        pair_down_gap=sum(downs),
    )


# --- bye -----------------------------------------------------------------------------------


def _choose_bye(nodes: list[_Node]) -> tuple[_Node | None, str | None]:
    """Lowest-ranked entry with the fewest byes whose removal leaves a rematch-free pairing.

    Entries without a bye are tried first, from the bottom of the order; then (relaxation
    ``second_bye``) entries with one bye, and so on. Returns ``(None, None)`` when no choice at
    all leaves the rest pairable without a rematch.
    """
    by_count = sorted({n.byes for n in nodes})
    reason: str | None = None
    if by_count[0] > 0:
        reason = "every_entry_had_a_bye"
    for count in by_count:
        for node in reversed(nodes):
            if node.byes == count and _perfectly_pairable([n for n in nodes if n is not node]):
                return node, reason
        reason = "no_pairing_without_rematch"
    return None, None


def _fallback_bye(nodes: list[_Node]) -> _Node:
    fewest = min(n.byes for n in nodes)
    return next(n for n in reversed(nodes) if n.byes == fewest)


def _perfectly_pairable(nodes: list[_Node]) -> bool:
    """Exact test: can ``nodes`` (even count) all be paired without a rematch?

    Fast sufficient condition first (Dirac: minimum degree >= m/2 gives a Hamiltonian cycle,
    hence a perfect matching); otherwise a maximum-cardinality matching decides.
    """
    m = len(nodes)
    if m % 2:
        return False
    if m == 0:
        return True
    ids = {n.id for n in nodes}
    min_degree = min(m - 1 - len(n.opponents & ids) for n in nodes)
    if 2 * min_degree >= m:
        return True
    graph = rx.PyGraph()
    graph.add_nodes_from(range(m))
    for i in range(m):
        for j in range(i + 1, m):
            if nodes[j].id not in nodes[i].opponents:
                graph.add_edge(i, j, 1)
    matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    return 2 * len(matching) == m


# --- pairing of an even set ------------------------------------------------------------------


def _pair_all(
    nodes: list[_Node], rng: random.Random, allow_rematch: bool
) -> list[tuple[_Node, _Node]]:
    """Pair an even set: one exact graph for small fields, else the boundary/interior split.

    The split's answer is accepted only when it provably meets the lexicographic optimum of
    levels 2 and 3 (``_meets_lower_bounds``); otherwise the boundary is doubled, up to the
    whole field (one exact graph) or ``SPLIT_BORDER_LIMIT`` border entries, past which the best
    split answer found is returned (a legal pairing, rematch-free, possibly with more
    pair-downs than the unreachable optimum; the benchmark reports pair-downs against the bound).
    """
    if len(nodes) <= EXACT_LIMIT or allow_rematch:
        return _solve_exact(nodes, rng, allow_rematch)
    bounds = _lower_bounds(nodes)
    largest = max(len(group) for group in _groups(nodes))
    best: tuple[tuple[int, int], list[tuple[_Node, _Node]]] | None = None
    boundary = BOUNDARY
    while True:
        if 2 * boundary + 2 >= largest:  # every group lies in the border: one exact graph
            return _solve_exact(nodes, rng, allow_rematch)
        attempt = _solve_split(nodes, rng, boundary)
        if attempt is not None:
            pairs, border_size = attempt
            score = _pair_down_score(pairs)
            if score == bounds:
                return pairs
            if best is None or score < best[0]:
                best = (score, pairs)
            if border_size * 2 > SPLIT_BORDER_LIMIT and best is not None:
                return best[1]
        boundary *= 2


def _pair_down_score(pairs: Sequence[tuple[_Node, _Node]]) -> tuple[int, int]:
    """(number of pair-downs, summed point gap) of a pairing."""
    gaps = [abs(x.points - y.points) for x, y in pairs if x.points != y.points]
    return len(gaps), sum(gaps)


def _lower_bounds(nodes: list[_Node]) -> tuple[int, int]:
    """Lower bounds of (pair-downs, their summed gap) for pairing ``nodes`` (even count).

    Every score group of odd size sends at least one entry out of it, and one pair-down serves
    at most two such groups: at least ``odd / 2`` pair-downs. With exactly that many, the
    pair-downs join the odd groups two by two, and on the points line the cheapest way to do so
    joins neighbours (1st–2nd, 3rd–4th, … in points order).
    """
    odd = [group[0].points for group in _groups(nodes) if len(group) % 2]
    return len(odd) // 2, sum(odd[i] - odd[i + 1] for i in range(0, len(odd) - 1, 2))


def _solve_exact(
    nodes: list[_Node], rng: random.Random, allow_rematch: bool
) -> list[tuple[_Node, _Node]]:
    """One maximum-weight matching over ``nodes`` with exact lexicographic integer weights.

    The cost of an edge is ``((R * D_M + D) * G_M + G) * P_M + P) * T_M + T`` where R = rematch
    (0/1), D = pair-down (0/1), G = point gap, P = distance in the order, T = random tiebreak in
    [0, 16). Each multiplier exceeds the largest possible total of all lower levels over a
    matching, so minimising the summed cost is exactly lexicographic. Weight = ``big - cost``
    (positive); ``max_cardinality=True`` makes every node matched whenever possible.
    """
    m = len(nodes)
    if m == 0:
        return []
    half = m // 2 + 1
    spread = max(n.points for n in nodes) - min(n.points for n in nodes)
    t_m = 1
    p_m = t_m * (_RANDOM_SPAN * half + 1)
    g_m = p_m * (m * half + 1)
    d_m = g_m * (spread * half + 1)
    r_m = d_m * (half + 1)
    big = r_m * 2
    if big >= 1 << 120:  # rustworkx takes 128-bit integer weights
        raise RuntimeError("pairing weights out of range")
    graph = rx.PyGraph()
    graph.add_nodes_from(range(m))
    for i in range(m):
        a = nodes[i]
        for j in range(i + 1, m):
            b = nodes[j]
            rematch = b.id in a.opponents
            if rematch and not allow_rematch:
                continue
            gap = abs(a.points - b.points)
            cost = (
                (int(rematch) * r_m)
                + (d_m if gap else 0)
                + gap * g_m
                + abs(a.pos - b.pos) * p_m
                + rng.getrandbits(_RANDOM_BITS) * t_m
            )
            graph.add_edge(i, j, big - cost)
    matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    if 2 * len(matching) != m:
        raise RuntimeError("no perfect pairing although feasibility was established")
    return [(nodes[min(e)], nodes[max(e)]) for e in sorted(tuple(sorted(e)) for e in matching)]


def _groups(nodes: list[_Node]) -> list[list[_Node]]:
    groups: list[list[_Node]] = []
    for node in nodes:  # nodes are in order, points descending
        if groups and groups[-1][0].points == node.points:
            groups[-1].append(node)
        else:
            groups.append([node])
    return groups


def _solve_split(
    nodes: list[_Node], rng: random.Random, boundary: int
) -> tuple[list[tuple[_Node, _Node]], int] | None:
    """Boundary/interior split for large fields: ``(pairs, border size)``, or ``None`` when the
    border or an interior cannot be paired without a rematch."""
    border: list[_Node] = []
    interiors: list[list[_Node]] = []
    for group in _groups(nodes):
        if len(group) <= 2 * boundary + 2:
            border.extend(group)
            continue
        top = group[:boundary]
        bottom_size = boundary + (len(group) - 2 * boundary) % 2
        interior = group[boundary : len(group) - bottom_size]
        border.extend(top)
        border.extend(group[len(group) - bottom_size :])
        interiors.append(interior)
    pairs = _solve_exact(border, rng, allow_rematch=False) if _perfectly_pairable(border) else None
    if pairs is None:
        return None
    for interior in interiors:
        inner = _pair_interior(interior, rng)
        if inner is None:
            return None
        pairs.extend(inner)
    return pairs, len(border)


def _pair_interior(group: list[_Node], rng: random.Random) -> list[tuple[_Node, _Node]] | None:
    """Pair an even run of one score group: adjacent pairs (optimal), else a sparse matching."""
    adjacent = [(group[i], group[i + 1]) for i in range(0, len(group), 2)]
    if all(b.id not in a.opponents for a, b in adjacent):
        return adjacent
    m = len(group)
    graph = rx.PyGraph()
    graph.add_nodes_from(range(m))
    p_m = _RANDOM_SPAN * (m // 2 + 1) + 1
    big = p_m * (INTERIOR_WINDOW + 1) * 2
    for i in range(m):
        for j in range(i + 1, min(m, i + INTERIOR_WINDOW + 1)):
            if group[j].id not in group[i].opponents:
                graph.add_edge(i, j, big - ((j - i) * p_m + rng.getrandbits(_RANDOM_BITS)))
    matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    if 2 * len(matching) != m:
        return None
    return [(group[min(e)], group[max(e)]) for e in sorted(tuple(sorted(e)) for e in matching)]


def pairings_as_sets(pairings: Iterable[Pairing]) -> set[frozenset[EntryId]]:
    """Helper for callers and tests: the tables as unordered pairs (byes left out)."""
    return {frozenset((p.a, p.b)) for p in pairings if p.b is not None}
