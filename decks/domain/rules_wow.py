"""World of Warcraft TCG Constructed deck rules, parameterised by :class:`FormatSpec`.

Pure Python. Sources (docs/rules.md §9 (WoW TCG constructed decks)): WoW TCG Comprehensive Rules
v1.11 §100 and the WoW TCG Death Knight starter rulebook (2009) items 1–4: exactly one hero, in play
from the start and not part of the deck; main deck at least 60 cards; at most 4 copies of a name
across main and side deck unless "Unlimited"; cards with class icons must share one with the hero's
class, cards with a faction icon must match the hero's faction (no icon = goes anywhere); "[Trait]
Hero Required" needs that hero trait (starter rulebook: Saeryn Dusksorrow, Blood, may play Hysteria
(Blood) but not Corpse Explosion (Unholy)); side deck exactly 10 when used (Comprehensive Rules
v1.11).

The hero comes from the ``hero`` section; if that is empty, the single Hero card found in the
main deck is moved out of it (not counted). When the hero is missing or ambiguous the
hero-dependent checks are skipped, so one mistake does not cascade into dozens of errors.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from decks.domain import codes
from decks.domain.deck import ResolvedLine, is_unresolved
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
from decks.domain.types import Card, CardKind, FormatSpec, Violation, card_editions

WOW_SECTIONS = ("main", "sideboard", "hero")
TRAIT_KINDS: tuple[str, ...] = ("class", "race", "faction", "talent", "profession")


def counts_toward_deck(card: Card) -> bool:
    """Heroes are not part of the deck.

    Sources: WoW TCG Comprehensive Rules v1.11 §100.1; WoW TCG Death Knight starter rulebook
    (2009) item 4; docs/rules.md §9 (WoW TCG constructed decks).
    """
    return card.kind is not CardKind.HERO


def prepare_hero(
    sections: Sections, spec: FormatSpec
) -> tuple[dict[str, list[ResolvedLine]], list[Violation]]:
    """Settle the hero: from the ``hero`` section, or else the Hero cards of the main deck.

    Returns the rearranged sections (heroes taken out of ``main``/``sideboard``) and the
    violations ``missing_hero``, ``too_many_heroes`` ``{"count", "limit": 1}``,
    ``hero_in_deck`` ``{"section"}`` and ``hero_wrong_kind``. No ``missing_hero`` while a
    main-deck name the catalogue lacks may be the hero (the look-up reported the name;
    docs/rules.md §17).
    """
    out = {name: list(lines) for name, lines in sections.items()}
    found: list[Violation] = []
    declared = out.get("hero", [])
    if not declared:
        pulled = [e for e in out.get("main", []) if e.card.kind is CardKind.HERO]
        out["main"] = [e for e in out.get("main", []) if e.card.kind is not CardKind.HERO]
        out["hero"] = declared = pulled
    # Heroes left in the deck (a declared hero exists, or any hero in the side deck).
    for section in ("main", "sideboard"):
        kept = []
        for entry in out.get(section, []):
            if entry.card.kind is CardKind.HERO:
                found.append(
                    Violation(codes.HERO_IN_DECK, {"section": section}, entry.card.name, entry.line)
                )
            else:
                kept.append(entry)
        out[section] = kept
    for entry in declared:
        if entry.card.kind is not CardKind.HERO:
            found.append(Violation(codes.HERO_WRONG_KIND, {}, entry.card.name, entry.line))
    total = sum(e.count for e in declared)
    if total == 0 and not any(is_unresolved(e.card) for e in out.get("main", [])):
        found.append(Violation(codes.MISSING_HERO, {}))
    elif total > 1:
        found.append(
            Violation(
                codes.TOO_MANY_HEROES,
                {"count": total, "limit": 1},
                declared[0].card.name,
                declared[0].line,
            )
        )
    return out, found


def the_hero(sections: Sections) -> Card | None:
    """The deck's hero if exactly one Hero card is declared, else ``None``."""
    declared: Sequence[ResolvedLine] = sections.get("hero", ())
    if len(declared) == 1 and declared[0].count == 1 and declared[0].card.kind is CardKind.HERO:
        return declared[0].card
    return None


def _deck_lines(sections: Sections) -> Iterator[ResolvedLine]:
    for section in ("main", "sideboard"):
        yield from sections.get(section, ())


@dataclass(frozen=True, slots=True)
class ClassIcons:
    """A card with class icons must share one with the hero's class (WoW TCG Death Knight
    starter rulebook (2009) item 1; WoW TCG Comprehensive Rules v1.11 §100; docs/rules.md §9).
    params: ``{"classes": [card icons], "hero_class": [hero classes]}``."""

    def check(self, sections: Sections, spec: FormatSpec) -> list[Violation]:
        hero = the_hero(sections)
        if hero is None or "class" not in hero.hero_traits:
            return []
        hero_class = hero.hero_traits["class"]
        return [
            Violation(
                codes.CLASS_RESTRICTION,
                {"classes": sorted(e.card.class_icons), "hero_class": sorted(hero_class)},
                e.card.name,
                e.line,
            )
            for e in _deck_lines(sections)
            if e.card.class_icons and not (e.card.class_icons & hero_class)
        ]


