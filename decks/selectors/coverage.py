"""What each game's card catalogue covers: source, cards, editions, last sync, complete or
partial. Shown on ``/cards/coverage/`` and by ``GET /api/catalogue/``.

docs/rules.md §17 (Card data sources and coverage).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, Q

from decks import models
from decks.domain.types import FACTS_UNKNOWN

__all__ = ["GameCoverage", "catalogue_coverage_list"]


@dataclass(frozen=True, slots=True)
class GameCoverage:
    """One game's catalogue.

    Attributes:
        game / game_name: slug and display name.
        coverage: ``"complete"`` or ``"partial"`` (``Game.coverage``).
        source: where the cards came from (``Game.catalogue_source``).
        cards: cards in the catalogue; ``name_only``: of them, names whose facts are unknown
            (HKK usage statistics).
        editions / editions_with_cards: editions known, and those with at least one card.
        last_synced_at: end of the last publisher sync, or ``None``.
        last_sync_status: status of the newest sync run (``""`` = none).
    """

    game: str
    game_name: str
    coverage: str
    source: str
    cards: int
    name_only: int
    editions: int
    editions_with_cards: int
    last_synced_at: datetime | None
    last_sync_status: str


def catalogue_coverage_list() -> list[GameCoverage]:
    """Every game's :class:`GameCoverage`, by slug (four queries)."""
    games = list(
        models.Game.objects.order_by("slug").annotate(
            n_cards=Count("cards", distinct=True),
            n_name_only=Count(
                "cards", filter=Q(cards__attributes__has_key=FACTS_UNKNOWN), distinct=True
            ),
        )
    )
    editions = dict(
        models.Edition.objects.values_list("game_id")
        .annotate(n=Count("pk"))
        .values_list("game_id", "n")
    )
    with_cards = dict(
        models.Edition.objects.filter(cards__isnull=False)
        .values_list("game_id")
        .annotate(n=Count("pk", distinct=True))
        .values_list("game_id", "n")
    )
    last_runs: dict[int, str] = {}
    for game_id, status in models.CatalogueSyncRun.objects.order_by(
        "game_id", "-created_at", "-pk"
    ).values_list("game_id", "status"):
        last_runs.setdefault(game_id, status)
    return [
        GameCoverage(
            game=game.slug,
            game_name=game.name,
            coverage=game.coverage,
            source=game.catalogue_source,
            cards=game.n_cards,
            name_only=game.n_name_only,
            editions=editions.get(game.pk, 0),
            editions_with_cards=with_cards.get(game.pk, 0),
            last_synced_at=game.last_synced_at,
            last_sync_status=last_runs.get(game.pk, ""),
        )
        for game in games
    ]
