"""Card reads: database rows as domain cards, the cached card index, and the card search.

- :func:`card_to_domain` turns one ``decks.models.Card`` row into a domain ``Card``;
- :func:`cards_for_game` lists one game's cards;
- :func:`get_card_index` returns a process-wide :class:`~decks.domain.index.CardIndex` over all
  games (validation's name lookup), rebuilt only when the catalogue version changes
  (:mod:`decks.selectors.cache`);
- :class:`CardFilter` and :func:`card_list` serve ``GET /api/cards/``.

Card identity and the data sources: docs/rules.md §1 (HKK card identity, colours and editions)
and §17 (Card data sources and coverage).
"""

from __future__ import annotations

from collections.abc import Mapping

import django_filters
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from decks import models
from decks.domain.index import CardIndex
from decks.domain.normalize import normalize_name
from decks.domain.types import Card, CardKind, Coverage
from decks.selectors.cache import catalogue_cache

__all__ = [
    "CardFilter",
    "card_list",
    "card_to_domain",
    "cards_for_game",
    "catalogue_coverage",
    "get_card_index",
]


def _trait_map(value: object) -> dict[str, frozenset[str]]:
    if not isinstance(value, Mapping):
        return {}
    return {str(k): frozenset(str(v) for v in (vals or ())) for k, vals in value.items()}


def card_to_domain(
    row: models.Card,
    *,
    game_slug: str | None = None,
    edition_codes: tuple[str, ...] | None = None,
) -> Card:
    """Turn a ``decks.models.Card`` row into a frozen domain :class:`Card`.

    ``colours`` becomes ``None`` when ``colours_unknown``; ``copy_group`` falls back to the
    normalised name; ``faction`` ``""`` becomes ``None``. The ``editions`` relation becomes
    ``attributes["editions"]`` (edition codes), as the loaders give it: pass
    ``edition_codes`` when already read (bulk), else the relation is read (use
    ``prefetch_related("editions")``). Pass ``game_slug`` to avoid a query for ``row.game``
    (otherwise use ``select_related("game")``).
    """
    attributes = dict(row.attributes or {})
    if edition_codes is None:
        edition_codes = tuple(sorted(e.code for e in row.editions.all()))
    attributes["editions"] = edition_codes
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
        attributes=attributes,
    )


def cards_for_game(game_slug: str) -> list[Card]:
    """All cards of one game as domain cards, ordered by normalised name then external id."""
    rows = models.Card.objects.filter(game__slug=game_slug).order_by(
        "normalized_name", "external_id"
    )
    codes = _edition_codes(models.Card.objects.filter(game__slug=game_slug))
    return [
        card_to_domain(row, game_slug=game_slug, edition_codes=codes.get(row.pk, ()))
        for row in rows
    ]


def _edition_codes(cards: QuerySet[models.Card]) -> dict[int, tuple[str, ...]]:
    """``{card pk: sorted edition codes}`` for ``cards`` in one query."""
    found: dict[int, list[str]] = {}
    through = models.Card.editions.through.objects.filter(card__in=cards)
    for card_id, code in through.values_list("card_id", "edition__code"):
        found.setdefault(card_id, []).append(code)
    return {pk: tuple(sorted(codes)) for pk, codes in found.items()}


def _all_cards() -> list[Card]:
    slugs = dict(models.Game.objects.values_list("pk", "slug"))
    codes = _edition_codes(models.Card.objects.all())
    return [
        card_to_domain(row, game_slug=slugs[row.game_id], edition_codes=codes.get(row.pk, ()))
        for row in models.Card.objects.order_by("pk").iterator(chunk_size=2000)
    ]


def catalogue_coverage() -> dict[str, Coverage]:
    """``{game slug: Coverage}`` as the organiser or the last sync set it (``Game.coverage``).
    docs/rules.md §17 (Card data sources and coverage)."""
    return {
        slug: Coverage(value) for slug, value in models.Game.objects.values_list("slug", "coverage")
    }


def get_card_index() -> CardIndex:
    """The :class:`CardIndex` over every game's cards, with each game's coverage, cached
    in-process.

    Rebuilt when the catalogue version changed (checked at most once per
    :data:`decks.selectors.cache.VERSION_CHECK_SECONDS`), so admin edits show up within about a
    second in every worker process. Building it reads all cards once (about 7,300 rows) and
    their edition links in one more query. A game whose coverage is partial makes a list
    naming a card it lacks ``unverified`` (docs/rules.md §17).
    """
    # The coverage is part of the key: it is a game row's field, and a change of it made with
    # ``QuerySet.update`` (or rolled back) does not bump the catalogue version.
    coverage = catalogue_coverage()
    key = "card_index:" + ",".join(f"{slug}={value}" for slug, value in sorted(coverage.items()))
    return catalogue_cache.get(key, lambda: CardIndex(_all_cards(), coverage=coverage))


class CardFilter(django_filters.FilterSet):
    """``?game=<slug>&q=<text>&kind=<kind>``: ``q`` is a substring of the normalised printed
    name, so case, accents-as-typed NFC forms, extra spaces and typographic apostrophes do not
    matter (``decks.domain.normalize.normalize_name``)."""

    game = django_filters.CharFilter(
        field_name="game__slug", label=_("Game slug (hkk, wow, bluemoon)")
    )
    q = django_filters.CharFilter(method="filter_q", label=_("Part of the card name"))
    kind = django_filters.CharFilter(field_name="kind", label=_("Card kind"))

    class Meta:
        model = models.Card
        fields = ["game", "q", "kind"]

    def filter_q(
        self, queryset: QuerySet[models.Card], name: str, value: str
    ) -> QuerySet[models.Card]:
        key = normalize_name(value)
        return queryset.filter(normalized_name__contains=key) if key else queryset


def card_list(*, filters: dict | None = None) -> QuerySet[models.Card]:
    """Cards matching ``filters`` (``game``, ``q``, ``kind``; see :class:`CardFilter`), ordered
    by game and normalised name, with the game joined (one query per page)."""
    queryset = models.Card.objects.select_related("game").order_by(
        "game__slug", "normalized_name", "id"
    )
    return CardFilter(filters or {}, queryset=queryset).qs
