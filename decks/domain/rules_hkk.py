"""HKK (Hatalom Kártyái) deck-construction rules, parameterised by :class:`FormatSpec`.

Pure Python. Sources: docs/rules.md §2 (HKK rule cards, followers and guilds): the HKK FAQ's
"Szabály:" paragraph (rule card: not part of the deck, at most one, declared next to the deck
list, never in the sideboard, not counted in deck size, no god), HKK Kódex §43.2–§43.4 (rule
cards), §44.3–§44.4 (followers: no colour, at most one) and §48.1 (epic follower / horde
commander not combined with a rule card or another follower); docs/rules.md §3 (HKK deck
construction (Hagyományos): deck ≥ 50, sideboard exactly 30 if used, ≤ 3 colours not counting
Színtelen and Bufa, ≤ 3 copies across deck and sideboard) and §4 (HKK formats and ban lists).

Inferred choices (docs/rules.md §2, §3): followers are not counted in deck size, like rule
cards; the colour limit is checked over the main deck only (the format text says "in the
deck"; the sideboard is not the deck), except that ``spec.params["colours_include_sideboard"]``
set to true also counts the sideboard (the "Egyszínű" format text names the sideboard too).
Guilds count as deck cards until the guild rule is known (unknown; docs/rules.md §2).
"""

from __future__ import annotations

from dataclasses import dataclass

from decks.domain import codes
from decks.domain.deck import is_unresolved
from decks.domain.rules_common import (
    BanList,
    CopyLimit,
    EditionsLegal,
    MainDeckSize,
    RuleSet,
    Sections,
    SectionsUsed,
    SideboardOnly,
    SideboardSize,
)
from decks.domain.types import FOLLOWER_KINDS, Card, CardKind, FormatSpec, Violation

HKK_SECTIONS = ("main", "sideboard", "rule_card", "follower")
_EPIC_KINDS = frozenset({CardKind.EPIC_FOLLOWER, CardKind.HORDE_COMMANDER})


def counts_toward_deck(card: Card) -> bool:
    """Rule cards and followers never count toward HKK deck size.

    Rule cards: stated (HKK FAQ "Szabály:"); followers: inferred (docs/rules.md §2 (HKK rule
    cards, followers and guilds)).
    """
    return card.kind is not CardKind.RULE_CARD and card.kind not in FOLLOWER_KINDS


@dataclass(frozen=True, slots=True)
class RuleCards:
    """At most one rule card, declared in its own section; never in main deck or sideboard.

    Codes: ``too_many_rule_cards`` ``{"count", "limit": 1}``; ``wrong_section``
    ``{"section", "kind"}`` (a non-rule card in the rule-card section, or a rule card in the
    main deck); ``rule_card_in_sideboard``. Sources: HKK FAQ "Szabály:"; HKK Kódex §43.3–§43.4;
    docs/rules.md §2 (HKK rule cards, followers and guilds).
    """

    def check(self, sections: Sections, spec: FormatSpec) -> list[Violation]:
        found: list[Violation] = []
        declared = sections.get("rule_card", ())
        for entry in declared:
            if entry.card.kind is not CardKind.RULE_CARD:
                found.append(
                    Violation(
                        codes.WRONG_SECTION,
                        {"section": "rule_card", "kind": str(entry.card.kind)},
                        entry.card.name,
                        entry.line,
                    )
                )
        total = sum(e.count for e in declared if e.card.kind is CardKind.RULE_CARD)
        if total > 1:
            first = declared[0]
            found.append(
                Violation(
                    codes.TOO_MANY_RULE_CARDS,
                    {"count": total, "limit": 1},
                    first.card.name,
                    first.line,
                )
            )
        for entry in sections.get("main", ()):
            if entry.card.kind is CardKind.RULE_CARD:
                found.append(
                    Violation(
                        codes.WRONG_SECTION,
                        {"section": "main", "kind": str(CardKind.RULE_CARD)},
                        entry.card.name,
                        entry.line,
                    )
                )
        for entry in sections.get("sideboard", ()):
            if entry.card.kind is CardKind.RULE_CARD:
                found.append(
                    Violation(codes.RULE_CARD_IN_SIDEBOARD, {}, entry.card.name, entry.line)
                )
        return found


