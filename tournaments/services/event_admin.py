"""The event's details and life after the finish: date and time, venue, description and player
cap; "use as a template" (a new draft with the same settings); reopening a finished event with
a recorded reason so results can be corrected.

Sources: docs/rules.md §14 (Swiss pairing and byes: the player cap), §16 (Deck checks,
penalties and result reporting: the finished-event lock and its audited reopening).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from hkk_tournament.errors import ValidationFailed
from tournaments.models import Tournament, TournamentAction
from tournaments.permissions import acting_user, require_manage
from tournaments.services._common import lock_tournament, require_status
from tournaments.services.circuits import circuits_event_finished
from tournaments.services.jobs import enqueue_meta
from tournaments.services.tournaments import SCORING_FIELDS, apply_details

S = Tournament.Status


@transaction.atomic
def tournament_set_details(*, actor: Any, tournament: Tournament, **details: Any) -> Tournament:
    """Change the event's date and time (``starts_at``, aware datetime or ``None``),
    ``venue``, ``description`` and player cap (``max_entries``, ≥ 2 or ``None``), in any status
    but finished.

    Raises ``ValidationFailed("invalid_value")``, ``InvalidState("tournament_status")``.
    """
    require_manage(actor, tournament)
    tournament = lock_tournament(tournament)
    require_status(tournament, S.DRAFT, S.REGISTRATION, S.RUNNING)
    apply_details(tournament, details)
    tournament.save(update_fields=list(details))
    return tournament


#: Settings copied by ``tournament_duplicate`` (not the entries, rounds, status or dates).
TEMPLATE_FIELDS = (
    "format",
    "match_structure",
    "kind",
    *sorted(SCORING_FIELDS),
    "planned_rounds",
    "tiebreakers",
    "late_entry_cutoff_round",
    "is_public",
    "decklists_published",
    "decklists_published_at",
    "deck_check_percent",
    "venue",
    "description",
    "max_entries",
)


@transaction.atomic
def tournament_duplicate(*, tournament: Tournament, owner: Any, name: str = "") -> Tournament:
    """A new ``draft`` event with the settings of ``tournament`` (:data:`TEMPLATE_FIELDS`) and
    no entries, rounds or date; ``name`` defaults to the old name. The caller becomes owner."""
    copy = Tournament(owner=owner, name=(name or "").strip() or tournament.name)
    for field in TEMPLATE_FIELDS:
        setattr(copy, field, getattr(tournament, field))
    copy.save()
    return copy


@transaction.atomic
def tournament_reopen(*, tournament: Tournament, actor: Any, reason: str = "") -> Tournament:
    """finished → running so results can be corrected (each correction is then recorded on
    its game); the reason, who and when are recorded (``reopened``). Finish it again after.

    Raises ``InvalidState("tournament_status")``, ``ValidationFailed("reason_required")``.
    """
    require_manage(actor, tournament)
    if not (reason or "").strip():
        raise ValidationFailed(
            "reason_required", _("Give a reason; it is recorded."), {"field": "reason"}
        )
    tournament = lock_tournament(tournament)
    require_status(tournament, S.FINISHED)
    TournamentAction.objects.create(
        tournament=tournament,
        kind=TournamentAction.Kind.REOPENED,
        reason=reason.strip(),
        by=acting_user(actor) if getattr(acting_user(actor), "pk", None) else None,
        params={
            "finished_at": tournament.finished_at.isoformat() if tournament.finished_at else None
        },
    )
    tournament.status = S.RUNNING
    tournament.finished_at = None
    tournament.save(update_fields=["status", "finished_at"])
    circuits_event_finished(tournament=tournament)  # it no longer counts until finished again
    enqueue_meta(tournament.pk)  # a running event counts in no meta statistics
    return tournament
