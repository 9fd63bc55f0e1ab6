"""Card-name normalisation used by the parser, the card index and ban lists.

Pure Python. Two spellings that a player would call "the same name" map to the same key:
Unicode NFC, case folded, every whitespace run (including non-breaking spaces and tabs)
collapsed to one space, surrounding spaces stripped, and typographic apostrophes
(’ ‘ ´ `) turned into ``'`` (seed S000 writes "Thu’zad", card data writes "Thu'zad").
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_WHITESPACE = re.compile(r"\s+")
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u00b4": "'", "`": "'"})


@lru_cache(maxsize=65536)
def normalize_name(s: str) -> str:
    """Return the comparison key of a card name.

    Args:
        s: a card name as typed or printed.

    Returns:
        The key: NFC, apostrophes unified, case folded, whitespace collapsed, stripped.
        ``normalize_name("  Thu’zad  MEGSZÉGYENÍTÉSE ")`` == ``"thu'zad megszégyenítése"``.
    """
    text = unicodedata.normalize("NFC", s).translate(_APOSTROPHES).casefold()
    # casefold can decompose (e.g. "ß" stays, but some letters expand); re-compose.
    text = unicodedata.normalize("NFC", text)
    return _WHITESPACE.sub(" ", text).strip()
