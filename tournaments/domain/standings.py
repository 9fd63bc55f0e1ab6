"""Standings with a configurable tiebreaker chain (pure, exact with ``fractions.Fraction``).

Sources: docs/rules.md §8 (HKK tournament structure and scoring: match 3/1/0, game 2/1/0,
Buchholz = sum of the opponents' match points, from the HKK results legend; the order match
points → Buchholz → game points is inferred) and §15 (Match points and tiebreakers: MW%, OMW%,
GW%, OGW%, the 1/3 floor and byes from Magic Tournament Rules §3.1 and Appendix C; median
Buchholz and head-to-head borrowed from chess practice). Each tiebreaker is a scalar key and the
entries are sorted by a tuple of them; head-to-head is applied afterwards, inside the groups
still tied (app convention).

Conventions:

* A match's result follows from its games: more game wins wins, equal is a draw. A match with no
  game recorded is not counted yet. A bye (``b is None``) is a match win with
  ``scoring.bye_games_won`` game wins (2–0: 3 match points, 4 game points under HKK 2/1/0).
  A missed round given as a loss (``MatchTally.forfeit``) is a match loss with no game won and
  ``scoring.bye_games_won`` games lost (0–2): it counts in MW% and GW%, has no opponent, and
  is left out of the opponents' averages like a bye.
* Entries are ordered by match points, then each tiebreaker in the given order (higher is
  better), all compared exactly. Entries equal on all of them share a rank (1, 2, 2, 4); inside a
  shared rank they are listed by entry id, only for display stability.
* Dropped entries stay in the standings (``dropped`` marks them in the rows).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from tournaments.domain import standings_columns as columns
from tournaments.domain.standings_columns import FLOOR as FLOOR  # its home: the columns
from tournaments.domain.standings_columns import ColumnFunction
from tournaments.domain.types import (
    EntryId,
    MatchRecord,
    MatchTally,
    Scoring,
    StandingRow,
    TallyRow,
    gettext_noop,
)

#: HKK default chain after match points (docs/rules.md §8, order inferred).
HKK_TIEBREAKERS: tuple[str, ...] = ("buchholz", "game_points")
#: Magic Tournament Rules §3.1 chain after match points (docs/rules.md §15).
MTR_TIEBREAKERS: tuple[str, ...] = ("omw", "gw", "ogw")


class UnknownTiebreaker(LookupError):  # noqa: N818 (stable public name)
    """Raised by ``get_tiebreaker`` (and ``compute_standings``) for an unregistered code."""


@dataclass(slots=True)
class EntryStats:
    """Accumulated results of one entry (counted matches only).

    ``opponents`` lists every non-bye opponent once per match (a relaxed rematch counts twice);
    ``rounds`` counts matches including byes; ``games_played`` includes the bye's credited games.
    """

    entry: EntryId
    match_points: int = 0
    game_points: int = 0
    rounds: int = 0
    byes: int = 0
    games_played: int = 0
    opponents: list[EntryId] = field(default_factory=list)
    results: list[tuple[EntryId, int]] = field(default_factory=list)  # (opponent, match points)
    #: MW% / GW% already computed for a scoring (each entry is an opponent many times over).
    percentages: dict[tuple[str, Scoring], Fraction] = field(
        default_factory=dict, compare=False, repr=False
    )


Stats = Mapping[EntryId, EntryStats]


#: A within-ties tiebreaker: ``(members of one group still tied on every key before it, all
#: stats, scoring) -> {member: value}``.
WithinTies = Callable[[Sequence[EntryId], Stats, Scoring], Mapping[EntryId, Fraction]]


@dataclass(frozen=True, slots=True)
class Tiebreaker:
    """A registered tiebreaker, whole.

    Attributes:
        code: stable code (stored on formats and tournaments).
        label: its name in the organiser's choices (English msgid; the Django layer
            translates it).
        column: its standings column heading (English msgid).
        compute: ``compute(stats_of_entry, all_stats, scoring) -> Fraction`` for a tiebreaker
            that has a value per entry; ``None`` for a within-ties one.
        within_ties: for a tiebreaker computed inside the groups still tied on the keys before
            it (head-to-head): called once per group, every entry of the group a member
            (:data:`WithinTies`); ``None`` otherwise.
        percent: its value is a share shown as a percentage (OMW%, GW%, OGW%).
        base_column: standings tables already show its value in a base column (game points).
        columns: optional, with ``compute`` only: the same values for the whole field at once
            as integer numerators over one denominator
            (:data:`tournaments.domain.standings_columns.ColumnFunction`), the fast path of
            :func:`compute_standings`; ``compute`` stays the definition (the reference path,
            :func:`compute_standings_reference`, uses it, and the tests hold both equal).
    """

    code: str
    label: str
    column: str
    compute: Callable[[EntryStats, Stats, Scoring], Fraction] | None = None
    within_ties: WithinTies | None = None
    percent: bool = False
    base_column: bool = False
    columns: ColumnFunction | None = None

    def __post_init__(self) -> None:
        if (self.compute is None) == (self.within_ties is None):
            raise ValueError(f"tiebreaker {self.code!r} needs exactly one of compute, within_ties")
        if self.columns is not None and self.compute is None:
            raise ValueError(f"tiebreaker {self.code!r}: columns need compute")


def match_win_pct(s: EntryStats, scoring: Scoring) -> Fraction:
    """MW% = match points / (match_win × rounds, byes included), floored at 1/3 (MTR App. C).

    0 when the entry has no counted round yet. Kept on ``s`` per scoring: OMW% asks for it once
    per opponent."""
    key = ("mw", scoring)
    value = s.percentages.get(key)
    if value is None:
        if s.rounds == 0:
            value = Fraction(0)
        else:
            value = max(FLOOR, Fraction(s.match_points, scoring.match_win * s.rounds))
        s.percentages[key] = value
    return value


def game_win_pct(s: EntryStats, scoring: Scoring) -> Fraction:
    """GW% = game points / (game_win × games played), floored at 1/3; 0 with no game.

    Whether Magic floors the entry's *own* GW% is disputed (docs/rules.md §15 (Match points and
    tiebreakers), inferred); we apply it, as OpenTourney does, so that GW% and OGW% use one
    definition. Kept on ``s`` per scoring, like :func:`match_win_pct`.
    """
    key = ("gw", scoring)
    value = s.percentages.get(key)
    if value is None:
        if s.games_played == 0:
            value = Fraction(0)
        else:
            value = max(FLOOR, Fraction(s.game_points, scoring.game_win * s.games_played))
        s.percentages[key] = value
    return value


def _average(values: list[Fraction]) -> Fraction:
    """The exact mean of ``values`` (0 for none), summed over the least common denominator in
    integers: the same value as adding ``Fraction``s one by one, several times faster."""
    if not values:
        return Fraction(0)
    common = math.lcm(*(v.denominator for v in values))
    total = sum(v.numerator * (common // v.denominator) for v in values)
    return Fraction(total, common * len(values))


def _buchholz(s: EntryStats, stats: Stats, scoring: Scoring) -> Fraction:
    """Sum of the opponents' match points; a bye contributes nothing (no opponent)."""
    return Fraction(sum([stats[o].match_points for o in s.opponents]))


