"""The API's JSON parser: DRF's, plus strict decoding and a nesting-depth limit.

Registered first in ``REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"]`` (before DRF's form and
multipart parsers). Every hostile body becomes a DRF ``ParseError``, which the project's
exception handler answers 400 in the one error shape (``hkk_tournament.web.exceptions``):

- bytes that are not valid in the declared charset (UTF-8 unless the ``Content-Type`` names
  another text encoding), or a ``\\uD800``-style escape of a lone surrogate (not a character)
  → ``invalid_encoding``;
- nesting deeper than ``settings.HKK_JSON_MAX_DEPTH`` arrays/objects (default 32; a scalar at
  the top is depth 0, ``[]`` depth 1, ``{"a": [1]}`` depth 2) → ``json_too_deep``, with
  ``params`` unchanged (``{}``) and the limit in the message; nesting deep enough to exhaust
  Python's recursion limit ends the same way instead of in a 500;
- a charset that is unknown or not a text encoding (``bz2_codec``) → ``unsupported_charset``;
- anything else that is not JSON, including ``NaN``/``Infinity`` and integers longer than
  Python's 4300-digit limit → ``parse_error`` (DRF's "JSON parse error - …").

Over-long bodies are rejected before parsing (413, ``hkk_tournament.web.middleware``); wrong
content types answer 415 (no parser matches).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser
from rest_framework.utils import json


def nesting_depth_exceeds(value: Any, limit: int) -> bool:
    """True when ``value`` (parsed JSON) nests arrays/objects more than ``limit`` levels deep."""
    return json_problem(value, limit) == "json_too_deep"


def json_problem(value: Any, max_depth: int) -> str | None:
    """The first problem of parsed JSON ``value``, or ``None``.

    ``"json_too_deep"``: arrays/objects nested more than ``max_depth`` levels;
    ``"invalid_encoding"``: a string or key holding a lone UTF-16 surrogate (``"\\ud800"`` is
    valid JSON syntax but no character: it cannot be stored in PostgreSQL nor written back as
    UTF-8). Iterative, so any depth Python's parser produced is walked without recursion.
    """
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if not _encodable(item):
                return "invalid_encoding"
            continue
        if isinstance(item, Mapping):
            children: list[Any] = [*item.keys(), *item.values()]
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth + 1 > max_depth:
            return "json_too_deep"
        stack.extend((child, depth + 1) for child in children)
    return None


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _encoding(parser_context: Mapping[str, Any]) -> str:
    """The body's charset (``Content-Type``'s, else ``DEFAULT_CHARSET``); only text encodings
    (a bytes-to-bytes codec such as ``bz2_codec`` would decompress an unchecked amount)."""
    encoding = str(parser_context.get("encoding") or settings.DEFAULT_CHARSET)
    try:
        "".encode(encoding)  # unlike codecs.lookup(), str.encode() refuses non-text codecs
    except (LookupError, UnicodeError):
        raise ParseError(
            _("Unsupported charset %(encoding)s in the Content-Type header.")
            % {"encoding": encoding},
            code="unsupported_charset",
        ) from None
    return encoding


class SafeJSONParser(JSONParser):
    """``application/json`` with strict decoding and ``HKK_JSON_MAX_DEPTH`` (module docstring)."""

    def parse(
        self,
        stream: IO[Any] | None,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        encoding = _encoding(parser_context or {})
        raw = stream.read() if stream is not None else b""
        try:
            text = raw.decode(encoding) if isinstance(raw, bytes) else raw
        except UnicodeDecodeError:
            raise ParseError(
                _("The request body is not valid %(encoding)s text.") % {"encoding": encoding},
                code="invalid_encoding",
            ) from None
        limit = settings.HKK_JSON_MAX_DEPTH
        too_deep = ParseError(
            _("The JSON body is nested too deeply: at most %(limit)d levels are accepted.")
            % {"limit": limit},
            code="json_too_deep",
        )
        parse_constant = json.strict_constant if self.strict else None
        try:
            data = json.loads(text, parse_constant=parse_constant)
        except RecursionError:
            raise too_deep from None
        except ValueError as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
        problem = json_problem(data, limit)
        if problem == "json_too_deep":
            raise too_deep
        if problem is not None:
            raise ParseError(
                _("The JSON body contains a string that is not valid Unicode text."),
                code="invalid_encoding",
            )
        return data
