"""Closing the players' open result reports of a match once a judge's entry completes it
(docs/rules.md §16 (Deck checks, penalties and result reporting))."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils import timezone

from tournaments import selectors
from tournaments.models import Game, Match, ResultReport


def supersede_open_reports(match: Match, *, by: Any, games: Sequence[Game] | None = None) -> None:
    """Once the match is complete, its open (pending or disputed) player reports are closed as
    superseded: the recorded games are the result the players see (docs/rules.md §16 (Deck
    checks, penalties and result reporting)). Report flows that accept a report mark it
    ``accepted`` right after recording its games.

    ``games``: the match's recorded games in order when the caller holds them already (read
    under the match's row lock, plus the ones it just stored); ``None`` reads them. One
    ``UPDATE`` when the match is complete, nothing otherwise."""
    if games is None:
        games = selectors.match_games(match)
    if not selectors.match_score(match, games).complete:
        return
    ResultReport.objects.filter(
        match=match, status__in=(ResultReport.Status.PENDING, ResultReport.Status.DISPUTED)
    ).update(status=ResultReport.Status.SUPERSEDED, resolved_by=by, resolved_at=timezone.now())
