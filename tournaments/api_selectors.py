"""Read helpers for the tournaments API and pages (owned by the API layer, h7).

They complement ``tournaments.selectors`` (h6) with what the HTTP layer needs: visibility of
tournaments and rounds, entries with their deck status, a round's pairings with the current
first-player holder of every match computed from prefetched games (no query per match), and
standings rows with names and formatted tiebreaker values. No writes here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from django.db.models import Prefetch, Q, QuerySet
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments import selectors
from tournaments.domain import first_player as fp
from tournaments.domain.types import StandingRow
from tournaments.errors import NotFound
from tournaments.models import (
    DeckSubmission,
    Entry,
    EntryMember,
    Match,
    Player,
    Round,
    Tournament,
)
from tournaments.permissions import can_manage

#: Digits shown for a tiebreaker value (the exact value goes in a title attribute / "exact").
TIEBREAKER_DIGITS = 4


# --- tournaments --------------------------------------------------------------------------


def tournament_list_visible(*, user: Any) -> QuerySet[Tournament]:
    """Tournaments ``user`` may see: every non-draft one, plus the user's own drafts."""
    qs = Tournament.objects.select_related("format__game", "owner")
    if user is not None and user.is_authenticated:
        return qs.filter(~Q(status=Tournament.Status.DRAFT) | Q(owner=user))
    return qs.exclude(status=Tournament.Status.DRAFT)


def tournament_get_visible(*, tournament_id: int, user: Any) -> Tournament:
    """The tournament if ``user`` may read it; ``NotFound("tournament_not_found")`` otherwise
    (a draft is visible to its owner only)."""
    tournament = selectors.tournament_get(tournament_id=tournament_id)
    if tournament.status == Tournament.Status.DRAFT and not can_manage(user, tournament):
        raise NotFound(
            "tournament_not_found", _("No such tournament."), {"tournament": tournament_id}
        )
    return tournament


# --- entries ------------------------------------------------------------------------------


@dataclass
class MemberView:
    """One seat of an entry with its current deck submission (``None`` = no list yet)."""

    seat: str
    player_id: int
    player_name: str
    deck: DeckSubmission | None


@dataclass
class EntryView:
    """An entry for display: members, deck status and drop state.

    ``deck_status``: ``"legal"`` (every member has a current legal list), ``"override"``
    (paired by organiser override), ``"illegal"`` (some list is not legal) or ``"missing"``.
    """

    entry: Entry
    members: list[MemberView] = field(default_factory=list)

    @property
    def id(self) -> int:
        return self.entry.pk

    @property
    def name(self) -> str:
        return self.entry.name

    @property
    def dropped(self) -> bool:
        return self.entry.dropped_after_round is not None

    @property
    def deck_status(self) -> str:
        decks = [m.deck for m in self.members]
        legal = bool(decks) and all(d is not None and d.legal for d in decks)
        if legal and len({d.rule_card for d in decks if d is not None}) == 1:
            return "legal"
        if self.entry.pairing_override_reason:
            return "override"
        if any(d is None for d in decks) or not decks:
            return "missing"
        return "illegal"

    @property
    def deck_status_label(self) -> str:
        labels = {
            "legal": gettext("legal"),
            "override": gettext("override"),
            "illegal": gettext("not legal"),
            "missing": gettext("missing"),
        }
        return labels[self.deck_status]


def entry_views(*, tournament: Tournament) -> list[EntryView]:
    """Every entry of ``tournament`` (by id) with members and current lists: three queries."""
    current = {
        s.member_id: s
        for s in DeckSubmission.objects.filter(
            member__tournament=tournament, is_current=True
        ).defer("text", "data")
    }
    entries = tournament.entries.prefetch_related(
        Prefetch("members", queryset=EntryMember.objects.select_related("player").order_by("seat"))
    ).order_by("id")
    return [
        EntryView(
            entry=e,
            members=[
                MemberView(m.seat, m.player_id, m.player.display_name, current.get(m.pk))
                for m in e.members.all()
            ],
        )
        for e in entries
    ]


def member_player(*, entry: Entry, player_id: int | None = None, seat: str | None = None) -> Player:
    """The player of ``entry`` chosen by ``player_id`` or ``seat`` (seat A when neither is
    given); ``NotFound("not_a_member")`` if there is none."""
    qs = EntryMember.objects.select_related("player").filter(entry=entry)
    if player_id is not None:
        qs = qs.filter(player_id=player_id)
    else:
        qs = qs.filter(seat=(seat or "A").upper())
    member = qs.first()
    if member is None:
        raise NotFound(
            "not_a_member",
            _("That player is not a member of this entry."),
            {"entry": entry.pk, "player": player_id, "seat": seat},
        )
    return member.player


# --- rounds and matches -------------------------------------------------------------------


def rounds_visible(*, tournament: Tournament, user: Any) -> list[Round]:
    """The rounds ``user`` may see: all for the owner, published and finished ones otherwise."""
    qs = tournament.rounds.order_by("number")
    if not can_manage(user, tournament):
        qs = qs.exclude(status=Round.Status.DRAFT)
    return list(qs)


def round_get_visible(*, tournament: Tournament, number: int, user: Any) -> Round:
    """Round ``number``; a draft round is ``NotFound`` for everyone but the owner."""
    rnd = selectors.round_get(tournament=tournament, number=number)
    if rnd.status == Round.Status.DRAFT and not can_manage(user, tournament):
        raise NotFound("round_not_found", _("No such round."), {"round": number})
    rnd.tournament = tournament
    return rnd


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


@dataclass
class RightView:
    """The first-player right for the next game of a match (``None`` fields when complete)."""

    game: int | None
    holder: int | None
    seat: str | None
    needs_roll: bool
    reason: str
    text: str


