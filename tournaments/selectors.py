"""Read-side helpers for tournaments: lookups that raise typed errors, match state and results,
rows for the standings, pairings and exports. No writes here (../shared/STYLE.md §5.1).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.domain import first_player as first_player_domain
from tournaments.domain.types import GameRecord, MatchRecord
from tournaments.errors import NotFound
from tournaments.models import (
    DeckSubmission,
    Entry,
    EntryMember,
    Game,
    Match,
    Round,
    StandingsSnapshot,
    Tournament,
)

# --- lookups ------------------------------------------------------------------------------


def tournament_get(*, tournament_id: int) -> Tournament:
    """The tournament or ``NotFound("tournament_not_found")``."""
    t = Tournament.objects.select_related("format", "owner").filter(pk=tournament_id).first()
    if t is None:
        raise NotFound(
            "tournament_not_found", _("No such tournament."), {"tournament": tournament_id}
        )
    return t


def entry_get(*, tournament: Tournament, entry_id: int) -> Entry:
    """An entry of ``tournament`` or ``NotFound("entry_not_found")``."""
    e = tournament.entries.filter(pk=entry_id).first()
    if e is None:
        raise NotFound(
            "entry_not_found", _("No such entry in this tournament."), {"entry": entry_id}
        )
    return e


def round_get(*, tournament: Tournament, number: int) -> Round:
    """Round ``number`` of ``tournament`` or ``NotFound("round_not_found")``."""
    r = tournament.rounds.filter(number=number).first()
    if r is None:
        raise NotFound("round_not_found", _("No such round."), {"round": number})
    return r


def match_for_table(*, round: Round, table: int) -> Match:  # noqa: A002
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


def entries_with_members(tournament: Tournament) -> QuerySet[Entry]:
    """Entries of the tournament with their members and players prefetched, by id."""
    return tournament.entries.prefetch_related(
        Prefetch("members", queryset=EntryMember.objects.select_related("player").order_by("seat"))
    ).order_by("id")


def deck_submissions(*, entry: Entry) -> QuerySet[DeckSubmission]:
    """Every version of every member's list of ``entry`` (oldest first per seat)."""
    return (
        DeckSubmission.objects.filter(member__entry=entry)
        .select_related("member__player")
        .order_by("member__seat", "version")
    )


# --- games and matches --------------------------------------------------------------------


def game_record_of(game: Game) -> GameRecord:
    """The domain value of a stored game."""
    return GameRecord(
        number=game.number,
        right_holder=game.right_holder_id,
        waived=game.waived,
        first=game.first_id,
        winner=game.winner_id,
    )


def match_games(match: Match) -> list[Game]:
    """Recorded games of ``match`` in order (uses a prefetch when present)."""
    return sorted(match.games.all(), key=lambda g: g.number)


def match_state(
    match: Match, games: Sequence[Game] | None = None
) -> first_player_domain.MatchState:
    """The first-player ``MatchState`` of a (non-bye) match."""
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

    ``complete``: a bye, all ``games_per_match`` games recorded, or (with stop-at-two-wins)
    one entry has won the majority. ``points`` maps entry id → match points, only when complete.
    """

    a_wins: int
    b_wins: int
    draws: int
    games: int
    complete: bool
    points: dict[int, int]


def match_score(match: Match, games: Sequence[Game] | None = None) -> MatchScore:
    """Score of ``match`` under its tournament's settings (issue: "the match result follows
    from the games"; RULES.md §1.7)."""
    t = match.round.tournament
    if match.entry_b_id is None:
        return MatchScore(t.bye_games_won, 0, 0, 0, True, {match.entry_a_id: t.match_win_points})
    games = match_games(match) if games is None else games
    a = sum(1 for g in games if g.winner_id == match.entry_a_id)
    b = sum(1 for g in games if g.winner_id == match.entry_b_id)
    d = sum(1 for g in games if g.is_draw)
    needed = t.games_per_match // 2 + 1
    complete = len(games) >= t.games_per_match or (t.stop_at_two_wins and max(a, b) >= needed)
    points: dict[int, int] = {}
    if complete:
        if a > b:
            pa, pb = t.match_win_points, t.match_loss_points
        elif a < b:
            pa, pb = t.match_loss_points, t.match_win_points
        else:
            pa = pb = t.match_draw_points
        points = {match.entry_a_id: pa, match.entry_b_id: pb}
    return MatchScore(a, b, d, len(games), complete, points)


def tournament_matches(tournament: Tournament) -> list[Match]:
    """Every match of the tournament with round and games prefetched (round, table order)."""
    return list(
        Match.objects.filter(round__tournament=tournament)
        .select_related("round__tournament")
        .prefetch_related("games")
        .order_by("round__number", "table")
    )


