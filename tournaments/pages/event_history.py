"""The event's history page: every recorded organiser and judge step (discarded or unpublished
rounds, drops fixed with a re-pair or a bye, re-added entries, check-in drops, reopenings with
their reason, swaps of pairings, corrections of games): who, when, what and why
(``selectors.event_history``; docs/rules.md §16 (Deck checks, penalties and result
reporting)). Who may: ``can_manage`` on the event (403; 404 when it is not visible).
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from tournaments import selectors
from tournaments.pages.common import managed_tournament


@login_required
@require_GET
def event_history(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """GET /tournaments/<id>/history/: the event's recorded actions, newest first."""
    tournament = managed_tournament(request, tournament_id)
    rows = selectors.event_history(tournament=tournament)
    return render(
        request, "tournaments/organiser/history.html", {"tournament": tournament, "rows": rows}
    )
