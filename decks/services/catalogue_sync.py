"""Write loader output into the card catalogue: :func:`catalogue_sync`.

Idempotent, one transaction, bulk statements; bumps :class:`decks.models.CatalogueVersion` when
anything changed, so every process's cached card index and format specs
(:mod:`decks.selectors.cache`) are rebuilt. Facts only: rules text is never stored
(docs/rules.md §17 (Card data sources and coverage)).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone

from decks import models
from decks.domain.editions import Edition
from decks.domain.normalize import normalize_name
from decks.domain.types import Card
from decks.loaders.export import CatalogueExport

__all__ = [
    "GAME_NAMES",
    "CatalogueDiff",
    "SyncResult",
    "catalogue_diff",
    "catalogue_import_export",
    "catalogue_sync",
]

#: Display names of the games created on first load.
GAME_NAMES = {"hkk": "Hatalom Kártyái", "wow": "World of Warcraft TCG", "bluemoon": "Blue Moon"}


@dataclass(frozen=True, slots=True)
class SyncResult:
    """Counts of one :func:`catalogue_sync` call (cards only; editions counted separately)."""

    game: str
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    editions_created: int = 0


_SYNC_FIELDS = (
    "name",
    "normalized_name",
    "kind",
    "types",
    "colours",
    "colours_unknown",
    "class_icons",
    "faction",
    "hero_traits",
    "requires",
    "unlimited",
    "rarity",
    "attributes",
)

#: One wanted card: the domain card, its row values and its edition codes.
_Wanted = tuple[Card, dict[str, object], tuple[str, ...]]


def _jsonable(value: object) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (frozenset, set)):
        return sorted(_jsonable(v) for v in value)
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value


def _fingerprint(values: Mapping[str, object], codes: tuple[str, ...]) -> str:
    payload = json.dumps([values, codes], sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def _row_values(card: Card) -> tuple[dict[str, object], tuple[str, ...]]:
    attributes = dict(card.attributes)
    editions: Any = attributes.pop("editions", ()) or ()
    edition_codes = tuple(str(code) for code in editions)
    values = {
        "name": card.name.strip(),
        "normalized_name": normalize_name(card.name),
        "kind": str(card.kind),
        "types": list(card.types),
        "colours": list(card.colours or ()),
        "colours_unknown": card.colours is None,
        "class_icons": sorted(card.class_icons),
        "faction": card.faction or "",
        "hero_traits": _jsonable(card.hero_traits),
        "requires": _jsonable(card.requires),
        "unlimited": card.unlimited,
        "rarity": card.rarity,
        "attributes": _jsonable(attributes),
    }
    return values, edition_codes


def _wanted_cards(game_slug: str, cards: Iterable[Card]) -> dict[str, _Wanted]:
    """``{external id: (card, row values, edition codes)}``; raises ``ValueError`` for a card of
    another game or a repeated id."""
    wanted: dict[str, _Wanted] = {}
    for card in cards:
        if card.game != game_slug:
            raise ValueError(f"card {card.id} belongs to {card.game!r}, not {game_slug!r}")
        if card.id in wanted:
            raise ValueError(f"duplicate card id {card.id} in {game_slug}")
        values, codes = _row_values(card)
        wanted[card.id] = (card, values, codes)
    return wanted


#: Edition columns written from a domain :class:`~decks.domain.editions.Edition`.
EDITION_FIELDS = (
    "released",
    "released_after",
    "released_before",
    "block",
    "block_order",
    "group",
    "kind",
)


def _edition_values(edition: Edition) -> dict[str, object]:
    return {name: getattr(edition, name) for name in EDITION_FIELDS}


def _sync_editions(
    game: models.Game,
    wanted: Mapping[str, _Wanted],
    edition_names: Mapping[str, str],
    table: Iterable[Edition],
) -> tuple[dict[str, int], int, int]:
    """Create missing editions, rename changed ones and refresh release data from ``table``.

    Returns ``({code: edition pk}, number created, number changed)``.
    """
    names = dict(edition_names)
    facts = {edition.code: edition for edition in table}
    for code, edition in facts.items():
        if edition.name:
            names[code] = edition.name
        else:
            names.setdefault(code, "")
    for _card, _values, codes in wanted.values():
        for code in codes:
            names.setdefault(code, "")
    existing = {e.code: e for e in models.Edition.objects.filter(game=game)}
    new_editions = [
        models.Edition(
            game=game,
            code=code,
            name=name,
            **(_edition_values(facts[code]) if code in facts else {}),
        )
        for code, name in names.items()
        if code not in existing
    ]
    changed: list[models.Edition] = []
    for code, row in existing.items():
        dirty = False
        if names.get(code) and names[code] != row.name:
            row.name = names[code]
            dirty = True
        if code in facts:
            for name, value in _edition_values(facts[code]).items():
                if getattr(row, name) != value:
                    setattr(row, name, value)
                    dirty = True
        if dirty:
            changed.append(row)
    models.Edition.objects.bulk_create(new_editions, batch_size=500)
    models.Edition.objects.bulk_update(changed, ["name", *EDITION_FIELDS], batch_size=500)
    edition_ids = dict(models.Edition.objects.filter(game=game).values_list("code", "pk"))
    return edition_ids, len(new_editions), len(changed)


@dataclass
class _CardPlan:
    """Rows to create and update, and the edition links to rewrite (external id → pks)."""

    to_create: list[models.Card] = field(default_factory=list)
    to_update: list[models.Card] = field(default_factory=list)
    links: dict[str, set[int]] = field(default_factory=dict)


def _new_card(
    game: models.Game, external_id: str, card: Card, values: dict, **extra
) -> models.Card:
    """An unsaved row; a non-default ``copy_group`` is stored only on creation."""
    default_group = values["normalized_name"]
    group = normalize_name(card.copy_group) if card.copy_group else ""
    return models.Card(
        game=game,
        external_id=external_id,
        copy_group="" if group == default_group else group,
        **extra,
        **values,
    )


def _plan_cards(
    game: models.Game, wanted: Mapping[str, _Wanted], edition_ids: Mapping[str, int]
) -> _CardPlan:
    """Compare fingerprints only: a row is rewritten when its source record changed."""
    existing = {
        external_id: (pk, source_hash)
        for pk, external_id, source_hash in models.Card.objects.filter(game=game).values_list(
            "pk", "external_id", "source_hash"
        )
    }
    now = timezone.now()
    plan = _CardPlan()
    for external_id, (card, values, codes) in wanted.items():
        fingerprint = _fingerprint(values, codes)
        found = existing.get(external_id)
        if found is not None and found[1] == fingerprint:
            continue
        plan.links[external_id] = {edition_ids[code] for code in codes}
        if found is None:
            plan.to_create.append(
                _new_card(
                    game,
                    external_id,
                    card,
                    values,
                    source_hash=fingerprint,
                    created_at=now,
                    updated_at=now,
                )
            )
        else:
            plan.to_update.append(
                models.Card(pk=found[0], source_hash=fingerprint, updated_at=now, **values)
            )
    return plan


def _write_cards(game: models.Game, plan: _CardPlan) -> None:
    """Bulk-create and bulk-update the planned rows, then rewrite their edition links."""
    models.Card.objects.bulk_create(plan.to_create, batch_size=500)
    if plan.to_update:
        models.Card.objects.bulk_update(
            plan.to_update, [*_SYNC_FIELDS, "source_hash", "updated_at"], batch_size=500
        )
    if not plan.links:
        return
    through = models.Card.editions.through
    pks = dict(
        models.Card.objects.filter(game=game, external_id__in=list(plan.links)).values_list(
            "external_id", "pk"
        )
    )
    through.objects.filter(card_id__in=list(pks.values())).delete()
    through.objects.bulk_create(
        [
            through(card_id=pks[external_id], edition_id=edition_id)
            for external_id, edition_set in plan.links.items()
            for edition_id in sorted(edition_set)
        ],
        batch_size=1000,
    )


@dataclass(frozen=True, slots=True)
class CatalogueDiff:
    """What :func:`catalogue_sync` would do with ``cards``, without writing: external ids
    ``created`` / ``updated`` / ``unchanged``, and ``missing``: cards of the game in the
    database that the input lacks (a sync never deletes them)."""

    game: str
    created: tuple[str, ...]
    updated: tuple[str, ...]
    unchanged: tuple[str, ...]
    missing: tuple[str, ...]


def catalogue_diff(*, game_slug: str, cards: Iterable[Card]) -> CatalogueDiff:
    """Compare ``cards`` with the stored catalogue of ``game_slug`` by fingerprint (read only).

    Raises:
        ValueError: a card of another game, or two cards with the same id.
    """
    wanted = _wanted_cards(game_slug, cards)
    existing = dict(
        models.Card.objects.filter(game__slug=game_slug).values_list("external_id", "source_hash")
    )
    created: list[str] = []
    updated: list[str] = []
    unchanged: list[str] = []
    for external_id, (_card, values, codes) in wanted.items():
        if external_id not in existing:
            created.append(external_id)
        elif existing[external_id] == _fingerprint(values, codes):
            unchanged.append(external_id)
        else:
            updated.append(external_id)
    missing = sorted(set(existing) - set(wanted))
    return CatalogueDiff(
        game=game_slug,
        created=tuple(created),
        updated=tuple(updated),
        unchanged=tuple(unchanged),
        missing=tuple(missing),
    )


@transaction.atomic
def catalogue_sync(
    *,
    game_slug: str,
    cards: Iterable[Card],
    edition_names: Mapping[str, str] | None = None,
    editions: Iterable[Edition] = (),
    coverage: str | None = None,
) -> SyncResult:
    """Create or update ``cards`` of one game; never deletes cards that are not in the input.

    Args:
        game_slug: the game all cards belong to (created if missing).
        cards: domain cards; ``card.attributes["editions"]`` (edition codes) becomes the
            ``editions`` relation and is not stored in ``attributes``. A card's non-default
            ``copy_group`` is stored only on creation; a judge's later edit is kept. An
            existing card is rewritten (facts and editions) only when its source record
            differs from the one last loaded (``Card.source_hash``), so admin edits survive
            reloading unchanged data.
        edition_names: code → name for editions to create or rename (also those without
            cards, e.g. all of HKK's editions.json).
        editions: the game's edition table (release dates or bounds, blocks): creates the
            editions it names and refreshes their release data (docs/rules.md §4, §10).
        coverage: the coverage a game created here starts with (``"partial"`` for the bundled
            HKK sample); an existing game keeps what the organiser or the last sync set.

    Returns:
        :class:`SyncResult`; a second identical call reports everything unchanged and writes
        nothing (no version bump).

    Raises:
        ValueError: a card of another game, or two cards with the same id.
    """
    defaults = {"name": GAME_NAMES.get(game_slug, game_slug)}
    if coverage:
        defaults["coverage"] = coverage
    game, _created = models.Game.objects.get_or_create(slug=game_slug, defaults=defaults)
    wanted = _wanted_cards(game_slug, cards)
    edition_ids, editions_created, editions_renamed = _sync_editions(
        game, wanted, edition_names or {}, editions
    )
    plan = _plan_cards(game, wanted, edition_ids)
    _write_cards(game, plan)
    if plan.to_create or plan.to_update or plan.links or editions_created or editions_renamed:
        models.CatalogueVersion.bump()
    return SyncResult(
        game=game_slug,
        created=len(plan.to_create),
        updated=len(plan.to_update),
        unchanged=len(wanted) - len(plan.to_create) - len(plan.to_update),
        editions_created=editions_created,
    )


@transaction.atomic
def catalogue_import_export(*, export: CatalogueExport) -> SyncResult:
    """Write a catalogue read back from ``manage.py export_cards`` (``decks.loaders.export``):
    cards, the edition table, and the game's coverage and source when the file gives them.
    Into an empty database this recreates the exported catalogue exactly (cards, editions,
    kinds, colours, flags). docs/rules.md §17 (Card data sources and coverage).

    Raises:
        ValueError: a card of another game, or two cards with the same id.
    """
    result = catalogue_sync(game_slug=export.game, cards=export.cards, editions=export.editions)
    updates: dict[str, object] = {}
    if export.coverage in models.CoverageChoices.values:
        updates["coverage"] = export.coverage
    if export.source:
        updates["catalogue_source"] = export.source[:300]
    if updates and models.Game.objects.filter(slug=export.game).exclude(**updates).exists():
        models.Game.objects.filter(slug=export.game).update(**updates)
        models.CatalogueVersion.bump()
    return result
