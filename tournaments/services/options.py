"""Event options an organiser changes after creating the event: whether the event is public,
whether deck lists are published to the players, and the share of entries deck-checked each
round (docs/rules.md §16 (Deck checks, penalties and result reporting)). ``tournament_create``
does not take them.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from hkk_tournament.errors import ValidationFailed
from tournaments.models import Tournament
from tournaments.permissions import require_manage
from tournaments.services._common import lock_tournament
from tournaments.services.jobs import enqueue_meta


@transaction.atomic
def tournament_set_options(
    *,
    actor: Any,
    tournament: Tournament,
    is_public: bool | None = None,
    decklists_published: bool | None = None,
    deck_check_percent: int | None = None,
    decklists_published_at: str | None = None,
) -> Tournament:
    """Set the given options (``None`` = unchanged) on the locked tournament row.

    ``decklists_published_at``: a ``Tournament.ListsPublished`` value, when published lists
    become public (docs/rules.md §20 (Meta statistics)). A change of the publication of a
    finished event recomputes its meta statistics after the commit (``jobs.enqueue_meta``).

    Raises:
        ValidationFailed: ``invalid_value`` when ``deck_check_percent`` is not 0–100 or
            ``decklists_published_at`` is not a choice.
    """
    require_manage(actor, tournament)
    tournament = lock_tournament(tournament)
    fields = []
    if is_public is not None:
        tournament.is_public = bool(is_public)
        fields.append("is_public")
    if decklists_published is not None:
        tournament.decklists_published = bool(decklists_published)
        fields.append("decklists_published")
    if decklists_published_at is not None:
        if decklists_published_at not in Tournament.ListsPublished.values:
            raise ValidationFailed(
                "invalid_value",
                _("Choose when the lists become public."),
                {"field": "decklists_published_at"},
            )
        tournament.decklists_published_at = decklists_published_at
        fields.append("decklists_published_at")
    if deck_check_percent is not None:
        if not isinstance(deck_check_percent, int) or not 0 <= deck_check_percent <= 100:
            raise ValidationFailed(
                "invalid_value",
                _("The deck-check share must be a number from 0–100."),
                {"field": "deck_check_percent"},
            )
        tournament.deck_check_percent = deck_check_percent
        fields.append("deck_check_percent")
    if fields:
        tournament.save(update_fields=fields)
    if tournament.status == Tournament.Status.FINISHED and {
        "is_public",
        "decklists_published",
        "decklists_published_at",
    } & set(fields):
        enqueue_meta(tournament.pk)
    return tournament
