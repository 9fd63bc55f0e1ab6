"""Blue Moon card model: violation codes, deck sections, parameters and moon costs.

Pure Python (no Django). The deck checks that use these are in :mod:`decks.domain.bluemoon`,
which re-exports every public name here; import them from there. Card facts are read from
``Card.attributes`` (``people``, ``moons``, ``chosen_one``, ``mutant``, ``deck``,
``plus_cards``, ``plus_moons``, ``emissary_cards``), as loaded by ``decks.loaders.bluemoon``.

Sources: docs/rules.md §12 (Blue Moon decks), which names the public source and the confidence
of every rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from decks.domain.codes import (
    EMISSARY_CARDS_UNKNOWN,
    LEADER_PEOPLE_UNKNOWN,
    MOONS_UNKNOWN,
)
from decks.domain.types import Card, CardKind, FormatSpec

if TYPE_CHECKING:
    from decks.domain.deck import ResolvedLine

# --- Blue Moon violation codes (errors unless listed in BLUEMOON_WARNING_CODES) ---
#: No leader declared. params ``{}``.
MISSING_LEADER = "missing_leader"
#: More than one leader. params ``{"count", "limit": 1}``.
TOO_MANY_LEADERS = "too_many_leaders"
#: Main deck not exactly the required size. params ``{"count", "required"}``.
DECK_WRONG_SIZE = "deck_wrong_size"
#: Moons of non-own cards above the budget. params ``{"moons", "budget", "cards": [names]}``.
MOON_BUDGET_EXCEEDED = "moon_budget_exceeded"
#: An inquisitor and an emissary together. params ``{}``.
INQUISITOR_WITH_EMISSARY = "inquisitor_with_emissary"
#: More than one inquisitor. params ``{"count", "limit": 1}``.
TOO_MANY_INQUISITORS = "too_many_inquisitors"
#: More than one emissary. params ``{"count", "limit": 1}``.
TOO_MANY_EMISSARIES = "too_many_emissaries"
#: An emissary in an advanced (self-built) deck. params ``{}``.
EMISSARY_NOT_ALLOWED = "emissary_not_allowed"
#: An inquisitor in a pre-constructed people deck. params ``{"count"}``.
INQUISITOR_NOT_ALLOWED = "inquisitor_not_allowed"
#: An emissary or inquisitor in a format played without the Emissaries and Inquisitors
#: expansions (``allow_emissary`` / ``allow_inquisitor`` False). params ``{}``.
EMISSARIES_INQUISITORS_NOT_USED = "emissaries_inquisitors_not_used"
#: The same card more than once. params ``{"count"}``.
DUPLICATE_CARD = "duplicate_card"
#: People deck: a card of another people (or none) that is not one of the emissary's seven.
#: params ``{"people": card's people or "", "leader_people"}``.
CARD_NOT_OF_PEOPLE = "card_not_of_people"
#: People deck: a promo card that is not part of the pre-constructed deck (Sea Moon).
#: params ``{"people"}``.
NOT_IN_PRECONSTRUCTED_DECK = "not_in_preconstructed_deck"
#: Warning: a non-own card whose moon cost is unknown, so the budget is a lower bound.
#: params ``{"people"}``.
#: Warning: the emissary's seven cards are not in the data, so a card of another people
#: could not be checked against them. params ``{"emissary"}``.
#: Warning: the leader's people is unknown, so people and moon checks were skipped. params ``{}``.

BLUEMOON_WARNING_CODES: frozenset[str] = frozenset(
    {MOONS_UNKNOWN, EMISSARY_CARDS_UNKNOWN, LEADER_PEOPLE_UNKNOWN}
)
BLUEMOON_CODES: frozenset[str] = frozenset(
    {
        MISSING_LEADER,
        TOO_MANY_LEADERS,
        DECK_WRONG_SIZE,
        MOON_BUDGET_EXCEEDED,
        INQUISITOR_WITH_EMISSARY,
        TOO_MANY_INQUISITORS,
        TOO_MANY_EMISSARIES,
        EMISSARY_NOT_ALLOWED,
        INQUISITOR_NOT_ALLOWED,
        EMISSARIES_INQUISITORS_NOT_USED,
        DUPLICATE_CARD,
        CARD_NOT_OF_PEOPLE,
        NOT_IN_PRECONSTRUCTED_DECK,
    }
    | BLUEMOON_WARNING_CODES
)

#: Sections Blue Moon uses and the card kind each accepts.
SECTION_KINDS: Mapping[str, CardKind] = {
    "main": CardKind.CARD,
    "leader": CardKind.LEADER,
    "inquisitor": CardKind.INQUISITOR,
    "emissary": CardKind.EMISSARY,
}

DEFAULT_DECK_SIZE = 30
DEFAULT_MOON_BUDGET = 10
DEFAULT_EMISSARY_CARDS = 7
PROMO_DECK = "promo"

Sections = Mapping[str, Sequence["ResolvedLine"]]


def card_attr(card: Card, key: str, default: object = None) -> object:
    """``card.attributes[key]``, or ``default`` when the data does not give it."""
    return card.attributes.get(key, default)


def to_int(value: object) -> int:
    """``int(value)`` for the JSON scalars card data and params hold; TypeError otherwise."""
    if isinstance(value, bool | int | float | str):
        return int(value)
    raise TypeError(f"not a number: {value!r}")


def int_param(spec: FormatSpec, key: str, default: int) -> int:
    """Integer format parameter ``key`` (``default`` when absent or null); TypeError if not
    a number."""
    value = spec.params.get(key, default)
    return default if value is None else to_int(value)


def section_lines(sections: Sections, name: str) -> Sequence[ResolvedLine]:
    """The lines of section ``name`` (empty when the section is missing)."""
    return sections.get(name) or ()


def total_count(lines: Sequence[ResolvedLine]) -> int:
    """Number of cards in ``lines`` (sum of the line counts)."""
    return sum(line.count for line in lines)


def moon_cost(card: Card, leader_people: str) -> int | None:
    """Moons ``card`` costs in an advanced deck led by ``leader_people``.

    0 for a card of the leader's people (including the promo Sea Moon in a Buka deck, whose data
    says ``people="Buka"``) and for a Chosen One (Blue Moon FAQ); otherwise its printed moons, or
    None when unknown. Mutants and cards without a people are never own cards (inferred; see the
    :mod:`decks.domain.bluemoon` docstring and docs/rules.md §12 (Blue Moon decks)).
    """
    if card_attr(card, "chosen_one") is True:
        return 0
    people = card_attr(card, "people") or ""
    if people and not card_attr(card, "mutant") and people == leader_people:
        return 0
    moons = card_attr(card, "moons")
    return None if moons is None else to_int(moons)
