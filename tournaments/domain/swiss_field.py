"""The field of one Swiss round in standing order, shared by the pairing modules (pure).

Internal to ``tournaments.domain.swiss`` (docs/rules.md §14 Swiss pairing and byes): an entry
is known by its *position* in the standing order (match points desc, rank asc, id), a pair by
two positions with the better-placed first. ``swiss_bounds`` and ``swiss_graph`` build on it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import rustworkx as rx

from tournaments.domain.types import EntryId, PairingCandidate

Pair = tuple[int, int]  # two positions in the standing order, the better-placed first


@dataclass(frozen=True, slots=True)
class Field:
    """The candidates in standing order; an entry is known by its position (index) here."""

    ids: tuple[EntryId, ...]
    points: tuple[int, ...]
    opponents: tuple[frozenset[EntryId], ...]
    byes: tuple[int, ...]

    def met(self, a: int, b: int) -> bool:
        """Have the entries at positions ``a`` and ``b`` already played each other?"""
        return self.ids[b] in self.opponents[a]


def standing_field(candidates: Sequence[PairingCandidate]) -> Field:
    """The candidates in standing order: match points desc, rank asc, id."""
    ordered = sorted(candidates, key=lambda c: (-c.match_points, c.rank, c.id))
    return Field(
        ids=tuple(c.id for c in ordered),
        points=tuple(c.match_points for c in ordered),
        opponents=tuple(frozenset(c.opponents) for c in ordered),
        byes=tuple(c.byes for c in ordered),
    )


def score_groups(field: Field, members: list[int]) -> list[list[int]]:
    """Score groups of ``members`` (in order, points descending)."""
    groups: list[list[int]] = []
    points = field.points
    for i in members:
        if groups and points[groups[-1][0]] == points[i]:
            groups[-1].append(i)
        else:
            groups.append([i])
    return groups


def pair_down_score(field: Field, pairs: Iterable[Pair]) -> tuple[int, int]:
    """(number of pair-downs, summed point gap) of a pairing."""
    points = field.points
    gaps = [points[a] - points[b] for a, b in pairs if points[a] != points[b]]
    return len(gaps), sum(gaps)


def perfectly_pairable(field: Field, members: list[int]) -> bool:
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
    return 2 * rematch_free_matching(field, members) == m


def rematch_free_matching(field: Field, members: list[int]) -> int:
    """Size (in pairs) of a largest rematch-free matching of ``members``."""
    m = len(members)
    graph = rx.PyGraph()
    graph.add_nodes_from(range(m))
    graph.add_edges_from_no_data(
        [(i, j) for i in range(m) for j in range(i + 1, m) if not field.met(members[i], members[j])]
    )
    return len(rx.max_weight_matching(graph, max_cardinality=True))