def _median_buchholz(s: EntryStats, stats: Stats, scoring: Scoring) -> Fraction:
    """Buchholz without the highest and the lowest opponent; plain Buchholz with < 3 opponents."""
    scores = sorted(stats[o].match_points for o in s.opponents)
    if len(scores) >= 3:
        scores = scores[1:-1]
    return Fraction(sum(scores))


def _omw(s: EntryStats, stats: Stats, scoring: Scoring) -> Fraction:
    """Average of the opponents' MW% (each floored at 1/3); byes left out; 0 with no opponent."""
    return _average([match_win_pct(stats[o], scoring) for o in s.opponents])


def _gw(s: EntryStats, stats: Stats, scoring: Scoring) -> Fraction:
    return game_win_pct(s, scoring)


def _ogw(s: EntryStats, stats: Stats, scoring: Scoring) -> Fraction:
    """Average of the opponents' GW% (each floored at 1/3); byes left out; 0 with no opponent."""
    return _average([game_win_pct(stats[o], scoring) for o in s.opponents])


def _game_points(s: EntryStats, stats: Stats, scoring: Scoring) -> Fraction:
    return Fraction(s.game_points)


def _head_to_head(
    members: Sequence[EntryId], stats: Stats, scoring: Scoring
) -> dict[EntryId, Fraction]:
    """Inside one tied group: the match points each member scored against the other members
    (FIDE's "direct encounter"), if every two members have met; otherwise 0 for every member
    (so it does not split the group)."""
    member_set = set(members)
    met = {frozenset((e, opp)) for e in members for opp in stats[e].opponents if opp in member_set}
    all_met = len(members) > 1 and len(met) == len(members) * (len(members) - 1) // 2
    return {
        e: Fraction(sum(p for opp, p in stats[e].results if opp in member_set))
        if all_met
        else Fraction(0)
        for e in members
    }


