"""Resolved deck lines: a parsed line whose name was found in the card catalogue, or a
stand-in for a name the catalogue lacks.

Pure Python (no Django). Rule sets receive ``Mapping[str, Sequence[ResolvedLine]]`` keyed by
section name (``main``, ``sideboard``, ``rule_card``, ``follower``, ``hero``, ``leader``,
``inquisitor``, ``emissary``; see ``decks.domain.parser.SECTIONS``).

A name the catalogue lacks still stands for cards the player put on the table: it becomes a
line whose card is :func:`unresolved_card` (its name as written, the kind of the section it is
declared in, no other facts), so it counts toward deck and sideboard size with its quantity and
never makes a deck too small. Rules that need a fact such a card lacks skip it; the look-up
already reported it (``card_not_in_catalogue`` makes the verdict ``unverified``; against a
complete catalogue ``unknown_card`` is an error). Source: docs/rules.md §17 (Card data sources
and coverage).
"""

from __future__ import annotations

from dataclasses import dataclass

from decks.domain.normalize import normalize_name
from decks.domain.types import Card, CardKind

#: ``Card.attributes`` key set on the stand-in for a name the catalogue lacks.
NOT_IN_CATALOGUE = "not_in_catalogue"

#: The kind a stand-in takes in each section (the kind a card declared there must have).
SECTION_KIND: dict[str, CardKind] = {
    "main": CardKind.CARD,
    "sideboard": CardKind.CARD,
    "rule_card": CardKind.RULE_CARD,
    "follower": CardKind.FOLLOWER,
    "hero": CardKind.HERO,
    "leader": CardKind.LEADER,
    "inquisitor": CardKind.INQUISITOR,
    "emissary": CardKind.EMISSARY,
}


@dataclass(frozen=True, slots=True)
class ResolvedLine:
    """One deck-list line resolved to a catalogue card (or to a stand-in, see
    :func:`unresolved_card`).

    Attributes:
        card: the catalogue card (its ``name`` is the printed name).
        count: number of copies, ``>= 1``.
        line: 1-based line number in the submitted text; ``None`` for structured input.
    """

    card: Card
    count: int
    line: int | None


def unresolved_card(name: str, *, game: str, section: str, normalized: str | None = None) -> Card:
    """The stand-in for ``name``, which the catalogue of ``game`` lacks, declared in ``section``
    (``normalized``: ``normalize_name(name)`` when the caller has it already).

    Its ``id`` is ``"?"`` followed by the normalised name (distinct per name, never a real id),
    its kind that of the section (:data:`SECTION_KIND`, ``card`` for an unknown section), its
    colours, editions and other facts empty, and ``attributes[NOT_IN_CATALOGUE]`` is true.
    """
    return Card(
        id="?" + (normalized if normalized is not None else normalize_name(name)),
        game=game,
        name=name,
        kind=SECTION_KIND.get(section, CardKind.CARD),
        attributes={NOT_IN_CATALOGUE: True},
    )


def is_unresolved(card: Card) -> bool:
    """True for the stand-in of a name the catalogue lacks (:func:`unresolved_card`)."""
    return card.attributes.get(NOT_IN_CATALOGUE) is True
