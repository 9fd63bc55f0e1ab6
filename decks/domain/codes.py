"""Stable violation codes for deck validation. Never rename a code: the web layer, stored
results and translations key on them.

Errors (the deck is illegal):

``parse_error``
    A line of the list could not be read. params: ``{"reason": <reason>}`` where reason is one
    of ``zero_count``, ``negative_count``, ``count_too_large``, ``bad_count`` (a count that is
    not a whole number: ``1e9``, ``3.5``, ``0x10``, ``½``), ``missing_name``,
    ``name_too_long``, ``not_an_object``, ``unknown_section``, ``bad_section``, ``bad_item``;
    structured input also gives ``"section"`` and ``"index"``. (``too_many_lines`` and
    ``text_too_long`` appear only in results stored before such a list became unusable input,
    ``decks.domain.parser.DeckTooLongError``.)
``unknown_card``
    No card of the format's game has this name. params: ``{"suggestions": [names]}``.
``card_not_in_game``
    The name exists, but only in another game. params: ``{"game": <format's game>,
    "found_in": [other game slugs]}``.
``deck_too_small`` / ``deck_too_large``
    Main-deck size. params: ``{"count", "minimum"}`` / ``{"count", "maximum"}``.
``too_many_copies``
    More copies of one name (copy group) than allowed, deck and sideboard together.
    params: ``{"count", "limit"}``.
``banned_card``
    The card is on the format's ban list. params: ``{"section"}``.
``too_many_rule_cards``
    More than one rule card declared (HKK FAQ "Szabály:"; HKK Kódex §43.3; docs/rules.md §2).
    params: ``{"count", "limit"}``.
``rule_card_in_sideboard``
    A rule card is in the sideboard (HKK FAQ "Szabály:"; docs/rules.md §2). params: ``{}``.
``too_many_followers``
    More than one follower (HKK Kódex §44.4; docs/rules.md §2). params: ``{"count", "limit"}``.
``epic_follower_combined``
    An epic follower or horde commander used with a rule card or another follower
    (HKK Kódex §48.1; docs/rules.md §2). params: ``{"with": [printed names]}``.
``sideboard_wrong_size``
    Sideboard used but not exactly the required size. params: ``{"count", "expected"}``.
``sideboard_too_large``
    Sideboard above the format's maximum. params: ``{"count", "maximum"}``.
``sideboard_not_allowed``
    The format has no sideboard but one was given. params: ``{"count"}``.
``too_many_colours``
    More colours (gods) in the main deck than allowed. params: ``{"colours": [names], "limit"}``.
``missing_hero``
    WoW: no hero declared or found. params: ``{}``.
``too_many_heroes``
    WoW: more than one hero. params: ``{"count", "limit": 1}``.
``hero_in_deck``
    WoW: a hero card in the main deck or side deck although the hero is declared apart
    (CR 100.1). params: ``{"section"}``.
``hero_wrong_kind``
    WoW: the card in the hero section is not a hero. params: ``{}``.
``class_restriction``
    WoW: the card's class icons do not include the hero's class. params:
    ``{"classes": [card icons], "hero_class": [hero classes]}``.
``faction_restriction``
    WoW: the card's faction icon differs from the hero's faction. params:
    ``{"faction", "hero_faction": [hero factions]}``.
``hero_trait_required``
    WoW: "[Trait] Hero Required" not met. params: ``{"trait": "talent"|"race"|"profession"|
    "class"|"faction", "required": [values], "hero": [hero's values]}``.
``class_restriction`` / ``faction_restriction`` / ``hero_trait_required`` are skipped when the
hero is missing or unknown (no cascading errors).
``wrong_section``
    A card is declared in a section its kind does not belong to (a non-rule card in the rule
    card section, a rule card in the main deck …). params: ``{"section", "kind"}``.
``sideboard_only_in_main``
    The card may appear only in the sideboard (Retró: Tiltott mágia). params: ``{}``.
``follower_in_deck``
    HKK: a follower in the main deck or sideboard. params: ``{"section"}``.
``section_not_used``
    A section the format does not use (e.g. ``hero`` in HKK). params: ``{"section"}``.
``card_not_legal_in_format``
    Every edition the card is printed in is outside the format's legal editions (Retró,
    WoW Core/Block). params: ``{"editions": [codes], "format": <policy label>}``.
    docs/rules.md §4 (HKK formats and ban lists), §10 (WoW TCG formats and ban lists).

Unverifiable (not an error, but the verdict becomes ``unverified``; see
:data:`UNVERIFIED_CODES` and docs/rules.md §17 (Card data sources and coverage)):

``card_not_in_catalogue``
    The name is not in a *partial* catalogue (the HKK sample), so nothing can be said about
    the card. params: ``{"suggestions": [names]}`` (plus ``"found_in": [games]`` when another
    game has the name).
``card_facts_unknown``
    The catalogue knows the card's name only; a rule needed a fact it lacks. params:
    ``{"facts": ["kind"|"types"|…], "assumed_kind": <kind>}`` (``assumed_kind`` when the
    kind was taken from the section the card is declared in).
``card_editions_unknown``
    The format allows only some editions and the card's editions are unknown or undetermined
    (no release date for its edition …). params: ``{"editions": [codes], "format"}``.
``colours_unknown`` / ``hero_traits_unknown`` / ``moons_unknown`` /
``emissary_cards_unknown`` / ``leader_people_unknown``: see below; they too make the verdict
``unverified``.

Information (never changes the verdict):

``printing_chosen``
    Several printings share the name and context did not single one out; the one that fits
    the hero was taken. params: ``{"chosen": "<name> (<class or type>, <set>)",
    "id": <card id>, "set": <set>, "others": ["<name> (<class>, <set>)", …]}``.
    docs/rules.md §9 (WoW TCG constructed decks).

Warnings (the deck is not illegal, but the verdict is ``unverified``):

``colours_unknown``
    The card's colours are not known, so the colour limit could not be checked for it.
    params: ``{}``.
``hero_traits_unknown``
    The hero's traits of this kind are not known, so a "Hero Required" card could not be
    checked. params: ``{"trait"}``.
"""

