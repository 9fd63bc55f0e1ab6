"""Blue Moon deck rules: the advanced (self-built) deck and the pre-constructed people deck.

Pure Python (no Django). Sections are keyed ``"main"``, ``"leader"``, ``"inquisitor"``,
``"emissary"``; any other non-empty section (``sideboard``, ``rule_card``, ``follower``,
``hero`` …) is reported as ``section_not_used``.

Sources and confidence (RULES.md §3, seed 002 = S002):

* 1 leader + 30 cards per people deck; opening hand 6 — [CONFIRMED] RULES.md §3.
* Advanced rules: cards of other peoples cost their printed moons, at most 10 in total —
  [CONFIRMED] RULES.md §3 (present-s.de). Deck size 30 — [SECONDARY] (BGG tournament report).
* Own-people cards cost nothing — [INFERRED] RULES.md §3, supported by S002 (Sea Moon
  "you do not have to pay its 2 moons cost to include it in a Buka deck").
* Chosen Ones cost 0 moons — [CONFIRMED] S002 ("the Chosen Ones (which have a 0 moon cost)").
* The promo Sea Moon [Buka 31] is a Buka card for moon cost, but not part of the Buka
  pre-constructed deck — [CONFIRMED] S002 "About the Buka Invasion Deck".
* Mutants belong to no people — [CONFIRMED] RULES.md §3 (present-s.de). Decision here
  [INFERRED]: a mutant is never "own people", so it costs its printed moons in every advanced
  deck, like any other card without a people (interference, influence cards); in a
  pre-constructed people deck it is allowed only as one of the emissary's seven.
* Inquisitor "+N cards +N moons": deck size 30 + N, moon budget 10 + N — the modifier text is
  [CONFIRMED] S002 (Razor-Mind Royal Inspector +5/+5, Swift-Fist Royal Marshal +0/+0); its
  effect on size and budget is [INFERRED] RULES.md §3.
* Self-built decks use one inquisitor and no emissary; pre-constructed decks use one emissary
  and its 7 cards and no inquisitor — [CONFIRMED] RULES.md §3 (brettspiele.digital).
* No card twice — [INFERRED] RULES.md §3 (each card exists once per set).
* Pre-constructed deck size 30 (+7 with an emissary) — 30 [CONFIRMED] RULES.md §3, +7
  [INFERRED] from "add the 7 cards it names". The E&I extra people cards and Chosen Ones
  that RULES.md says are added would change the size, so it is a parameter.

Parameters (``FormatSpec.params``): ``deck_size`` (default 30), ``moon_budget`` (default 10),
``allow_emissary`` (advanced only, default False), ``emissary_cards`` (people only, default 7).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from decks.domain.codes import (
    EMISSARY_CARDS_UNKNOWN,
    LEADER_PEOPLE_UNKNOWN,
    MOONS_UNKNOWN,
    SECTION_NOT_USED,
    WRONG_SECTION,
)
from decks.domain.types import Card, CardKind, FormatSpec, Violation

if TYPE_CHECKING:
    from decks.domain.deck import ResolvedLine

# --- Violation codes added by this module (errors unless listed in BLUEMOON_WARNING_CODES) ---
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


def _attr(card: Card, key: str, default: object = None) -> object:
    return card.attributes.get(key, default)


def _to_int(value: object) -> int:
    """``int(value)`` for the JSON scalars card data and params hold; TypeError otherwise."""
    if isinstance(value, bool | int | float | str):
        return int(value)
    raise TypeError(f"not a number: {value!r}")


def _int_param(spec: FormatSpec, key: str, default: int) -> int:
    value = spec.params.get(key, default)
    return default if value is None else _to_int(value)


def _lines(sections: Sections, name: str) -> Sequence[ResolvedLine]:
    return sections.get(name) or ()


def _total(lines: Sequence[ResolvedLine]) -> int:
    return sum(line.count for line in lines)


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
    count = _total(own)
    if count == 0:
        return None, ([Violation(missing)] if missing else [])
    if count > 1:
        return None, [Violation(too_many, {"count": count, "limit": 1}, line=own[0].line)]
    return own[0].card, []


def _duplicates(sections: Sections) -> list[Violation]:
    """``duplicate_card`` for a card (by id) declared more than once anywhere. [INFERRED]"""
    totals: Counter[str] = Counter()
    first: dict[str, ResolvedLine] = {}
    for section in SECTION_KINDS:
        for line in _lines(sections, section):
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
    people = _attr(leader, "people") or None
    if people is None:
        return None, [Violation(LEADER_PEOPLE_UNKNOWN, card=leader.name)]
    return str(people), []


def moon_cost(card: Card, leader_people: str) -> int | None:
    """Moons ``card`` costs in an advanced deck led by ``leader_people``.

    0 for a card of the leader's people (including the promo Sea Moon in a Buka deck, whose
    data says ``people="Buka"``) and for a Chosen One (S002); otherwise its printed moons, or
    None when unknown. Mutants and cards without a people are never own cards ([INFERRED],
    module docstring).
    """
    if _attr(card, "chosen_one") is True:
        return 0
    people = _attr(card, "people") or ""
    if people and not _attr(card, "mutant") and people == leader_people:
        return 0
    moons = _attr(card, "moons")
    return None if moons is None else _to_int(moons)


def check_advanced(sections: Sections, spec: FormatSpec) -> list[Violation]:
    """Check a self-built Blue Moon deck (rule set ``"bluemoon-advanced"``).

    Args:
        sections: resolved lines per section (``main``, ``leader``, ``inquisitor``,
            ``emissary``; others must be empty).
        spec: ``params["deck_size"]`` (default 30), ``params["moon_budget"]`` (default 10),
            ``params["allow_emissary"]`` (default False: RULES.md §3 says self-built decks use
            an inquisitor, not an emissary).

    Returns:
        Violations: errors ``missing_leader``, ``too_many_leaders``, ``deck_wrong_size``
        ``{"count", "required"}``, ``moon_budget_exceeded`` ``{"moons", "budget", "cards"}``,
        ``too_many_inquisitors``, ``inquisitor_with_emissary``, ``emissary_not_allowed``,
        ``too_many_emissaries``, ``duplicate_card``, ``section_not_used``, ``wrong_section``;
        warnings ``moons_unknown`` (one per unknown-cost card) and ``leader_people_unknown``.

    Sources: module docstring (S002; RULES.md §3 "Algorithm: Blue Moon advanced deck").
    """
    violations = _check_sections(sections)
    leader, found = _single(
        _lines(sections, "leader"), CardKind.LEADER, TOO_MANY_LEADERS, MISSING_LEADER
    )
    violations += found
    inquisitor, found = _single(
        _lines(sections, "inquisitor"), CardKind.INQUISITOR, TOO_MANY_INQUISITORS
    )
    violations += found
    emissaries = [
        line for line in _lines(sections, "emissary") if line.card.kind is CardKind.EMISSARY
    ]
    has_inquisitor = any(
        line.card.kind is CardKind.INQUISITOR for line in _lines(sections, "inquisitor")
    )
    if emissaries:
        if has_inquisitor:
            violations.append(Violation(INQUISITOR_WITH_EMISSARY, line=emissaries[0].line))
        if not spec.params.get("allow_emissary", False):
            violations.append(
                Violation(
                    EMISSARY_NOT_ALLOWED, card=emissaries[0].card.name, line=emissaries[0].line
                )
            )
        if _total(emissaries) > 1:
            violations.append(
                Violation(TOO_MANY_EMISSARIES, {"count": _total(emissaries), "limit": 1})
            )
    violations += _duplicates(sections)

    plus_cards = _to_int(_attr(inquisitor, "plus_cards", 0) or 0) if inquisitor else 0
    plus_moons = _to_int(_attr(inquisitor, "plus_moons", 0) or 0) if inquisitor else 0
    main = [line for line in _lines(sections, "main") if line.card.kind is CardKind.CARD]
    required = _int_param(spec, "deck_size", DEFAULT_DECK_SIZE) + plus_cards
    count = _total(main)
    if count != required:
        violations.append(Violation(DECK_WRONG_SIZE, {"count": count, "required": required}))

    people, found = _leader_people(leader)
    violations += found
    if people is not None:
        budget = _int_param(spec, "moon_budget", DEFAULT_MOON_BUDGET) + plus_moons
        moons = 0
        paying: list[str] = []
        for line in main:
            cost = moon_cost(line.card, people)
            if cost is None:
                violations.append(
                    Violation(
                        MOONS_UNKNOWN,
                        {"people": _attr(line.card, "people") or ""},
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


def check_people(sections: Sections, spec: FormatSpec) -> list[Violation]:
    """Check a pre-constructed people deck (rule set ``"bluemoon-people"``).

    The deck is the leader's people's cards, optionally with one emissary and the seven cards
    it names (the only cards of other peoples allowed). No inquisitor (RULES.md §3
    [CONFIRMED]). The promo Sea Moon [Buka 31] is not part of the Buka deck (S002).

    Args:
        sections: as for :func:`check_advanced`.
        spec: ``params["deck_size"]`` (default 30, [CONFIRMED] RULES.md §3 for the basic
            deck) and ``params["emissary_cards"]`` (default 7, added with an emissary,
            [INFERRED]); the bundled data is incomplete, so both are parameters.

    Returns:
        Violations: errors ``missing_leader``, ``too_many_leaders``, ``inquisitor_not_allowed``
        ``{"count"}``, ``too_many_emissaries``, ``card_not_of_people`` ``{"people",
        "leader_people"}``, ``not_in_preconstructed_deck``, ``duplicate_card``,
        ``deck_wrong_size`` ``{"count", "required"}``, ``section_not_used``,
        ``wrong_section``; warnings ``emissary_cards_unknown`` (once per card that could only
        be legal as one of the emissary's unknown seven) and ``leader_people_unknown``.
    """
    violations = _check_sections(sections)
    leader, found = _single(
        _lines(sections, "leader"), CardKind.LEADER, TOO_MANY_LEADERS, MISSING_LEADER
    )
    violations += found
    inquisitors = _total(_lines(sections, "inquisitor"))
    if inquisitors:
        violations.append(Violation(INQUISITOR_NOT_ALLOWED, {"count": inquisitors}))
    emissary, found = _single(_lines(sections, "emissary"), CardKind.EMISSARY, TOO_MANY_EMISSARIES)
    violations += found
    violations += _duplicates(sections)

    main = [line for line in _lines(sections, "main") if line.card.kind is CardKind.CARD]
    required = _int_param(spec, "deck_size", DEFAULT_DECK_SIZE)
    if emissary is not None:
        required += _int_param(spec, "emissary_cards", DEFAULT_EMISSARY_CARDS)
    count = _total(main)
    if count != required:
        violations.append(Violation(DECK_WRONG_SIZE, {"count": count, "required": required}))

    people, found = _leader_people(leader)
    violations += found
    if people is None:
        return violations
    listed = _attr(emissary, "emissary_cards", ()) if emissary else ()
    seven: frozenset[object] = (
        frozenset(listed) if isinstance(listed, list | tuple | set | frozenset) else frozenset()
    )
    for line in main:
        card = line.card
        card_people = str(_attr(card, "people") or "")
        if card.id in seven:
            continue
        if card_people == people and not _attr(card, "mutant"):
            if str(_attr(card, "deck") or "").casefold() == PROMO_DECK:
                violations.append(
                    Violation(
                        NOT_IN_PRECONSTRUCTED_DECK,
                        {"people": people},
                        card=card.name,
                        line=line.line,
                    )
                )
            continue
        if emissary is not None and not seven:
            violations.append(
                Violation(
                    EMISSARY_CARDS_UNKNOWN,
                    {"emissary": emissary.name},
                    card=card.name,
                    line=line.line,
                )
            )
            continue
        violations.append(
            Violation(
                CARD_NOT_OF_PEOPLE,
                {"people": card_people, "leader_people": people},
                card=card.name,
                line=line.line,
            )
        )
    return violations
