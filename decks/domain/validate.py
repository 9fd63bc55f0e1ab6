"""Deck validation entry point: parse, resolve names, run the format's rule set, report.

Pure Python; the Django layer injects the catalogue (:class:`CardIndex`, built once and reused)
and the message translator (:meth:`ValidationResult.to_dict`). Sources for each rule are in
``rules_hkk``, ``rules_wow`` and ``rules_common``; codes and params in ``codes``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from decks.domain import codes
from decks.domain.deck import ResolvedLine
from decks.domain.formats import get_rule_set
from decks.domain.index import CardIndex
from decks.domain.parser import SECTIONS, ParsedDeck, parse_structured, parse_text
from decks.domain.types import FormatSpec, Violation


@dataclass(frozen=True, slots=True)
class ValidationResult:
    """Outcome of validating one deck list against one format.

    Attributes:
        format: the format slug (``spec.slug``).
        legal: True when there is no error (warnings allowed).
        counts: ``{"main": int, "sideboard": int}``, cards counting toward deck size.
        rule_card / follower / hero: printed name of the (first) declared card, or None.
        errors / warnings: violations sorted by line (deck-level first), then code.
        lines: resolved sections (every name of ``parser.SECTIONS``), for showing each
            error beside its line; unknown names are not in here (see ``errors``).
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

    def to_dict(self, message_for: Callable[[Violation], str]) -> dict[str, object]:
        """JSON-ready dict: ``{"format", "legal", "counts": {"main", "sideboard"},
        "rule_card", "follower", "hero", "errors": [{"code", "message", "card", "line",
        "params"}], "warnings": [same]}``; ``message_for`` renders (translates) a violation."""

        def one(v: Violation) -> dict[str, object]:
            return {
                "code": v.code,
                "message": message_for(v),
                "card": v.card,
                "line": v.line,
                "params": dict(v.params),
            }

        return {
            "format": self.format,
            "legal": self.legal,
            "counts": {"main": self.counts["main"], "sideboard": self.counts["sideboard"]},
            "rule_card": self.rule_card,
            "follower": self.follower,
            "hero": self.hero,
            "errors": [one(v) for v in self.errors],
            "warnings": [one(v) for v in self.warnings],
        }


#: Fuzzy suggestions are computed for at most this many unknown names per list (a pasted
#: wall of garbage must not cost seconds of CPU); later unknown names get ``[]``.
MAX_SUGGESTED_NAMES = 50


def _sort_key(v: Violation) -> tuple[int, int, str, str]:
    return (0 if v.line is None else 1, v.line or 0, v.code, v.card or "")


def resolve(
    parsed: ParsedDeck, *, game: str, index: CardIndex
) -> tuple[dict[str, list[ResolvedLine]], list[Violation]]:
    """Look every parsed name up in ``index`` for ``game``.

    Returns the resolved sections and ``unknown_card`` (``{"suggestions": [names]}``) /
    ``card_not_in_game`` (``{"game", "found_in": [games]}``) violations. Suggestions are
    computed only for names that are not found, for the first :data:`MAX_SUGGESTED_NAMES`.
    """
    sections: dict[str, list[ResolvedLine]] = {name: [] for name in SECTIONS}
    found: list[Violation] = []
    budget = MAX_SUGGESTED_NAMES
    for section, lines in parsed.sections.items():
        target = sections.setdefault(section, [])
        for entry in lines:
            card = index.lookup_key(entry.normalized, game)
            if card is not None:
                target.append(ResolvedLine(card, entry.count, entry.line))
                continue
            others = index.other_games(entry.name, game)
            if others:
                found.append(
                    Violation(
                        codes.CARD_NOT_IN_GAME,
                        {"game": game, "found_in": list(others)},
                        entry.name,
                        entry.line,
                    )
                )
            else:
                suggestions = index.suggest(entry.name, game) if budget > 0 else []
                budget -= 1
                found.append(
                    Violation(
                        codes.UNKNOWN_CARD,
                        {"suggestions": suggestions},
                        entry.name,
                        entry.line,
                    )
                )
    return sections, found


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
    lines = {name: outcome.sections.get(name, ()) for name in SECTIONS}
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
