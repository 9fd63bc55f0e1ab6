"""The top-cut bracket page (seeds, tables, scores, the champion; anyone who may see the event)
and its organiser actions: start the top cut, pair the next bracket round."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import selectors, services
from tournaments.access import can_manage
from tournaments.pages.common import run, visible_tournament
from tournaments.pages.event_day_forms import TopCutForm


def top_cut(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """GET /tournaments/<id>/top-cut/: the bracket (seeds, tables, scores, the champion) for
    whoever may see the event; organisers get the start form (size suggested by the game:
    HKK Swiss only, WoW TCG and Blue Moon top 8) and the "next bracket round" button."""
    tournament = visible_tournament(request, tournament_id)
    manage = can_manage(request.user, tournament)
    bracket = selectors.top_cut_rounds(tournament=tournament, user=request.user)
    default = services.top_cut_default_size(tournament)
    champion = services.top_cut_champion(tournament=tournament)
    names = selectors.names_by_entry(tournament)
    context = {
        "tournament": tournament,
        "bracket": bracket,
        "tree": selectors.bracket_tree(bracket),
        "manage": manage,
        "default_size": default,
        "form": TopCutForm(initial={"size": default or 8, "higher_seed_chooses": True})
        if manage and not bracket
        else None,
        "champion": names.get(champion) if champion else None,
        "rounds": selectors.rounds_visible(tournament=tournament, user=request.user),
    }
    return render(request, "tournaments/public/top_cut.html", context)


@login_required
@require_POST
def top_cut_action(request: HttpRequest, tournament_id: int, action: str) -> HttpResponse:
    """POST /tournaments/<id>/top-cut/start/ (:class:`TopCutForm`) or …/top-cut/next/
    (organisers): start the top cut or pair the next bracket round; back to the bracket."""
    tournament = visible_tournament(request, tournament_id)
    back = redirect(reverse("tournaments:top-cut", args=[tournament.pk]))
    if action == "start":
        form = TopCutForm(request.POST)
        if not form.is_valid():
            messages.error(request, _("Choose the size of the top cut."))
            return back
        data = form.cleaned_data
        run(
            request,
            lambda: services.top_cut_start(
                tournament=tournament,
                size=data["size"],
                higher_seed_chooses=data["higher_seed_chooses"],
                actor=request.user,
            ),
            _("The top cut has started."),
        )
    else:
        run(
            request,
            lambda: services.top_cut_next(tournament=tournament, actor=request.user),
            _("The next bracket round is paired."),
        )
    return back
