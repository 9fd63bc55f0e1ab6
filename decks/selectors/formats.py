"""Format reads: the active formats, and one format's spec with the ban lists in force.

Formats and ban lists: docs/rules.md §4 (HKK formats and ban lists (Retró, TM, Páros)) and
§10 (WoW TCG formats and ban lists).
"""

from __future__ import annotations

from datetime import date

from django.conf import settings
from django.db.models import Case, IntegerField, Q, QuerySet, Value, When
from django.utils import timezone

from decks import models
from decks.domain.editions import (
    Edition,
    EditionLegality,
    policy_from_params,
    resolve_edition_legality,
)
from decks.domain.types import FormatSpec, SideboardMode
from decks.errors import UnknownFormat
from decks.selectors.cache import catalogue_cache

__all__ = [
    "edition_table",
    "format_edition_legality",
    "format_list_active",
    "format_spec",
]


def format_list_active() -> QuerySet[models.Format]:
    """Active formats with their game (one query): the home game's formats first
    (``settings.HKK_PRIMARY_GAME``, HKK for this community), then by game and slug."""
    home_first = Case(
        When(game__slug=settings.HKK_PRIMARY_GAME, then=Value(0)),
        default=Value(1),
        output_field=IntegerField(),
    )
    return (
        models.Format.objects.filter(is_active=True)
        .select_related("game")
        .order_by(home_first, "game__slug", "slug")
    )


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


def edition_table(game: models.Game | int) -> list[Edition]:
    """Every edition of ``game`` as a domain :class:`~decks.domain.editions.Edition` (code,
    name, release date or bounds, block). docs/rules.md §4, §10."""
    return [
        Edition(
            code=row.code,
            name=row.name,
            released=row.released,
            released_before=row.released_before,
            released_after=row.released_after,
            block=row.block,
            block_order=row.block_order,
            group=row.group,
            kind=row.kind,
        )
        for row in models.Edition.objects.filter(game=game)
    ]


def format_edition_legality(fmt: models.Format, on: date | None = None) -> EditionLegality | None:
    """The editions ``fmt`` allows on ``on`` (the validation or event date; used when the
    format's ``as_of_event_date`` parameter is set, e.g. WoW TCG Core: the 2011 Core for a
    2011 event): its policy (``Format.params`` keys read by
    ``decks.domain.editions.policy_from_params``) applied to the game's edition table;
    ``None`` when the format restricts no edition. A malformed policy (which the admin form
    refuses) restricts nothing rather than breaking validation. docs/rules.md §4 (HKK formats
    and ban lists (Retró, TM, Páros)), §10 (WoW TCG formats and ban lists)."""
    try:
        policy = policy_from_params(dict(fmt.params or {}), label=fmt.name, on=on)
    except ValueError:
        return None
    if policy is None or not policy.restricts:
        return None
    return resolve_edition_legality(policy, edition_table(fmt.game_id))


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
        editions=format_edition_legality(fmt, on),
    )


def format_spec(slug: str, *, on: date | None = None) -> FormatSpec:
    """The :class:`FormatSpec` of the active format ``slug`` on date ``on`` (default: today in
    the project time zone).

    Ban-list entries apply when ``effective_from <= on`` and (no ``effective_until`` or
    ``on <= effective_until``); their normalised names go to ``banned`` or
    ``sideboard_only`` (a name both banned and sideboard-only counts as banned). Cached per
    (slug, date) against the catalogue version (:mod:`decks.selectors.cache`).

    Raises:
        UnknownFormat: no format with this slug, or it is inactive.
    """
    day = on or timezone.localdate()
    return catalogue_cache.get(("format", slug, day), lambda: _build_spec(slug, day))