TIEBREAKERS: dict[str, Tiebreaker] = {
    "buchholz": Tiebreaker(
        "buchholz",
        gettext_noop("Buchholz (sum of the opponents' match points)"),
        gettext_noop("Buchholz"),
        _buchholz,
        columns=columns.buchholz_column,
    ),
    "median_buchholz": Tiebreaker(
        "median_buchholz",
        gettext_noop("Median Buchholz"),
        gettext_noop("Median Buchholz"),
        _median_buchholz,
        columns=columns.median_buchholz_column,
    ),
    "omw": Tiebreaker(
        "omw",
        gettext_noop("Opponents' match-win %"),
        gettext_noop("OMW%"),
        _omw,
        percent=True,
        columns=columns.omw_column,
    ),
    "gw": Tiebreaker(
        "gw",
        gettext_noop("Game-win %"),
        gettext_noop("GW%"),
        _gw,
        percent=True,
        columns=columns.gw_column,
    ),
    "ogw": Tiebreaker(
        "ogw",
        gettext_noop("Opponents' game-win %"),
        gettext_noop("OGW%"),
        _ogw,
        percent=True,
        columns=columns.ogw_column,
    ),
    "game_points": Tiebreaker(
        "game_points",
        gettext_noop("Game points"),
        gettext_noop("Game points (tiebreaker)"),
        _game_points,
        base_column=True,
        columns=columns.game_points_column,
    ),
    "head_to_head": Tiebreaker(
        "head_to_head",
        gettext_noop("Head-to-head"),
        gettext_noop("Head-to-head"),
        within_ties=_head_to_head,
    ),
}


def get_tiebreaker(code: str) -> Tiebreaker:
    """The tiebreaker registered under ``code``; raises ``UnknownTiebreaker``."""
    try:
        return TIEBREAKERS[code]
    except KeyError:
        raise UnknownTiebreaker(code) from None


def register_tiebreaker(tiebreaker: Tiebreaker) -> Tiebreaker:
    """Add ``tiebreaker`` to ``TIEBREAKERS`` (the one step of adding a tiebreaker; the Django
    system check of ``tournaments`` then checks stored codes against the registry).

    Raises:
        ValueError: the code is already registered, or the label or column is empty.
    """
    if tiebreaker.code in TIEBREAKERS:
        raise ValueError(f"tiebreaker {tiebreaker.code!r} is already registered")
    if not (tiebreaker.label and tiebreaker.column):
        raise ValueError(f"tiebreaker {tiebreaker.code!r} needs a label and a column")
    TIEBREAKERS[tiebreaker.code] = tiebreaker
    return tiebreaker


def _tally(match: MatchRecord | MatchTally, games_per_match: int) -> tuple[int, int, int] | None:
    """``(a_wins, b_wins, games)`` of a counted non-bye match, ``None`` when no game is
    recorded. Raises ``ValueError`` for more than ``games_per_match`` games, a game won by
    neither entry, or counts that do not add up."""
    if isinstance(match, MatchTally):
        a_wins, b_wins, games = match.a_wins, match.b_wins, match.games
        if min(a_wins, b_wins) < 0 or a_wins + b_wins > games:
            raise ValueError(f"match {match.a}-{match.b}: {a_wins}+{b_wins} wins in {games} games")
    else:
        for game in match.games:
            if game.winner not in (None, match.a, match.b):
                raise ValueError(f"game winner {game.winner} is not in the match")
        a_wins = sum(1 for g in match.games if g.winner == match.a)
        b_wins = sum(1 for g in match.games if g.winner == match.b)
        games = len(match.games)
    if games > games_per_match:
        raise ValueError(f"match {match.a}-{match.b} has more than {games_per_match} games")
    return (a_wins, b_wins, games) if games else None


