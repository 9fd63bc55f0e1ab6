"""Read-only queries of the decks app (STYLE.md §5.6: views never touch ``.objects``)."""

from __future__ import annotations

import django_filters
from django.conf import settings
from django.db.models import Case, IntegerField, QuerySet, Value, When
from django.utils.translation import gettext_lazy as _

from decks.domain.normalize import normalize_name
from decks.models import Card, Format


def format_list_active() -> QuerySet[Format]:
    """Active formats with their game (one query): the home game's formats first
    (``settings.HKK_PRIMARY_GAME``, HKK for this community), then by game and slug."""
    home_first = Case(
        When(game__slug=settings.HKK_PRIMARY_GAME, then=Value(0)),
        default=Value(1),
        output_field=IntegerField(),
    )
    return (
        Format.objects.filter(is_active=True)
        .select_related("game")
        .order_by(home_first, "game__slug", "slug")
    )


class CardFilter(django_filters.FilterSet):
    """``?game=<slug>&q=<text>``: ``q`` is a substring of the normalised printed name, so
    case, accents-as-typed NFC forms, extra spaces and typographic apostrophes do not matter
    (``decks.domain.normalize.normalize_name``)."""

    game = django_filters.CharFilter(
        field_name="game__slug", label=_("Game slug (hkk, wow, bluemoon)")
    )
    q = django_filters.CharFilter(method="filter_q", label=_("Part of the card name"))
    kind = django_filters.CharFilter(field_name="kind", label=_("Card kind"))

    class Meta:
        model = Card
        fields = ["game", "q", "kind"]

    def filter_q(self, queryset: QuerySet[Card], name: str, value: str) -> QuerySet[Card]:
        key = normalize_name(value)
        return queryset.filter(normalized_name__contains=key) if key else queryset


def card_list(*, filters: dict | None = None) -> QuerySet[Card]:
    """Cards matching ``filters`` (``game``, ``q``, ``kind``; see :class:`CardFilter`), ordered
    by game and normalised name, with the game joined (one query per page)."""
    queryset = Card.objects.select_related("game").order_by("game__slug", "normalized_name", "id")
    return CardFilter(filters or {}, queryset=queryset).qs
