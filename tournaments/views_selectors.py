"""Read helpers of the server-rendered pages (issue 4 §3): the events a user organises, judges
or plays in, the open events a player may join, a player's own entry and match, result reports,
deck checks and locked lists. No writes here; the pages call the services for every change.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils.translation import gettext

from tournaments.models import (
    DeckCheck,
    DeckSubmission,
    Entry,
    EntryMember,
    Match,
    ResultReport,
    Round,
    StaffRole,
    Tournament,
)
from tournaments.permissions import can_view_tournament

# --- tournaments of a user ----------------------------------------------------------------


def tournaments_organised(*, user: Any) -> QuerySet[Tournament]:
    """Events ``user`` owns or co-organises, newest first."""
    return (
        Tournament.objects.select_related("format__game", "owner")
        .filter(Q(owner=user) | Q(staff__user=user, staff__role=StaffRole.Role.ORGANISER))
        .distinct()
    )


def tournaments_judged(*, user: Any) -> QuerySet[Tournament]:
    """Events ``user`` judges (without organising them)."""
    return (
        Tournament.objects.select_related("format__game", "owner")
        .filter(staff__user=user, staff__role=StaffRole.Role.JUDGE)
        .exclude(owner=user)
        .distinct()
    )


def memberships_of(*, user: Any) -> list[EntryMember]:
    """The user's seats in entries of every event (entry and tournament loaded)."""
    return list(
        EntryMember.objects.select_related("entry__tournament__format", "player")
        .filter(player__user=user)
        .order_by("-entry__tournament__created_at", "-entry__tournament_id")
    )


def tournaments_open_for(*, user: Any) -> list[Tournament]:
    """Events in registration the user may see and has not entered yet."""
    joined = EntryMember.objects.filter(player__user=user).values("tournament_id")
    qs = (
        Tournament.objects.select_related("format__game")
        .filter(status=Tournament.Status.REGISTRATION)
        .exclude(pk__in=joined)
    )
    return [t for t in qs if can_view_tournament(user, t)]


@dataclass
class NextAction:
    """What the organiser should do next with an event: a label and the page to do it on."""

    code: str
    label: str
    url: str


def next_action(tournament: Tournament, last: Round | None) -> NextAction:
    """The organiser's next step, from the tournament's status and its last round."""
    t = tournament
    detail = reverse("tournaments:detail", args=[t.pk])
    if t.status == Tournament.Status.DRAFT:
        return NextAction("open_registration", gettext("Open registration"), detail)
    if t.status == Tournament.Status.REGISTRATION:
        return NextAction("start", gettext("Check the lists and start"), detail)
    if t.status == Tournament.Status.FINISHED:
        return NextAction(
            "none", gettext("Finished"), reverse("tournaments:standings", args=[t.pk])
        )
    if last is None or last.status == Round.Status.FINISHED:
        if last is not None and t.planned_rounds and last.number >= t.planned_rounds:
            return NextAction("finish", gettext("Finish the tournament"), detail)
        return NextAction("pair", gettext("Pair the next round"), detail)
    url = reverse("tournaments:round", args=[t.pk, last.number])
    if last.status == Round.Status.DRAFT:
        return NextAction(
            "publish",
            gettext("Check and publish round %(number)s") % {"number": last.number},
            url,
        )
    return NextAction(
        "results",
        gettext("Enter the results of round %(number)s") % {"number": last.number},
        reverse("tournaments:judge", args=[t.pk]),
    )


def last_rounds(tournaments: Sequence[Tournament]) -> dict[int, Round]:
    """Tournament id → its highest-numbered round (one query)."""
    result: dict[int, Round] = {}
    for r in Round.objects.filter(tournament__in=list(tournaments)).order_by("number"):
        result[r.tournament_id] = r
    return result


# --- staff --------------------------------------------------------------------------------


def staff_of(*, tournament: Tournament) -> list[StaffRole]:
    """The co-organisers and judges of ``tournament`` with their users."""
    return list(
        StaffRole.objects.select_related("user")
        .filter(tournament=tournament)
        .order_by("role", "id")
    )