def collect_stats(
    matches: Sequence[MatchRecord | MatchTally], *, scoring: Scoring, games_per_match: int = 3
) -> dict[EntryId, EntryStats]:
    """Per-entry totals from the counted matches (see the module docstring for the rules).

    ``matches`` are :class:`MatchRecord` (with their games) or :class:`MatchTally` (game
    counts only, as read from the database); both count the same.

    Raises ``ValueError`` when a match has more than ``games_per_match`` games or a game's
    winner is not one of its two entries.
    """
    stats: dict[EntryId, EntryStats] = {}

    def get(entry: EntryId) -> EntryStats:
        s = stats.get(entry)
        if s is None:
            s = stats[entry] = EntryStats(entry)
        return s

    for match in matches:
        if match.b is None and getattr(match, "forfeit", False):
            s = get(match.a)
            s.rounds += 1
            s.match_points += scoring.match_loss
            s.game_points += scoring.bye_games_won * scoring.game_loss
            s.games_played += scoring.bye_games_won
            continue
        if match.b is None:
            s = get(match.a)
            s.rounds += 1
            s.byes += 1
            s.match_points += scoring.match_win
            s.game_points += scoring.bye_games_won * scoring.game_win
            s.games_played += scoring.bye_games_won
            continue
        tally = _tally(match, games_per_match)
        if tally is None:
            continue
        a_wins, b_wins, games = tally
        draws = games - a_wins - b_wins
        for me, opp, mine, theirs in (
            (match.a, match.b, a_wins, b_wins),
            (match.b, match.a, b_wins, a_wins),
        ):
            s = get(me)
            if mine > theirs:
                points = scoring.match_win
            elif mine == theirs:
                points = scoring.match_draw
            else:
                points = scoring.match_loss
            s.rounds += 1
            s.match_points += points
            s.game_points += (
                mine * scoring.game_win + draws * scoring.game_draw + theirs * scoring.game_loss
            )
            s.games_played += games
            s.opponents.append(opp)
            s.results.append((opp, points))
    return stats


def compute_standings_reference(
    entry_ids: Sequence[EntryId],
    matches: Sequence[MatchRecord | MatchTally],
    *,
    scoring: Scoring,
    tiebreakers: Sequence[str],
    games_per_match: int = 3,
    dropped: Collection[EntryId] = frozenset(),
) -> list[StandingRow]:
    """Rank ``entry_ids`` from ``matches``: the reference path, one entry and one ``Fraction``
    at a time through each tiebreaker's ``compute`` (the definition). :func:`compute_standings`
    gives the same rows faster; the tests hold the two equal.

    Args:
        entry_ids: every entry to list (dropped ones included); ids seen only in matches are
            used as opponents but not listed.
        matches: all matches so far (byes as ``b=None``), with their games
            (:class:`MatchRecord`) or their game counts (:class:`MatchTally`); ones without
            games are skipped.
        scoring: points per match and game.
        tiebreakers: ordered codes from ``TIEBREAKERS`` applied after match points.
        games_per_match: upper bound of games per match (validation only).
        dropped: entries to mark ``dropped=True`` in their rows.

    Returns:
        Rows in standing order; ``rank`` is shared on a true tie (equal match points and equal
        values of every tiebreaker), then the tie is listed by entry id.

    A within-ties tiebreaker (``Tiebreaker.within_ties``, e.g. ``head_to_head``) is a
    post-pass: its function is called once per group still tied on all keys before it.
    ``head_to_head``: an entry's value is the match points it scored against the other
    members of the group, as FIDE's "direct encounter"; it applies only if every two members
    of the group have met, otherwise every member of the group gets 0 (so it does not split
    the group).

    Raises:
        UnknownTiebreaker: for an unknown code. ValueError: see ``collect_stats``.
    """
    chain = [get_tiebreaker(code) for code in tiebreakers]
    stats = collect_stats(matches, scoring=scoring, games_per_match=games_per_match)
    for entry in entry_ids:
        stats.setdefault(entry, EntryStats(entry))
    listed = sorted(set(entry_ids))
    keys: dict[EntryId, list[Fraction]] = {e: [Fraction(stats[e].match_points)] for e in listed}
    for tb in chain:
        if tb.within_ties is not None:
            values = _within_ties(tb.within_ties, listed, keys, stats, scoring)
        else:
            assert tb.compute is not None  # one of the two (Tiebreaker.__post_init__)
            values = {e: tb.compute(stats[e], stats, scoring) for e in listed}
        for e in listed:
            keys[e].append(values[e])
    ranks = _dense_ranks(listed, keys)
    order = sorted(listed, key=lambda e: (ranks[e], e))
    rows: list[StandingRow] = []
    dropped_set = set(dropped)
    for position, entry in enumerate(order, start=1):
        tied = bool(rows) and ranks[entry] == ranks[rows[-1].entry]
        rank = rows[-1].rank if tied else position
        s = stats[entry]
        rows.append(
            StandingRow(
                rank=rank,
                entry=entry,
                match_points=s.match_points,
                game_points=s.game_points,
                matches_played=s.rounds,
                tiebreakers={code: keys[entry][i + 1] for i, code in enumerate(tiebreakers)},
                dropped=entry in dropped_set,
            )
        )
    return rows


