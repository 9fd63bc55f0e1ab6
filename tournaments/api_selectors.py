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

from django.contrib.auth import get_user_model
from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet
from django.utils.formats import number_format
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments import selectors
from tournaments.domain import first_player as fp
from tournaments.domain.types import StandingRow
from tournaments.errors import NotFound
from tournaments.models import (
    DeckCheck,
    DeckSubmission,
    Entry,
    EntryMember,
    Match,
    Player,
    ResultReport,
    Round,
    StaffRole,
    Tournament,
)
from tournaments.permissions import (
    can_judge,
    can_manage,
    can_view_tournament,
    deck_lists_visible,
    is_owner,
    player_entry_ids,
)

#: Digits shown for a tiebreaker value (the exact value goes in a title attribute / "exact").
TIEBREAKER_DIGITS = 4


# --- tournaments --------------------------------------------------------------------------


def tournament_list_visible(*, user: Any) -> QuerySet[Tournament]:
    """Tournaments ``user`` may see (issue 4 §1): public ones that are not drafts; for a
    signed-in user also every event they own or are staff of (drafts included) and the
    non-draft events they play in (private ones included)."""
    qs = Tournament.objects.select_related("format__game", "owner")
    open_public = ~Q(status=Tournament.Status.DRAFT) & Q(is_public=True)
    if user is None or not user.is_authenticated:
        return qs.filter(open_public)
    staff = Exists(StaffRole.objects.filter(tournament=OuterRef("pk"), user_id=user.pk))
    plays = Exists(EntryMember.objects.filter(tournament=OuterRef("pk"), player__user_id=user.pk))
    return qs.filter(
        open_public | Q(owner_id=user.pk) | staff | (~Q(status=Tournament.Status.DRAFT) & plays)
    )


def tournament_get_visible(*, tournament_id: int, user: Any) -> Tournament:
    """The tournament if ``user`` may read it; ``NotFound("tournament_not_found")`` otherwise:
    a draft is visible to its organisers and judges only, a private event
    (``is_public=False``) to its staff and players only (outsiders cannot tell it exists)."""
    tournament = selectors.tournament_get(tournament_id=tournament_id)
    if tournament.status == Tournament.Status.DRAFT:
        visible = can_judge(user, tournament)
    else:
        visible = can_view_tournament(user, tournament)
    if not visible:
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
    #: May the viewer see the list itself (its rule card)? ``entry_views(user=…)`` sets it.
    deck_visible: bool = True


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


