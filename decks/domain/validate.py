"""Deck validation entry point: parse, resolve names, run the format's rule set, report.

Pure Python; the Django layer injects the catalogue (:class:`CardIndex`, built once and reused)
and the message translator (:meth:`ValidationResult.to_dict`). Sources for each rule are in
``rules_hkk``, ``rules_wow`` and ``rules_common``; codes and params in ``codes``.

The verdict (``ValidationResult.status``, docs/rules.md §17 (Card data sources and coverage)):
``illegal`` when any error was found; otherwise ``unverified`` when some rule could not be
checked (``codes.UNVERIFIED_CODES``: a name a partial catalogue lacks, unknown colours,
editions, hero traits or moon costs …); otherwise ``legal``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from decks.domain import codes
from decks.domain.deck import ResolvedLine, is_unresolved, unresolved_card
from decks.domain.formats import get_rule_set
from decks.domain.identity import adopt_kind, choose_printing
from decks.domain.index import CardIndex
from decks.domain.parser import DeckLine, ParsedDeck, parse_structured, parse_text
from decks.domain.sections import section_codes
from decks.domain.types import Card, CardKind, Coverage, FormatSpec, Verdict, Violation


@dataclass(frozen=True, slots=True)
class ValidationResult:
    """Outcome of validating one deck list against one format.

    Attributes:
        format: the format slug (``spec.slug``).
        legal: True when there is no error. Kept for the current callers; read ``status``:
            an ``unverified`` list has ``legal`` True but is not known to be legal.
        counts: ``{"main": int, "sideboard": int}``, cards counting toward deck size, names
            the catalogue lacks included (the player has those cards; docs/rules.md §17).
        rule_card / follower / hero: printed name of the (first) declared card, or None.
        errors / warnings: violations sorted by line (deck-level first), then code.
        lines: resolved sections (every code of ``sections.DECK_SECTIONS``), for showing each
            error beside its line; a name the catalogue lacks is in here as a stand-in card
            (``deck.is_unresolved``), counted with its quantity.
        status: the verdict, a :class:`~decks.domain.types.Verdict` value: ``"legal"``,
            ``"illegal"`` or ``"unverified"``.
        unknown_cards: names the (partial) catalogue lacks, in list order
            (``card_not_in_catalogue``); ``()`` against a complete catalogue.
    """

    format: str
    legal: bool
    counts: Mapping[str, int]
    rule_card: str | None
    follower: str | None
    hero: str | None
    errors: tuple[Violation, ...]
    warnings: tuple[Violation, ...]
    lines: Mapping[str, tuple[ResolvedLine, ...]]
    status: str = Verdict.LEGAL
    unknown_cards: tuple[str, ...] = ()

    def to_dict(
        self, message_for: Callable[[Violation], str], *, include_status: bool = False
    ) -> dict[str, object]:
        """JSON-ready dict: ``{"format", "legal", "counts": {"main", "sideboard"},
        "rule_card", "follower", "hero", "errors": [{"code", "message", "card", "line",
        "params"}], "warnings": [same]}``; ``message_for`` renders (translates) a violation.

        ``include_status=True`` adds ``"status"`` (``"legal"|"illegal"|"unverified"``) and
        ``"unknown_cards"`` ([names]); the default keeps today's API shape until the API
        schema gains them."""

        def one(v: Violation) -> dict[str, object]:
            return {
                "code": v.code,
                "message": message_for(v),
                "card": v.card,
                "line": v.line,
                "params": dict(v.params),
            }

        data: dict[str, object] = {
            "format": self.format,
            "legal": self.legal,
            "counts": {"main": self.counts["main"], "sideboard": self.counts["sideboard"]},
            "rule_card": self.rule_card,
            "follower": self.follower,
            "hero": self.hero,
            "errors": [one(v) for v in self.errors],
            "warnings": [one(v) for v in self.warnings],
        }
        if include_status:
            data["status"] = str(self.status)
            data["unknown_cards"] = list(self.unknown_cards)
        return data


def verdict(violations: Iterable[Violation]) -> Verdict:
    """``ILLEGAL`` if any violation is an error, else ``UNVERIFIED`` if any says a rule could
    not be checked (``codes.makes_unverified``), else ``LEGAL``. docs/rules.md §17."""
    found = [v.code for v in violations]
    if any(not codes.is_warning(code) for code in found):
        return Verdict.ILLEGAL
    if any(codes.makes_unverified(code) for code in found):
        return Verdict.UNVERIFIED
    return Verdict.LEGAL


#: Fuzzy suggestions are computed for at most this many unknown names per list (a pasted
#: wall of garbage must not cost seconds of CPU); later unknown names get ``[]``.
MAX_SUGGESTED_NAMES = 50


def _sort_key(v: Violation) -> tuple[int, int, str, str]:
    return (0 if v.line is None else 1, v.line or 0, v.code, v.card or "")


def _list_order(v: Violation) -> tuple[bool, int]:
    """Sort key putting violations in list order (structured input, without lines, keeps its
    order: the sort is stable)."""
    return (v.line is None, v.line or 0)


def _not_found(entry: DeckLine, *, game: str, index: CardIndex, suggest: bool) -> Violation:
    """The violation for a name ``index`` lacks: ``card_not_in_catalogue`` (partial
    catalogue, not an error), else ``card_not_in_game`` or ``unknown_card``."""
    others = index.other_games(entry.name, game)
    suggestions = index.suggest(entry.name, game) if suggest else []
    if index.coverage(game) is Coverage.PARTIAL:
        params: dict[str, object] = {"suggestions": suggestions}
        if others:
            params["found_in"] = list(others)
        return Violation(codes.CARD_NOT_IN_CATALOGUE, params, entry.name, entry.line)
    if others:
        return Violation(
            codes.CARD_NOT_IN_GAME, {"game": game, "found_in": list(others)}, entry.name, entry.line
        )
    return Violation(codes.UNKNOWN_CARD, {"suggestions": suggestions}, entry.name, entry.line)


def _hero_of(found: Mapping[str, list[tuple[DeckLine, tuple[Card, ...]]]]) -> Card | None:
    """The single hero the list declares (hero section first, else a Hero card in the main
    deck) among names that resolved to one printing, or ``None``."""
    for section in ("hero", "main"):
        heroes = [
            cards[0]
            for _entry, cards in found.get(section, [])
            if len(cards) == 1 and cards[0].kind is CardKind.HERO and not is_unresolved(cards[0])
        ]
        if len(heroes) == 1:
            return heroes[0]
        if heroes:
            return None
    return None


def resolve(
    parsed: ParsedDeck, *, game: str, index: CardIndex
) -> tuple[dict[str, list[ResolvedLine]], list[Violation]]:
    """Look every parsed name up in ``index`` for ``game`` and settle which card it means.

    A name may be printed, an alias, typed with õ/û for ő/ű, or qualified
    (``"Death Coil (Death Knight)"``; see :meth:`CardIndex.candidates`). A name shared by
    several printings is settled by context (``identity.choose_printing``: the hero, then
    the deck's other cards); a card whose kind is unknown takes its section's kind
    (``identity.adopt_kind``). A name the catalogue lacks stays in its section, in list
    order, as a stand-in card (``deck.unresolved_card``) that counts with its quantity.

    Returns:
        The resolved sections and the violations: ``unknown_card`` ``{"suggestions"}`` /
        ``card_not_in_game`` ``{"game", "found_in"}`` against a complete catalogue,
        ``card_not_in_catalogue`` ``{"suggestions"[, "found_in"]}`` against a partial one;
        ``printing_chosen`` and ``card_facts_unknown`` notes. Suggestions are computed for the
        first :data:`MAX_SUGGESTED_NAMES` unknown names only. docs/rules.md §1, §9, §17.
    """
    problems: list[Violation] = []
    budget = MAX_SUGGESTED_NAMES
    found: dict[str, list[tuple[DeckLine, tuple[Card, ...]]]] = {}
    for section, lines in parsed.sections.items():
        for entry in lines:
            cards = index.candidates(entry.name, game)
            if not cards:
                problems.append(_not_found(entry, game=game, index=index, suggest=budget > 0))
                budget -= 1
                stand_in = unresolved_card(
                    entry.name, game=game, section=section, normalized=entry.normalized
                )
                cards = (stand_in,)
            found.setdefault(section, []).append((entry, cards))
    hero = _hero_of(found)
    settled = [
        cards[0]
        for pairs in found.values()
        for _e, cards in pairs
        if len(cards) == 1 and not is_unresolved(cards[0])
    ]
    sections: dict[str, list[ResolvedLine]] = {name: [] for name in section_codes()}
    for section, pairs in found.items():
        target = sections.setdefault(section, [])
        for entry, cards in pairs:
            card = cards[0]
            if len(cards) > 1:
                card, note = choose_printing(cards, hero=hero, deck=settled)
                if note is not None:
                    problems.append(Violation(note.code, note.params, note.card, entry.line))
            card, kind_note = adopt_kind(card, section)
            if kind_note is not None:
                problems.append(
                    Violation(kind_note.code, kind_note.params, kind_note.card, entry.line)
                )
            target.append(ResolvedLine(card, entry.count, entry.line))
    return sections, problems


def _first_name(lines: tuple[ResolvedLine, ...]) -> str | None:
    return lines[0].card.name if lines else None


def validate_parsed(parsed: ParsedDeck, *, spec: FormatSpec, index: CardIndex) -> ValidationResult:
    """Resolve and check an already parsed deck; see :func:`validate_text`.

    Raises:
        decks.domain.formats.UnknownRuleSet: ``spec.rule_set`` is not registered.
    """
    rule_set = get_rule_set(spec.rule_set)
    sections, violations = resolve(parsed, game=spec.game, index=index)
    outcome = rule_set.check(sections, spec)
    everything = [*parsed.errors, *violations, *outcome.violations]
    errors = tuple(sorted((v for v in everything if not codes.is_warning(v.code)), key=_sort_key))
    warnings = tuple(sorted((v for v in everything if codes.is_warning(v.code)), key=_sort_key))
    lacking = [v for v in violations if v.code == codes.CARD_NOT_IN_CATALOGUE]
    unknown = tuple(v.card or "" for v in sorted(lacking, key=_list_order))
    lines = {name: outcome.sections.get(name, ()) for name in section_codes()}
    for name, extra in outcome.sections.items():
        lines.setdefault(name, extra)
    return ValidationResult(
        format=spec.slug,
        legal=not errors,
        counts={
            "main": rule_set.deck_count(lines["main"]),
            "sideboard": rule_set.deck_count(lines["sideboard"]),
        },
        rule_card=_first_name(lines["rule_card"]),
        follower=_first_name(lines["follower"]),
        hero=_first_name(lines["hero"]),
        errors=errors,
        warnings=warnings,
        lines=lines,
        status=verdict(everything),
        unknown_cards=unknown,
    )


def validate_text(text: str, *, spec: FormatSpec, index: CardIndex) -> ValidationResult:
    """Validate a deck list typed by a player (format: see ``decks.domain.parser``).

    Args:
        text: any string; bad lines become ``parse_error`` violations, never exceptions.
        spec: the format's parameters; ``spec.game`` selects the catalogue part and
            ``spec.rule_set`` the rules.
        index: the card index, built once per catalogue and reused.

    Returns:
        A :class:`ValidationResult` with every violation found (not only the first).

    Raises:
        decks.domain.formats.UnknownRuleSet: ``spec.rule_set`` is not registered.
    """
    return validate_parsed(parse_text(text), spec=spec, index=index)


def validate_structured(data: object, *, spec: FormatSpec, index: CardIndex) -> ValidationResult:
    """Validate JSON-like input (shape: ``decks.domain.parser.parse_structured``); otherwise as
    :func:`validate_text`."""
    return validate_parsed(parse_structured(data), spec=spec, index=index)