def _dense_ranks(
    listed: list[EntryId], keys: Mapping[EntryId, list[Fraction]]
) -> dict[EntryId, tuple[int, ...]]:
    """Each entry's keys replaced by their dense rank per column, best first (0 = highest value):
    comparing these integer tuples orders and ties exactly as comparing the ``Fraction`` keys
    (higher is better), without comparing fractions ``n log n`` times. Whole values (match
    points, Buchholz, game points) are hashed as ``int``: equal to their ``Fraction`` and far
    cheaper to hash."""
    columns = len(keys[listed[0]]) if listed else 0
    by_column: list[list[int | Fraction]] = [
        [v.numerator if v.denominator == 1 else v for v in (keys[e][i] for e in listed)]
        for i in range(columns)
    ]
    ranks_by_column: list[list[int]] = []
    for column in by_column:
        distinct = sorted(set(column), reverse=True)
        rank_of = {v: r for r, v in enumerate(distinct)}
        ranks_by_column.append([rank_of[v] for v in column])
    return {e: tuple(col[j] for col in ranks_by_column) for j, e in enumerate(listed)}


def _within_ties(
    function: WithinTies,
    listed: list[EntryId],
    keys: Mapping[EntryId, list[Fraction]],
    stats: Stats,
    scoring: Scoring,
) -> dict[EntryId, Fraction]:
    """``function`` called once per group of entries still tied on every key so far; an entry
    the function leaves out gets 0."""
    groups: dict[tuple[Fraction, ...], list[EntryId]] = {}
    for e in listed:
        groups.setdefault(tuple(keys[e]), []).append(e)
    values: dict[EntryId, Fraction] = {}
    for members in groups.values():
        got = function(members, stats, scoring)
        for e in members:
            values[e] = Fraction(got.get(e, 0))
    return values


def tally_rows(
    matches: Sequence[MatchRecord | MatchTally], games_per_match: int = 3
) -> list[TallyRow]:
    """``matches`` as plain :data:`TallyRow` tuples (game counts), checked as
    :func:`collect_stats` checks them (``ValueError``: more than ``games_per_match`` games, a
    game won by neither entry, counts that do not add up)."""
    rows: list[TallyRow] = []
    for match in matches:
        if match.b is None:
            rows.append((match.a, None, 0, 0, 0, bool(getattr(match, "forfeit", False))))
            continue
        tally = _tally(match, games_per_match)
        a_wins, b_wins, games = tally if tally is not None else (0, 0, 0)
        rows.append((match.a, match.b, a_wins, b_wins, games, False))
    return rows