@dataclass(frozen=True, slots=True)
class FactionIcon:
    """A card with a faction icon must match the hero's faction; ``faction=None`` (neutral)
    goes anywhere (WoW TCG Death Knight starter rulebook (2009) item 1; docs/rules.md §9).
    params: ``{"faction", "hero_faction": [...]}``."""

    def check(self, sections: Sections, spec: FormatSpec) -> list[Violation]:
        hero = the_hero(sections)
        if hero is None or "faction" not in hero.hero_traits:
            return []
        hero_faction = hero.hero_traits["faction"]
        return [
            Violation(
                codes.FACTION_RESTRICTION,
                {"faction": e.card.faction, "hero_faction": sorted(hero_faction)},
                e.card.name,
                e.line,
            )
            for e in _deck_lines(sections)
            if e.card.faction is not None and e.card.faction not in hero_faction
        ]


@dataclass(frozen=True, slots=True)
class HeroRequired:
    """Every ``card.requires`` key must be met by the hero: some required value is among the
    hero's traits of that kind (WoW TCG Death Knight starter rulebook (2009) item 2;
    docs/rules.md §9 (WoW TCG constructed decks)).

    params: ``{"trait", "required": [...], "hero": [...]}``. A hero lacking that trait kind
    gives a ``hero_traits_unknown`` warning ``{"trait"}`` instead.
    """

    def check(self, sections: Sections, spec: FormatSpec) -> list[Violation]:
        hero = the_hero(sections)
        if hero is None:
            return []
        traits = hero.hero_traits
        found: list[Violation] = []
        for entry in _deck_lines(sections):
            for kind, required in entry.card.requires.items():
                if not required:
                    continue
                have = traits.get(kind)
                if have is None:
                    found.append(
                        Violation(
                            codes.HERO_TRAITS_UNKNOWN, {"trait": kind}, entry.card.name, entry.line
                        )
                    )
                elif not (required & have):
                    found.append(
                        Violation(
                            codes.HERO_TRAIT_REQUIRED,
                            {"trait": kind, "required": sorted(required), "hero": sorted(have)},
                            entry.card.name,
                            entry.line,
                        )
                    )
        return found


@dataclass(frozen=True, slots=True)
class LegalityTag:
    """A format defined by the WoWTCG-Tracker legality tags (``spec.params["legality_tag"]``,
    e.g. ``"Contemporary"``): a card is legal when its ``attributes["legalities"]`` hold the
    tag; a card without tags (an organiser's fan-made edition) cannot be checked.

    Codes: ``card_not_legal_in_format`` ``{"editions", "format": tag}`` (error);
    ``card_editions_unknown`` (same params; verdict ``unverified``). No tag in the params: the
    rule does nothing. docs/rules.md §10 (WoW TCG formats and ban lists).
    """

    def check(self, sections: Sections, spec: FormatSpec) -> list[Violation]:
        tag = spec.params.get("legality_tag")
        if not isinstance(tag, str) or not tag:
            return []
        found: list[Violation] = []
        for entry in _deck_lines(sections):
            tags = entry.card.attributes.get("legalities")
            if isinstance(tags, list | tuple) and tag in tags:
                continue
            code = (
                codes.CARD_NOT_LEGAL_IN_FORMAT
                if isinstance(tags, list | tuple)
                else codes.CARD_EDITIONS_UNKNOWN
            )
            editions = list(card_editions(entry.card) or ())
            params = {"editions": editions, "format": tag}
            found.append(Violation(code, params, entry.card.name, entry.line))
        return found


def build_rule_set(code: str = "wow-constructed") -> RuleSet:
    """The WoW TCG Constructed rule set (hero, size, copies, side deck, icons, traits, bans)."""
    return RuleSet(
        code=code,
        rules=(
            SectionsUsed(frozenset(WOW_SECTIONS)),
            BanList(),
            SideboardOnly(),
            MainDeckSize(counts=counts_toward_deck),
            SideboardSize(counts=counts_toward_deck),
            CopyLimit(),
            ClassIcons(),
            FactionIcon(),
            HeroRequired(),
            EditionsLegal(),
            LegalityTag(),
        ),
        prepare=prepare_hero,
        counts_toward_deck=counts_toward_deck,
        sections=WOW_SECTIONS,
    )


WOW_CONSTRUCTED = build_rule_set()
