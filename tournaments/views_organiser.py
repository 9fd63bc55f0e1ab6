"""Organiser pages (issue 4 §3): the dashboard of one's events with their next step, the staff
page (the owner appoints and removes co-organisers and judges by username) and the printable
PDFs (pairings by table and by name, standings, result slips).

Who may: the dashboard needs an account; the staff page ``can_manage`` to look,
``can_appoint_staff`` (the owner) to change; the PDFs ``can_judge`` (draft rounds only for the
organisers, as on the pages).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tournaments import api_selectors, printouts, services
from tournaments.forms import StaffAppointForm, StaffRemoveForm
from tournaments.permissions import can_appoint_staff
from tournaments.views_common import judged_tournament, managed_tournament, run, visible_round
from tournaments.views_selectors import (
    last_rounds,
    next_action,
    staff_of,
    tournaments_judged,
    tournaments_organised,
    user_by_username,
)


@login_required
@require_GET
def dashboard(request: HttpRequest) -> HttpResponse:
    """The events the user owns or co-organises (and judges), each with its next step."""
    organised = list(tournaments_organised(user=request.user))
    judged = list(tournaments_judged(user=request.user))
    last = last_rounds(organised)
    rows = [
        {
            "tournament": t,
            "owner": t.owner_id == request.user.pk,
            "last_round": last.get(t.pk),
            "action": next_action(t, last.get(t.pk)),
        }
        for t in organised
    ]
    return render(request, "tournaments/dashboard.html", {"rows": rows, "judged": judged})


def _staff_url(tournament_id: int) -> str:
    return reverse("tournaments:staff", args=[tournament_id])


@login_required
@require_GET
def staff(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """GET /tournaments/<id>/staff/ (organisers; 403 otherwise): the co-organisers and judges; the
    owner also gets the :class:`StaffAppointForm`.
    """
    tournament = managed_tournament(request, tournament_id)
    appoint = can_appoint_staff(request.user, tournament)
    context = {
        "tournament": tournament,
        "staff": staff_of(tournament=tournament),
        "appoint": appoint,
        "form": StaffAppointForm() if appoint else None,
        "rounds": api_selectors.rounds_visible(tournament=tournament, user=request.user),
    }
    return render(request, "tournaments/staff.html", context)


def _owner_tournament(request: HttpRequest, tournament_id: int):
    tournament = managed_tournament(request, tournament_id)
    if not can_appoint_staff(request.user, tournament):
        raise PermissionDenied(_("Only the owner of the tournament appoints its staff."))
    return tournament


@login_required
@require_POST
def staff_appoint(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """POST /tournaments/<id>/staff/appoint/ (the owner only; 403 otherwise): appoint the user named
    in :class:`StaffAppointForm` (case-insensitive username) or change their role. Redirects to
    the staff page with a success or error message.
    """
    tournament = _owner_tournament(request, tournament_id)
    form = StaffAppointForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give a username and a role."))
        return redirect(_staff_url(tournament.pk))
    user = user_by_username(form.cleaned_data["username"])
    if user is None:
        messages.error(
            request,
            _("There is no user called %(name)s.") % {"name": form.cleaned_data["username"]},
        )
        return redirect(_staff_url(tournament.pk))
    run(
        request,
        lambda: services.staff_appoint(
            tournament=tournament, user=user, role=form.cleaned_data["role"], by=request.user
        ),
        _("%(name)s is appointed.") % {"name": user.get_username()},
    )
    return redirect(_staff_url(tournament.pk))


@login_required
@require_POST
def staff_remove(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """POST /tournaments/<id>/staff/remove/ (the owner only): remove the named user's staff role
    (``services.staff_remove``). Redirects to the staff page with a success or error message.
    """
    tournament = _owner_tournament(request, tournament_id)
    form = StaffRemoveForm(request.POST)
    user = user_by_username(form.cleaned_data["username"]) if form.is_valid() else None
    if user is None:
        messages.error(request, _("No such user."))
        return redirect(_staff_url(tournament.pk))
    run(
        request,
        lambda: services.staff_remove(tournament=tournament, user=user, by=request.user),
        _("%(name)s is removed from the staff.") % {"name": user.get_username()},
    )
    return redirect(_staff_url(tournament.pk))


# --- PDF printouts ------------------------------------------------------------------------


def _pdf(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@login_required
@require_GET
def print_pairings(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """Pairings PDF of a round, ``?by=name`` for the alphabetical list (else by table)."""
    tournament = judged_tournament(request, tournament_id)
    rnd = visible_round(request, tournament, number)
    by_name = request.GET.get("by") == "name"
    content = printouts.pairings_pdf(round=rnd, by_name=by_name)
    suffix = "by-name" if by_name else "by-table"
    return _pdf(content, f"pairings-{tournament.pk}-r{number}-{suffix}.pdf")


@login_required
@require_GET
def print_slips(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """Result slips of a round, one per table."""
    tournament = judged_tournament(request, tournament_id)
    rnd = visible_round(request, tournament, number)
    return _pdf(printouts.result_slips_pdf(round=rnd), f"slips-{tournament.pk}-r{number}.pdf")


@login_required
@require_GET
def print_standings(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """GET /tournaments/<id>/print/standings.pdf (judges and organisers): the standings as a PDF,
    shown inline.
    """
    tournament = judged_tournament(request, tournament_id)
    return _pdf(printouts.standings_pdf(tournament=tournament), f"standings-{tournament.pk}.pdf")
