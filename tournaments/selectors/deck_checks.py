"""Read model of deck checks (docs/rules.md §16 (Deck checks, penalties and result
reporting)). No writes here."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from hkk_tournament.errors import NotFound
from tournaments.models import DeckCheck, Round, Tournament


def deck_check_get(
    *,
    tournament: Tournament,
    check_id: int,
    round: Round | None = None,
) -> DeckCheck:
    """A deck check of ``tournament`` (of ``round`` when given), with its round and entry, or
    ``NotFound("deck_check_not_found")``."""
    qs = DeckCheck.objects.select_related("round__tournament", "entry").filter(
        pk=check_id, round__tournament=tournament
    )
    if round is not None:
        qs = qs.filter(round=round)
    check = qs.first()
    if check is None:
        raise NotFound("deck_check_not_found", _("No such deck check."), {"check": check_id})
    return check


def deck_checks_of_round(*, round: Round) -> list[DeckCheck]:
    """The deck checks of ``round`` by entry, with entry, creator and checker loaded."""
    return list(
        round.deck_checks.select_related("round", "entry", "created_by", "checked_by").order_by(
            "entry_id", "id"
        )
    )
