"""Deck sections, one registry entry each (``DECK_SECTIONS``): everything about a part of a deck
list — its code, what users call it, the headings a typed list may use for it, and whether it
holds a list of cards or declares one card. The parser, the structured input of the API, the
messages and the result pages read the entries; a rule set names the sections it uses
(``RuleSet.sections``), and the ``decks`` system check reports a rule set naming a section
with no entry.

Sources: docs/rules.md §2 (HKK rule cards, followers and guilds: ``Szabálylap:``,
``Követő:``), §3 (HKK deck construction: ``Pakli:``, ``Kiegészítő pakli:``), §9 (WoW TCG
constructed decks: the hero, main deck and sideboard), §12 (Blue Moon decks: leader,
inquisitor, emissary).

Pure Python (stdlib only).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "DECK_SECTIONS",
    "DeckSection",
    "gettext_noop",
    "headers",
    "list_sections",
    "register_section",
    "section_codes",
]


def gettext_noop(message: str) -> str:
    """Mark ``message`` for translation without translating it (the Django layer does)."""
    return message


@dataclass(frozen=True, slots=True)
class DeckSection:
    """One part of a deck list.

    Attributes:
        code: stable key (the structured input's key, ``Violation.params["section"]``).
        label: what users call it in a sentence ("rule card"; English msgid).
        title: its heading on pages ("Rule card"; English msgid).
        headers: the headings a typed list may use, lower case, Hungarian and English
            (``"szabálylap"``, ``"rule card"``); a line ``<heading>: …`` starts the section.
        many: ``True`` for a list of cards with counts (main deck, sideboard); ``False`` for a
            section that declares one card (rule card, hero …: at most one card, one copy).
    """

    code: str
    label: str
    title: str
    headers: tuple[str, ...]
    many: bool = False


def _section(code: str, label: str, title: str, *headers: str, many: bool = False) -> DeckSection:
    return DeckSection(code, label, title, headers, many)


#: Every deck section, in display order.
DECK_SECTIONS: dict[str, DeckSection] = {
    s.code: s
    for s in (
        _section(
            "main",
            gettext_noop("deck"),
            gettext_noop("Deck"),
            "pakli",
            "deck",
            "main",
            "main deck",
            many=True,
        ),
        _section(
            "sideboard",
            gettext_noop("sideboard"),
            gettext_noop("Sideboard"),
            "kiegészítő pakli",
            "kiegészítő",
            "sideboard",
            "side deck",
            "side",
            many=True,
        ),
        _section(
            "rule_card",
            gettext_noop("rule card"),
            gettext_noop("Rule card"),
            "szabálylap",
            "rule card",
        ),
        _section(
            "follower", gettext_noop("follower"), gettext_noop("Follower"), "követő", "follower"
        ),
        _section("hero", gettext_noop("hero"), gettext_noop("Hero"), "hős", "hero"),
        _section("leader", gettext_noop("leader"), gettext_noop("Leader"), "vezér", "leader"),
        _section(
            "inquisitor",
            gettext_noop("inquisitor"),
            gettext_noop("Inquisitor"),
            "inkvizítor",
            "inquisitor",
        ),
        _section(
            "emissary", gettext_noop("emissary"), gettext_noop("Emissary"), "követ", "emissary"
        ),
    )
}


def section_codes() -> tuple[str, ...]:
    """The codes of every registered section, in display order."""
    return tuple(DECK_SECTIONS)


def list_sections() -> frozenset[str]:
    """The codes of the sections that hold a list of cards (``many``)."""
    return frozenset(code for code, s in DECK_SECTIONS.items() if s.many)


def headers() -> dict[str, str]:
    """Every accepted heading (lower case) → its section's code."""
    return {header: s.code for s in DECK_SECTIONS.values() for header in s.headers}


def register_section(section: DeckSection) -> DeckSection:
    """Add ``section`` to ``DECK_SECTIONS`` (the one step of adding a deck section).

    Raises:
        ValueError: the code is already registered, or a heading is another section's.
    """
    if section.code in DECK_SECTIONS:
        raise ValueError(f"deck section {section.code!r} is already registered")
    taken = sorted(set(section.headers) & set(headers()))
    if taken:
        raise ValueError(f"deck section {section.code!r} reuses the headings {taken}")
    DECK_SECTIONS[section.code] = section
    return section
