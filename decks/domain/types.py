"""Value types shared by the deck parser, the rule sets and the catalogue adapters.

Pure Python: nothing here imports Django (house style). The database layer
(``decks.catalogue``) turns rows into these objects; tests build them by hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from decks.domain.editions import EditionLegality


class CardKind(StrEnum):
    """What a card is for deck construction, derived from its types by the loaders.

    Sources: HKK ``Szabálylap`` = rule card, ``Követő`` = follower, subtype ``epikus`` = epic
    follower, ``hordaparancsnok`` = horde commander (Kódex ch. 43, 44, 48; docs/rules.md §2 (HKK
    rule cards, followers and guilds)); WoW ``Hero`` (WoW TCG Comprehensive Rules v1.11 §100.1;
    docs/rules.md §9 (WoW TCG constructed decks)); Blue Moon leader, inquisitor and emissary
    (docs/rules.md §12 (Blue Moon decks)).
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


class Coverage(StrEnum):
    """How much of a game's card pool the catalogue holds (docs/rules.md §17 (Card data
    sources and coverage)).

    ``COMPLETE``: every card of the game is in the catalogue, so an unknown name is an error
    (``unknown_card``). ``PARTIAL``: the catalogue is a sample (the bundled HKK sample), so an
    unknown name proves nothing: the list is ``unverified`` (``card_not_in_catalogue``).
    """

    COMPLETE = "complete"
    PARTIAL = "partial"


class Verdict(StrEnum):
    """The outcome of validating one list (``ValidationResult.status``).

    ``LEGAL`` only when every rule was checked and none is broken; ``ILLEGAL`` when a checked
    rule is broken (whatever else is unknown); ``UNVERIFIED`` when nothing checked is broken
    but some rule could not be checked (a name the partial catalogue lacks, unknown colours,
    editions or moon costs …). Source: docs/rules.md §17 (Card data sources and coverage).
    """

    LEGAL = "legal"
    ILLEGAL = "illegal"
    UNVERIFIED = "unverified"


#: ``Card.attributes`` key: the facts of the card that the data does not give, e.g.
#: ``("types", "colours", "editions", "rarity")`` for a name-only HKK entry taken from the
#: tournament usage statistics. Rules that need one of these facts report the card instead of
#: passing it (→ verdict ``unverified``).
FACTS_UNKNOWN = "facts_unknown"
#: ``Card.attributes`` key: the kinds a card whose kind is unknown may have (``CardKind``
#: values), e.g. ``("rule_card", "follower")``. The resolver takes the kind of the section the
#: player declared it in, when that kind is possible.
POSSIBLE_KINDS = "possible_kinds"
#: ``Card.attributes`` key: other spellings that name this card (misspellings of the source
#: data, common variants); the card index resolves them to the printed name.
ALIASES = "aliases"
#: ``Card.attributes`` key: edition codes of later reprints (WoW: sets other than the source
#: row's own ``series`` in which a card of the same name was printed).
REPRINT_EDITIONS = "reprint_editions"


def unknown_facts(card: Card) -> frozenset[str]:
    """The facts of ``card`` the data does not give (``Card.attributes["facts_unknown"]``)."""
    value = card.attributes.get(FACTS_UNKNOWN, ())
    if isinstance(value, str):
        return frozenset({value})
    if isinstance(value, list | tuple | set | frozenset):
        return frozenset(str(v) for v in value)
    return frozenset()


def possible_kinds(card: Card) -> tuple[CardKind, ...]:
    """The kinds ``card`` may have when its kind is unknown; ``(card.kind,)`` otherwise."""
    value = card.attributes.get(POSSIBLE_KINDS)
    if isinstance(value, list | tuple):
        kinds = tuple(CardKind(str(v)) for v in value if str(v) in CardKind._value2member_map_)
        if kinds:
            return kinds
    return (card.kind,)


def card_aliases(card: Card) -> tuple[str, ...]:
    """Other spellings of ``card`` (``Card.attributes["aliases"]``), ``()`` if none."""
    value = card.attributes.get(ALIASES, ())
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list | tuple):
        return tuple(str(v) for v in value)
    return ()


def card_editions(card: Card) -> tuple[str, ...] | None:
    """Every edition code ``card`` is printed in (``attributes["editions"]`` then
    ``attributes["reprint_editions"]``), or ``None`` when unknown (no editions in the data,
    or ``"editions"`` among :func:`unknown_facts`). docs/rules.md §1 (HKK card identity,
    colours and editions)."""
    if "editions" in unknown_facts(card):
        return None
    found: list[str] = []
    for key in ("editions", REPRINT_EDITIONS):
        value = card.attributes.get(key, ())
        if isinstance(value, str):
            value = (value,)
        if isinstance(value, list | tuple):
            found.extend(str(v) for v in value if str(v))
    return tuple(dict.fromkeys(found)) or None


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
            normalised name (reprint suffixes stay distinct: unknown → configurable,
            docs/rules.md §1 (HKK card identity, colours and editions)).
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
        editions: the editions the format allows, resolved from its policy and the edition
            table (``decks.domain.editions.resolve_edition_legality``); ``None`` = every
            edition (docs/rules.md §4 (HKK formats and ban lists), §10 (WoW TCG formats and
            ban lists)).
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
    editions: EditionLegality | None = None


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