def user_by_username(username: str) -> Any:
    """The active user called ``username`` (case-insensitive) or ``None``."""
    return (
        get_user_model()
        .objects.filter(username__iexact=username.strip(), is_active=True)
        .order_by("id")
        .first()
    )


# --- a player's own entry and match -------------------------------------------------------


def own_membership(*, tournament: Tournament, user: Any) -> EntryMember | None:
    """The user's seat in ``tournament`` (``None`` when the user does not play in it)."""
    if user is None or not user.is_authenticated:
        return None
    return (
        EntryMember.objects.select_related("entry", "player")
        .filter(tournament=tournament, player__user=user)
        .first()
    )


def current_round(*, tournament: Tournament) -> Round | None:
    """The latest published or finished round (draft rounds are never shown to players)."""
    return tournament.rounds.exclude(status=Round.Status.DRAFT).order_by("-number").first()


def match_of_entry(*, round: Round, entry: Entry) -> Match | None:  # noqa: A002
    """The match ``entry`` plays in ``round`` (``None`` when it was not paired)."""
    return (
        Match.objects.select_related("round__tournament")
        .filter(Q(entry_a=entry) | Q(entry_b=entry), round=round)
        .first()
    )


def match_reports(*, match: Match) -> list[ResultReport]:
    """Every result report of ``match``, oldest first."""
    return list(ResultReport.objects.select_related("reported_by").filter(match=match))


def open_reports(*, match: Match) -> dict[int, ResultReport]:
    """Entry id → that side's open (pending or disputed) or last accepted report."""
    latest: dict[int, ResultReport] = {}
    for r in match_reports(match=match):
        if r.status != ResultReport.Status.SUPERSEDED:
            latest[r.entry_id] = r
    return latest


def report_get(*, tournament: Tournament, report_id: int) -> ResultReport | None:
    """A result report of ``tournament`` or ``None``."""
    return (
        ResultReport.objects.select_related("match__round__tournament")
        .filter(pk=report_id, match__round__tournament=tournament)
        .first()
    )


def reports_by_match(*, matches: Sequence[Match]) -> dict[int, list[ResultReport]]:
    """Match id → its open (pending or disputed) reports (one query)."""
    result: dict[int, list[ResultReport]] = {}
    qs = ResultReport.objects.select_related("reported_by").filter(
        match__in=list(matches),
        status__in=[ResultReport.Status.PENDING, ResultReport.Status.DISPUTED],
    )
    for r in qs:
        result.setdefault(r.match_id, []).append(r)
    return result


# --- deck lists and deck checks -----------------------------------------------------------


def entry_lists(*, entry: Entry) -> list[tuple[EntryMember, DeckSubmission | None]]:
    """Every member of ``entry`` with the list the event holds: the locked snapshot once lists
    are locked, else the current version (``None`` = no list)."""
    members = list(entry.members.select_related("player").order_by("seat"))
    subs = DeckSubmission.objects.filter(member__in=members).filter(
        Q(locked=True) | Q(is_current=True)
    )
    best: dict[int, DeckSubmission] = {}
    for s in subs:
        if s.locked or s.member_id not in best:
            best[s.member_id] = s
    return [(m, best.get(m.pk)) for m in members]


def deck_checks_of(*, round: Round) -> list[DeckCheck]:  # noqa: A002
    """The deck checks of ``round`` with their entries and judges."""
    return list(
        DeckCheck.objects.select_related("entry", "checked_by").filter(round=round).order_by("id")
    )


def deck_check_get(*, round: Round, check_id: int) -> DeckCheck | None:  # noqa: A002
    """A deck check of ``round`` or ``None``."""
    return (
        DeckCheck.objects.select_related("entry", "round").filter(pk=check_id, round=round).first()
    )


def round_entries(*, round: Round) -> list[Entry]:  # noqa: A002
    """The entries paired in ``round`` (byes included), by name."""
    ids = set()
    for a, b in round.matches.values_list("entry_a_id", "entry_b_id"):
        ids.add(a)
        if b is not None:
            ids.add(b)
    return list(Entry.objects.filter(pk__in=ids).order_by("name", "id"))
