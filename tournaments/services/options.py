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


@transaction.atomic
def tournament_set_options(
    *,
    actor: Any,
    tournament: Tournament,
    is_public: bool | None = None,
    decklists_published: bool | None = None,
    deck_check_percent: int | None = None,
) -> Tournament:
    """Set the given options (``None`` = unchanged) on the locked tournament row.

    Raises:
        ValidationFailed: ``invalid_value`` when ``deck_check_percent`` is not 0–100.
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
    return tournament
