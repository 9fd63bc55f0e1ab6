"""Top cut: single elimination of the best 4, 8 or 16 entries of the Swiss standings, seeded
so that the top seeds meet last (1 v 8, 4 v 5, 2 v 7, 3 v 6 for eight). The higher seed of a
match may choose who starts game 1 when the event uses that rule (Magic Tournament Rules
2.2 and the WoW TCG floor rules practice; docs/rules.md §14 (Swiss pairing and byes), §15
(Match points and tiebreakers)). Pure: entries are ids, seeds 1-based.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.domain.types import EntryId

__all__ = [
    "BRACKET_SIZES",
    "BracketMatch",
    "TopCutError",
    "bracket_order",
    "first_bracket_round",
    "next_bracket_round",
]

#: Bracket sizes an event may cut to.
BRACKET_SIZES = (4, 8, 16)


class TopCutError(ValueError):
    """A top cut that cannot be made; ``code``: ``bad_size``, ``too_few_entries``,
    ``odd_round`` (an odd number of winners), ``no_winner`` (a match without a winner)."""

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


@dataclass(frozen=True, slots=True)
class BracketMatch:
    """One bracket match: ``position`` (1-based, top to bottom; the table number), the higher
    seed ``high`` (who may choose who starts) and the lower seed ``low``, with their seeds."""

    position: int
    high: EntryId
    low: EntryId
    high_seed: int
    low_seed: int


def bracket_order(size: int) -> list[tuple[int, int]]:
    """Seed pairs of the first round, top to bottom, so that seeds 1 and 2 can only meet in
    the final: 4 → (1,4), (2,3); 8 → (1,8), (4,5), (2,7), (3,6). Raises ``TopCutError
    ("bad_size")`` unless ``size`` is a power of two ≥ 2."""
    if size < 2 or size & (size - 1):
        raise TopCutError("bad_size", size=size)
    order = [1, 2]
    while len(order) < size:
        n = len(order) * 2 + 1
        order = [s for seed in order for s in (seed, n - seed)]
    return [(order[i], order[i + 1]) for i in range(0, size, 2)]


def first_bracket_round(ranked: Sequence[EntryId], size: int) -> tuple[BracketMatch, ...]:
    """The first bracket round of the top ``size`` of ``ranked`` (standings order, best
    first). Raises ``TopCutError`` (``bad_size`` unless 4, 8 or 16; ``too_few_entries``)."""
    if size not in BRACKET_SIZES:
        raise TopCutError("bad_size", size=size)
    if len(ranked) < size:
        raise TopCutError("too_few_entries", size=size, entries=len(ranked))
    return tuple(
        BracketMatch(position, ranked[a - 1], ranked[b - 1], a, b)
        for position, (a, b) in enumerate(bracket_order(size), start=1)
    )


def next_bracket_round(
    previous: Sequence[BracketMatch], winners: Sequence[EntryId | None]
) -> tuple[BracketMatch, ...]:
    """The next round: the winners of positions 1 and 2 meet, 3 and 4, … ; the better
    (lower-numbered) seed is ``high``. ``winners[i]`` is the winner of ``previous[i]``.
    Raises ``TopCutError`` (``no_winner``, ``odd_round``); an empty tuple after the final."""
    if len(previous) != len(winners):
        raise TopCutError("no_winner")
    seeds: list[tuple[EntryId, int]] = []
    for match, winner in zip(previous, winners, strict=True):
        if winner == match.high:
            seeds.append((match.high, match.high_seed))
        elif winner == match.low:
            seeds.append((match.low, match.low_seed))
        else:
            raise TopCutError("no_winner", position=match.position)
    if len(seeds) == 1:
        return ()
    if len(seeds) % 2:
        raise TopCutError("odd_round", matches=len(seeds))
    out = []
    for i in range(0, len(seeds), 2):
        x, y = sorted((seeds[i], seeds[i + 1]), key=lambda s: s[1])
        out.append(BracketMatch(i // 2 + 1, x[0], y[0], x[1], y[1]))
    return tuple(out)
