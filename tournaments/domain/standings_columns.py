"""The built-in tiebreakers for a whole field at once, in integers (pure, exact).

Each built-in tiebreaker of :mod:`tournaments.domain.standings` is defined by its ``compute``
function, one entry at a time on ``Fraction`` values (the reference). The functions here give
the very same values for every listed entry as *integer numerators over one common
denominator per tiebreaker* (a "column"): ranking then compares integers, and a ``Fraction`` is
made once per distinct value when the rows are written. Nothing is rounded: MW% and GW% are
floored at 1/3 and averaged exactly, as docs/rules.md §15 (Match points and tiebreakers) and
Magic Tournament Rules Appendix C define them.

A column function: ``(listed, stats, scoring) -> (numerators, denominator)``, the numerators
in the order of ``listed``, the denominator positive; or ``None`` when the integer form does
not apply (a scoring with no points for a win), and the caller then uses ``compute``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from tournaments.domain.types import EntryId, Scoring

if TYPE_CHECKING:
    from tournaments.domain.standings import EntryStats

#: The floor of every MW% and GW% (Magic Tournament Rules Appendix C).
FLOOR = Fraction(1, 3)

#: A column: numerators in the order of the listed entries, over one positive denominator.
Column = tuple[list[int], int]
ColumnFunction = Callable[
    [Sequence[EntryId], Mapping[EntryId, "EntryStats"], Scoring], Column | None
]


def buchholz_column(
    listed: Sequence[EntryId], stats: Mapping[EntryId, EntryStats], scoring: Scoring
) -> Column:
    """Buchholz of every listed entry (whole numbers: the denominator is 1)."""
    points = {e: s.match_points for e, s in stats.items()}
    return [sum([points[o] for o in stats[e].opponents]) for e in listed], 1


def median_buchholz_column(
    listed: Sequence[EntryId], stats: Mapping[EntryId, EntryStats], scoring: Scoring
) -> Column:
    """Median Buchholz of every listed entry (whole numbers)."""
    points = {e: s.match_points for e, s in stats.items()}
    out = []
    for e in listed:
        scores = sorted([points[o] for o in stats[e].opponents])
        out.append(sum(scores[1:-1] if len(scores) >= 3 else scores))
    return out, 1


def game_points_column(
    listed: Sequence[EntryId], stats: Mapping[EntryId, EntryStats], scoring: Scoring
) -> Column:
    """Game points of every listed entry (whole numbers)."""
    return [stats[e].game_points for e in listed], 1


def _shares(
    stats: Mapping[EntryId, EntryStats], unit: int, matches: bool
) -> tuple[dict[EntryId, int], int] | None:
    """MW% (``matches``) or GW% of *every* entry in ``stats`` (opponents included) as
    numerators over one denominator ``d``: ``points / (unit × count)`` floored at 1/3, 0 with
    no count; ``d`` is the least common multiple of 3 and every ``unit × count`` present, so
    each numerator is exact. ``None`` when ``unit`` (points for a win) is not positive."""
    if unit <= 0:
        return None
    parts = {
        e: (s.match_points, s.rounds) if matches else (s.game_points, s.games_played)
        for e, s in stats.items()
    }
    d = math.lcm(FLOOR.denominator, *{unit * n for _p, n in parts.values() if n > 0})
    floor = d // FLOOR.denominator * FLOOR.numerator
    return {e: max(floor, p * (d // (unit * n))) if n else 0 for e, (p, n) in parts.items()}, d


def _opponent_average(
    listed: Sequence[EntryId],
    stats: Mapping[EntryId, EntryStats],
    shares: dict[EntryId, int],
    d: int,
) -> Column:
    """The average of the opponents' shares (``shares`` over ``d``; byes have no opponent and
    are left out; 0 with no opponent) of every listed entry, over ``d × lcm(opponent counts)``."""
    counts = {len(stats[e].opponents) for e in listed} - {0}
    common = math.lcm(*counts) if counts else 1
    out = []
    for e in listed:
        opponents = stats[e].opponents
        k = len(opponents)
        out.append(sum([shares[o] for o in opponents]) * (common // k) if k else 0)
    return out, d * common


def omw_column(
    listed: Sequence[EntryId], stats: Mapping[EntryId, EntryStats], scoring: Scoring
) -> Column | None:
    """OMW% of every listed entry: the average of the opponents' floored MW%."""
    got = _shares(stats, scoring.match_win, matches=True)
    return None if got is None else _opponent_average(listed, stats, *got)


def gw_column(
    listed: Sequence[EntryId], stats: Mapping[EntryId, EntryStats], scoring: Scoring
) -> Column | None:
    """GW% of every listed entry, floored at 1/3 (0 with no game)."""
    got = _shares(stats, scoring.game_win, matches=False)
    if got is None:
        return None
    shares, d = got
    return [shares[e] for e in listed], d


def ogw_column(
    listed: Sequence[EntryId], stats: Mapping[EntryId, EntryStats], scoring: Scoring
) -> Column | None:
    """OGW% of every listed entry: the average of the opponents' floored GW%."""
    got = _shares(stats, scoring.game_win, matches=False)
    return None if got is None else _opponent_average(listed, stats, *got)
