"""Resolved deck lines: a parsed line whose name was found in the card catalogue.

Pure Python (no Django). Rule sets receive ``Mapping[str, Sequence[ResolvedLine]]`` keyed by
section name (``main``, ``sideboard``, ``rule_card``, ``follower``, ``hero``, ``leader``,
``inquisitor``, ``emissary``; see ``decks.domain.parser.SECTIONS``).
"""

from __future__ import annotations

from dataclasses import dataclass

from decks.domain.types import Card


@dataclass(frozen=True, slots=True)
class ResolvedLine:
    """One deck-list line resolved to a catalogue card.

    Attributes:
        card: the catalogue card (its ``name`` is the printed name).
        count: number of copies, ``>= 1``.
        line: 1-based line number in the submitted text; ``None`` for structured input.
    """

    card: Card
    count: int
    line: int | None
