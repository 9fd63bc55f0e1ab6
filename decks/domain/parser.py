"""Deck-list parser: plain text or structured (JSON-like) input into named sections.

Pure Python. Accepted text (one card per line, case-insensitive headers, Hungarian or
English, colon required)::

    Pakli:                    # or Deck: / Main: / Main deck:
    3 Gigaököl
    3x Tisztítótűz            # also "3X", "3×"
    2 x Ellenvarázslat
    Gigaököl x3               # also "Gigaököl ×3", "Gigaököl x 3"
    x3 Tisztítótűz            # also "×3 Tisztítótűz"
    Mágiatörés                # one copy
    Kiegészítő pakli:         # or Sideboard: / Side deck: / Side:
    ...
    Szabálylap: Ősi rúna      # or Rule card:  (card may sit on the header line)
    Követő: Arochos (2020)    # or Follower:
    Hős: Saeryn Dusksorrow    # or Hero:
    Vezér: / Leader:  Inkvizítor: / Inquisitor:  Követ: / Emissary:   (Blue Moon)

Lines before any header belong to the main deck. A single-card header carrying its card
(``Hős: Saeryn Dusksorrow``) does not change the current list section: the next lines still
belong to the main deck or sideboard being listed. ``#`` starts a comment at the start of a
line or after whitespace (a ``#`` inside a name is kept). BOM, CRLF/CR, tabs and
non-breaking spaces are tolerated. Bad lines become ``parse_error`` violations (see
:mod:`decks.domain.codes`) and parsing continues; a count that is not a whole number
(``1e9 Name``, ``3.5 Name``, ``0x10 Name``) is such an error, never part of the name. A list
over :data:`MAX_LINES` lines (or :data:`MAX_TEXT_LENGTH` characters) is not a deck list at
all: :class:`DeckTooLongError` is raised. Sources: docs/rules.md §2 (HKK rule cards,
followers and guilds: the rule card is declared next to the deck list, HKK FAQ "Szabály:";
the follower, HKK Kódex ch. 44) and §9 (WoW TCG constructed decks: the hero is apart from the
deck, WoW TCG Comprehensive Rules v1.11 §100.1 and WoW TCG Death Knight starter rulebook (2009)
item 4).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field

from decks.domain import codes
from decks.domain.normalize import hungarian_lookalikes, normalize_name
from decks.domain.sections import DECK_SECTIONS, headers, list_sections, section_codes
from decks.domain.types import Violation

MAX_COUNT = 999
MAX_LINES = 5000
MAX_NAME_LENGTH = 200
MAX_TEXT_LENGTH = 1_000_000


@functools.cache
def _header_re(heads: tuple[str, ...]) -> re.Pattern[str]:
    """The heading pattern for ``heads`` (the registry's headings; longest first)."""
    return re.compile(
        r"^(?P<header>"
        + "|".join(re.escape(h) for h in sorted(heads, key=len, reverse=True))
        + r")\s*:\s*(?P<rest>.*)$"
    )


_COMMENT_RE = re.compile(r"(?:^|\s)#.*$")
_COUNT_NAME_RE = re.compile(r"^(?P<count>[-+\u2212]?\d+)\s*[xX×]?\s+(?P<name>\S.*)$")
_COUNT_ONLY_RE = re.compile(r"^(?P<count>[-+\u2212]?\d+)\s*[xX×]?$")
# "x3 Name" / "×3 Name" (the multiplication sign or letter x before the count).
# No sign after the x: "X-51 Nether-Rocket" is a card name (WoW TCG), not "x -51".
_TIMES_COUNT_NAME_RE = re.compile(r"^[xX×]\s*(?P<count>\d+)\s+(?P<name>\S.*)$")
# "Name x3" / "Name ×3" / "Name x 3" (the count after the name).
_NAME_TIMES_COUNT_RE = re.compile(r"^(?P<name>\S.*?)\s+[xX×]\s*(?P<count>[-+\u2212]?\d+)$")
# A count that is not a whole number ("1e9 Name", "3.5 Name", "3,5 Name", "0x10 Name", "1/2 Name",
# "½ Name", "Name x2.5"): a decimal, exponent, hexadecimal or fraction where the count goes.
# "7th Legion" stays a name.
_NOT_WHOLE = (
    r"[-+\u2212]?(?:\d+(?:[.,]\d+)?[eE][-+]?\d+|\d+[.,]\d*|[.,]\d+|0[xX][0-9a-fA-F]+"
    r"|\d+/\d+|\d*[\u00bc-\u00be\u2150-\u215e])"
)
_BAD_COUNT_BEFORE_RE = re.compile(r"^(?:[xX×]\s*)?" + _NOT_WHOLE + r"\s*[xX×]?(?:\s|$)")
_BAD_COUNT_AFTER_RE = re.compile(r"\s[xX×]\s*" + _NOT_WHOLE + r"$")
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b\ufeff\u2028\u2029]")
_SPACES_RE = re.compile(r"\s+")


