"""Swiss pairing of one round (pure; no Django).

Rules implemented (docs/rules.md §14 Swiss pairing and byes):

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

* **Relaxation** (documented order, as Wizards' tournament reporter does): when nobody without
  a bye can take it while the rest stays pairable, a *second bye* is given first
  (``Relaxation("second_bye")``); only when no bye choice at all leaves a rematch-free pairing
  is a *rematch* allowed (``Relaxation("rematch")``, one per rematched table, the number of
  rematches being minimised first).

Engine: maximum-weight matching of rustworkx (Edmonds' blossom, integer weights, with
``max_cardinality=True``). Up to ``EXACT_LIMIT`` entries (and whenever a rematch must be
allowed) one complete graph over all entries is solved: every level above is exact.

Larger fields use the *sparse* path, which never builds the complete graph:

* a lower bound of levels 2 and 3 is computed per score group (``_exit_plan``): a group must
  send out at least its *deficit* (its size minus twice its largest rematch-free matching inside
  the group: its parity, or 2 for two entries that already met), and the cheapest way to join
  those exits on the points line is found by a small dynamic programme; its solution is also a
  *plan* (how many exits each group sends up and down, and which groups exchange them);
* adjacent pairs (1v2, 3v4 …) inside a group that are far (``WINDOW`` places) from a rematch
  and from the group ends used by the plan are kept as they are (the level-4 optimum there);
* the remaining entries form small independent pieces (around a would-be rematch, around the
  group ends that exchange exits) with candidate edges between entries at most ``WINDOW``
  places apart plus every edge between the ends of two groups the plan joins; each piece is
  solved exactly by the matching above.

The answer is accepted only when its pair-downs and their summed gap *equal* the lower bound:
then it is provably optimal on levels 2 and 3, and levels 4 and 5 are optimal within the kept
pairs and candidate edges (ties of level 3 in the plan are decided by the places the exits
travel, as level 4 would). Otherwise fields up to ``FALLBACK_EXACT_LIMIT`` entries are solved
by the complete graph; larger ones widen the window (×4, every pair of exit groups joined) up to
``WINDOW_LIMIT`` places, past which the best answer found is used (a legal, rematch-free
pairing, possibly with more pair-downs than the unreachable bound; the benchmark reports
pair-downs against it).

Determinism: the same candidates and the same ``rng`` state give the same result; inputs are
sorted, sets are never iterated unsorted, random tiebreaks are drawn in a fixed edge order.
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

#: Up to this many entries to pair, one complete graph is solved (every level exact).
EXACT_LIMIT = 64
#: Sparse path: adjacent pairs at least this many places from a would-be rematch or a used
#: group end are kept; candidate edges join entries at most this many places apart.
WINDOW = 4
#: When the sparse answer misses the lower bound, fields up to this size are solved exactly.
FALLBACK_EXACT_LIMIT = 256
#: Larger fields widen the window (×4) up to this many places, then take the best answer found.
WINDOW_LIMIT = 64
_RANDOM_BITS = 4
_RANDOM_SPAN = 1 << _RANDOM_BITS

Pair = tuple[int, int]  # two positions in the standing order, the better-placed first
_State = tuple[int, int]  # exit plan: (open exits, extra exits used)


class PairingError(Exception):
    """Organiser-facing pairing problem (e.g. duplicate entries in the input)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class _Field:
    """The candidates in standing order; an entry is known by its position (index) here."""

    ids: tuple[EntryId, ...]
    points: tuple[int, ...]
    opponents: tuple[frozenset[EntryId], ...]
    byes: tuple[int, ...]

    def met(self, a: int, b: int) -> bool:
        """Have the entries at positions ``a`` and ``b`` already played each other?"""
        return self.ids[b] in self.opponents[a]


