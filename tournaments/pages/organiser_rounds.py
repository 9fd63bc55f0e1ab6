"""Organiser pages for the rounds of an event: pair the next round as a draft, swap tables in
a draft, publish and finish a round (docs/rules.md §14 (Swiss pairing and byes)), and the
printable PDFs (pairings by table and by name, standings, result slips; drawn by
``tournaments.pages.printouts``).

Who may: the round actions ``can_manage`` (403; 404 when the event or a draft round is not
visible); the PDFs ``can_judge`` (draft rounds only for the organisers, as on the pages);
anonymous users go to the login page. Every POST redirects (POST-redirect-GET).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournaments import services
from tournaments.pages import printouts
from tournaments.pages.common import (
    confirm_page,
    detail_url,
    judged_tournament,
    managed_tournament,
    round_url,
    run,
    visible_round,
)
from tournaments.pages.organiser_forms import SwapForm

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


@login_required
@require_POST
def round_pair_next(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """POST /tournaments/<id>/rounds/new/ (organisers; 403 otherwise): pair the next round as a
    draft (``services.round_pair_next``) and open it; on a service error, back to the event page
    with the message.
    """
    tournament = managed_tournament(request, tournament_id)
    rnd = run(
        request,
        lambda: services.round_pair_next(tournament=tournament, actor=request.user),
        _("The next round is paired (draft). Check it, then publish it."),
    )
    if rnd is None:
        return redirect(detail_url(tournament))
    return redirect(round_url(tournament, rnd.number))


@login_required
@require_POST
def round_swap(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """POST /tournaments/<id>/rounds/<number>/swap/ (organisers): swap the seat-A or seat-B entries
    of two tables of a draft round (:class:`SwapForm`, ``services.round_swap_pairings``).
    Redirects to the round page with a success or error message.
    """
    tournament = managed_tournament(request, tournament_id)
    rnd = visible_round(request, tournament, number)
    form = SwapForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose two tables and the seat to swap."))
        return redirect(round_url(tournament, number))
    data = form.cleaned_data
    run(
        request,
        lambda: services.round_swap_pairings(
            round=rnd,
            table_x=data["table_x"],
            table_y=data["table_y"],
            swap=data["swap"],
            actor=request.user,
            reason=data["reason"],
        ),
        _("Tables swapped."),
    )
    return redirect(round_url(tournament, number))


def _round_transition(
    service: Callable[..., Any], success: StrOrPromise
) -> Callable[[HttpRequest, int, int], HttpResponse]:
    """A POST-only organiser view that runs ``service(actor=..., round=...)`` and goes back to
    the round
    page with ``success`` or the service's error."""

    @login_required
    @require_POST
    def view(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
        tournament = managed_tournament(request, tournament_id)
        rnd = visible_round(request, tournament, number)
        run(request, lambda: service(actor=request.user, round=rnd), success)
        return redirect(round_url(tournament, number))

    return view


round_publish = _round_transition(services.round_publish, gettext_lazy("The round is published."))


@login_required
@require_http_methods(["GET", "POST"])
def round_finish(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """GET, POST /tournaments/<id>/rounds/<number>/finish/ (organisers): GET asks for
    confirmation, POST finishes the round (``services.round_finish``) and goes back to it."""
    tournament = managed_tournament(request, tournament_id)
    rnd = visible_round(request, tournament, number)
    if request.method == "GET":
        return confirm_page(
            request,
            tournament,
            title=_("Finish round %(round)s") % {"round": number},
            explanation=[
                _(
                    "The standings are computed and the next round can be paired. Results can "
                    "then be changed only as recorded corrections."
                )
            ],
            submit=_("Yes, finish the round"),
            cancel_url=round_url(tournament, number),
        )
    run(
        request,
        lambda: services.round_finish(actor=request.user, round=rnd),
        _("The round is finished."),
    )
    return redirect(round_url(tournament, number))


# --- PDF print-outs -----------------------------------------------------------------------


def _pdf(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@login_required
@require_GET
def print_pairings(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """GET /tournaments/<id>/rounds/<number>/print/pairings.pdf (judges and organisers): the
    round's pairings as a PDF, ``?by=name`` for the alphabetical list (else by table).
    """
    tournament = judged_tournament(request, tournament_id)
    rnd = visible_round(request, tournament, number)
    by_name = request.GET.get("by") == "name"
    content = printouts.pairings_pdf(round=rnd, by_name=by_name)
    suffix = "by-name" if by_name else "by-table"
    return _pdf(content, f"pairings-{tournament.pk}-r{number}-{suffix}.pdf")


@login_required
@require_GET
def print_slips(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """GET /tournaments/<id>/rounds/<number>/print/slips.pdf (judges and organisers): the
    round's result slips, one per table.
    """
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
