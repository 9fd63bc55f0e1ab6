"""Organiser pages of an event: the dashboard of one's events with their next step, the
"new tournament" form, the event's options and status changes (open registration, start,
finish), and the staff page (the owner appoints and removes co-organisers and judges by
username). Entries live in ``organiser_entries``, rounds and print-outs in ``organiser_rounds``.

Thin: forms check the input, one service call does the work, its ``ApplicationError`` is shown
as a message or on the form, and every POST redirects (POST-redirect-GET). Who may: the
dashboard and the new-event form need an account (anonymous users go to the login page); the
event's actions ``can_manage`` (403; 404 when the event is not visible); staff changes
``can_appoint_staff`` (the owner). The event structure follows docs/rules.md §8 (HKK tournament
structure and scoring).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from decks.selectors.formats import format_list_active
from tournaments import selectors, services
from tournaments.access import can_appoint_staff, require_role
from tournaments.models import Tournament
from tournaments.pages.common import FORM_ERRORS, confirm_page, detail_url, managed_tournament, run
from tournaments.pages.organiser_forms import (
    StaffAppointForm,
    StaffRemoveForm,
    TournamentCreateForm,
    TournamentOptionsForm,
)
from tournaments.selectors import (
    last_rounds,
    next_action,
    staff_list,
    tournaments_judged,
    tournaments_organised,
    user_find,
)

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


@login_required
@require_GET
def dashboard(request: HttpRequest) -> HttpResponse:
    """GET /organiser/: the events the user owns or co-organises (and judges), each with its next
    step.
    """
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
    return render(request, "tournaments/organiser/dashboard.html", {"rows": rows, "judged": judged})


# --- new event, options, status -----------------------------------------------------------


def _format_choices() -> list[tuple[str, str]]:
    return [(f.slug, f"{f.name} ({f.game.name})") for f in format_list_active()]


def _create(owner: Any, data: dict[str, Any]) -> Tournament:
    """Create the event and set its options in one transaction (the cleaned create form)."""
    with transaction.atomic():
        tournament = services.tournament_create(
            owner=owner,
            name=data["name"],
            format_slug=data["format"],
            settings=services.TournamentSettings(
                first_player_policy=data["first_player_policy"] or None,
                games_per_match=data["games_per_match"],
                ends_when_decided=data["ends_when_decided"] or None,
                planned_rounds=data["planned_rounds"],
                tiebreakers=data["tiebreakers"],
                late_entry_cutoff_round=data["late_entry_cutoff_round"],
            ),
            details={
                "starts_at": data["starts_at"],
                "venue": data["venue"],
                "description": data["description"],
                "max_entries": data["max_entries"],
            },
        )
        return services.tournament_set_options(
            actor=owner,
            tournament=tournament,
            is_public=data["is_public"],
            decklists_published=data["decklists_published"],
            deck_check_percent=(
                10 if data["deck_check_percent"] is None else data["deck_check_percent"]
            ),
        )


@login_required
@require_http_methods(["GET", "POST"])
def tournament_create(request: HttpRequest) -> HttpResponse:
    """GET, POST /tournaments/new/ (signed-in users; the creator becomes the owner): the
    :class:`TournamentCreateForm`. A valid POST runs ``tournament_create`` and
    ``tournament_set_options`` in one transaction and redirects to the new event; a service error
    is shown on the form.
    """
    choices = _format_choices()
    default = settings.HKK_DEFAULT_FORMAT if settings.HKK_DEFAULT_FORMAT in dict(choices) else None
    form = TournamentCreateForm(
        request.POST or None, format_choices=choices, initial={"format": default}
    )
    if request.method == "POST" and form.is_valid():
        try:
            tournament = _create(request.user, form.cleaned_data)
        except FORM_ERRORS as exc:
            form.add_error(None, str(exc.message))
        else:
            messages.success(request, _("Tournament created."))
            return redirect(detail_url(tournament))
    return render(request, "tournaments/organiser/create.html", {"form": form})


def _transition(
    service: Callable[..., Any],
    success: StrOrPromise,
    confirm: tuple[StrOrPromise, StrOrPromise, StrOrPromise] | None = None,
) -> Callable[[HttpRequest, int], HttpResponse]:
    """An organiser view that runs ``service(actor=..., tournament=...)`` on POST and goes back
    to the event
    page with ``success`` or the service's error. With ``confirm`` = (title, explanation,
    button), a GET shows the confirmation page whose button POSTs (irreversible steps)."""

    @login_required
    @require_http_methods(["GET", "POST"] if confirm else ["POST"])
    def view(request: HttpRequest, tournament_id: int) -> HttpResponse:
        tournament = managed_tournament(request, tournament_id)
        if request.method == "GET" and confirm is not None:
            title, explanation, submit = confirm
            return confirm_page(
                request, tournament, title=title, explanation=[explanation], submit=submit
            )
        run(request, lambda: service(actor=request.user, tournament=tournament), success)
        return redirect(detail_url(tournament))

    return view


tournament_open_registration = _transition(
    services.tournament_open_registration, gettext_lazy("Registration is open.")
)
tournament_start = _transition(
    services.tournament_start,
    gettext_lazy("The tournament has started."),
    (
        gettext_lazy("Start the tournament"),
        gettext_lazy(
            "The deck lists are locked and registration closes; late entries follow the "
            "cut-off round. This cannot be undone."
        ),
        gettext_lazy("Yes, start the tournament"),
    ),
)
tournament_finish = _transition(
    services.tournament_finish,
    gettext_lazy("The tournament is finished."),
    (
        gettext_lazy("Finish the tournament"),
        gettext_lazy(
            "The results are locked. A correction afterwards needs the event to be reopened "
            "with a recorded reason."
        ),
        gettext_lazy("Yes, finish the tournament"),
    ),
)


@login_required
@require_POST
def tournament_options(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """POST /tournaments/<id>/options/ (organisers): change the public flag, deck-list
    publication and the deck-check share (:class:`TournamentOptionsForm`). Redirects to the
    event page with a success or error message.
    """
    tournament = managed_tournament(request, tournament_id)
    form = TournamentOptionsForm(request.POST)
    if not form.is_valid():
        messages.error(
            request, _("Check the options: the deck-check share is a number from 0–100.")
        )
        return redirect(detail_url(tournament))
    data = form.cleaned_data
    run(
        request,
        lambda: services.tournament_set_options(
            actor=request.user,
            tournament=tournament,
            is_public=data["is_public"],
            decklists_published=data["decklists_published"],
            decklists_published_at=data["decklists_published_at"] or None,
            deck_check_percent=data["deck_check_percent"],
        ),
        _("Options saved."),
    )
    return redirect(detail_url(tournament))


# --- staff --------------------------------------------------------------------------------


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
        "staff": staff_list(tournament=tournament),
        "appoint": appoint,
        "form": StaffAppointForm() if appoint else None,
        "rounds": selectors.rounds_visible(tournament=tournament, user=request.user),
    }
    return render(request, "tournaments/organiser/staff.html", context)


def _owner_tournament(request: HttpRequest, tournament_id: int) -> Tournament:
    tournament = managed_tournament(request, tournament_id)
    require_role(request.user, tournament, "owner")
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
    user = user_find(username=form.cleaned_data["username"])
    if user is None:
        messages.error(
            request,
            _("There is no user called %(name)s.") % {"name": form.cleaned_data["username"]},
        )
        return redirect(_staff_url(tournament.pk))
    run(
        request,
        lambda: services.staff_appoint(
            tournament=tournament, user=user, role=form.cleaned_data["role"], actor=request.user
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
    user = user_find(username=form.cleaned_data["username"]) if form.is_valid() else None
    if user is None:
        messages.error(request, _("No such user."))
        return redirect(_staff_url(tournament.pk))
    run(
        request,
        lambda: services.staff_remove(tournament=tournament, user=user, actor=request.user),
        _("%(name)s is removed from the staff.") % {"name": user.get_username()},
    )
    return redirect(_staff_url(tournament.pk))
