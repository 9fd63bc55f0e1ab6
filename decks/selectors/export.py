"""A game's card catalogue as one JSON-ready document, for ``manage.py export_cards`` (read
by ``import_cards`` through ``decks.loaders.export``: export → empty database → import gives
the same cards, editions, kinds, colours and flags).

Shape (:data:`decks.loaders.export.EXPORT_FORMAT`, version 1)::

    {"format": "hkk-tournament-cards", "version": 1, "game": slug, "game_name": str,
     "coverage": "complete"|"partial", "source": str,
     "editions": [{"code", "name", "released", "released_after", "released_before", "block",
                   "block_order", "group", "kind"}],
     "cards": [{"id", "name", "kind", "types", "colours" (null = unknown), "class_icons",
                "faction", "hero_traits", "requires", "unlimited", "rarity", "copy_group",
                "attributes", "editions": [codes]}]}

Facts only, as stored (docs/rules.md §17 (Card data sources and coverage)).
"""

from __future__ import annotations

from typing import Any

from decks import models
from decks.errors import UnknownGame
from decks.loaders.export import EXPORT_FORMAT, EXPORT_VERSION

__all__ = ["catalogue_export"]


def catalogue_export(game_slug: str) -> dict[str, Any]:
    """The export document of ``game_slug`` (cards by external id, editions by code).

    Raises:
        UnknownGame: no game with this slug.
    """
    game = models.Game.objects.filter(slug=game_slug).first()
    if game is None:
        raise UnknownGame(game_slug)
    editions = [
        {
            "code": e.code,
            "name": e.name,
            "released": e.released,
            "released_after": e.released_after.isoformat() if e.released_after else None,
            "released_before": e.released_before.isoformat() if e.released_before else None,
            "block": e.block,
            "block_order": e.block_order,
            "group": e.group,
            "kind": e.kind,
        }
        for e in models.Edition.objects.filter(game=game).order_by("code")
    ]
    links: dict[int, list[str]] = {}
    through = models.Card.editions.through.objects.filter(card__game=game)
    for card_id, code in through.values_list("card_id", "edition__code"):
        links.setdefault(card_id, []).append(code)
    cards = [
        {
            "id": c.external_id,
            "name": c.name,
            "kind": c.kind,
            "types": list(c.types or []),
            "colours": None if c.colours_unknown else list(c.colours or []),
            "class_icons": list(c.class_icons or []),
            "faction": c.faction,
            "hero_traits": c.hero_traits or {},
            "requires": c.requires or {},
            "unlimited": c.unlimited,
            "rarity": c.rarity,
            "copy_group": c.copy_group,
            "attributes": c.attributes or {},
            "editions": sorted(links.get(c.pk, [])),
        }
        for c in models.Card.objects.filter(game=game).order_by("external_id")
    ]
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "game": game.slug,
        "game_name": game.name,
        "coverage": game.coverage,
        "source": game.catalogue_source,
        "editions": editions,
        "cards": cards,
    }
