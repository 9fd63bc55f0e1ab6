"""Read model of matches and games: lookups that raise typed errors, the first-player state of a
match, its score and the domain records the standings are computed from. No writes here.

Rules: docs/rules.md §6 (HKK first-player rights), §15 (Match points and tiebreakers).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connections
from django.db.models import Count, F, Q, QuerySet
from django.utils.translation import gettext_lazy as _

from hkk_tournament.errors import NotFound
from tournaments.domain import first_player as first_player_domain
from tournaments.domain import match as match_domain
from tournaments.domain.types import GameRecord, MatchTally, TallyRow
from tournaments.models import Entry, Game, Match, MissedRound, Round, Tournament

# --- lookups ------------------------------------------------------------------------------


def match_get(*, tournament: Tournament, match_id: int) -> Match:
    """A match of ``tournament`` or ``NotFound("match_not_found")``."""
    match = (
        Match.objects.select_related("round__tournament")
        .filter(pk=match_id, round__tournament=tournament)
        .first()
    )
    if match is None:
        raise NotFound(
            "match_not_found", _("No such match in this tournament."), {"match": match_id}
        )
    return match


#: The columns of a match a write reads before it locks the row (the locked re-read,
#: ``services.match_rules.locked_match``, reads it whole): the checks of its actor
#: (``permissions.require_judge_of_match``) and the lock need only these.
_TO_LOCK_FIELDS = ("id", "round_id", "table", "entry_a_id", "entry_b_id", "round__tournament_id")


def match_to_lock(*, tournament: Tournament, match_id: int) -> Match:
    """A match of ``tournament`` for a write that locks it next (``locked_match``), read
    narrow: its id, round, table and entries only (other fields are deferred: reading one
    costs a query), its round's id and tournament only, ``match.round.tournament`` set to
    ``tournament``. One query. ``NotFound("match_not_found")`` as :func:`match_get`."""
    try:
        match = (
            Match.objects.select_related("round")
            .only(*_TO_LOCK_FIELDS)
            .get(pk=match_id, round__tournament_id=tournament.pk)
        )
    except Match.DoesNotExist:
        raise NotFound(
            "match_not_found", _("No such match in this tournament."), {"match": match_id}
        ) from None
    match.round.tournament = tournament
    return match


def match_for_table(*, round: Round, table: int) -> Match:
    """The match at ``table`` of ``round`` or ``NotFound("table_not_in_round")``."""
    m = round.matches.select_related("round__tournament").filter(table=table).first()
    if m is None:
        raise NotFound(
            "table_not_in_round",
            _("Table %(table)s is not in round %(round)s.")
            % {"table": table, "round": round.number},
            {"table": table, "round": round.number},
        )
    return m


def game_at(*, match: Match, number: int) -> Game:
    """Recorded game ``number`` of ``match`` or ``NotFound("game_not_recorded")``."""
    game = match.games.filter(number=number).first()
    if game is None:
        raise NotFound(
            "game_not_recorded",
            _("Game %(game)s has not been recorded; there is nothing to correct.")
            % {"game": number},
            {"game": number},
        )
    return game


def match_of_entry(*, round: Round, entry: Entry) -> Match | None:
    """The match ``entry`` plays in ``round`` (``None`` when it was not paired)."""
    return (
        Match.objects.select_related("round__tournament")
        .filter(Q(entry_a=entry) | Q(entry_b=entry), round=round)
        .first()
    )


def tournament_matches(tournament: Tournament) -> list[Match]:
    """Every match of the tournament with round and games prefetched (round, table order)."""
    return list(
        Match.objects.filter(round__tournament=tournament)
        .select_related("round__tournament")
        .prefetch_related("games")
        .order_by("round__number", "table")
    )


# --- games, first-player state and score --------------------------------------------------


def game_record_of(game: Game) -> GameRecord:
    """The domain value of a stored game."""
    return GameRecord(
        number=game.number,
        right_holder=game.right_holder_id,
        waived=game.waived,
        first=game.first_id,
        winner=game.winner_id,
        score=game.score,
    )


def match_games(match: Match) -> list[Game]:
    """Recorded games of ``match`` in order (uses a prefetch when present)."""
    return sorted(match.games.all(), key=lambda g: g.number)


def match_games_known(match: Match, games: Sequence[Game]) -> None:
    """Tell ``match`` that ``games`` are all its games (as ``prefetch_related("games")`` would),
    so :func:`match_games` and the views built from the match read no row: for a service that
    has just written every game of a match it holds locked (the result slip)."""
    queryset: Any = match.games.all()
    queryset._result_cache = list(games)
    queryset._prefetch_done = True
    cache = match.__dict__.setdefault("_prefetched_objects_cache", {})
    cache["games"] = queryset


def match_state(
    match: Match, games: Sequence[Game] | None = None
) -> first_player_domain.MatchState:
    """The first-player ``MatchState`` of a (non-bye) match (docs/rules.md §6 (HKK first-player
    rights)). Raises ``ValueError`` for a bye (callers check for one first)."""
    if match.entry_b_id is None:
        raise ValueError(f"match {match.pk} is a bye: it has no first-player state")
    games = match_games(match) if games is None else games
    return first_player_domain.MatchState(
        a=match.entry_a_id,
        b=match.entry_b_id,
        roll_winner=match.die_roll_winner_id,
        reroll_game3=match.reroll_game3_agreed,
        game3_roll_winner=match.game3_roll_winner_id,
        games=tuple(game_record_of(g) for g in games),
    )


@dataclass(frozen=True, slots=True)
class MatchScore:
    """Game wins and the match points that follow from them.

    ``complete``: a bye, or the match is over under the tournament's match structure (all
    games played, or a best-of match decided: ``tournaments.domain.match.is_match_decided``).
    Time called (``Match.ended_at_time``) after a game ends it too. ``points`` maps entry id →
    match points, only when complete. ``a_score`` / ``b_score``: the game scores won (Blue
    Moon crystals; 0 where no score is kept).
    """

    a_wins: int
    b_wins: int
    draws: int
    games: int
    complete: bool
    points: dict[int, int]
    a_score: int = 0
    b_score: int = 0


def match_score(match: Match, games: Sequence[Game] | None = None) -> MatchScore:
    """Score of ``match`` under its tournament's match structure and points: the match result
    follows from the games (docs/rules.md §15 (Match points and tiebreakers); best of three /
    one game: §11 (WoW TCG matches and first player), §13 (Blue Moon matches))."""
    t = match.round.tournament
    if match.entry_b_id is None:
        return MatchScore(t.bye_games_won, 0, 0, 0, True, {match.entry_a_id: t.match_win_points})
    games = match_games(match) if games is None else games
    result = match_domain.match_result(match_state(match, games), t.structure)
    decided = result.decided or (match.ended_at_time and bool(games))
    winner = result.winner
    # Time called: more game wins wins, else a draw.
    if decided and not result.decided and result.a_wins != result.b_wins:
        winner = match.entry_a_id if result.a_wins > result.b_wins else match.entry_b_id
    points: dict[int, int] = {}
    if decided:
        if winner == match.entry_a_id:
            pa, pb = t.match_win_points, t.match_loss_points
        elif winner == match.entry_b_id:
            pa, pb = t.match_loss_points, t.match_win_points
        else:
            pa = pb = t.match_draw_points
        points = {match.entry_a_id: pa, match.entry_b_id: pb}
    return MatchScore(
        result.a_wins,
        result.b_wins,
        result.draws,
        result.games_played,
        decided,
        points,
        result.a_score,
        result.b_score,
    )


def match_records(tournament: Tournament) -> list[MatchTally]:
    """The *complete* matches (byes included) of published and finished rounds, by their game
    counts, for the standings and pairing: standings count only confirmed results
    (docs/rules.md §16 (Deck checks, penalties and result reporting)), and a draft round (its
    pairings may still be swapped, nobody may see them) counts nothing, not even its bye.
    Top-cut rounds are not Swiss: they count nothing either.

    One aggregate query (the database counts each match's games and game wins), so a
    4,096-entry event of 13 rounds reads 26,624 small rows, no game rows. Complete means what
    :func:`match_score` says: all games played, a majority won when play stops at a majority,
    or time called after at least one game. :func:`match_tallies` gives the same as plain
    tuples (what the services' standings read)."""
    return [MatchTally(*row) for row in _complete_match_rows(tournament)] + missed_round_records(
        tournament
    )


def _complete_match_rows(
    tournament: Tournament,
) -> Iterator[tuple[int, int, int | None, int, int, int]]:
    """``(round number, a, b, a_wins, b_wins, games)`` of every complete match of
    :func:`match_records`, in round and table order (one query, plain rows)."""
    structure = tournament.structure
    per_match = structure.games_per_match
    needed = per_match // 2 + 1
    stop = structure.ends_when_decided
    query = (
        Match.objects.filter(round__tournament=tournament)
        .exclude(round__status=Round.Status.DRAFT)
        .exclude(round__stage=Round.Stage.TOP_CUT)
        .annotate(
            played=Count("games"),
            a_wins=Count("games", filter=Q(games__winner_id=F("entry_a_id"))),
            b_wins=Count("games", filter=Q(games__winner_id=F("entry_b_id"))),
        )
        .order_by("round__number", "table")
        .values_list(
            "round__number",
            "entry_a_id",
            "entry_b_id",
            "ended_at_time",
            "played",
            "a_wins",
            "b_wins",
        )
    )
    for number, a, b, ended_at_time, played, a_wins, b_wins in plain_rows(query):
        if b is not None:
            over = played >= per_match or (stop and max(a_wins, b_wins) >= needed)
            if not (over or (ended_at_time and played)):
                continue
        yield number, a, b, a_wins, b_wins, played


def plain_rows(query: QuerySet[Any, Any]) -> list[tuple[Any, ...]]:
    """The rows of a ``values_list`` ``query`` as the database driver returns them: one
    ``fetchall``, no per-row work of the ORM. Only for columns that need no conversion
    (integers, booleans, text): what ``values_list`` would give on PostgreSQL."""
    sql, params = query.query.sql_with_params()
    with connections[query.db].cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def match_tallies(tournament: Tournament) -> list[TallyRow]:
    """The matches of :func:`match_records` as plain :data:`TallyRow` tuples ``(a, b, a_wins,
    b_wins, games, forfeit)``, for ``standings.rank_tallies`` (no object per match: 26,624
    rows at 4,096 entries). Two queries."""
    rows: list[TallyRow] = [
        (a, b, a_wins, b_wins, games, False)
        for _number, a, b, a_wins, b_wins, games in _complete_match_rows(tournament)
    ]
    rows.extend((m.a, None, 0, 0, 0, m.forfeit) for m in missed_round_records(tournament))
    return rows


def missed_round_records(tournament: Tournament) -> list[MatchTally]:
    """The rounds the desk scored for an entry that did not play them (:class:`MissedRound`,
    in published and finished Swiss rounds): a bye as a bye (``b=None``), a loss as
    ``MatchTally(forfeit=True)`` (docs/rules.md §14 (Swiss pairing and byes)). One query."""
    rows = (
        MissedRound.objects.filter(round__tournament=tournament)
        .exclude(round__status=Round.Status.DRAFT)
        .exclude(round__stage=Round.Stage.TOP_CUT)
        .order_by("round__number", "entry_id")
        .values_list("round__number", "entry_id", "outcome")
    )
    return [
        MatchTally(number, entry, None, forfeit=outcome == MissedRound.Outcome.LOSS)
        for number, entry, outcome in rows
    ]
