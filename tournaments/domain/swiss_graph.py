"""Swiss pairing as maximum-weight matching: edge costs, the exact and the sparse solver (pure).

Internal to ``tournaments.domain.swiss`` (docs/rules.md §14 Swiss pairing and byes; the
objective levels and the sparse method are described in that module's docstring). The engine
is rustworkx's maximum-weight matching (Edmonds' blossom, integer weights,
``max_cardinality=True``); random tiebreaks are drawn from ``rng`` in a fixed edge order.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

import rustworkx as rx

from tournaments.domain.swiss_bounds import Plan
from tournaments.domain.swiss_field import Field, Pair

_RANDOM_BITS = 4
_RANDOM_SPAN = 1 << _RANDOM_BITS

_Edges = dict[tuple[int, int], int]  # (index, index) into the active entries -> weight


@dataclass(frozen=True, slots=True)
class Costs:
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
    def for_field(cls, field: Field, members: Sequence[int], reach: int) -> Costs:
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

    def weight(self, field: Field, a: int, b: int, rematch: bool, tiebreak: int) -> int:
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


def solve_exact(
    field: Field, members: list[int], rng: random.Random, allow_rematch: bool
) -> list[Pair]:
    """One maximum-weight matching over the complete graph of ``members`` (``Costs``).

    Raises:
        RuntimeError: when no perfect matching exists (the caller established feasibility).
    """
    m = len(members)
    if m == 0:
        return []
    costs = Costs.for_field(field, members, reach=m)  # positions: one bye at most left out
    edges: list[tuple[int, int, int]] = []
    for i in range(m):
        a = members[i]
        for j in range(i + 1, m):
            b = members[j]
            rematch = field.met(a, b)
            if rematch and not allow_rematch:
                continue
            edges.append((i, j, costs.weight(field, a, b, rematch, rng.getrandbits(_RANDOM_BITS))))
    pairs = match(members, edges)
    if pairs is None:
        raise RuntimeError("no perfect pairing although feasibility was established")
    return pairs


def match(nodes: list[int], edges: list[tuple[int, int, int]]) -> list[Pair] | None:
    """Maximum-weight matching of ``nodes`` (positions) over ``edges`` given as indices into
    ``nodes`` with integer weights: the pairs of positions, or ``None`` when not perfect."""
    graph = rx.PyGraph()
    graph.add_nodes_from(range(len(nodes)))
    graph.add_edges_from(edges)
    matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    if 2 * len(matching) != len(nodes):
        return None
    return sorted((min(nodes[i], nodes[j]), max(nodes[i], nodes[j])) for i, j in matching)


# --- sparse path ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Layout:
    """How the sparse path splits the field: ``kept`` adjacent pairs, ``active`` entries left to
    match, and per group its active entries at the upper (``tops``) and lower (``bottoms``)
    end (the whole group when it is small)."""

    kept: list[Pair]
    active: list[int]
    tops: list[list[int]]
    bottoms: list[list[int]]


def solve_sparse(
    field: Field,
    groups: list[list[int]],
    plan: Plan,
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
    exactly (``Costs``). ``None`` when a piece cannot be paired perfectly.
    """
    layout = _layout(field, groups, plan, window, every_link)
    pairs = layout.kept
    if not layout.active:
        return pairs
    active = sorted(layout.active)
    costs = Costs.for_field(field, active, reach=len(field.ids))
    edges = _window_edges(field, active, costs, rng, window)
    index = {position: i for i, position in enumerate(active)}
    for upper, lower in _linked_groups(plan, every_link):
        for a in layout.bottoms[upper]:
            for b in layout.tops[lower]:
                key = (index[a], index[b])
                if key not in edges and not field.met(a, b):
                    edges[key] = costs.weight(field, a, b, False, rng.getrandbits(_RANDOM_BITS))
    for piece, piece_edges in pieces(len(active), edges):
        nodes = [active[i] for i in piece]
        if len(nodes) % 2:
            return None
        local = {i: k for k, i in enumerate(piece)}
        matched = match(nodes, [(local[i], local[j], w) for i, j, w in piece_edges])
        if matched is None:
            return None
        pairs.extend(matched)
    return pairs


def _layout(
    field: Field, groups: list[list[int]], plan: Plan, window: int, every_link: bool
) -> _Layout:
    """Split every group into its active ends (exits plus ``window`` entries, rounded up to
    keep the parity) and a middle whose adjacent pairs are kept unless near a rematch."""
    layout = _Layout(kept=[], active=[], tops=[], bottoms=[])
    pad = window + window % 2  # keeps the parity of the exits at each end
    for g, group in enumerate(groups):
        size, up, down = len(group), plan.up[g], plan.down[g]
        sends = every_link and (up or down)
        top = up + pad if up or sends else 0
        bottom = down + pad if down or sends else 0
        if top + bottom >= size:  # small group: all of it is active
            layout.active.extend(group)
            layout.tops.append(group)
            layout.bottoms.append(group)
            continue
        layout.tops.append(group[:top])
        layout.bottoms.append(group[size - bottom :])
        layout.active.extend(layout.tops[-1])
        layout.active.extend(layout.bottoms[-1])
        middle = group[top : size - bottom]  # even: the exits have the parity of the group
        _keep_far_pairs(field, middle, pad // 2, layout)
    return layout


def _keep_far_pairs(field: Field, middle: list[int], radius: int, layout: _Layout) -> None:
    """Keep the adjacent pairs of ``middle`` more than ``radius`` pairs from a would-be rematch;
    the entries of the others become active."""
    count = len(middle) // 2
    near_rematch = [False] * count
    for k in range(count):
        if field.met(middle[2 * k], middle[2 * k + 1]):
            for near in range(max(0, k - radius), min(count, k + radius + 1)):
                near_rematch[near] = True
    for k in range(count):
        if near_rematch[k]:
            layout.active.extend(middle[2 * k : 2 * k + 2])
        else:
            layout.kept.append((middle[2 * k], middle[2 * k + 1]))


def _window_edges(
    field: Field, active: list[int], costs: Costs, rng: random.Random, window: int
) -> _Edges:
    """Rematch-free edges between ``active`` entries (sorted) at most ``window`` places apart."""
    edges: _Edges = {}
    for i, a in enumerate(active):
        for j in range(i + 1, len(active)):
            b = active[j]
            if b - a > window:
                break
            if not field.met(a, b):
                edges[i, j] = costs.weight(field, a, b, False, rng.getrandbits(_RANDOM_BITS))
    return edges


def _linked_groups(plan: Plan, every_link: bool) -> list[tuple[int, int]]:
    """``(upper, lower)`` groups whose ends get every candidate edge: the plan's links, or
    with ``every_link`` every pair of groups that send exits."""
    if not every_link:
        return list(plan.links)
    senders = [g for g in range(len(plan.up)) if plan.up[g] or plan.down[g]]
    return [(u, v) for k, u in enumerate(senders) for v in senders[k + 1 :]]


def pieces(count: int, edges: _Edges) -> list[tuple[list[int], list[tuple[int, int, int]]]]:
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
