"""Value types shared by the deck parser, the rule sets and the catalogue adapters.

Pure Python: nothing here imports Django (../shared/STYLE.md §5.2). The database layer
(``decks.catalogue``) turns rows into these objects; tests build them by hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum


class CardKind(StrEnum):
    """What a card is for deck construction, derived from its types by the loaders.

    Sources: HKK ``Szabálylap`` = rule card, ``Követő`` = follower, subtype ``epikus`` = epic
    follower, ``hordaparancsnok`` = horde commander (seed 000, Kódex 43, 44, 48); WoW ``Hero``
    (CR 100.1); Blue Moon leader, inquisitor and emissary (seed 002).
    """

    CARD = "card"
    RULE_CARD = "rule_card"
    FOLLOWER = "follower"
    EPIC_FOLLOWER = "epic_follower"
    HORDE_COMMANDER = "horde_commander"
    GUILD = "guild"
    HERO = "hero"
    LEADER = "leader"
    INQUISITOR = "inquisitor"
    EMISSARY = "emissary"


FOLLOWER_KINDS = frozenset({CardKind.FOLLOWER, CardKind.EPIC_FOLLOWER, CardKind.HORDE_COMMANDER})


@dataclass(frozen=True, slots=True)
class Card:
    """The facts about one printed card that deck rules need; never rules text.

    Attributes:
        id: stable external id inside its game (HKK publisher ID, WoW CSV id, Blue Moon
            ``People-number``), as a string.
        game: game slug: ``"hkk"``, ``"wow"`` or ``"bluemoon"``.
        name: printed name, trailing spaces stripped.
        kind: see :class:`CardKind`.
        types: printed types, main type first (HKK ``("Szörny", "Sárkány")``, WoW ``("Ally",)``).
        colours: HKK gods/colours without the pseudo-colour ``Nincs``; ``()`` = colourless by
            the data; ``None`` = unknown (rules that need colours warn instead of passing).
        class_icons: WoW class icons (an ability's or equipment's classes; never an ally's own
            class, which is not an icon).
        faction: WoW faction icon ``"Horde"`` or ``"Alliance"``; ``None`` = neutral / no icon.
        hero_traits: for heroes only: ``{"class": {...}, "race": {...}, "faction": {...},
            "talent": {...}, "profession": {...}}``.
        requires: "[Trait] Hero Required" restrictions: ``{"talent": {"Blood"}}``; a card with
            several values in one key is satisfied by any of them.
        unlimited: the card may be played in any number of copies (WoW "Unlimited" type tag,
            HKK card-text flag).
        rarity: source rarity code (``common``, ``rare``, ``U``, ``R`` …).
        copy_group: normalised name used for the copy limit; defaults to the card's own
            normalised name (reprint suffixes stay distinct, RULES.md §1.1 [INFERRED]).
        attributes: game-specific facts, e.g. Blue Moon ``{"people": "Hoax", "number": 15,
            "moons": 2, "chosen_one": False, "mutant": False, "plus_cards": 0,
            "plus_moons": 0}``.
    """

    id: str
    game: str
    name: str
    kind: CardKind = CardKind.CARD
    types: tuple[str, ...] = ()
    colours: tuple[str, ...] | None = ()
    class_icons: frozenset[str] = frozenset()
    faction: str | None = None
    hero_traits: Mapping[str, frozenset[str]] = field(default_factory=dict)
    requires: Mapping[str, frozenset[str]] = field(default_factory=dict)
    unlimited: bool = False
    rarity: str = ""
    copy_group: str = ""
    attributes: Mapping[str, object] = field(default_factory=dict)


class SideboardMode(StrEnum):
    """How a format constrains the sideboard (kiegészítő pakli / side deck)."""

    NONE = "none"  # no sideboard allowed
    EXACT = "exact"  # optional, but exactly ``sideboard_size`` cards when used
    MAX = "max"  # at most ``sideboard_size`` cards
    ANY = "any"  # any size


@dataclass(frozen=True, slots=True)
class FormatSpec:
    """One format's parameters, as the organiser set them (``decks.models.Format``).

    ``rule_set`` names the code that interprets the parameters (``"hkk"``,
    ``"wow-constructed"``, ``"bluemoon-advanced"``, ``"bluemoon-people"``). Ban lists are
    resolved for the validation date before they reach the domain, as normalised names.

    Attributes:
        slug: format slug, e.g. ``"hkk-hagyomanyos"``.
        game: game slug the format belongs to.
        rule_set: key into the rule-set registry.
        min_main / max_main: main-deck size bounds in cards (``None`` = unbounded).
        sideboard_mode / sideboard_size: see :class:`SideboardMode`.
        copy_limit: most copies of one name across main deck and sideboard (``None`` = none).
        colour_limit: most distinct colours in the deck (``None`` = none).
        colours_not_counted: colours ignored by the colour limit (HKK: Színtelen, Bufa).
        banned: normalised names that may not appear anywhere.
        sideboard_only: normalised names that may appear only in the sideboard.
        params: rule-set specific numbers (Blue Moon moon budget, deck size …).
    """

    slug: str
    game: str
    rule_set: str
    name: str = ""
    min_main: int | None = None
    max_main: int | None = None
    sideboard_mode: SideboardMode = SideboardMode.ANY
    sideboard_size: int | None = None
    copy_limit: int | None = None
    colour_limit: int | None = None
    colours_not_counted: frozenset[str] = frozenset()
    banned: frozenset[str] = frozenset()
    sideboard_only: frozenset[str] = frozenset()
    params: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Violation:
    """One reason a deck is illegal (or a warning). ``code`` is stable and never renamed.

    Attributes:
        code: e.g. ``"too_many_copies"`` (the list is in ``decks.domain.codes``).
        params: values for the translated message, JSON-serialisable.
        card: the printed name concerned, if any.
        line: 1-based line number in the submitted text, if known.
    """

    code: str
    params: Mapping[str, object] = field(default_factory=dict)
    card: str | None = None
    line: int | None = None
