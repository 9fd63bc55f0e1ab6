"""Blue Moon deck rules: the advanced (self-built) deck and the pre-constructed people deck.

Pure Python (no Django). Sections are keyed ``"main"``, ``"leader"``, ``"inquisitor"``,
``"emissary"``; any other non-empty section (``sideboard``, ``rule_card``, ``follower``,
``hero`` …) is reported as ``section_not_used``. The violation codes, parameters and
:func:`moon_cost` live in :mod:`decks.domain.bluemoon_cards` and are re-exported here.

Sources and confidence (docs/rules.md §12 (Blue Moon decks); "Blue Moon FAQ" is the *Blue Moon
short FAQ* by Christopher Dearlove):

* 1 leader + 30 cards per people deck — stated (the basic game; docs/rules.md §12). The
  opening hand of 6 is not checked here (docs/rules.md §13 (Blue Moon matches)).
* Advanced rules: cards of other peoples cost their printed moons, at most 10 in total —
  stated (present-s.de). Deck size 30 — stated (secondary) (a BGG tournament report).
* Own-people cards cost nothing — inferred, supported by the Blue Moon FAQ (Sea Moon "does
  not have to pay its 2 moons cost to include it in a Buka deck").
* Chosen Ones cost 0 moons — stated (Blue Moon FAQ, "the Chosen Ones (which have a 0 moon
  cost)").
* The promo Sea Moon [Buka 31] is a Buka card for moon cost, but not part of the Buka
  pre-constructed deck — stated (Blue Moon FAQ, "About the Buka Invasion Deck").
* Mutants belong to no people — stated (present-s.de). Decision here, inferred: a mutant is
  never "own people", so it costs its printed moons in every advanced deck, like any other
  card without a people (interference, influence cards); in a pre-constructed people deck it
  is allowed only as one of the emissary's seven.
* Inquisitor "+N cards +N moons": deck size 30 + N, moon budget 10 + N — the modifier text is
  stated (Blue Moon FAQ, "Inquisitors": Razor-Mind Royal Inspector +5/+5, Swift-Fist Royal
  Marshal +0/+0); its effect on size and budget is inferred.
* Self-built decks use one inquisitor and no emissary; pre-constructed decks use one emissary
  and its 7 cards and no inquisitor — stated (brettspiele.digital; present-s.de).
* No card twice — inferred (each card exists once per set).
* Pre-constructed deck size 30 (+7 with an emissary) — 30 stated, +7 inferred from "add the 7
  cards it names". The Emissaries and Inquisitors expansions also add the people's Chosen
  Ones and extra people cards, which would change the size (docs/rules.md §12), so it is a
  parameter.

Parameters (``FormatSpec.params``): ``deck_size`` (default 30), ``moon_budget`` (default 10),
``allow_emissary`` (advanced default False, people default True), ``allow_inquisitor``
(advanced only, default True), ``emissary_cards`` (people only, default 7). A format without
the Emissaries and Inquisitors expansions (the base game) sets ``allow_emissary`` /
``allow_inquisitor`` to False; its match structure then allows 4 crystals a game instead of 7
(Blue Moon FAQ, "End of Game"; docs/rules.md §13 (Blue Moon matches)).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from decks.domain.bluemoon_cards import (
    BLUEMOON_CODES,
    BLUEMOON_WARNING_CODES,
    CARD_NOT_OF_PEOPLE,
    DECK_WRONG_SIZE,
    DEFAULT_DECK_SIZE,
    DEFAULT_EMISSARY_CARDS,
    DEFAULT_MOON_BUDGET,
    DUPLICATE_CARD,
    EMISSARIES_INQUISITORS_NOT_USED,
    EMISSARY_NOT_ALLOWED,
    INQUISITOR_NOT_ALLOWED,
    INQUISITOR_WITH_EMISSARY,
    MISSING_LEADER,
    MOON_BUDGET_EXCEEDED,
    NOT_IN_PRECONSTRUCTED_DECK,
    PROMO_DECK,
    SECTION_KINDS,
    TOO_MANY_EMISSARIES,
    TOO_MANY_INQUISITORS,
    TOO_MANY_LEADERS,
    Sections,
    card_attr,
    int_param,
    moon_cost,
    section_lines,
    to_int,
    total_count,
)
from decks.domain.codes import (
    EMISSARY_CARDS_UNKNOWN,
    LEADER_PEOPLE_UNKNOWN,
    MOONS_UNKNOWN,
    SECTION_NOT_USED,
    WRONG_SECTION,
)
from decks.domain.deck import is_unresolved
from decks.domain.types import Card, CardKind, FormatSpec, Violation

if TYPE_CHECKING:
    from decks.domain.deck import ResolvedLine

__all__ = [
    "BLUEMOON_CODES",
    "BLUEMOON_WARNING_CODES",
    "CARD_NOT_OF_PEOPLE",
    "DECK_WRONG_SIZE",
    "DEFAULT_DECK_SIZE",
    "DEFAULT_EMISSARY_CARDS",
    "DEFAULT_MOON_BUDGET",
    "DUPLICATE_CARD",
    "EMISSARIES_INQUISITORS_NOT_USED",
    "EMISSARY_CARDS_UNKNOWN",
    "EMISSARY_NOT_ALLOWED",
    "INQUISITOR_NOT_ALLOWED",
    "INQUISITOR_WITH_EMISSARY",
    "LEADER_PEOPLE_UNKNOWN",
    "MISSING_LEADER",
    "MOON_BUDGET_EXCEEDED",
    "MOONS_UNKNOWN",
    "NOT_IN_PRECONSTRUCTED_DECK",
    "PROMO_DECK",
    "SECTION_KINDS",
    "TOO_MANY_EMISSARIES",
    "TOO_MANY_INQUISITORS",
    "TOO_MANY_LEADERS",
    "Sections",
    "check_advanced",
    "check_people",
    "moon_cost",
]


def _check_sections(sections: Sections) -> list[Violation]:
    """``section_not_used`` for foreign sections, ``wrong_section`` for a misplaced kind."""
    violations: list[Violation] = []
    for section, lines in sections.items():
        if not lines:
            continue
        expected = SECTION_KINDS.get(section)
        if expected is None:
            violations.append(Violation(SECTION_NOT_USED, {"section": section}, line=lines[0].line))
            continue
        for line in lines:
            if line.card.kind is not expected:
                violations.append(
                    Violation(
                        WRONG_SECTION,
                        {"section": section, "kind": str(line.card.kind)},
                        card=line.card.name,
                        line=line.line,
                    )
                )
    return violations


def _single(
    lines: Sequence[ResolvedLine], kind: CardKind, too_many: str, missing: str | None = None
) -> tuple[Card | None, list[Violation]]:
    """The one card of ``kind`` declared in ``lines`` (None if none or several)."""
    own = [line for line in lines if line.card.kind is kind]
    count = total_count(own)
    if count == 0:
        return None, ([Violation(missing)] if missing else [])
    if count > 1:
        return None, [Violation(too_many, {"count": count, "limit": 1}, line=own[0].line)]
    return own[0].card, []


def _duplicates(sections: Sections) -> list[Violation]:
    """``duplicate_card`` for a card (by id) declared more than once anywhere (inferred:
    each card exists once per set; docs/rules.md §12 (Blue Moon decks))."""
    totals: Counter[str] = Counter()
    first: dict[str, ResolvedLine] = {}
    for section in SECTION_KINDS:
        for line in section_lines(sections, section):
            totals[line.card.id] += line.count
            first.setdefault(line.card.id, line)
    return [
        Violation(DUPLICATE_CARD, {"count": count}, card=first[cid].card.name, line=first[cid].line)
        for cid, count in totals.items()
        if count > 1
    ]


def _leader_people(leader: Card | None) -> tuple[str | None, list[Violation]]:
    if leader is None:
        return None, []
    people = card_attr(leader, "people") or None
    if people is None:
        return None, [Violation(LEADER_PEOPLE_UNKNOWN, card=leader.name)]
    return str(people), []


def check_advanced(sections: Sections, spec: FormatSpec) -> list[Violation]:
    """Check a self-built Blue Moon deck (rule set ``"bluemoon-advanced"``).

    Args:
        sections: resolved lines per section (``main``, ``leader``, ``inquisitor``,
            ``emissary``; others must be empty).
        spec: ``params["deck_size"]`` (default 30), ``params["moon_budget"]`` (default 10),
            ``params["allow_emissary"]`` (default False: docs/rules.md §12 says self-built decks use
            an inquisitor, not an emissary), ``params["allow_inquisitor"]`` (default True; False
            for a format without the Emissaries and Inquisitors expansions).

    Returns:
        Violations: errors ``missing_leader``, ``too_many_leaders``, ``deck_wrong_size``
        ``{"count", "required"}``, ``moon_budget_exceeded`` ``{"moons", "budget", "cards"}``,
        ``too_many_inquisitors``, ``emissaries_inquisitors_not_used``,
        ``inquisitor_with_emissary``, ``emissary_not_allowed``,
        ``too_many_emissaries``, ``duplicate_card``, ``section_not_used``, ``wrong_section``;
        warnings ``moons_unknown`` (one per unknown-cost card) and ``leader_people_unknown``.

    Sources: module docstring; docs/rules.md §12 (Blue Moon decks), "Advanced (self-built)
    deck".
    """
    violations = _check_sections(sections)
    leader, found = _leader(sections)
    violations += found
    inquisitor, found = _single(
        section_lines(sections, "inquisitor"), CardKind.INQUISITOR, TOO_MANY_INQUISITORS
    )
    violations += found
    violations += _expansion_not_used(sections, spec, "inquisitor")
    violations += _advanced_emissary(sections, spec)
    violations += _duplicates(sections)
    main = _main_cards(sections)
    deck_size = int_param(spec, "deck_size", DEFAULT_DECK_SIZE)
    violations += _deck_size(main, deck_size + _inquisitor_bonus(inquisitor, "plus_cards"))
    people, found = _leader_people(leader)
    violations += found
    if people is not None:
        budget = int_param(spec, "moon_budget", DEFAULT_MOON_BUDGET)
        violations += _moon_budget(
            main, people, budget + _inquisitor_bonus(inquisitor, "plus_moons")
        )
    return violations


def check_people(sections: Sections, spec: FormatSpec) -> list[Violation]:
    """Check a pre-constructed people deck (rule set ``"bluemoon-people"``).

    The deck is the leader's people's cards, optionally with one emissary and the seven cards
    it names (the only cards of other peoples allowed). No inquisitor (stated;
    docs/rules.md §12 (Blue Moon decks)). The promo Sea Moon [Buka 31] is not part of the Buka
    deck (Blue Moon FAQ, "About the Buka Invasion Deck").

    Args:
        sections: as for :func:`check_advanced`.
        spec: ``params["deck_size"]`` (default 30, stated in docs/rules.md §12 for the basic
            deck), ``params["emissary_cards"]`` (default 7, added with an emissary,
            inferred); the bundled data is incomplete, so both are parameters.
            ``params["allow_emissary"]`` (default True; False for a format without the
            Emissaries and Inquisitors expansions: ``emissaries_inquisitors_not_used``).

    Returns:
        Violations: errors ``missing_leader``, ``too_many_leaders``, ``inquisitor_not_allowed``
        ``{"count"}``, ``emissaries_inquisitors_not_used``, ``too_many_emissaries``,
        ``card_not_of_people`` ``{"people", "leader_people"}``, ``not_in_preconstructed_deck``,
        ``duplicate_card``,
        ``deck_wrong_size`` ``{"count", "required"}``, ``section_not_used``,
        ``wrong_section``; warnings ``emissary_cards_unknown`` (once per card that could only
        be legal as one of the emissary's unknown seven) and ``leader_people_unknown``.
    """
    violations = _check_sections(sections)
    leader, found = _leader(sections)
    violations += found
    violations += _no_inquisitor(sections)
    emissary, found = _single(
        section_lines(sections, "emissary"), CardKind.EMISSARY, TOO_MANY_EMISSARIES
    )
    violations += found
    violations += _expansion_not_used(sections, spec, "emissary")
    violations += _duplicates(sections)
    main = _main_cards(sections)
    required = int_param(spec, "deck_size", DEFAULT_DECK_SIZE)
    if emissary is not None and spec.params.get("allow_emissary", True) is not False:
        required += int_param(spec, "emissary_cards", DEFAULT_EMISSARY_CARDS)
    violations += _deck_size(main, required)
    people, found = _leader_people(leader)
    violations += found
    if people is not None:
        violations += _people_cards(main, people, emissary)
    return violations


# --- rules shared by both decks ----------------------------------------------------------------


def _leader(sections: Sections) -> tuple[Card | None, list[Violation]]:
    """Exactly one leader: ``missing_leader`` or ``too_many_leaders`` (docs/rules.md
    §12 (Blue Moon decks))."""
    return _single(
        section_lines(sections, "leader"), CardKind.LEADER, TOO_MANY_LEADERS, MISSING_LEADER
    )


def _expansion_not_used(sections: Sections, spec: FormatSpec, section: str) -> list[Violation]:
    """``emissaries_inquisitors_not_used`` for each card of ``section`` (``"emissary"`` in a
    people deck, ``"inquisitor"`` in an advanced deck) when ``params["allow_<section>"]`` is
    False: the format is played without the Emissaries and Inquisitors expansions
    (docs/rules.md §12 (Blue Moon decks)). The advanced deck's emissary has its own rule
    (:func:`_advanced_emissary`)."""
    if spec.params.get(f"allow_{section}", True) is not False:
        return []
    return [
        Violation(EMISSARIES_INQUISITORS_NOT_USED, card=line.card.name, line=line.line)
        for line in section_lines(sections, section)
        if line.card.kind is SECTION_KINDS[section]
    ]


def _main_cards(sections: Sections) -> list[ResolvedLine]:
    """The main-deck lines holding ordinary cards (misplaced kinds are ``wrong_section``)."""
    return [line for line in section_lines(sections, "main") if line.card.kind is CardKind.CARD]


def _deck_size(main: Sequence[ResolvedLine], required: int) -> list[Violation]:
    """``deck_wrong_size`` unless the main deck holds exactly ``required`` cards."""
    count = total_count(main)
    if count != required:
        return [Violation(DECK_WRONG_SIZE, {"count": count, "required": required})]
    return []


# --- advanced (self-built) deck ----------------------------------------------------------------


def _advanced_emissary(sections: Sections, spec: FormatSpec) -> list[Violation]:
    """An emissary in a self-built deck: ``inquisitor_with_emissary`` next to an inquisitor,
    ``emissary_not_allowed`` unless ``params["allow_emissary"]``, ``too_many_emissaries``
    for more than one (docs/rules.md §12 (Blue Moon decks))."""
    emissaries = [
        line for line in section_lines(sections, "emissary") if line.card.kind is CardKind.EMISSARY
    ]
    if not emissaries:
        return []
    violations: list[Violation] = []
    first = emissaries[0]
    if any(line.card.kind is CardKind.INQUISITOR for line in section_lines(sections, "inquisitor")):
        violations.append(Violation(INQUISITOR_WITH_EMISSARY, line=first.line))
    if not spec.params.get("allow_emissary", False):
        violations.append(Violation(EMISSARY_NOT_ALLOWED, card=first.card.name, line=first.line))
    if total_count(emissaries) > 1:
        violations.append(
            Violation(TOO_MANY_EMISSARIES, {"count": total_count(emissaries), "limit": 1})
        )
    return violations


def _inquisitor_bonus(inquisitor: Card | None, key: str) -> int:
    """The inquisitor's ``plus_cards`` / ``plus_moons`` (0 without an inquisitor)."""
    return to_int(card_attr(inquisitor, key, 0) or 0) if inquisitor else 0


def _moon_budget(main: Sequence[ResolvedLine], people: str, budget: int) -> list[Violation]:
    """Moons of the cards not of ``people`` (``moon_cost``) within ``budget``:
    ``moons_unknown`` per card of unknown cost, then ``moon_budget_exceeded``."""
    violations: list[Violation] = []
    moons = 0
    paying: list[str] = []
    for line in main:
        if is_unresolved(line.card):
            continue  # the look-up reported the name; its cost is unknown too
        cost = moon_cost(line.card, people)
        if cost is None:
            violations.append(
                Violation(
                    MOONS_UNKNOWN,
                    {"people": card_attr(line.card, "people") or ""},
                    card=line.card.name,
                    line=line.line,
                )
            )
        elif cost:
            moons += cost * line.count
            paying.append(line.card.name)
    if moons > budget:
        violations.append(
            Violation(MOON_BUDGET_EXCEEDED, {"moons": moons, "budget": budget, "cards": paying})
        )
    return violations


# --- pre-constructed people deck ---------------------------------------------------------------


def _no_inquisitor(sections: Sections) -> list[Violation]:
    """``inquisitor_not_allowed`` in a pre-constructed people deck (docs/rules.md §12
    (Blue Moon decks))."""
    inquisitors = total_count(section_lines(sections, "inquisitor"))
    return [Violation(INQUISITOR_NOT_ALLOWED, {"count": inquisitors})] if inquisitors else []


def _emissary_seven(emissary: Card | None) -> frozenset[object]:
    """Ids of the cards ``emissary`` names (empty when unknown or without an emissary)."""
    listed = card_attr(emissary, "emissary_cards", ()) if emissary else ()
    if isinstance(listed, list | tuple | set | frozenset):
        return frozenset(listed)
    return frozenset()


def _people_cards(
    main: Sequence[ResolvedLine], people: str, emissary: Card | None
) -> list[Violation]:
    """Every main-deck card is of the leader's ``people`` (not a promo) or one of the
    emissary's seven (Blue Moon FAQ; docs/rules.md §12 (Blue Moon decks))."""
    seven = _emissary_seven(emissary)
    found = (_people_card(line, people, emissary, seven) for line in main)
    return [violation for violation in found if violation is not None]


def _people_card(
    line: ResolvedLine, people: str, emissary: Card | None, seven: frozenset[object]
) -> Violation | None:
    """``not_in_preconstructed_deck`` for an own promo card, ``emissary_cards_unknown`` for a
    foreign card when the emissary's seven are unknown, else ``card_not_of_people``; nothing
    for a name the catalogue lacks (its people is unknown; the look-up reported it)."""
    card = line.card
    if card.id in seven or is_unresolved(card):
        return None
    card_people = str(card_attr(card, "people") or "")
    if card_people == people and not card_attr(card, "mutant"):
        if str(card_attr(card, "deck") or "").casefold() == PROMO_DECK:
            return Violation(
                NOT_IN_PRECONSTRUCTED_DECK, {"people": people}, card=card.name, line=line.line
            )
        return None
    if emissary is not None and not seven:
        return Violation(
            EMISSARY_CARDS_UNKNOWN, {"emissary": emissary.name}, card=card.name, line=line.line
        )
    return Violation(
        CARD_NOT_OF_PEOPLE,
        {"people": card_people, "leader_people": people},
        card=card.name,
        line=line.line,
    )