from __future__ import annotations

PARSE_ERROR = "parse_error"
UNKNOWN_CARD = "unknown_card"
CARD_NOT_IN_GAME = "card_not_in_game"
DECK_TOO_SMALL = "deck_too_small"
DECK_TOO_LARGE = "deck_too_large"
TOO_MANY_COPIES = "too_many_copies"
BANNED_CARD = "banned_card"
TOO_MANY_RULE_CARDS = "too_many_rule_cards"
RULE_CARD_IN_SIDEBOARD = "rule_card_in_sideboard"
TOO_MANY_FOLLOWERS = "too_many_followers"
EPIC_FOLLOWER_COMBINED = "epic_follower_combined"
SIDEBOARD_WRONG_SIZE = "sideboard_wrong_size"
SIDEBOARD_TOO_LARGE = "sideboard_too_large"
SIDEBOARD_NOT_ALLOWED = "sideboard_not_allowed"
TOO_MANY_COLOURS = "too_many_colours"
MISSING_HERO = "missing_hero"
TOO_MANY_HEROES = "too_many_heroes"
HERO_IN_DECK = "hero_in_deck"
HERO_WRONG_KIND = "hero_wrong_kind"
CLASS_RESTRICTION = "class_restriction"
FACTION_RESTRICTION = "faction_restriction"
HERO_TRAIT_REQUIRED = "hero_trait_required"
WRONG_SECTION = "wrong_section"
SIDEBOARD_ONLY_IN_MAIN = "sideboard_only_in_main"
FOLLOWER_IN_DECK = "follower_in_deck"
SECTION_NOT_USED = "section_not_used"
CARD_NOT_LEGAL_IN_FORMAT = "card_not_legal_in_format"

CARD_NOT_IN_CATALOGUE = "card_not_in_catalogue"
CARD_FACTS_UNKNOWN = "card_facts_unknown"
CARD_EDITIONS_UNKNOWN = "card_editions_unknown"
PRINTING_CHOSEN = "printing_chosen"

COLOURS_UNKNOWN = "colours_unknown"
HERO_TRAITS_UNKNOWN = "hero_traits_unknown"
# Blue Moon warnings (the Blue Moon error codes live in decks/domain/bluemoon_cards.py).
MOONS_UNKNOWN = "moons_unknown"
EMISSARY_CARDS_UNKNOWN = "emissary_cards_unknown"
LEADER_PEOPLE_UNKNOWN = "leader_people_unknown"

#: Codes saying a rule could not be checked: not errors, but the verdict is ``unverified``.
UNVERIFIED_CODES: frozenset[str] = frozenset(
    {
        CARD_NOT_IN_CATALOGUE,
        CARD_FACTS_UNKNOWN,
        CARD_EDITIONS_UNKNOWN,
        COLOURS_UNKNOWN,
        HERO_TRAITS_UNKNOWN,
        MOONS_UNKNOWN,
        EMISSARY_CARDS_UNKNOWN,
        LEADER_PEOPLE_UNKNOWN,
    }
)

#: Codes that only inform (the verdict is unchanged).
INFO_CODES: frozenset[str] = frozenset({PRINTING_CHOSEN})

#: Codes that are not errors (``ValidationResult.warnings``): unverifiable and informational.
WARNING_CODES: frozenset[str] = UNVERIFIED_CODES | INFO_CODES

#: Every code this module defines, errors and warnings.
ALL_CODES: frozenset[str] = frozenset(
    value for name, value in dict(globals()).items() if name.isupper() and isinstance(value, str)
)


def is_warning(code: str) -> bool:
    """True if ``code`` is not an error (an unverifiable check or information)."""
    return code in WARNING_CODES


def makes_unverified(code: str) -> bool:
    """True if ``code`` means a rule could not be checked (verdict ``unverified``)."""
    return code in UNVERIFIED_CODES
