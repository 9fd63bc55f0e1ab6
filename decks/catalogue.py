"""Database ↔ domain adapter for the card catalogue, plus the bulk catalogue writer.

Reads:
    - :func:`card_to_domain` turns one ``decks.models.Card`` row into a domain ``Card``;
    - :func:`cards_for_game` lists one game's cards;
    - :func:`get_card_index` returns a process-wide :class:`~decks.domain.index.CardIndex`
      over all games, rebuilt only when :class:`~decks.models.CatalogueVersion` changes (checked
      at most once per :data:`VERSION_CHECK_SECONDS`);
    - :func:`format_spec` builds a ``FormatSpec`` with the ban lists resolved for a date.

Writes:
    - :func:`catalogue_sync` upserts loader output (idempotent, one transaction, bulk
      statements) and bumps the catalogue version when anything changed.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from decks import models
from decks.domain.index import CardIndex
from decks.domain.normalize import normalize_name
from decks.domain.types import Card, CardKind, FormatSpec, SideboardMode

#: How often (seconds) cached readers ask the database whether the catalogue changed.
VERSION_CHECK_SECONDS = 1.0

GAME_NAMES = {"hkk": "Hatalom Kártyái", "wow": "World of Warcraft TCG", "bluemoon": "Blue Moon"}


class UnknownFormat(LookupError):  # noqa: N818 (name fixed by the brief)
    """No active format has this slug. ``str(error)`` is a translated message."""

    def __init__(self, slug: str) -> None:
        self.slug = slug
        super().__init__(_("Unknown or inactive format: %(slug)s") % {"slug": slug})


# --- rows -> domain ---------------------------------------------------------------------------


def _trait_map(value: object) -> dict[str, frozenset[str]]:
    if not isinstance(value, Mapping):
        return {}
    return {str(k): frozenset(str(v) for v in (vals or ())) for k, vals in value.items()}


def card_to_domain(row: models.Card, *, game_slug: str | None = None) -> Card:
    """Turn a ``decks.models.Card`` row into a frozen domain :class:`Card`.

    ``colours`` becomes ``None`` when ``colours_unknown``; ``copy_group`` falls back to the
    normalised name; ``faction`` ``""`` becomes ``None``. Pass ``game_slug`` to avoid a query
    for ``row.game`` (otherwise use ``select_related("game")``).
    """
    return Card(
        id=row.external_id,
        game=game_slug or row.game.slug,
        name=row.name,
        kind=CardKind(row.kind),
        types=tuple(row.types or ()),
        colours=None if row.colours_unknown else tuple(row.colours or ()),
        class_icons=frozenset(row.class_icons or ()),
        faction=row.faction or None,
        hero_traits=_trait_map(row.hero_traits),
        requires=_trait_map(row.requires),
        unlimited=row.unlimited,
        rarity=row.rarity,
        copy_group=row.copy_group or row.normalized_name,
        attributes=dict(row.attributes or {}),
    )


def cards_for_game(game_slug: str) -> list[Card]:
    """All cards of one game as domain cards, ordered by normalised name then external id."""
    rows = models.Card.objects.filter(game__slug=game_slug).order_by(
        "normalized_name", "external_id"
    )
    return [card_to_domain(row, game_slug=game_slug) for row in rows]


def _all_cards() -> list[Card]:
    slugs = dict(models.Game.objects.values_list("pk", "slug"))
    return [
        card_to_domain(row, game_slug=slugs[row.game_id])
        for row in models.Card.objects.order_by("pk").iterator(chunk_size=2000)
    ]


class _VersionedCache:
    """Values cached against the catalogue version, re-checked at most once per interval."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._version: object = None
        self._checked_at = 0.0
        self._values: dict[object, object] = {}

    def _current_version(self) -> object:
        now = time.monotonic()
        if self._version is None or now - self._checked_at >= VERSION_CHECK_SECONDS:
            version = models.CatalogueVersion.token()
            if version != self._version:
                self._values = {}
                self._version = version
            self._checked_at = now
        return self._version

    def get(self, key: object, build):
        with self._lock:
            self._current_version()
            if key in self._values:
                return self._values[key]
        value = build()
        with self._lock:
            self._values[key] = value
        return value

    def clear(self) -> None:
        with self._lock:
            self._version = None
            self._values = {}


_cache = _VersionedCache()


def clear_caches() -> None:
    """Forget cached indexes and format specs (tests; after writes in this process)."""
    _cache.clear()


def get_card_index() -> CardIndex:
    """The :class:`CardIndex` over every game's cards, cached in-process.

    Rebuilt when the catalogue version changed (checked at most once per
    :data:`VERSION_CHECK_SECONDS`), so admin edits show up within about a second in every
    worker process. Building it reads all cards once (about 4,000 rows).
    """
    return _cache.get("card_index", lambda: CardIndex(_all_cards()))


def _resolve_bans(fmt: models.Format, on: date) -> tuple[frozenset[str], frozenset[str]]:
    entries = models.BanListEntry.objects.filter(
        Q(effective_until__isnull=True) | Q(effective_until__gte=on),
        ban_list__formats=fmt,
        effective_from__lte=on,
    ).values_list("normalized_name", "kind")
    banned: set[str] = set()
    sideboard_only: set[str] = set()
    for name, kind in entries:
        (banned if kind == models.BanKind.BANNED else sideboard_only).add(name)
    return frozenset(banned), frozenset(sideboard_only - banned)