@dataclass(frozen=True, slots=True)
class Followers:
    """At most one follower, declared in its own section; an epic follower or horde commander
    is used alone (no rule card, no other follower).

    Codes: ``too_many_followers`` ``{"count", "limit": 1}``; ``wrong_section`` (a non-follower
    in the follower section); ``follower_in_deck`` ``{"section"}``; ``epic_follower_combined``
    ``{"with": [names]}``. Sources: HKK Kódex §44.4, §48.1;
    docs/rules.md §2 (HKK rule cards, followers and guilds).
    """

    def check(self, sections: Sections, spec: FormatSpec) -> list[Violation]:
        found: list[Violation] = []
        declared = sections.get("follower", ())
        followers = [e for e in declared if e.card.kind in FOLLOWER_KINDS]
        for entry in declared:
            if entry.card.kind not in FOLLOWER_KINDS:
                found.append(
                    Violation(
                        codes.WRONG_SECTION,
                        {"section": "follower", "kind": str(entry.card.kind)},
                        entry.card.name,
                        entry.line,
                    )
                )
        total = sum(e.count for e in followers)
        if total > 1:
            found.append(
                Violation(
                    codes.TOO_MANY_FOLLOWERS,
                    {"count": total, "limit": 1},
                    followers[0].card.name,
                    followers[0].line,
                )
            )
        rule_cards = [e.card.name for e in sections.get("rule_card", ())]
        for entry in followers:
            if entry.card.kind not in _EPIC_KINDS:
                continue
            others = [e.card.name for e in followers if e is not entry]
            if entry.count > 1:
                others.insert(0, entry.card.name)
            partners = rule_cards + others
            if partners:
                found.append(
                    Violation(
                        codes.EPIC_FOLLOWER_COMBINED,
                        {"with": partners},
                        entry.card.name,
                        entry.line,
                    )
                )
        for section in ("main", "sideboard"):
            for entry in sections.get(section, ()):
                if entry.card.kind in FOLLOWER_KINDS:
                    found.append(
                        Violation(
                            codes.FOLLOWER_IN_DECK,
                            {"section": section},
                            entry.card.name,
                            entry.line,
                        )
                    )
        return found


@dataclass(frozen=True, slots=True)
class ColourLimit:
    """At most ``spec.colour_limit`` colours (gods) in the main deck, ignoring
    ``spec.colours_not_counted`` (Színtelen, Bufa). docs/rules.md §3 (HKK deck construction
    (Hagyományos)).

    Colours are listed in first-appearance order. Cards with ``colours is None`` give a
    ``colours_unknown`` warning each; a name the catalogue lacks is skipped (the look-up
    reported it). params: ``{"colours": [...], "limit"}``.
    """

    def check(self, sections: Sections, spec: FormatSpec) -> list[Violation]:
        limit = spec.colour_limit
        if limit is None:
            return []
        names = ["main"]
        if spec.params.get("colours_include_sideboard"):
            names.append("sideboard")
        found: list[Violation] = []
        seen: dict[str, None] = {}
        for section in names:
            for entry in sections.get(section, ()):
                card = entry.card
                if not counts_toward_deck(card) or is_unresolved(card):
                    continue
                if card.colours is None:
                    found.append(Violation(codes.COLOURS_UNKNOWN, {}, card.name, entry.line))
                    continue
                for colour in card.colours:
                    if colour not in spec.colours_not_counted:
                        seen.setdefault(colour, None)
        if len(seen) > limit:
            found.append(Violation(codes.TOO_MANY_COLOURS, {"colours": list(seen), "limit": limit}))
        return found


def build_rule_set(code: str = "hkk") -> RuleSet:
    """The HKK rule set: sections, ban list, sideboard-only cards, deck size, sideboard size,
    copy limit, rule card, follower and colour rules, all driven by the :class:`FormatSpec`."""
    return RuleSet(
        code=code,
        rules=(
            SectionsUsed(frozenset(HKK_SECTIONS)),
            BanList(),
            SideboardOnly(),
            MainDeckSize(counts=counts_toward_deck),
            SideboardSize(counts=counts_toward_deck),
            CopyLimit(),
            RuleCards(),
            Followers(),
            ColourLimit(),
            EditionsLegal(),
        ),
        counts_toward_deck=counts_toward_deck,
        sections=HKK_SECTIONS,
    )


HKK = build_rule_set()