@dataclass
class MatchView:
    """One table of a round with its games, score and the current first-player holder."""

    match: Match
    a_name: str
    b_name: str
    games: list[Any]
    score: selectors.MatchScore
    right: RightView | None

    @property
    def table(self) -> int:
        return self.match.table

    @property
    def is_bye(self) -> bool:
        return self.match.entry_b_id is None

    @property
    def holder_name(self) -> str:
        if self.right is None or self.right.holder is None:
            return ""
        return self.a_name if self.right.holder == self.match.entry_a_id else self.b_name


def _seat(match: Match, entry_id: int | None) -> str | None:
    if entry_id is None:
        return None
    return "A" if entry_id == match.entry_a_id else "B"


def next_right_view(match: Match, games: list[Any], policy: str) -> RightView | None:
    """The right for the next game from already loaded ``games`` (no query); ``None`` for a
    bye, a complete match or a match the policy allows no further game in."""
    if match.entry_b_id is None:
        return None
    if selectors.match_score(match, games).complete:
        return None
    try:
        decision = fp.next_right(selectors.match_state(match, games), policy=policy)
    except fp.InconsistentGame:
        return None
    seat = _seat(match, decision.holder)
    return RightView(
        game=decision.game_number,
        holder=decision.holder,
        seat=seat,
        needs_roll=decision.needs_roll,
        reason=decision.reason,
        text=selectors.right_explanation(decision, seat=seat),
    )


def round_match_views(*, round: Round) -> list[MatchView]:  # noqa: A002
    """Every table of ``round`` in table order, games prefetched: three queries in all."""
    tournament = round.tournament
    names = selectors.names_by_entry(tournament)
    matches = round.matches.prefetch_related("games").order_by("table")
    views = []
    for m in matches:
        m.round = round
        games = selectors.match_games(m)
        views.append(
            MatchView(
                match=m,
                a_name=names.get(m.entry_a_id, ""),
                b_name=names.get(m.entry_b_id, "") if m.entry_b_id else "",
                games=games,
                score=selectors.match_score(m, games),
                right=next_right_view(m, games, tournament.first_player_policy),
            )
        )
    return views


def match_view(*, match: Match) -> MatchView:
    """One match as :class:`MatchView` (for the result-entry page and the API)."""
    names = selectors.names_by_entry(match.round.tournament)
    games = selectors.match_games(match)
    return MatchView(
        match=match,
        a_name=names.get(match.entry_a_id, ""),
        b_name=names.get(match.entry_b_id, "") if match.entry_b_id else "",
        games=games,
        score=selectors.match_score(match, games),
        right=next_right_view(match, games, match.round.tournament.first_player_policy),
    )


def pairings_by_name(views: list[MatchView]) -> list[dict[str, Any]]:
    """Alphabetical list of entries → table, seat and opponent (``opponent`` ``None`` = bye)."""
    rows = []
    for v in views:
        m = v.match
        rows.append(
            {
                "entry": m.entry_a_id,
                "name": v.a_name,
                "table": m.table,
                "seat": "A",
                "opponent": m.entry_b_id,
                "opponent_name": v.b_name,
            }
        )
        if m.entry_b_id is not None:
            rows.append(
                {
                    "entry": m.entry_b_id,
                    "name": v.b_name,
                    "table": m.table,
                    "seat": "B",
                    "opponent": m.entry_a_id,
                    "opponent_name": v.a_name,
                }
            )
    return sorted(rows, key=lambda r: (r["name"].casefold(), r["entry"]))


# --- standings ----------------------------------------------------------------------------


def fraction_decimal(value: Fraction | int, digits: int = TIEBREAKER_DIGITS) -> str:
    """``value`` rounded half-up to ``digits`` decimals, e.g. ``Fraction(2, 3)`` → ``"0.6667"``."""
    value = Fraction(value)
    quantum = Decimal(1).scaleb(-digits)
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return str(exact.quantize(quantum, rounding=ROUND_HALF_UP))


@dataclass
class TiebreakerValue:
    """One tiebreaker cell: ``code``, exact ``value`` ("7/3") and ``decimal`` ("2.3333")."""

    code: str
    exact: Fraction

    @property
    def value(self) -> str:
        return selectors.fraction_str(self.exact)

    @property
    def decimal(self) -> str:
        return fraction_decimal(self.exact)


@dataclass
class StandingView:
    """One standings row with the entry's name and formatted tiebreakers."""

    rank: int
    entry: int
    name: str
    match_points: int
    game_points: int
    matches_played: int
    dropped: bool
    tiebreakers: list[TiebreakerValue]


def standing_views(*, tournament: Tournament, rows: Sequence[StandingRow]) -> list[StandingView]:
    """Standings rows (``services.standings_compute``) with the entries' names and formatted
    tiebreakers (one query for the names)."""
    names = selectors.names_by_entry(tournament)
    return [
        StandingView(
            rank=r.rank,
            entry=r.entry,
            name=names.get(r.entry, str(r.entry)),
            match_points=r.match_points,
            game_points=r.game_points,
            matches_played=r.matches_played,
            dropped=r.dropped,
            tiebreakers=[TiebreakerValue(code, Fraction(v)) for code, v in r.tiebreakers.items()],
        )
        for r in rows
    ]


def tiebreaker_labels() -> dict[str, str]:
    """Translated column headings of the tiebreaker codes."""
    return {
        "buchholz": gettext("Buchholz"),
        "median_buchholz": gettext("Median Buchholz"),
        "omw": gettext("OMW%"),
        "gw": gettext("GW%"),
        "ogw": gettext("OGW%"),
        "game_points": gettext("Game points (tiebreaker)"),
        "head_to_head": gettext("Head-to-head"),
    }