def tally_stats(
    tallies: Iterable[TallyRow],
    *,
    scoring: Scoring,
    games_per_match: int = 3,
    results: bool = True,
) -> dict[EntryId, EntryStats]:
    """Per-entry totals from counted matches given as :data:`TallyRow` tuples: the same as
    :func:`collect_stats` (same rules, same ``ValueError`` for impossible counts), in one tight
    loop over plain values. ``results=False`` leaves ``EntryStats.results`` empty (no
    tiebreaker of the chain reads it)."""
    stats: dict[EntryId, EntryStats] = {}
    new = EntryStats
    mw, md, ml = scoring.match_win, scoring.match_draw, scoring.match_loss
    points = {1: (mw, ml), 0: (md, md), -1: (ml, mw)}
    gw, gd, gl = scoring.game_win, scoring.game_draw, scoring.game_loss
    for a, b, a_wins, b_wins, games, forfeit in tallies:
        sa = stats.get(a)
        if sa is None:
            sa = stats[a] = new(a)
        if b is None:
            _score_bye(sa, scoring, forfeit)
            continue
        if not games:
            continue
        if a_wins < 0 or b_wins < 0 or a_wins + b_wins > games or games > games_per_match:
            raise ValueError(f"match {a}-{b}: {a_wins}+{b_wins} wins in {games} games")
        sb = stats.get(b)
        if sb is None:
            sb = stats[b] = new(b)
        pa, pb = points[(a_wins > b_wins) - (a_wins < b_wins)]
        draws = (games - a_wins - b_wins) * gd
        sa.rounds += 1
        sb.rounds += 1
        sa.match_points += pa
        sb.match_points += pb
        sa.game_points += a_wins * gw + draws + b_wins * gl
        sb.game_points += b_wins * gw + draws + a_wins * gl
        sa.games_played += games
        sb.games_played += games
        sa.opponents.append(b)
        sb.opponents.append(a)
        if results:
            sa.results.append((b, pa))
            sb.results.append((a, pb))
    return stats


def _score_bye(s: EntryStats, scoring: Scoring, forfeit: bool) -> None:
    """A bye (a match win, ``bye_games_won`` games won) or, with ``forfeit``, a missed round
    scored as a loss (as many games lost), added to ``s``."""
    s.rounds += 1
    s.games_played += scoring.bye_games_won
    if forfeit:
        s.match_points += scoring.match_loss
        s.game_points += scoring.bye_games_won * scoring.game_loss
    else:
        s.byes += 1
        s.match_points += scoring.match_win
        s.game_points += scoring.bye_games_won * scoring.game_win


def compute_standings(
    entry_ids: Sequence[EntryId],
    matches: Sequence[MatchRecord | MatchTally],
    *,
    scoring: Scoring,
    tiebreakers: Sequence[str],
    games_per_match: int = 3,
    dropped: Collection[EntryId] = frozenset(),
) -> list[StandingRow]:
    """Rank ``entry_ids`` from ``matches``: the rows of :func:`compute_standings_reference`
    (same arguments, rules, ties and errors; see there), computed by :func:`rank_tallies`."""
    return rank_tallies(
        entry_ids,
        tally_rows(matches, games_per_match),
        scoring=scoring,
        tiebreakers=tiebreakers,
        games_per_match=games_per_match,
        dropped=dropped,
    )


def rank_tallies(
    entry_ids: Sequence[EntryId],
    tallies: Iterable[TallyRow],
    *,
    scoring: Scoring,
    tiebreakers: Sequence[str],
    games_per_match: int = 3,
    dropped: Collection[EntryId] = frozenset(),
) -> list[StandingRow]:
    """Rank ``entry_ids`` from counted matches given as :data:`TallyRow` tuples (as the
    database reads them): the same rows as :func:`compute_standings_reference`, in integers
    until the rows are written. Match points and every tiebreaker with an integer form
    (``Tiebreaker.columns``: all built-in ones) are integer columns over one denominator each;
    other tiebreakers are computed by their ``compute`` / ``within_ties`` functions; the
    columns are ranked as integers (:func:`_column_ranks`) and each distinct value becomes one
    exact ``Fraction`` in the rows.

    Raises:
        UnknownTiebreaker: for an unknown code. ValueError: see :func:`tally_stats`.
    """
    chain = [get_tiebreaker(code) for code in tiebreakers]
    results = any(tb.columns is None for tb in chain)  # only other tiebreakers read results
    stats = tally_stats(tallies, scoring=scoring, games_per_match=games_per_match, results=results)
    for entry in entry_ids:
        if entry not in stats:
            stats[entry] = EntryStats(entry)
    listed = sorted(set(entry_ids))
    cols: list[list[int | Fraction]] = [[stats[e].match_points for e in listed]]
    denominators: list[int | None] = [1]
    for tb in chain:
        column = tb.columns(listed, stats, scoring) if tb.columns is not None else None
        if column is not None:
            cols.append(list(column[0]))
            denominators.append(column[1])
            continue
        if tb.within_ties is not None:
            got = _within_groups(tb.within_ties, _tied_groups(listed, cols), stats, scoring)
        else:
            assert tb.compute is not None  # one of the two (Tiebreaker.__post_init__)
            got = {e: tb.compute(stats[e], stats, scoring) for e in listed}
        cols.append([v.numerator if v.denominator == 1 else v for v in (got[e] for e in listed)])
        denominators.append(None)
    values = [_exact_values(col, den) for col, den in zip(cols, denominators, strict=True)]
    return _rows(listed, stats, tiebreakers, _column_ranks(cols), values[1:], set(dropped))