def match_records(
    tournament: Tournament, *, matches: Iterable[Match] | None = None
) -> list[MatchRecord]:
    """Domain records of the *complete* matches (byes included) of published and finished
    rounds: standings count only confirmed results (TOURNAMENT-PRACTICE.md §8.3), and a draft
    round (its pairings may still be swapped, nobody may see them) counts nothing, not even
    its bye."""
    records = []
    for m in tournament_matches(tournament) if matches is None else matches:
        if m.round.status == Round.Status.DRAFT:
            continue
        games = match_games(m)
        if not match_score(m, games).complete:
            continue
        records.append(
            MatchRecord(
                round=m.round.number,
                a=m.entry_a_id,
                b=m.entry_b_id,
                games=tuple(game_record_of(g) for g in games),
            )
        )
    return records


# --- explanations -------------------------------------------------------------------------


def right_explanation(decision: first_player_domain.RightDecision, *, seat: str | None) -> str:
    """Human text for a first-player decision, e.g. "game 2: player 2 (B) per rule"
    (Hungarian: "2. játszma: 2. játékos (B) a szabály szerint"). ``seat`` is the holder's
    seat at the table (A = ``entry_a``, B = ``entry_b``)."""
    p = dict(decision.params)
    values = {
        "game": decision.game_number,
        "player": p.get("player", ""),
        "seat": seat or "",
        "previous": p.get("previous", decision.game_number - 1),
    }
    if decision.needs_roll:
        if decision.reason == "reroll_game_3":
            return gettext("game %(game)s: a new die roll decides (agreed before game 1)") % values
        return gettext("game %(game)s: a die roll decides") % values
    texts = {
        "die_roll": gettext("game %(game)s: player 1 (%(seat)s) won the die roll"),
        "player_2_game_2": gettext("game %(game)s: player %(player)s (%(seat)s) per rule"),
        "player_1_game_3": gettext("game %(game)s: player %(player)s (%(seat)s) per rule"),
        "reroll_game_3": gettext(
            "game %(game)s: player %(player)s (%(seat)s) won the agreed re-roll"
        ),
        "loser_of_previous": gettext(
            "game %(game)s: player %(player)s (%(seat)s) lost game %(previous)s and chooses"
        ),
        "same_after_draw": gettext(
            "game %(game)s: player %(player)s (%(seat)s) chooses again after the drawn game "
            "%(previous)s"
        ),
    }
    template = texts.get(decision.reason, gettext("game %(game)s: player %(player)s (%(seat)s)"))
    return template % values


def relaxation_message(code: str, names: Sequence[str]) -> str:
    """Why a hard pairing rule was relaxed (shown to the organiser with the draft round)."""
    joined = ", ".join(names)
    if code == "second_bye":
        return gettext(
            "Nobody without a bye could take it while the rest stayed pairable, so %(names)s "
            "received a second bye."
        ) % {"names": joined}
    if code == "rematch":
        return gettext(
            "No pairing without a rematch exists, so %(names)s play each other again."
        ) % {"names": joined}
    return gettext("Relaxed rule %(code)s for %(names)s.") % {"code": code, "names": joined}


def fraction_str(value: Fraction | int) -> str:
    """An exact value as a string: ``"7/3"``, ``"6"``."""
    return str(Fraction(value))


def standings_snapshot(tournament: Tournament) -> StandingsSnapshot | None:
    """The cached standings written by the standings task, if any."""
    return StandingsSnapshot.objects.filter(tournament=tournament).first()


def names_by_entry(tournament: Tournament) -> dict[int, str]:
    """Entry id → name."""
    return dict(tournament.entries.values_list("id", "name"))


def round_pairings(round: Round) -> list[dict[str, Any]]:  # noqa: A002
    """Tables of ``round``: ``[{"table", "match", "a", "b", "a_name", "b_name", "a_wins",
    "b_wins", "draws", "complete", "match_points": {id: n}}]``."""
    names = names_by_entry(round.tournament)
    rows = []
    for m in round.matches.select_related("round__tournament").prefetch_related("games"):
        s = match_score(m)
        rows.append(
            {
                "table": m.table,
                "match": m.pk,
                "a": m.entry_a_id,
                "b": m.entry_b_id,
                "a_name": names.get(m.entry_a_id, ""),
                "b_name": names.get(m.entry_b_id, "") if m.entry_b_id else "",
                "a_wins": s.a_wins,
                "b_wins": s.b_wins,
                "draws": s.draws,
                "complete": s.complete,
                "match_points": s.points,
            }
        )
    return rows