def _build_spec(slug: str, on: date) -> FormatSpec:
    fmt = models.Format.objects.select_related("game").filter(slug=slug, is_active=True).first()
    if fmt is None:
        raise UnknownFormat(slug)
    banned, sideboard_only = _resolve_bans(fmt, on)
    return FormatSpec(
        slug=fmt.slug,
        game=fmt.game.slug,
        rule_set=fmt.rule_set,
        name=fmt.name,
        min_main=fmt.min_main,
        max_main=fmt.max_main,
        sideboard_mode=SideboardMode(fmt.sideboard_mode),
        sideboard_size=fmt.sideboard_size,
        copy_limit=fmt.copy_limit,
        colour_limit=fmt.colour_limit,
        colours_not_counted=frozenset(fmt.colours_not_counted or ()),
        banned=banned,
        sideboard_only=sideboard_only,
        params=dict(fmt.params or {}),
    )


def format_spec(slug: str, *, on: date | None = None) -> FormatSpec:
    """The :class:`FormatSpec` of the active format ``slug`` on date ``on`` (default: today in
    the project time zone).

    Ban-list entries apply when ``effective_from <= on`` and (no ``effective_until`` or
    ``on <= effective_until``); their normalised names go to ``banned`` or
    ``sideboard_only`` (a name both banned and sideboard-only counts as banned). Cached per
    (slug, date) against the catalogue version.

    Raises:
        UnknownFormat: no format with this slug, or it is inactive.
    """
    day = on or timezone.localdate()
    return _cache.get(("format", slug, day), lambda: _build_spec(slug, day))


# --- loader output -> rows -------------------------------------------------------------------


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


def _jsonable(value: object) -> object:
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
    edition_codes = tuple(str(code) for code in attributes.pop("editions", ()) or ())
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


@transaction.atomic
def catalogue_sync(
    *,
    game_slug: str,
    cards: Iterable[Card],
    edition_names: Mapping[str, str] | None = None,
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

    Returns:
        :class:`SyncResult`; a second identical call reports everything unchanged and writes
        nothing (no version bump).

    Raises:
        ValueError: a card of another game, or two cards with the same id.
    """
    game, _created = models.Game.objects.get_or_create(
        slug=game_slug, defaults={"name": GAME_NAMES.get(game_slug, game_slug)}
    )
    wanted: dict[str, tuple[Card, dict[str, object], tuple[str, ...]]] = {}
    for card in cards:
        if card.game != game_slug:
            raise ValueError(f"card {card.id} belongs to {card.game!r}, not {game_slug!r}")
        if card.id in wanted:
            raise ValueError(f"duplicate card id {card.id} in {game_slug}")
        values, codes = _row_values(card)
        wanted[card.id] = (card, values, codes)

    # Editions.
    names = dict(edition_names or {})
    for _card, _values, codes in wanted.values():
        for code in codes:
            names.setdefault(code, "")
    existing_editions = {e.code: e for e in models.Edition.objects.filter(game=game)}
    new_editions = [
        models.Edition(game=game, code=code, name=name)
        for code, name in names.items()
        if code not in existing_editions
    ]
    renamed = [
        edition
        for code, edition in existing_editions.items()
        if names.get(code) and names[code] != edition.name
    ]
    for edition in renamed:
        edition.name = names[edition.code]
    models.Edition.objects.bulk_create(new_editions, batch_size=500)
    models.Edition.objects.bulk_update(renamed, ["name"], batch_size=500)
    edition_ids = {
        code: pk for code, pk in models.Edition.objects.filter(game=game).values_list("code", "pk")
    }

    # Cards: compare fingerprints only; rows are rewritten when their source record changed.
    existing = {
        external_id: (pk, source_hash)
        for pk, external_id, source_hash in models.Card.objects.filter(game=game).values_list(
            "pk", "external_id", "source_hash"
        )
    }
    now = timezone.now()
    to_create: list[models.Card] = []
    to_update: list[models.Card] = []
    link_changes: dict[str, set[int]] = {}
    for external_id, (card, values, codes) in wanted.items():
        fingerprint = _fingerprint(values, codes)
        found = existing.get(external_id)
        if found is not None and found[1] == fingerprint:
            continue
        link_changes[external_id] = {edition_ids[code] for code in codes}
        if found is None:
            default_group = values["normalized_name"]
            group = normalize_name(card.copy_group) if card.copy_group else ""
            to_create.append(
                models.Card(
                    game=game,
                    external_id=external_id,
                    copy_group="" if group == default_group else group,
                    source_hash=fingerprint,
                    created_at=now,
                    updated_at=now,
                    **values,
                )
            )
        else:
            to_update.append(
                models.Card(pk=found[0], source_hash=fingerprint, updated_at=now, **values)
            )

    models.Card.objects.bulk_create(to_create, batch_size=500)
    if to_update:
        models.Card.objects.bulk_update(
            to_update, [*_SYNC_FIELDS, "source_hash", "updated_at"], batch_size=500
        )
    if link_changes:
        through = models.Card.editions.through
        pks = dict(
            models.Card.objects.filter(game=game, external_id__in=list(link_changes)).values_list(
                "external_id", "pk"
            )
        )
        through.objects.filter(card_id__in=list(pks.values())).delete()
        through.objects.bulk_create(
            [
                through(card_id=pks[external_id], edition_id=edition_id)
                for external_id, edition_set in link_changes.items()
                for edition_id in sorted(edition_set)
            ],
            batch_size=1000,
        )

    result = SyncResult(
        game=game_slug,
        created=len(to_create),
        updated=len(to_update),
        unchanged=len(wanted) - len(to_create) - len(to_update),
        editions_created=len(new_editions),
    )
    if to_create or to_update or link_changes or new_editions or renamed:
        models.CatalogueVersion.bump()
    return result
