"""The projector view: full-screen pairings by name with the round clock and a QR code of the
event's public page, for whoever may see the round."""

from __future__ import annotations

import segno
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from tournaments import selectors
from tournaments.pages.common import visible_round, visible_tournament


def qr_svg(url: str) -> SafeString:
    """A QR code of ``url`` (segno, error correction M) as inline SVG markup: a single path,
    no script or style attribute, so it passes a strict Content-Security-Policy."""
    # Safe: segno's markup carries the URL only as the path's modules, never as text.
    return mark_safe(segno.make_qr(url, error="m").svg_inline(scale=6))


@require_GET
def projector(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """GET /tournaments/<id>/rounds/<number>/projector/: full-screen pairings by name with the
    round clock and a QR code of the event's public page, for a projector or a wall screen
    (refreshes itself; without JavaScript the end time is shown and the page reloads every
    minute). While ``number`` is the current round the page follows the event: when the next
    round is published it moves on to it (``clock.js`` asks :func:`projector_current`)."""
    tournament = visible_tournament(request, tournament_id)
    rnd = visible_round(request, tournament, number)
    views = selectors.round_match_views(round=rnd)
    current = selectors.current_round(tournament=tournament)
    event_url = request.build_absolute_uri(reverse("tournaments:detail", args=[tournament.pk]))
    context = {
        "tournament": tournament,
        "round": rnd,
        "rows": selectors.pairings_by_name(views),
        "clock": selectors.clock_view(round=rnd),
        "follow": current is not None and current.pk == rnd.pk,
        "event_url": event_url,
        "event_qr": qr_svg(event_url),
    }
    return render(request, "tournaments/public/projector.html", context)


@require_GET
def projector_current(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """GET /tournaments/<id>/projector/: the projector view of the current round (the latest
    published or finished one); 404 before the first round is published."""
    tournament = visible_tournament(request, tournament_id)
    current = selectors.current_round(tournament=tournament)
    if current is None:
        raise Http404(_("No round has been published yet."))
    return projector(request, tournament_id=tournament.pk, number=current.number)
