"""The public live page (issue 4 §3): pairings of the current round and the standings, which
refresh by themselves (a small script fetches ``?partial=1`` every 30 seconds and swaps the
content; without JavaScript a ``<noscript>`` meta refresh reloads the page).

Who may: anyone for a public event, staff and players for a private one
(``can_view_tournament``, else 404). Draft rounds are never shown here, not even to organisers.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from tournaments import api_selectors, services
from tournaments.views_common import visible_tournament
from tournaments.views_selectors import current_round

#: Seconds between two refreshes of the live page.
REFRESH_SECONDS = 30


@require_GET
def live(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """GET /tournaments/<id>/live/: the tables of the latest published or finished round and the
    standings, for whoever may see the event (404 otherwise); ``?partial=1`` returns only the
    content fragment the page's script swaps in every ``REFRESH_SECONDS``.
    """
    tournament = visible_tournament(request, tournament_id)
    rnd = current_round(tournament=tournament)
    context = {
        "tournament": tournament,
        "round": rnd,
        "matches": api_selectors.round_match_views(round=rnd) if rnd is not None else [],
        "rows": api_selectors.standing_views(
            tournament=tournament, rows=services.standings_compute(tournament=tournament)
        ),
        "tiebreaker_columns": api_selectors.tiebreaker_columns(tournament),
        "refresh": REFRESH_SECONDS,
    }
    if request.GET.get("partial") == "1":
        return render(request, "tournaments/_live_content.html", context)
    context["rounds"] = api_selectors.rounds_visible(tournament=tournament, user=request.user)
    return render(request, "tournaments/live.html", context)
