"""The penalty log page (judges and organisers): the log, a form to add a penalty, the CSV
download (docs/rules.md §16 (Deck checks, penalties and result reporting))."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from hkk_tournament.errors import error_message
from hkk_tournament.web.downloads import csv_response
from tournaments import selectors, services
from tournaments.pages.common import FORM_ERRORS, judged_tournament
from tournaments.pages.event_day_forms import PenaltyForm


@login_required
def penalties(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """GET, POST /tournaments/<id>/penalties/ (judges and organisers): the penalty log with a
    :class:`PenaltyForm` to add one (``services.penalty_record``); ``?format=csv`` downloads
    the log as CSV in the active language."""
    tournament = judged_tournament(request, tournament_id)
    if request.GET.get("format") == "csv":
        return csv_response(
            services.penalties_csv(tournament), f"tournament-{tournament.pk}-penalties.csv"
        )
    names = selectors.names_by_entry(tournament)
    entries = sorted(names.items(), key=lambda item: item[1].casefold())
    rounds = [r.number for r in selectors.rounds_visible(tournament=tournament, user=request.user)]
    current = selectors.current_round(tournament=tournament)
    form = PenaltyForm(
        request.POST or None,
        entries=entries,
        rounds=rounds,
        initial={"round": current.number if current else None},
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        rnd = (
            selectors.round_get(tournament=tournament, number=data["round"])
            if data["round"]
            else None
        )
        try:
            services.penalty_record(
                tournament=tournament,
                entry=data["entry"],
                round=rnd,
                category=data["category"],
                kind=data["kind"],
                notes=data["notes"],
                actor=request.user,
            )
        except FORM_ERRORS as exc:
            messages.error(request, error_message(exc))
        else:
            messages.success(request, _("Penalty recorded."))
            return redirect(reverse("tournaments:penalties", args=[tournament.pk]))
    context = {
        "tournament": tournament,
        "form": form,
        "penalties": services.penalties_of(tournament=tournament),
        "names": names,
        "rounds": selectors.rounds_visible(tournament=tournament, user=request.user),
    }
    return render(request, "tournaments/judge/penalties.html", context)
