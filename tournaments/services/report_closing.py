"""Closing the players' open result reports of a match once a judge's entry completes it
(docs/rules.md §16 (Deck checks, penalties and result reporting))."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from tournaments import selectors
from tournaments.models import Match, ResultReport


def supersede_open_reports(match: Match, *, by: Any) -> None:
    """Once the match is complete, its open (pending or disputed) player reports are closed as
    superseded: the recorded games are the result the players see (docs/rules.md §16 (Deck
    checks, penalties and result reporting)). Report flows that accept a report mark it
    ``accepted`` right after recording its games."""
    if not selectors.match_score(match, selectors.match_games(match)).complete:
        return
    ResultReport.objects.filter(
        match=match, status__in=(ResultReport.Status.PENDING, ResultReport.Status.DISPUTED)
    ).update(status=ResultReport.Status.SUPERSEDED, resolved_by=by, resolved_at=timezone.now())
