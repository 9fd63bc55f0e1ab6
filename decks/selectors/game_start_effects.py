"""Reads of the HKK game-start effects table and the catalogue's follower kinds.

The effects of rule cards (szabálylap) and followers (követő) on the opening hand and life
points (ÉP) are organiser-editable rows of :class:`decks.models.GameStartEffect` (admin; seeded
by migration 0004). Rules: docs/rules.md §2 (HKK rule cards, followers and guilds) and §5 (HKK
game start: opening hand and life points).
"""

from __future__ import annotations

from typing import Any

from decks.domain.game_start import Effect, EffectKind
from decks.domain.normalize import normalize_name as card_key
from decks.models import Card, GameStartEffect

__all__ = [
    "catalogue_follower_kind",
    "effect_from_row",
    "effect_rows",
    "effects_by_name",
    "unknown_values",
]


def effect_rows() -> dict[str, GameStartEffect]:
    """Every effects row keyed by its normalised name (one query)."""
    return {row.normalized_name: row for row in GameStartEffect.objects.all()}


def effect_from_row(row: Any) -> Effect:
    """The domain :class:`~decks.domain.game_start.Effect` of one effects row."""
    return Effect(
        name=row.name,
        fixed_max_ep=row.fixed_max_ep,
        ep_change=row.ep_change,
        hand_change=row.hand_change,
        start_ep=row.start_ep,
        scope=row.scope,
        kind=row.kind,
        horde_hand=row.horde_hand,
        works_at_start=row.works_at_start,
    )


def effects_by_name() -> dict[str, Effect]:
    """The organiser's game-start effects: ``{normalised name: Effect}`` (one query).

    Keys use :func:`decks.domain.game_start.normalise_name`; values are domain
    :class:`~decks.domain.game_start.Effect` objects built from the database rows.
    """
    return {key: effect_from_row(row) for key, row in effect_rows().items()}


def unknown_values(row: Any) -> list[str]:
    """Names of the value columns of ``row`` that are not known (empty list: all known).

    Columns: ``fixed_max_ep``, ``ep_change``, ``hand_change``, ``start_ep``, and ``horde_hand``
    for a horde commander (also unknown when it works at start without a hand value).
    """
    columns = ["fixed_max_ep", "ep_change", "hand_change", "start_ep"]
    if row.kind == EffectKind.HORDE_COMMANDER:
        columns.append("horde_hand")
    unknown = [] if row.values_known else [c for c in columns if getattr(row, c) is None]
    if (
        row.kind == EffectKind.HORDE_COMMANDER
        and row.works_at_start
        and row.horde_hand is None
        and "horde_hand" not in unknown
    ):
        unknown.append("horde_hand")
    return unknown


def catalogue_follower_kind(name: str) -> EffectKind:
    """The follower kind the HKK card catalogue gives ``name`` (normal follower if unknown).

    One query; a horde commander wins over an epic follower when both carry the name.
    """
    kinds = set(
        Card.objects.filter(game__slug="hkk", normalized_name=card_key(name)).values_list(
            "kind", flat=True
        )
    )
    for kind in (EffectKind.HORDE_COMMANDER, EffectKind.EPIC_FOLLOWER):
        if kind.value in kinds:
            return kind
    return EffectKind.FOLLOWER