def _tied_groups(listed: list[EntryId], cols: list[list[int | Fraction]]) -> list[list[EntryId]]:
    """The groups of entries equal on every column so far, in the order of ``listed``."""
    groups: dict[tuple[int | Fraction, ...], list[EntryId]] = {}
    for j, e in enumerate(listed):
        groups.setdefault(tuple(col[j] for col in cols), []).append(e)
    return list(groups.values())


def _within_groups(
    function: WithinTies, groups: list[list[EntryId]], stats: Stats, scoring: Scoring
) -> dict[EntryId, Fraction]:
    """``function`` called once per tied group; an entry the function leaves out gets 0."""
    values: dict[EntryId, Fraction] = {}
    for members in groups:
        got = function(members, stats, scoring)
        for e in members:
            values[e] = Fraction(got.get(e, 0))
    return values


def _column_ranks(cols: list[list[int | Fraction]]) -> list[tuple[int, ...]]:
    """Per entry (the columns' order), its dense rank in every column, best (highest) = 0:
    comparing these tuples orders and ties exactly as comparing the values."""
    ranked = []
    for col in cols:
        rank_of = {v: r for r, v in enumerate(sorted(set(col), reverse=True))}
        ranked.append([rank_of[v] for v in col])
    return list(zip(*ranked, strict=True)) if ranked else []


def _exact_values(col: list[int | Fraction], denominator: int | None) -> list[Fraction]:
    """A column as exact values: numerators over ``denominator`` (``None``: the values
    themselves), one ``Fraction`` per distinct value."""
    made: dict[int | Fraction, Fraction] = {}
    out = []
    for v in col:
        value = made.get(v)
        if value is None:
            value = made[v] = Fraction(v, denominator) if denominator else Fraction(v)
        out.append(value)
    return out


def _rows(
    listed: list[EntryId],
    stats: Stats,
    codes: Sequence[str],
    ranks: list[tuple[int, ...]],
    values: list[list[Fraction]],
    dropped: set[EntryId],
) -> list[StandingRow]:
    """The rows in standing order; a true tie shares the rank, listed by entry id."""
    order = sorted(range(len(listed)), key=lambda j: (ranks[j], listed[j]))
    rows: list[StandingRow] = []
    for position, j in enumerate(order, start=1):
        tied = bool(rows) and ranks[j] == ranks[order[position - 2]]
        entry = listed[j]
        s = stats[entry]
        rows.append(
            StandingRow(
                rank=rows[-1].rank if tied else position,
                entry=entry,
                match_points=s.match_points,
                game_points=s.game_points,
                matches_played=s.rounds,
                tiebreakers={code: values[i][j] for i, code in enumerate(codes)},
                dropped=entry in dropped,
            )
        )
    return rows


def suggested_rounds(entry_count: int) -> int:
    """Suggested number of Swiss rounds: ``max(3, ceil(log2(n)))``, at most what the field allows.

    ceil(log2 n) rounds leave one undefeated entry at most (MTR Appendix E uses about that);
    HKK events typically play 4–5 rounds (docs/rules.md §8), which this gives for 9–32 entries. The
    result never exceeds the rounds possible without a rematch (n − 1, or n when odd, since each
    round one entry sits out), and is 0 below 2 entries.
    """
    if entry_count < 2:
        return 0
    wanted = max(3, math.ceil(math.log2(entry_count)))
    limit = entry_count if entry_count % 2 else entry_count - 1
    return min(wanted, limit)