class DeckTooLongError(ValueError):
    """The list is too long to be a deck list: no verdict and no count can be given for it.

    Attributes:
        reason: ``"too_many_lines"`` (over :data:`MAX_LINES` non-blank lines or structured
            items) or ``"text_too_long"`` (over :data:`MAX_TEXT_LENGTH` characters).
        found: the lines (items) or characters found.
        limit: the limit that was passed.
    """

    def __init__(self, reason: str, *, found: int, limit: int) -> None:
        super().__init__(f"{reason}: {found} > {limit}")
        self.reason = reason
        self.found = found
        self.limit = limit


@dataclass(frozen=True, slots=True)
class DeckLine:
    """One card line of a parsed list.

    Attributes:
        name: the name as written (whitespace tidied).
        normalized: ``normalize_name(name)``, the lookup key.
        count: copies, 1..999 (after merging repeated lines it may exceed 999).
        line: 1-based line number in the text, ``None`` for structured input.
    """

    name: str
    normalized: str
    count: int
    line: int | None


@dataclass(slots=True)
class ParsedDeck:
    """Output of :func:`parse_text` / :func:`parse_structured`.

    Attributes:
        sections: section code (``sections.DECK_SECTIONS``) -> lines in input order; repeated names
            in one section are merged (counts summed, first line number kept). Every section
            name is present, possibly with an empty list.
        errors: ``parse_error`` violations.
    """

    sections: dict[str, list[DeckLine]] = field(
        default_factory=lambda: {s: [] for s in section_codes()}
    )
    errors: list[Violation] = field(default_factory=list)
    _positions: dict[tuple[str, str], int] = field(default_factory=dict, repr=False)

    def add(self, section: str, entry: DeckLine) -> None:
        """Append ``entry`` to ``section``, merging it into an earlier line of the same name."""
        lines = self.sections[section]
        key = (section, entry.normalized)
        position = self._positions.get(key)
        if position is None:
            self._positions[key] = len(lines)
            lines.append(entry)
            return
        existing = lines[position]
        lines[position] = DeckLine(
            existing.name, existing.normalized, existing.count + entry.count, existing.line
        )


def _clean(raw: str) -> str:
    """Drop control characters and comments, collapse whitespace, NFC."""
    text = _CONTROL_RE.sub(" ", raw.replace("\t", " "))
    text = _COMMENT_RE.sub("", text)
    return _SPACES_RE.sub(" ", unicodedata.normalize("NFC", text)).strip()


def _parse_card(text: str, line: int | None) -> tuple[DeckLine | None, str | None]:
    """Read ``"4 Name"``, ``"4x Name"``, ``"4 x Name"``, ``"x4 Name"``, ``"Name x4"``,
    ``"Name ×4"`` or ``"Name"`` (one copy).

    Returns ``(DeckLine, None)`` or ``(None, reason)`` with a ``parse_error`` reason code;
    a count that is not a whole number (``"1e9 Name"``, ``"3.5 Name"``, ``"0x10 Name"``,
    ``"½ Name"``, ``"Name x2.5"``) is ``bad_count``, never part of the name.
    """
    count = 1
    name = text
    match = (
        _COUNT_NAME_RE.match(text)
        or _TIMES_COUNT_NAME_RE.match(text)
        or _NAME_TIMES_COUNT_RE.match(text)
    )
    if match is None:
        only = _COUNT_ONLY_RE.match(text)
        if only is not None:
            return None, "missing_name"
        if _BAD_COUNT_BEFORE_RE.match(text) or _BAD_COUNT_AFTER_RE.search(text):
            return None, "bad_count"
    else:
        digits = match.group("count")
        name = match.group("name").strip()
        negative = digits[0] in "-\u2212"
        digits = digits.lstrip("+-\u2212").lstrip("0") or "0"
        if negative and digits != "0":
            return None, "negative_count"
        if len(digits) > 4:
            return None, "count_too_large"
        count = int(digits)
        if count == 0:
            return None, "zero_count"
        if count > MAX_COUNT:
            return None, "count_too_large"
    if not name:
        return None, "missing_name"
    if len(name) > MAX_NAME_LENGTH:
        return None, "name_too_long"
    return DeckLine(name, normalize_name(name), count, line), None


def _error(reason: str, line: int | None, **extra: object) -> Violation:
    return Violation(codes.PARSE_ERROR, params={"reason": reason, **extra}, line=line)


