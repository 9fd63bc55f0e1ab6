"""``/cards/coverage/``: what each game's card catalogue covers (public page).

docs/rules.md §17 (Card data sources and coverage).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from decks.selectors.coverage import catalogue_coverage_list


@require_GET
def catalogue_coverage_page(request: HttpRequest) -> HttpResponse:
    """One row per game: source, cards, editions with cards, last sync, complete or partial."""
    return render(request, "decks/coverage.html", {"rows": catalogue_coverage_list()})