def pair_round(
    candidates: Sequence[PairingCandidate], *, rng: random.Random, round_number: int
) -> PairingResult:
    """Pair one Swiss round (docs/rules.md §14 Swiss pairing and byes).

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

    Invariants (tested): every candidate appears exactly once; at most one bye (odd count only),
    to the lowest-ranked entry without a bye that leaves the others pairable; no rematch and no
    second bye unless reported in ``relaxations``; the fewest pair-downs, then the smallest
    summed gap (checked against an independent matching; above ``FALLBACK_EXACT_LIMIT``
    entries only as far as the module docstring states); the same output for the same
    candidates and ``rng`` state.

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

    field = _field(candidates)
    everyone = list(range(len(field.ids)))
    relaxations: list[Relaxation] = []
    bye: int | None = None
    rest = everyone
    allow_rematch = False
    if len(everyone) % 2:
        bye, relax = _choose_bye(field, everyone)
        if bye is None:  # no bye choice keeps the others rematch-free: relax rematches
            allow_rematch = True
            bye = _fallback_bye(field, everyone)
        if field.byes[bye] > 0:
            relaxations.append(
                Relaxation(
                    "second_bye",
                    (field.ids[bye],),
                    {"byes_before": field.byes[bye], "reason": relax or "no_entry_without_bye"},
                )
            )
        rest = [i for i in everyone if i != bye]
    elif not _perfectly_pairable(field, everyone):
        allow_rematch = True

    pairs = sorted(_pair_all(field, rest, rng, allow_rematch))
    if allow_rematch:
        for a, b in pairs:
            if field.met(a, b):
                relaxations.append(
                    Relaxation(
                        "rematch",
                        (field.ids[a], field.ids[b]),
                        {"reason": "no_pairing_without_rematch"},
                    )
                )
    return _result(field, pairs, bye, relaxations)


def _field(candidates: Sequence[PairingCandidate]) -> _Field:
    """The candidates in standing order: match points desc, rank asc, id."""
    ordered = sorted(candidates, key=lambda c: (-c.match_points, c.rank, c.id))
    return _Field(
        ids=tuple(c.id for c in ordered),
        points=tuple(c.match_points for c in ordered),
        opponents=tuple(frozenset(c.opponents) for c in ordered),
        byes=tuple(c.byes for c in ordered),
    )


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
    field: _Field, pairs: list[Pair], bye: int | None, relaxations: list[Relaxation]
) -> PairingResult:
    """Tables in position order of their better-placed entry (= points desc), the bye last."""
    ids = field.ids
    pairings = [Pairing(table=i + 1, a=ids[a], b=ids[b]) for i, (a, b) in enumerate(pairs)]
    if bye is not None:
        pairings.append(Pairing(table=len(pairings) + 1, a=ids[bye], b=None))
    downs, gap = _pair_down_score(field, pairs)
    return PairingResult(
        pairings=tuple(pairings),
        relaxations=tuple(relaxations),
        pair_downs=downs,
        pair_down_gap=gap,
    )


def _pair_down_score(field: _Field, pairs: Iterable[Pair]) -> tuple[int, int]:
    """(number of pair-downs, summed point gap) of a pairing."""
    points = field.points
    gaps = [points[a] - points[b] for a, b in pairs if points[a] != points[b]]
    return len(gaps), sum(gaps)


# --- bye -----------------------------------------------------------------------------------


def _choose_bye(field: _Field, members: list[int]) -> tuple[int | None, str | None]:
    """Lowest-ranked entry with the fewest byes whose removal leaves a rematch-free pairing.

    Entries without a bye are tried first, from the bottom of the order; then (relaxation
    ``second_bye``) entries with one bye, and so on. Returns ``(None, None)`` when no choice at
    all leaves the rest pairable without a rematch.
    """
    by_count = sorted({field.byes[i] for i in members})
    reason: str | None = None
    if by_count[0] > 0:
        reason = "every_entry_had_a_bye"
    for count in by_count:
        for k in range(len(members) - 1, -1, -1):
            node = members[k]
            if field.byes[node] == count and _perfectly_pairable(
                field, members[:k] + members[k + 1 :]
            ):
                return node, reason
        reason = "no_pairing_without_rematch"
    return None, None


def _fallback_bye(field: _Field, members: list[int]) -> int:
    fewest = min(field.byes[i] for i in members)
    return next(i for i in reversed(members) if field.byes[i] == fewest)


def _perfectly_pairable(field: _Field, members: list[int]) -> bool:
    """Exact test: can ``members`` (even count) all be paired without a rematch?

    Fast sufficient condition first (Dirac: minimum degree >= m/2 gives a Hamiltonian cycle,
    hence a perfect matching; the number of opponents met bounds the missing degree);
    otherwise a maximum-cardinality matching decides.
    """
    m = len(members)
    if m % 2:
        return False
    if m == 0:
        return True
    if 2 * (m - 1 - max(len(field.opponents[i]) for i in members)) >= m:
        return True
    ids = {field.ids[i] for i in members}
    if 2 * min(m - 1 - len(field.opponents[i] & ids) for i in members) >= m:
        return True
    graph = rx.PyGraph()
    graph.add_nodes_from(range(m))
    graph.add_edges_from_no_data(
        [(i, j) for i in range(m) for j in range(i + 1, m) if not field.met(members[i], members[j])]
    )
    return 2 * len(rx.max_weight_matching(graph, max_cardinality=True)) == m


# --- pairing of an even set ------------------------------------------------------------------


def _pair_all(
    field: _Field, members: list[int], rng: random.Random, allow_rematch: bool
) -> list[Pair]:
    """Pair an even set of positions: the complete graph for small fields, else the sparse path.

    The sparse answer is accepted only when it meets the lower bound of levels 2 and 3 (see the
    module docstring); otherwise the fallback described there applies.
    """
    if allow_rematch or len(members) <= EXACT_LIMIT:
        return _solve_exact(field, members, rng, allow_rematch)
    groups = _groups(field, members)
    plan = _exit_plan(field, groups)
    if plan is None:  # the groups cannot even be joined on paper: let the exact graph decide
        return _solve_exact(field, members, rng, allow_rematch=False)
    best: tuple[tuple[int, int], list[Pair]] | None = None
    window = WINDOW
    while window <= WINDOW_LIMIT:
        pairs = _solve_sparse(field, groups, plan, rng, window, every_link=window > WINDOW)
        if pairs is not None:
            score = _pair_down_score(field, pairs)
            if score == plan.bound:  # certified optimal on levels 2 and 3
                return pairs
            if best is None or score < best[0]:
                best = (score, pairs)
        if len(members) <= FALLBACK_EXACT_LIMIT:
            return _solve_exact(field, members, rng, allow_rematch=False)
        window *= 4
    if best is None:  # no piece layout could be paired: the complete graph always can
        return _solve_exact(field, members, rng, allow_rematch=False)
    return best[1]


@dataclass(frozen=True, slots=True)
class _Costs:
    """Exact lexicographic edge costs: ``((R * D_M + D) * G_M + G) * P_M + P) * T_M + T``.

    R = rematch (0/1), D = pair-down (0/1), G = point gap, P = distance in the order, T = random
    tiebreak in [0, 16). Each multiplier exceeds the largest possible total of all lower levels
    over a matching of the given entries, so minimising the summed cost is exactly
    lexicographic. Weight = ``big - cost`` (positive); with ``max_cardinality=True`` every
    entry is matched whenever possible, and among perfect matchings the largest weight is the
    smallest cost.
    """

    p_m: int
    g_m: int
    d_m: int
    r_m: int
    big: int

    @classmethod
    def for_field(cls, field: _Field, members: Sequence[int], reach: int) -> _Costs:
        """Multipliers for matchings over ``members`` whose edges span at most ``reach``
        places in the order."""
        half = len(members) // 2 + 1
        points = [field.points[i] for i in members]
        spread = max(points) - min(points)
        p_m = _RANDOM_SPAN * half + 1
        g_m = p_m * (reach * half + 1)
        d_m = g_m * (spread * half + 1)
        r_m = d_m * (half + 1)
        big = r_m * 2
        if big >= 1 << 120:  # rustworkx takes 128-bit integer weights
            raise RuntimeError("pairing weights out of range")
        return cls(p_m, g_m, d_m, r_m, big)

    def weight(self, field: _Field, a: int, b: int, rematch: bool, tiebreak: int) -> int:
        """Weight of the edge between positions ``a < b``."""
        gap = field.points[a] - field.points[b]
        cost = (
            (self.r_m if rematch else 0)
            + (self.d_m if gap else 0)
            + gap * self.g_m
            + (b - a) * self.p_m
            + tiebreak
        )
        return self.big - cost


def _solve_exact(
    field: _Field, members: list[int], rng: random.Random, allow_rematch: bool
) -> list[Pair]:
    """One maximum-weight matching over the complete graph of ``members`` (``_Costs``)."""
    m = len(members)
    if m == 0:
        return []
    costs = _Costs.for_field(field, members, reach=m)  # positions: one bye at most left out
    edges: list[tuple[int, int, int]] = []
    for i in range(m):
        a = members[i]
        for j in range(i + 1, m):
            b = members[j]
            rematch = field.met(a, b)
            if rematch and not allow_rematch:
                continue
            edges.append((i, j, costs.weight(field, a, b, rematch, rng.getrandbits(_RANDOM_BITS))))
    pairs = _match(members, edges)
    if pairs is None:
        raise RuntimeError("no perfect pairing although feasibility was established")
    return pairs


def _match(nodes: list[int], edges: list[tuple[int, int, int]]) -> list[Pair] | None:
    """Maximum-weight matching of ``nodes`` (positions) over ``edges`` given as indices into
    ``nodes`` with integer weights: the pairs of positions, or ``None`` when not perfect."""
    graph = rx.PyGraph()
    graph.add_nodes_from(range(len(nodes)))
    graph.add_edges_from(edges)
    matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    if 2 * len(matching) != len(nodes):
        return None
    return sorted((min(nodes[i], nodes[j]), max(nodes[i], nodes[j])) for i, j in matching)


def _groups(field: _Field, members: list[int]) -> list[list[int]]:
    """Score groups of ``members`` (in order, points descending)."""
    groups: list[list[int]] = []
    points = field.points
    for i in members:
        if groups and points[groups[-1][0]] == points[i]:
            groups[-1].append(i)
        else:
            groups.append([i])
    return groups


# --- sparse path: lower bound and plan ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Plan:
    """Lower bound of (pair-downs, summed gap) and one way to reach it on paper.

    ``up[g]``/``down[g]``: entries of group ``g`` paired with a group above / below;
    ``links``: ``(upper, lower)`` group pairs exchanging such entries.
    """

    bound: tuple[int, int]
    up: tuple[int, ...]
    down: tuple[int, ...]
    links: tuple[tuple[int, int], ...]


def _deficit(field: _Field, group: list[int]) -> int:
    """Entries of ``group`` that must be paired outside it: its size minus twice its largest
    rematch-free matching inside the group (the parity when Dirac's condition holds)."""
    size = len(group)
    if size >= 3 and 2 * (size - 1 - max(len(field.opponents[i]) for i in group)) >= size:
        return size % 2  # Dirac, counting every opponent met as if inside the group
    ids = {field.ids[i] for i in group}
    inside = max(len(field.opponents[i] & ids) for i in group)
    if inside == 0 or (size >= 3 and 2 * (size - 1 - inside) >= size):
        return size % 2
    graph = rx.PyGraph()
    graph.add_nodes_from(range(size))
    graph.add_edges_from_no_data(
        [
            (i, j)
            for i in range(size)
            for j in range(i + 1, size)
            if not field.met(group[i], group[j])
        ]
    )
    return size - 2 * len(rx.max_weight_matching(graph, max_cardinality=True))


def _exit_plan(field: _Field, groups: list[list[int]]) -> _Plan | None:
    """Lower bound of levels 2 and 3 for pairing ``groups`` without a rematch, with a plan.

    Any rematch-free pairing sends ``e`` entries of a group out of it, ``e >= deficit`` and of
    the same parity, and joins those exits two by two across different groups; a pair-down
    costs its point gap. The pair-down count is fixed by the exits: the deficits, plus the
    fewest extra exits (in pairs, from the other groups) that let the largest deficit find
    partners. The gap is minimised by a dynamic programme down the groups whose state is the
    number of exits still open (waiting for a partner below) and of extra exits used: each
    open exit pays the point step to the next group; a group's exits either meet open ones
    (one pair-down each) or stay open. Equal gaps are decided by the places the exits travel
    in the order (an exit leaves from the end of its group and passes whole groups it skips),
    as level 4 would. ``None`` when no such plan exists.
    """
    deficits = [_deficit(field, g) for g in groups]
    total = sum(deficits)
    extra = max(0, 2 * max(deficits) - total)
    below = [0] * (len(groups) + 1)  # exits available below each group (extras included)
    for g in range(len(groups) - 1, -1, -1):
        below[g] = below[g + 1] + deficits[g]
    # value of a state: (pair-downs, summed gap, places travelled)
    states: dict[_State, tuple[int, int, int]] = {(0, 0): (0, 0, 0)}
    back: list[dict[_State, tuple[_State, int, int]]] = []
    for g, group in enumerate(groups):
        if g:
            step = field.points[groups[g - 1][0]] - field.points[group[0]]
            places = group[0] - groups[g - 1][-1]
            states = {
                key: (count, gap + key[0] * step, dist + key[0] * places)
                for key, (count, gap, dist) in states.items()
            }
        size, deficit, through = len(group), deficits[g], group[-1] - group[0]
        new: dict[_State, tuple[int, int, int]] = {}
        parent: dict[_State, tuple[_State, int, int]] = {}
        for key in sorted(states):
            open_, used = key
            count, gap, dist = states[key]
            for add in range(0, min(extra - used, size - deficit) + 1, 2):
                exits = deficit + add
                for met in range(min(open_, exits), -1, -1):
                    left = open_ - met + exits - met
                    if left > below[g + 1] + extra - used - add:
                        continue  # too many open exits to be met below
                    nkey = (left, used + add)
                    value = (count + met, gap, dist + (open_ - met) * through)
                    if nkey not in new or value < new[nkey]:
                        new[nkey] = value
                        parent[nkey] = (key, exits, met)
        states = new
        back.append(parent)
    final: _State = (0, extra)
    if final not in states:
        return None
    up = [0] * len(groups)
    down = [0] * len(groups)
    key = final
    for g in range(len(groups) - 1, -1, -1):
        key, exits, met = back[g][key]
        up[g], down[g] = met, exits - met
    links: list[tuple[int, int]] = []
    stack: list[int] = []  # groups of the open exits, one entry per exit (nearest last)
    for g in range(len(groups)):
        for _ in range(up[g]):
            links.append((stack.pop(), g))
        stack.extend([g] * down[g])
    return _Plan(states[final][:2], tuple(up), tuple(down), tuple(sorted(set(links))))


# --- sparse path: pieces ----------------------------------------------------------------------


def _solve_sparse(
    field: _Field,
    groups: list[list[int]],
    plan: _Plan,
    rng: random.Random,
    window: int,
    every_link: bool,
) -> list[Pair] | None:
    """Pair ``groups`` along ``plan`` with candidate edges of the given ``window``.

    Each group keeps its adjacent pairs except at the ends used by the plan (``up``/``down``
    exits plus ``window`` entries) and around would-be rematches (``window`` / 2 pairs on each
    side); the rest are the *active* entries. Candidate edges join active entries at most
    ``window`` places apart, and every active entry at the lower end of a group to every active
    entry at the upper end of a group it is linked to (the plan's links; with ``every_link``,
    every pair of groups that send exits). The independent pieces of that graph are solved
    exactly (``_Costs``). ``None`` when a piece cannot be paired perfectly.
    """
    pairs: list[Pair] = []
    active: list[int] = []
    tops: list[list[int]] = []
    bottoms: list[list[int]] = []
    pad = window + window % 2  # keeps the parity of the exits at each end
    radius = pad // 2
    for g, group in enumerate(groups):
        size, up, down = len(group), plan.up[g], plan.down[g]
        sends = every_link and (up or down)
        top = up + pad if up or sends else 0
        bottom = down + pad if down or sends else 0
        if top + bottom >= size:  # small group: all of it is active
            active.extend(group)
            tops.append(group)
            bottoms.append(group)
            continue
        tops.append(group[:top])
        bottoms.append(group[size - bottom :])
        active.extend(tops[-1])
        active.extend(bottoms[-1])
        middle = group[top : size - bottom]  # even: the exits have the parity of the group
        count = len(middle) // 2
        near_rematch = [False] * count
        for k in range(count):
            if field.met(middle[2 * k], middle[2 * k + 1]):
                for near in range(max(0, k - radius), min(count, k + radius + 1)):
                    near_rematch[near] = True
        for k in range(count):
            if near_rematch[k]:
                active.extend(middle[2 * k : 2 * k + 2])
            else:
                pairs.append((middle[2 * k], middle[2 * k + 1]))
    if not active:
        return pairs

    active.sort()
    costs = _Costs.for_field(field, active, reach=len(field.ids))
    index = {position: i for i, position in enumerate(active)}
    edges: dict[tuple[int, int], int] = {}
    for i, a in enumerate(active):
        for j in range(i + 1, len(active)):
            b = active[j]
            if b - a > window:
                break
            if not field.met(a, b):
                edges[i, j] = costs.weight(field, a, b, False, rng.getrandbits(_RANDOM_BITS))
    if every_link:
        senders = [g for g in range(len(groups)) if plan.up[g] or plan.down[g]]
        links = [(u, v) for k, u in enumerate(senders) for v in senders[k + 1 :]]
    else:
        links = list(plan.links)
    for upper, lower in links:
        for a in bottoms[upper]:
            for b in tops[lower]:
                key = (index[a], index[b])
                if key not in edges and not field.met(a, b):
                    edges[key] = costs.weight(field, a, b, False, rng.getrandbits(_RANDOM_BITS))

    for piece, piece_edges in _pieces(len(active), edges):
        nodes = [active[i] for i in piece]
        if len(nodes) % 2:
            return None
        local = {i: k for k, i in enumerate(piece)}
        matched = _match(nodes, [(local[i], local[j], w) for i, j, w in piece_edges])
        if matched is None:
            return None
        pairs.extend(matched)
    return pairs


def _pieces(
    count: int, edges: dict[tuple[int, int], int]
) -> list[tuple[list[int], list[tuple[int, int, int]]]]:
    """Connected pieces of a graph on ``0..count-1``: (sorted nodes, their weighted edges)."""
    root = list(range(count))

    def find(i: int) -> int:
        while root[i] != i:
            root[i] = root[root[i]]
            i = root[i]
        return i

    for i, j in edges:
        ri, rj = find(i), find(j)
        if ri != rj:
            root[max(ri, rj)] = min(ri, rj)
    members: dict[int, list[int]] = {}
    for i in range(count):
        members.setdefault(find(i), []).append(i)
    piece_edges: dict[int, list[tuple[int, int, int]]] = {r: [] for r in members}
    for (i, j), weight in edges.items():
        piece_edges[find(i)].append((i, j, weight))
    return [(members[r], piece_edges[r]) for r in sorted(members)]


def pairings_as_sets(pairings: Iterable[Pairing]) -> set[frozenset[EntryId]]:
    """Helper for callers and tests: the tables as unordered pairs (byes left out)."""
    return {frozenset((p.a, p.b)) for p in pairings if p.b is not None}
