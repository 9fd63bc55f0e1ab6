"""Sparse Swiss path: the lower bound of pair-downs and their gap, and the exit plan (pure).

Internal to ``tournaments.domain.swiss`` (docs/rules.md §14 Swiss pairing and byes; the method
is described in that module's docstring). A score group must send out at least its *deficit*;
a small dynamic programme joins those exits on the points line at the least cost, which is a
lower bound of objective levels 2 and 3 and, read backwards, a plan for ``swiss_graph``.
"""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.domain.swiss_field import Field, rematch_free_matching

_State = tuple[int, int]  # exit plan: (open exits, extra exits used)
_Value = tuple[int, int, int]  # value of a state: (pair-downs, summed gap, places travelled)
_Parent = tuple[_State, int, int]  # (previous state, exits of the group, exits met from above)


@dataclass(frozen=True, slots=True)
class Plan:
    """Lower bound of (pair-downs, summed gap) and one way to reach it on paper.

    ``up[g]``/``down[g]``: entries of group ``g`` paired with a group above / below;
    ``links``: ``(upper, lower)`` group pairs exchanging such entries.
    """

    bound: tuple[int, int]
    up: tuple[int, ...]
    down: tuple[int, ...]
    links: tuple[tuple[int, int], ...]


def deficit(field: Field, group: list[int]) -> int:
    """Entries of ``group`` that must be paired outside it: its size minus twice its largest
    rematch-free matching inside the group (the parity when Dirac's condition holds)."""
    size = len(group)
    if size >= 3 and 2 * (size - 1 - max(len(field.opponents[i]) for i in group)) >= size:
        return size % 2  # Dirac, counting every opponent met as if inside the group
    ids = {field.ids[i] for i in group}
    inside = max(len(field.opponents[i] & ids) for i in group)
    if inside == 0 or (size >= 3 and 2 * (size - 1 - inside) >= size):
        return size % 2
    return size - 2 * rematch_free_matching(field, group)


def exit_plan(field: Field, groups: list[list[int]]) -> Plan | None:
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
    deficits = [deficit(field, g) for g in groups]
    extra = max(0, 2 * max(deficits) - sum(deficits))
    below = [0] * (len(groups) + 1)  # exits available below each group (extras included)
    for g in range(len(groups) - 1, -1, -1):
        below[g] = below[g + 1] + deficits[g]
    states: dict[_State, _Value] = {(0, 0): (0, 0, 0)}
    back: list[dict[_State, _Parent]] = []
    for g, group in enumerate(groups):
        if g:
            states = _travel(field, states, groups[g - 1], group)
        states, parent = _send_exits(states, group, deficits[g], extra, below[g + 1])
        back.append(parent)
    final: _State = (0, extra)
    if final not in states:
        return None
    up, down = _exits_per_group(back, final)
    return Plan(states[final][:2], tuple(up), tuple(down), _links(up, down))


def _travel(
    field: Field, states: dict[_State, _Value], upper: list[int], group: list[int]
) -> dict[_State, _Value]:
    """Carry the open exits from group ``upper`` down to the next ``group``: each pays the
    point step and the places between the two groups."""
    step = field.points[upper[0]] - field.points[group[0]]
    places = group[0] - upper[-1]
    return {
        key: (count, gap + key[0] * step, dist + key[0] * places)
        for key, (count, gap, dist) in states.items()
    }


def _send_exits(
    states: dict[_State, _Value], group: list[int], required: int, extra: int, below: int
) -> tuple[dict[_State, _Value], dict[_State, _Parent]]:
    """One step of the programme: ``group`` sends its ``required`` exits (its deficit) plus
    extra ones (in pairs); they meet open exits from above (one pair-down each) or stay open,
    as long as the exits still open can be met by the ``below`` exits further down."""
    size, through = len(group), group[-1] - group[0]
    new: dict[_State, _Value] = {}
    parent: dict[_State, _Parent] = {}
    for key in sorted(states):
        open_, used = key
        count, gap, dist = states[key]
        for add in range(0, min(extra - used, size - required) + 1, 2):
            exits = required + add
            for met in range(min(open_, exits), -1, -1):
                left = open_ - met + exits - met
                if left > below + extra - used - add:
                    continue  # too many open exits to be met below
                nkey = (left, used + add)
                value = (count + met, gap, dist + (open_ - met) * through)
                if nkey not in new or value < new[nkey]:
                    new[nkey] = value
                    parent[nkey] = (key, exits, met)
    return new, parent


def _exits_per_group(
    back: list[dict[_State, _Parent]], final: _State
) -> tuple[list[int], list[int]]:
    """Follow the programme back from ``final``: exits each group sends up and down."""
    up = [0] * len(back)
    down = [0] * len(back)
    key = final
    for g in range(len(back) - 1, -1, -1):
        key, exits, met = back[g][key]
        up[g], down[g] = met, exits - met
    return up, down


def _links(up: list[int], down: list[int]) -> tuple[tuple[int, int], ...]:
    """``(upper, lower)`` groups joined by the plan: each exit going up meets the nearest open
    exit sent down from above."""
    links: list[tuple[int, int]] = []
    stack: list[int] = []  # groups of the open exits, one entry per exit (nearest last)
    for g in range(len(up)):
        for _ in range(up[g]):
            links.append((stack.pop(), g))
        stack.extend([g] * down[g])
    return tuple(sorted(set(links)))
