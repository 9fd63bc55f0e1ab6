"""Event fields that are not match settings: the kind a format implies and the descriptive
details (date and time, venue, description, player cap). Used by ``tournaments`` (create) and
``event_admin`` (change).

Sources: docs/rules.md §7 (HKK pair tournaments: the Páros format makes a pair event), §14
(Swiss pairing and byes: the player cap).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from decks.models import Format
from hkk_tournament.errors import ValidationFailed
from tournaments.models import Tournament


def format_kind(fmt: Format) -> str:
    """The event kind a format implies: ``pair`` when its rule-set parameters say
    ``"pair": true`` (HKK Páros, docs/rules.md §7 (HKK pair tournaments)), else ``individual``."""
    params = fmt.params if isinstance(fmt.params, dict) else {}
    return Tournament.Kind.PAIR if params.get("pair") else Tournament.Kind.INDIVIDUAL


def kind_for_format(fmt: Format, kind: str | None) -> str:
    """The event kind: ``kind`` when given and it agrees with :func:`format_kind`, else the
    format's. Raises ``ValidationFailed("kind_mismatch")`` (field ``kind``) when they differ."""
    implied = format_kind(fmt)
    if kind and kind in Tournament.Kind.values and kind != implied:
        raise ValidationFailed(
            "kind_mismatch",
            _("The format %(format)s is played by %(kind)s entries.")
            % {"format": fmt.name, "kind": Tournament.Kind(implied).label},
            {"kind": kind, "format_kind": implied},
            fields={"kind": [_("This format decides the kind.")]},
        )
    return kind or implied


#: The descriptive fields ``tournament_set_details`` changes.
DETAIL_FIELDS = ("starts_at", "venue", "description", "max_entries")


def apply_details(tournament: Tournament, details: Mapping[str, Any]) -> None:
    unknown = set(details) - set(DETAIL_FIELDS)
    if unknown:
        raise ValidationFailed(
            "invalid_value",
            _("Unknown event detail: %(key)s.") % {"key": ", ".join(sorted(unknown))},
            {"fields": sorted(unknown)},
        )
    cap = details.get("max_entries", tournament.max_entries)
    if cap is not None and (not isinstance(cap, int) or cap < 2):
        raise ValidationFailed(
            "invalid_value",
            _("The player cap must be at least 2."),
            {"field": "max_entries"},
            fields={"max_entries": [_("The player cap must be at least 2.")]},
        )
    for key, value in details.items():
        if key in ("venue", "description"):
            value = str(value or "").strip()
        setattr(tournament, key, value)
