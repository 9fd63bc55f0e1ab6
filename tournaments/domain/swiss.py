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

* a lower bound of levels 2 and 3 is computed per score group (``swiss_bounds.exit_plan``):
  a group must send out at least its *deficit* (its size minus twice its largest rematch-free
  matching inside the group: its parity, or 2 for two entries that already met), and the
  cheapest way to join those exits on the points line is found by a small dynamic programme;
  its solution is also a *plan* (how many exits each group sends up and down, and which groups
  exchange them);
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

Modules: this one holds the public API, the bye and the choice of path (the limits below are
read at call time); ``swiss_field`` the standing order, ``swiss_bounds`` the lower bound and
plan, ``swiss_graph`` the edge costs and the exact and sparse solvers.

Determinism: the same candidates and the same ``rng`` state give the same result; inputs are
sorted, sets are never iterated unsorted, random tiebreaks are drawn in a fixed edge order.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from tournaments.domain.swiss_bounds import exit_plan as _exit_plan
from tournaments.domain.swiss_field import Field, Pair, pair_down_score, perfectly_pairable
from tournaments.domain.swiss_field import score_groups as _groups
from tournaments.domain.swiss_field import standing_field as _field
from tournaments.domain.swiss_graph import solve_exact, solve_sparse
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


class PairingError(Exception):
    """Organiser-facing pairing problem (e.g. duplicate entries in the input)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


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
    bye, relaxations, allow_rematch = _bye_and_relaxations(field, everyone)
    rest = everyone if bye is None else [i for i in everyone if i != bye]
    pairs = sorted(_pair_all(field, rest, rng, allow_rematch))
    if allow_rematch:
        relaxations += _rematches(field, pairs)
    return _result(field, pairs, bye, relaxations)


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
    field: Field, pairs: list[Pair], bye: int | None, relaxations: list[Relaxation]
) -> PairingResult:
    """Tables in position order of their better-placed entry (= points desc), the bye last."""
    ids = field.ids
    pairings = [Pairing(table=i + 1, a=ids[a], b=ids[b]) for i, (a, b) in enumerate(pairs)]
    if bye is not None:
        pairings.append(Pairing(table=len(pairings) + 1, a=ids[bye], b=None))
    downs, gap = pair_down_score(field, pairs)
    return PairingResult(
        pairings=tuple(pairings),
        relaxations=tuple(relaxations),
        pair_downs=downs,
        pair_down_gap=gap,
    )


def _rematches(field: Field, pairs: list[Pair]) -> list[Relaxation]:
    """One ``rematch`` relaxation per table whose entries already met."""
    return [
        Relaxation(
            "rematch", (field.ids[a], field.ids[b]), {"reason": "no_pairing_without_rematch"}
        )
        for a, b in pairs
        if field.met(a, b)
    ]


# --- bye -----------------------------------------------------------------------------------


def _bye_and_relaxations(
    field: Field, everyone: list[int]
) -> tuple[int | None, list[Relaxation], bool]:
    """The bye (``None`` for an even count), a ``second_bye`` relaxation if it applies, and
    whether rematches must be allowed to pair the rest."""
    if len(everyone) % 2 == 0:
        return None, [], not perfectly_pairable(field, everyone)
    allow_rematch = False
    bye, relax = _choose_bye(field, everyone)
    if bye is None:  # no bye choice keeps the others rematch-free: relax rematches
        allow_rematch = True
        bye = _fallback_bye(field, everyone)
    relaxations: list[Relaxation] = []
    if field.byes[bye] > 0:
        relaxations.append(
            Relaxation(
                "second_bye",
                (field.ids[bye],),
                {"byes_before": field.byes[bye], "reason": relax or "no_entry_without_bye"},
            )
        )
    return bye, relaxations, allow_rematch


def _choose_bye(field: Field, members: list[int]) -> tuple[int | None, str | None]:
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
            if field.byes[node] == count and perfectly_pairable(
                field, members[:k] + members[k + 1 :]
            ):
                return node, reason
        reason = "no_pairing_without_rematch"
    return None, None


def _fallback_bye(field: Field, members: list[int]) -> int:
    fewest = min(field.byes[i] for i in members)
    return next(i for i in reversed(members) if field.byes[i] == fewest)


# --- pairing of an even set ------------------------------------------------------------------


def _pair_all(
    field: Field, members: list[int], rng: random.Random, allow_rematch: bool
) -> list[Pair]:
    """Pair an even set of positions: the complete graph for small fields, else the sparse path.

    The sparse answer is accepted only when it meets the lower bound of levels 2 and 3 (see the
    module docstring); otherwise the fallback described there applies. The limits are read
    from this module at call time.
    """
    if allow_rematch or len(members) <= EXACT_LIMIT:
        return solve_exact(field, members, rng, allow_rematch)
    groups = _groups(field, members)
    plan = _exit_plan(field, groups)
    if plan is None:  # the groups cannot even be joined on paper: let the exact graph decide
        return solve_exact(field, members, rng, allow_rematch=False)
    best: tuple[tuple[int, int], list[Pair]] | None = None
    window = WINDOW
    while window <= WINDOW_LIMIT:
        pairs = solve_sparse(field, groups, plan, rng, window, every_link=window > WINDOW)
        if pairs is not None:
            score = pair_down_score(field, pairs)
            if score == plan.bound:  # certified optimal on levels 2 and 3
                return pairs
            if best is None or score < best[0]:
                best = (score, pairs)
        if len(members) <= FALLBACK_EXACT_LIMIT:
            return solve_exact(field, members, rng, allow_rematch=False)
        window *= 4
    if best is None:  # no piece layout could be paired: the complete graph always can
        return solve_exact(field, members, rng, allow_rematch=False)
    return best[1]


def pairings_as_sets(pairings: Iterable[Pairing]) -> set[frozenset[EntryId]]:
    """Helper for callers and tests: the tables as unordered pairs (byes left out)."""
    return {frozenset((p.a, p.b)) for p in pairings if p.b is not None}
