"""Rule objects shared by every rule set: sizes, copies, ban list, sideboard, sections.

Pure Python. A rule is any object with ``check(sections, spec) -> list[Violation]``; a
:class:`RuleSet` runs all of its rules and concatenates the violations, so every problem is
reported at once, never only the first (docs/rules.md §3 (HKK deck construction
(Hagyományos))). The rules themselves are described in docs/rules.md §3, §4, §9 and §10.

``sections`` maps section names (``decks.domain.parser.SECTIONS``) to the resolved lines of
that section (:class:`decks.domain.deck.ResolvedLine`); a missing key means an empty section.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from decks.domain import codes
from decks.domain.deck import ResolvedLine, is_unresolved
from decks.domain.editions import EditionStatus
from decks.domain.normalize import normalize_name
from decks.domain.types import Card, FormatSpec, SideboardMode, Violation, card_editions

Sections = Mapping[str, Sequence[ResolvedLine]]
Prepare = Callable[[Sections, FormatSpec], tuple[dict[str, list[ResolvedLine]], list[Violation]]]


class Rule(Protocol):
    """One deck-construction rule."""

    def check(self, sections: Sections, spec: FormatSpec) -> list[Violation]:
        """Return every violation of this rule (``[]`` when the deck obeys it)."""
        ...


def _every_card(card: Card) -> bool:
    return True


def copy_group(card: Card) -> str:
    """The copy-limit key of ``card``: ``card.copy_group`` or its normalised name
    (reprint suffixes stay distinct: unknown → configurable, docs/rules.md §1 (HKK card
    identity, colours and editions))."""
    return card.copy_group or normalize_name(card.name)


@dataclass(frozen=True, slots=True)
class RuleSetOutcome:
    """What :meth:`RuleSet.check` returns.

    Attributes:
        sections: the sections after the rule set's preparation (e.g. WoW moves a hero found
            in the main deck to ``hero``); what the result shows and counts.
        violations: errors and warnings mixed (split with :func:`codes.is_warning`).
    """

    sections: Mapping[str, tuple[ResolvedLine, ...]]
    violations: tuple[Violation, ...]


@dataclass(frozen=True)
class RuleSet:
    """A format's rules, composed of small :class:`Rule` objects.

    Attributes:
        code: registry key (``"hkk"``, ``"wow-constructed"`` …).
        rules: rules run in order; all violations are kept.
        prepare: optional step run first, returning rearranged sections and violations.
        counts_toward_deck: whether a card in main/sideboard counts for deck size (HKK rule
            cards and followers do not: HKK FAQ; docs/rules.md §2 (HKK rule cards,
            followers and guilds)).
        sections: the deck sections the rule set uses, in display order (codes of
            ``sections.DECK_SECTIONS``); pages show these, and the ``decks`` system check
            reports a code with no entry.
    """

    code: str
    rules: tuple[Rule, ...]
    sections: tuple[str, ...] = ("main", "sideboard")
    prepare: Prepare | None = None
    counts_toward_deck: Callable[[Card], bool] = field(default=_every_card)

    def check(self, sections: Sections, spec: FormatSpec) -> RuleSetOutcome:
        """Run every rule on ``sections`` for ``spec``; never stops at the first violation."""
        violations: list[Violation] = []
        if self.prepare is not None:
            prepared, found = self.prepare(sections, spec)
            violations.extend(found)
        else:
            prepared = {name: list(lines) for name, lines in sections.items()}
        frozen = {name: tuple(lines) for name, lines in prepared.items()}
        for rule in self.rules:
            violations.extend(rule.check(frozen, spec))
        return RuleSetOutcome(frozen, tuple(violations))

    def deck_count(self, lines: Sequence[ResolvedLine]) -> int:
        """Cards in ``lines`` that count toward deck size."""
        return sum(r.count for r in lines if self.counts_toward_deck(r.card))


@dataclass(frozen=True, slots=True)
class MainDeckSize:
    """Main deck at least ``spec.min_main`` and at most ``spec.max_main`` cards.

    HKK Hagyományos: 50 (docs/rules.md §3 (HKK deck construction (Hagyományos)); the HKK FAQ
    gives the older 45); WoW Constructed: 60 (docs/rules.md §9 (WoW TCG constructed decks):
    WoW TCG Comprehensive Rules v1.11 §100.1, WoW TCG Death Knight starter rulebook (2009)
    item 4). Cards for which ``counts`` is False (rule cards, followers, heroes) are not
    counted. params: ``{"count", "minimum"}`` / ``{"count", "maximum"}``.
    """

    counts: Callable[[Card], bool] = _every_card

    def check(self, sections: Sections, spec: FormatSpec) -> list[Violation]:
        total = sum(r.count for r in sections.get("main", ()) if self.counts(r.card))
        found: list[Violation] = []
        if spec.min_main is not None and total < spec.min_main:
            found.append(
                Violation(codes.DECK_TOO_SMALL, {"count": total, "minimum": spec.min_main})
            )
        if spec.max_main is not None and total > spec.max_main:
            found.append(
                Violation(codes.DECK_TOO_LARGE, {"count": total, "maximum": spec.max_main})
            )
        return found


@dataclass(frozen=True, slots=True)
class SideboardSize:
    """Sideboard per ``spec.sideboard_mode``: NONE forbids it, EXACT requires exactly
    ``sideboard_size`` cards when used (HKK 30: docs/rules.md §3; Retró 20: docs/rules.md §4
    (HKK formats and ban lists); WoW 10: docs/rules.md §9 (WoW TCG constructed decks)), MAX
    caps it, ANY allows any size."""

    counts: Callable[[Card], bool] = _every_card

    def check(self, sections: Sections, spec: FormatSpec) -> list[Violation]:
        total = sum(r.count for r in sections.get("sideboard", ()) if self.counts(r.card))
        mode, size = spec.sideboard_mode, spec.sideboard_size
        if total == 0 or mode == SideboardMode.ANY:
            return []
        if mode == SideboardMode.NONE:
            return [Violation(codes.SIDEBOARD_NOT_ALLOWED, {"count": total})]
        if size is None:
            return []
        if mode == SideboardMode.EXACT and total != size:
            return [Violation(codes.SIDEBOARD_WRONG_SIZE, {"count": total, "expected": size})]
        if mode == SideboardMode.MAX and total > size:
            return [Violation(codes.SIDEBOARD_TOO_LARGE, {"count": total, "maximum": size})]
        return []


@dataclass(frozen=True, slots=True)
class CopyLimit:
    """At most ``spec.copy_limit`` copies of one copy group across ``sections`` (default
    main deck + sideboard) unless ``card.unlimited``.

    HKK: 3, deck and sideboard together (docs/rules.md §3 (HKK deck construction
    (Hagyományos))); WoW: 4 (docs/rules.md §9: WoW TCG Comprehensive Rules v1.11 §100, WoW TCG
    Death Knight starter rulebook (2009) item 3). ``spec.params["copy_limit_includes_extras"]``
    set to true also counts the rule card and follower ("Az egyszínűség egyedisége",
    docs/rules.md §2 (HKK rule cards, followers and guilds)). One violation per group, on its
    first line. params: ``{"count", "limit"}``. A name the catalogue lacks is not checked (it
    may be a card of unlimited copies; the look-up reported it, docs/rules.md §17).
    """

    sections: tuple[str, ...] = ("main", "sideboard")

    def check(self, sections: Sections, spec: FormatSpec) -> list[Violation]:
        limit = spec.copy_limit
        if limit is None:
            return []
        names = self.sections
        if spec.params.get("copy_limit_includes_extras"):
            names = (*names, "rule_card", "follower")
        totals: dict[str, int] = {}
        first: dict[str, ResolvedLine] = {}
        for section in names:
            for entry in sections.get(section, ()):
                if entry.card.unlimited or is_unresolved(entry.card):
                    continue
                group = copy_group(entry.card)
                totals[group] = totals.get(group, 0) + entry.count
                first.setdefault(group, entry)
        return [
            Violation(
                codes.TOO_MANY_COPIES,
                {"count": total, "limit": limit},
                card=first[group].card.name,
                line=first[group].line,
            )
            for group, total in totals.items()
            if total > limit
        ]


@dataclass(frozen=True, slots=True)
class BanList:
    """No card whose normalised printed name is in ``spec.banned``, in any section
    (docs/rules.md §4 (HKK formats and ban lists), §10 (WoW TCG formats and ban lists)).
    params: ``{"section"}``."""

    def check(self, sections: Sections, spec: FormatSpec) -> list[Violation]:
        if not spec.banned:
            return []
        return [
            Violation(codes.BANNED_CARD, {"section": section}, entry.card.name, entry.line)
            for section, lines in sections.items()
            for entry in lines
            if normalize_name(entry.card.name) in spec.banned
        ]


@dataclass(frozen=True, slots=True)
class SideboardOnly:
    """Cards in ``spec.sideboard_only`` may not be in the main deck (Retró: "Tiltott mágia
    csak a kiegészítő pakliban szerepelhet"; docs/rules.md §4 (HKK formats and ban lists)).
    params: ``{}``."""

    def check(self, sections: Sections, spec: FormatSpec) -> list[Violation]:
        if not spec.sideboard_only:
            return []
        return [
            Violation(codes.SIDEBOARD_ONLY_IN_MAIN, {}, entry.card.name, entry.line)
            for entry in sections.get("main", ())
            if normalize_name(entry.card.name) in spec.sideboard_only
        ]


@dataclass(frozen=True, slots=True)
class SectionsUsed:
    """Lines in a section the format does not use (e.g. ``hero`` in HKK) are errors.
    params: ``{"section"}``."""

    allowed: frozenset[str]

    def check(self, sections: Sections, spec: FormatSpec) -> list[Violation]:
        return [
            Violation(codes.SECTION_NOT_USED, {"section": section}, entry.card.name, entry.line)
            for section, lines in sections.items()
            if section not in self.allowed
            for entry in lines
        ]


@dataclass(frozen=True, slots=True)
class EditionsLegal:
    """Every card must have a printing in an edition the format allows
    (``spec.editions``; ``None`` = every edition, the rule does nothing).

    Codes: ``card_not_legal_in_format`` ``{"editions": [codes], "format"}`` (error: every
    edition of the card is known and none is allowed); ``card_editions_unknown`` (same
    params; verdict ``unverified``: the card's editions are unknown, or an edition's status
    cannot be decided, e.g. no release date). A card is never made illegal on unknown data;
    a name the catalogue lacks is skipped (the look-up reported it).
    Source: docs/rules.md §4 (HKK formats and ban lists: Retró), §10 (WoW TCG formats and ban
    lists: Core, Block), §1 (HKK card identity, colours and editions).
    """

    def check(self, sections: Sections, spec: FormatSpec) -> list[Violation]:
        legality = spec.editions
        if legality is None:
            return []
        found: list[Violation] = []
        for lines in sections.values():
            for entry in lines:
                if is_unresolved(entry.card):
                    continue
                editions = card_editions(entry.card) or ()
                status = legality.card_status(editions)
                if status is EditionStatus.LEGAL:
                    continue
                code = (
                    codes.CARD_NOT_LEGAL_IN_FORMAT
                    if status is EditionStatus.NOT_LEGAL
                    else codes.CARD_EDITIONS_UNKNOWN
                )
                params = {"editions": list(editions), "format": legality.label or spec.slug}
                found.append(Violation(code, params, entry.card.name, entry.line))
        return found
