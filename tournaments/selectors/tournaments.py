"""Read model of tournaments: lookups that raise typed errors, which events a user may see,
organises, judges or may still join, and the organiser's next step with an event. No writes.

Visibility follows ``tournaments.permissions``: a draft is visible to its organisers and judges
only, a private event (``is_public=False``) to its staff and players only, every other event to
everyone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from hkk_tournament.errors import NotFound
from tournaments.models import EntryMember, Round, StaffRole, Tournament
from tournaments.permissions import can_judge, can_view_tournament

# --- lookups ------------------------------------------------------------------------------


def tournament_get(*, tournament_id: int) -> Tournament:
    """The tournament or ``NotFound("tournament_not_found")``."""
    t = Tournament.objects.select_related("format", "owner").filter(pk=tournament_id).first()
    if t is None:
        raise NotFound(
            "tournament_not_found", _("No such tournament."), {"tournament": tournament_id}
        )
    return t


def tournament_get_visible(*, tournament_id: int, user: Any) -> Tournament:
    """The tournament if ``user`` may read it; ``NotFound("tournament_not_found")`` otherwise
    (outsiders cannot tell a draft or a private event exists)."""
    tournament = tournament_get(tournament_id=tournament_id)
    if tournament.status == Tournament.Status.DRAFT:
        visible = can_judge(user, tournament)
    else:
        visible = can_view_tournament(user, tournament)
    if not visible:
        raise NotFound(
            "tournament_not_found", _("No such tournament."), {"tournament": tournament_id}
        )
    return tournament


# --- tournaments of a user ----------------------------------------------------------------


def tournament_list_visible(*, user: Any) -> QuerySet[Tournament]:
    """Tournaments ``user`` may see: public ones that are not drafts; for a signed-in user also
    every event they own or are staff of (drafts included) and the non-draft events they play
    in (private ones included). Newest first (the model's ordering)."""
    qs = Tournament.objects.select_related("format__game", "owner")
    open_public = ~Q(status=Tournament.Status.DRAFT) & Q(is_public=True)
    if user is None or not user.is_authenticated:
        return qs.filter(open_public)
    staff = Exists(StaffRole.objects.filter(tournament=OuterRef("pk"), user_id=user.pk))
    plays = Exists(EntryMember.objects.filter(tournament=OuterRef("pk"), player__user_id=user.pk))
    return qs.filter(
        open_public | Q(owner_id=user.pk) | staff | (~Q(status=Tournament.Status.DRAFT) & plays)
    )


def tournaments_open_for(*, user: Any) -> list[Tournament]:
    """Events in registration that ``user`` may see (:func:`tournament_list_visible`) and has
    not entered yet, newest first."""
    joined = EntryMember.objects.filter(player__user=user).values("tournament_id")
    return list(
        tournament_list_visible(user=user)
        .filter(status=Tournament.Status.REGISTRATION)
        .exclude(pk__in=joined)
    )


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


# --- the organiser's next step ------------------------------------------------------------


@dataclass
class NextAction:
    """What the organiser should do next with an event: a label and the page to do it on."""

    code: str
    label: str
    url: str


def next_action(tournament: Tournament, last: Round | None) -> NextAction:
    """The organiser's next step, from the tournament's status and its last round (``last``:
    see ``rounds.last_rounds``)."""
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