def parse_text(text: str) -> ParsedDeck:
    """Parse a deck list typed or pasted by a player.

    Args:
        text: the whole list; any string (never raises on content).

    Returns:
        A :class:`ParsedDeck`. Lines before any header go to ``main``.

    Raises:
        DeckTooLongError: over :data:`MAX_TEXT_LENGTH` characters or over :data:`MAX_LINES`
            non-blank lines: unusable input, not a deck (no verdict, no count).
    """
    deck = ParsedDeck()
    if len(text) > MAX_TEXT_LENGTH:
        raise DeckTooLongError("text_too_long", found=len(text), limit=MAX_TEXT_LENGTH)
    raw_lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    non_blank = sum(1 for raw in raw_lines if raw.strip())
    if non_blank > MAX_LINES:
        raise DeckTooLongError("too_many_lines", found=non_blank, limit=MAX_LINES)
    list_section = section = "main"
    heads = headers()
    many = list_sections()
    for number, raw in enumerate(raw_lines, start=1):
        text_line = _clean(raw)
        if not text_line:
            continue
        target = section
        # Headers are Hungarian words: "Kiegészítõ pakli:" (õ typed for ő) is a header too.
        header = _header_re(tuple(heads)).match(hungarian_lookalikes(text_line.casefold()))
        if header is not None:
            target = heads[header.group("header")]
            # Headers contain no colon, so the first colon of the line ends the header.
            text_line = text_line.split(":", 1)[1].strip()
            if target in many:
                list_section = target
            # "Szabálylap: Ősi rúna" declares one card; the following lines go back to the
            # deck (or sideboard) being listed. A bare "Szabálylap:" opens the section.
            section = list_section if text_line and target not in many else target
            if not text_line:
                continue
        entry, reason = _parse_card(text_line, number)
        if entry is None:
            deck.errors.append(_error(reason or "bad_item", number))
        else:
            deck.add(target, entry)
    return deck


def parse_structured(data: object) -> ParsedDeck:
    """Build a :class:`ParsedDeck` from JSON-like input (API clients, the deck editor).

    Args:
        data: ``{"main": [...], "sideboard": [...], "rule_card": str|None,
            "follower": str|None, "hero": str|None, "leader": ..., "inquisitor": ...,
            "emissary": ...}``. List items are ``"Name"``, ``"4 Name"`` or
            ``{"name": str, "count": int}`` (count defaults to 1). Every key is optional.

    Returns:
        A :class:`ParsedDeck` whose lines have ``line=None``. Bad shapes give ``parse_error``
        with ``params`` ``{"reason", "section", "index"}`` (reasons ``not_an_object``,
        ``unknown_section``, ``bad_section``, ``bad_item``, ``bad_count`` and the text
        reasons); the rest is still read.

    Raises:
        DeckTooLongError: over :data:`MAX_LINES` list items in all (``too_many_lines``).
    """
    deck = ParsedDeck()
    if not isinstance(data, Mapping):
        deck.errors.append(_error("not_an_object", None))
        return deck
    total = sum(len(v) for v in data.values() if isinstance(v, list | tuple))
    if total > MAX_LINES:
        raise DeckTooLongError("too_many_lines", found=total, limit=MAX_LINES)
    many = list_sections()
    for key, value in data.items():
        if key not in DECK_SECTIONS:
            deck.errors.append(_error("unknown_section", None, section=str(key)[:50], index=None))
            continue
        if key in many:
            if value is None:
                continue
            if not isinstance(value, list | tuple):
                deck.errors.append(_error("bad_section", None, section=key, index=None))
                continue
            for index, item in enumerate(value):
                _add_structured_item(deck, key, index, item)
        else:
            if value is None or value == "":
                continue
            if isinstance(value, list | tuple):
                for index, item in enumerate(value):
                    _add_structured_item(deck, key, index, item)
            else:
                _add_structured_item(deck, key, None, value)
    return deck


def _add_structured_item(deck: ParsedDeck, section: str, index: int | None, item: object) -> None:
    where = {"section": section, "index": index}
    if isinstance(item, str):
        entry, reason = _parse_card(_clean(item), None)
    elif isinstance(item, Mapping):
        name = item.get("name")
        count = item.get("count", 1)
        if not isinstance(name, str) or not _clean(name):
            deck.errors.append(_error("missing_name", None, **where))
            return
        if isinstance(count, bool) or not isinstance(count, int):
            deck.errors.append(_error("bad_count", None, **where))
            return
        entry, reason = _parse_card(_clean(name), None)
        if entry is not None:
            if count <= 0:
                entry, reason = None, "zero_count" if count == 0 else "negative_count"
            elif count > MAX_COUNT:
                entry, reason = None, "count_too_large"
            else:
                entry = DeckLine(entry.name, entry.normalized, count, None)
    else:
        deck.errors.append(_error("bad_item", None, **where))
        return
    if entry is None:
        deck.errors.append(_error(reason or "bad_item", None, **where))
    else:
        deck.add(section, entry)
