"""Deck validation: the one entry point the web page, the API, the CLI and tournaments use.

:func:`deck_validate` is read-only (no database writes, so no transaction): it resolves the
format's parameters for the validation date (:func:`decks.selectors.formats.format_spec`), takes
the cached in-memory card index (:func:`decks.selectors.cards.get_card_index`) and runs the pure
domain (``decks.domain.validate``). :func:`validation_result_dict` turns the result into the JSON
shape shared by the API and ``manage.py validate_deck --json``, with messages translated into
the active language (``decks.messages``). Deck rules: docs/rules.md §3 (HKK deck construction
(Hagyományos)), §9 (WoW TCG constructed decks) and §12 (Blue Moon decks).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from django.utils.translation import gettext_lazy as _

from decks.domain.parser import DeckTooLongError
from decks.domain.sections import section_codes
from decks.domain.types import Verdict
from decks.domain.validate import ValidationResult, validate_structured, validate_text
from decks.errors import DeckInputError
from decks.messages import message_for
from decks.selectors.cards import get_card_index
from decks.selectors.formats import format_spec

__all__ = ["UPLOAD_ENCODINGS", "decode_upload", "deck_validate", "validation_result_dict"]

#: Encodings tried, in order, for an uploaded list (Hungarian Windows editors save cp1250).
UPLOAD_ENCODINGS = ("utf-8-sig", "cp1250")


def _is_empty_structured(data: Mapping[str, Any]) -> bool:
    for key in section_codes():
        value = data.get(key)
        if isinstance(value, str):
            if value.strip():
                return False
        elif value:
            return False
    # Unknown keys still reach the parser (it reports them), so they count as content.
    return not any(key not in section_codes() and key != "format" for key in data)


def deck_validate(
    *,
    format_slug: str,
    text: str | None = None,
    data: Mapping[str, Any] | None = None,
    on: date | None = None,
) -> ValidationResult:
    """Validate one deck list against a format, as of a date.

    Args:
        format_slug: ``decks.models.Format.slug``, e.g. ``"hkk-hagyomanyos"``.
        text: the list as typed or uploaded (see ``decks.domain.parser.parse_text``), or
        data: structured input ``{"main": [...], "sideboard": [...], "rule_card": ...,
            "follower": ..., "hero": ..., "leader": ..., "inquisitor": ..., "emissary": ...}``
            (see ``decks.domain.parser.parse_structured``). Exactly one of ``text``/``data``.
        on: the validation date for ban lists and format versions; ``None`` = today.

    Returns:
        The domain's ``ValidationResult`` (legal flag, counts, errors and warnings as codes).

    Raises:
        decks.errors.DeckInputError: neither or both of ``text``/``data`` given, the list
            is empty, or it is over the parser's line or length limit
            (``decks.domain.parser.DeckTooLongError``: params ``{"reason", "found", "limit"}``);
            code ``invalid_deck_input``. Such input gets no verdict and no count.
        decks.errors.UnknownFormat: no (active) format with this slug (code
            ``unknown_format``).

    Read-only and cheap: one or two queries for the format (ban lists included) and the
    process-wide cached card index; no writes, so no transaction.
    """
    if (text is None) == (data is None):
        raise DeckInputError(_("Give the deck list either as text or as structured data."))
    if text is not None:
        if not text.strip():
            raise DeckInputError(_("The deck list is empty."))
    else:
        if not isinstance(data, Mapping):
            raise DeckInputError(_("The structured deck list must be an object."))
        if _is_empty_structured(data):
            raise DeckInputError(_("The deck list is empty."))
    spec = format_spec(format_slug, on=on)
    index = get_card_index()
    try:
        if text is not None:
            return validate_text(text, spec=spec, index=index)
        cards = {key: value for key, value in (data or {}).items() if key != "format"}
        return validate_structured(cards, spec=spec, index=index)
    except DeckTooLongError as exc:
        raise _too_long(exc) from None


def _too_long(exc: DeckTooLongError) -> DeckInputError:
    """The unusable-input error for a list over the parser's limits (no verdict, no count)."""
    params = {"reason": exc.reason, "found": exc.found, "limit": exc.limit}
    if exc.reason == "text_too_long":
        message = _(
            "The list is %(found)s characters long; a deck list may have at most %(limit)s."
        )
    else:
        message = _("The list has %(found)s lines; a deck list may have at most %(limit)s.")
    return DeckInputError(message % {"found": exc.found, "limit": exc.limit}, params)


def validation_result_dict(result: ValidationResult) -> dict[str, Any]:
    """The JSON shape of a result, messages in the active language.

    Shape: ``{"format": slug, "status": "legal"|"illegal"|"unverified", "legal": bool,
    "unknown_cards": [names], "counts": {"main": int, "sideboard": int},
    "rule_card": name|None, "follower": name|None, "hero": name|None,
    "errors": [{"code", "message", "card", "line", "params"}], "warnings": [...]}``.

    ``legal`` is true only when ``status`` is ``legal``: an ``unverified`` list (a card the
    partial catalogue lacks, unknown colours, editions or moon costs …) is not known to be
    legal. docs/rules.md §17 (Card data sources and coverage).
    """
    data = result.to_dict(message_for, include_status=True)
    data["legal"] = data["status"] == Verdict.LEGAL
    return data


def decode_upload(raw: bytes) -> str | None:
    """Decode an uploaded or read deck-list file (bytes) into text.

    Tries :data:`UPLOAD_ENCODINGS` in order; ``None`` if the bytes contain NUL or are not text in
    a supported encoding.
    """
    if b"\x00" in raw:
        return None
    for encoding in UPLOAD_ENCODINGS:
        try:
            return raw.decode(encoding)
        except UnicodeDecodeError:
            continue
    return None
