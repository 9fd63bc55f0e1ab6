"""The ORM schema of the ``decks`` app, one module per concern.

- :mod:`~decks.models.catalogue`: :class:`Game`, :class:`Edition`, :class:`Card` (facts only;
  rules text is never stored);
- :mod:`~decks.models.formats`: :class:`Format`, :class:`BanList`, :class:`BanListEntry` and
  their choices (docs/rules.md §4 (HKK formats and ban lists (Retró, TM, Páros)), §10 (WoW TCG
  formats and ban lists));
- :mod:`~decks.models.versioning`: :class:`CatalogueVersion` and the signal receivers that bump
  it on every catalogue change;
- :mod:`~decks.models.game_start`: :class:`GameStartEffect` (docs/rules.md §5 (HKK game start:
  opening hand and life points)).

Every model is imported here, so Django, the migrations and ``from decks.models import X`` see
them all; importing this package also connects the catalogue-version signal receivers.
"""

from decks.models.catalogue import (
    Card,
    CardKindChoices,
    CatalogueSyncRun,
    CatalogueSyncStatus,
    CoverageChoices,
    Edition,
    Game,
)
from decks.models.formats import (
    BanKind,
    BanList,
    BanListEntry,
    Format,
    RuleSet,
    SideboardModeChoices,
)
from decks.models.game_start import GameStartEffect, GameStartEffectKind, GameStartEffectScope
from decks.models.versioning import CatalogueVersion

__all__ = [
    "BanKind",
    "BanList",
    "BanListEntry",
    "Card",
    "CardKindChoices",
    "CatalogueSyncRun",
    "CatalogueSyncStatus",
    "CatalogueVersion",
    "CoverageChoices",
    "Edition",
    "Format",
    "Game",
    "GameStartEffect",
    "GameStartEffectKind",
    "GameStartEffectScope",
    "RuleSet",
    "SideboardModeChoices",
]