def entry_views(*, tournament: Tournament, user: Any = None) -> list[EntryView]:
    """Every entry of ``tournament`` (by id) with members and current lists: three queries
    (a few more with ``user``).

    With ``user``, ``MemberView.deck_visible`` says whether that user may see the list
    (``permissions.can_view_deck_lists_of``); without, every list counts as visible.
    """
    current = {
        s.member_id: s
        for s in DeckSubmission.objects.filter(
            member__tournament=tournament, is_current=True
        ).defer("text", "data")
    }
    visible = deck_lists_visible(user, tournament) if user is not None else (lambda _id: True)
    entries = tournament.entries.prefetch_related(
        Prefetch("members", queryset=EntryMember.objects.select_related("player").order_by("seat"))
    ).order_by("id")
    return [
        EntryView(
            entry=e,
            members=[
                MemberView(
                    m.seat, m.player_id, m.player.display_name, current.get(m.pk), visible(e.pk)
                )
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


def member_player_for(
    *, entry: Entry, user: Any, player_id: int | None = None, seat: str | None = None
) -> Player:
    """The member whose list a submission changes: the one chosen by ``player_id`` or
    ``seat``; else the member who is ``user``; else seat A. ``NotFound("not_a_member")``."""
    if player_id is None and seat is None and user is not None and user.is_authenticated:
        own = (
            EntryMember.objects.select_related("player")
            .filter(entry=entry, player__user_id=user.pk)
            .order_by("seat")
            .first()
        )
        if own is not None:
            return own.player
    return member_player(entry=entry, player_id=player_id, seat=seat)


def entry_deck_lists(*, entry: Entry, history: bool) -> list[DeckSubmission]:
    """The members' deck lists of ``entry`` by seat: every version with ``history`` (staff and
    the entry's own players), else the current ones only."""
    qs = selectors.deck_submissions(entry=entry)
    if not history:
        qs = qs.filter(is_current=True)
    return list(qs)


def user_get(*, username: str | None = None, user_id: int | None = None) -> Any:
    """An active user by username or id, or ``NotFound("user_not_found")``."""
    users = get_user_model().objects.filter(is_active=True)
    user = (
        users.filter(pk=user_id).first()
        if user_id is not None
        else users.filter(**{get_user_model().USERNAME_FIELD: username or ""}).first()
    )
    if user is None:
        raise NotFound(
            "user_not_found",
            _("No such user."),
            {"username": username} if user_id is None else {"user": user_id},
        )
    return user


def staff_list(*, tournament: Tournament) -> list[StaffRole]:
    """Co-organisers and judges of ``tournament`` (organisers first) with their users."""
    return list(
        tournament.staff.select_related("user", "appointed_by").order_by("role", "user__username")
    )


# --- rounds and matches -------------------------------------------------------------------


def rounds_visible(*, tournament: Tournament, user: Any) -> list[Round]:
    """The rounds ``user`` may see: all for the organisers (owner and co-organisers), published
    and finished ones for everyone else (judges included)."""
    qs = tournament.rounds.order_by("number")
    if not can_manage(user, tournament):
        qs = qs.exclude(status=Round.Status.DRAFT)
    return list(qs)


def round_get_visible(*, tournament: Tournament, number: int, user: Any) -> Round:
    """Round ``number``; a draft round is ``NotFound`` for everyone but the organisers."""
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


def _match_view(m: Match, names: dict[int, str], tournament: Tournament) -> MatchView:
    """One table's view: names, games, score and the next first-player right."""
    games = selectors.match_games(m)
    return MatchView(
        match=m,
        a_name=names.get(m.entry_a_id, ""),
        b_name=names.get(m.entry_b_id, "") if m.entry_b_id else "",
        games=games,
        score=selectors.match_score(m, games),
        right=next_right_view(m, games, tournament.first_player_policy),
    )


def round_match_views(*, round: Round) -> list[MatchView]:  # noqa: A002
    """Every table of ``round`` in table order, games prefetched: three queries in all."""
    tournament = round.tournament
    names = selectors.names_by_entry(tournament)
    matches = round.matches.prefetch_related("games").order_by("table")
    views = []
    for m in matches:
        m.round = round
        views.append(_match_view(m, names, tournament))
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


# --- reports, disputes, deck checks, "me" ---------------------------------------------------


def report_get(*, tournament: Tournament, report_id: int) -> ResultReport:
    """A result report of ``tournament`` or ``NotFound("report_not_found")``."""
    report = (
        ResultReport.objects.select_related("match__round__tournament")
        .filter(pk=report_id, match__round__tournament=tournament)
        .first()
    )
    if report is None:
        raise NotFound("report_not_found", _("No such result report."), {"report": report_id})
    return report


def match_reports(*, match: Match) -> list[ResultReport]:
    """Every report of ``match``, oldest first."""
    return list(match.reports.select_related("reported_by", "resolved_by").order_by("id"))


@dataclass
class DisputeView:
    """A match with disputed reports: its table and both sides' open reports."""

    match: Match
    a_name: str
    b_name: str
    reports: list[ResultReport]

    @property
    def round(self) -> int:
        return self.match.round.number


def dispute_views(*, tournament: Tournament, matches: Sequence[Match]) -> list[DisputeView]:
    """:class:`DisputeView` rows for ``matches`` (``services.match_disputes``): two queries."""
    names = selectors.names_by_entry(tournament)
    reports: dict[int, list[ResultReport]] = {}
    for r in (
        ResultReport.objects.filter(match__in=list(matches), status=ResultReport.Status.DISPUTED)
        .select_related("reported_by", "resolved_by")
        .order_by("id")
    ):
        reports.setdefault(r.match_id, []).append(r)
    return [
        DisputeView(
            match=m,
            a_name=names.get(m.entry_a_id, ""),
            b_name=names.get(m.entry_b_id, "") if m.entry_b_id else "",
            reports=reports.get(m.pk, []),
        )
        for m in matches
    ]


def deck_check_get(*, tournament: Tournament, check_id: int) -> DeckCheck:
    """A deck check of ``tournament`` or ``NotFound("deck_check_not_found")``."""
    check = (
        DeckCheck.objects.select_related("round__tournament", "entry")
        .filter(pk=check_id, round__tournament=tournament)
        .first()
    )
    if check is None:
        raise NotFound("deck_check_not_found", _("No such deck check."), {"check": check_id})
    return check


def deck_checks_of_round(*, round: Round) -> list[DeckCheck]:  # noqa: A002
    """The deck checks of ``round`` by entry, with entry, creator and checker loaded."""
    return list(
        round.deck_checks.select_related("round", "entry", "created_by", "checked_by").order_by(
            "entry_id", "id"
        )
    )


def my_roles(*, tournament: Tournament, user: Any) -> list[str]:
    """``user``'s roles in ``tournament``: any of ``owner``, ``organiser``, ``judge``,
    ``player`` (an owner is also ``organiser`` and ``judge``)."""
    roles = []
    if is_owner(user, tournament):
        roles.append("owner")
    if can_manage(user, tournament):
        roles.append("organiser")
    if can_judge(user, tournament):
        roles.append("judge")
    if player_entry_ids(user, tournament):
        roles.append("player")
    return roles


def my_matches(*, tournament: Tournament, user: Any) -> list[MatchView]:
    """``user``'s matches in the published and finished rounds of ``tournament`` (round
    order), as :class:`MatchView` with the first-player holder of the next game."""
    ids = player_entry_ids(user, tournament)
    if not ids:
        return []
    names = selectors.names_by_entry(tournament)
    matches = (
        Match.objects.filter(round__tournament=tournament)
        .exclude(round__status=Round.Status.DRAFT)
        .filter(Q(entry_a_id__in=ids) | Q(entry_b_id__in=ids))
        .select_related("round")
        .prefetch_related("games")
        .order_by("round__number", "table")
    )
    views = []
    for m in matches:
        m.round.tournament = tournament
        views.append(_match_view(m, names, tournament))
    return views


# --- standings ----------------------------------------------------------------------------


#: Tiebreakers shown as percentages.
PERCENT_TIEBREAKERS = frozenset({"omw", "gw", "ogw"})
#: Tiebreakers whose value every standings table already shows in a base column.
BASE_COLUMN_TIEBREAKERS = frozenset({"game_points"})


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

    @property
    def display(self) -> str:
        """For people, in the active language's number format: whole values as integers
        ("15"), percentage tiebreakers (OMW%, GW%, OGW%) as percents with 2 decimals
        ("66,67 %" in Hungarian), the rest with ``TIEBREAKER_DIGITS`` decimals."""
        if self.code in PERCENT_TIEBREAKERS:
            return f"{number_format(Decimal(fraction_decimal(self.exact * 100, 2)), 2)} %"
        if self.exact.denominator == 1:
            return number_format(self.exact.numerator)
        return number_format(Decimal(self.decimal), TIEBREAKER_DIGITS)


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

    @property
    def shown_tiebreakers(self) -> list[TiebreakerValue]:
        """The tiebreakers that need a column of their own (game points already have one)."""
        return [tb for tb in self.tiebreakers if tb.code not in BASE_COLUMN_TIEBREAKERS]


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


def tiebreaker_columns(tournament: Tournament) -> list[tuple[str, str]]:
    """``(code, translated heading)`` of the tiebreaker columns of a standings table, in the
    tournament's order, leaving out those already shown as a base column (game points)."""
    labels = tiebreaker_labels()
    return [
        (code, labels.get(code, code))
        for code in tournament.tiebreakers
        if code not in BASE_COLUMN_TIEBREAKERS
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
