"""Card-name normalisation used by the parser, the card index and ban lists.

Pure Python. Two spellings that a player would call "the same name" map to the same key:
Unicode NFC, case folded, every whitespace run (including non-breaking spaces and tabs)
collapsed to one space, surrounding spaces stripped, and typographic apostrophes
(’ ‘ ´ `) turned into ``'`` (the HKK FAQ writes "Thu’zad", card data writes "Thu'zad").
Source: docs/rules.md §1 (HKK card identity, colours and editions).
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


#: Latin-1 letters typed for the Hungarian double-acute letters (the same byte in Latin-1 and
#: Latin-2: 0xF5 õ/ő, 0xFB û/ű, 0xD5 Õ/Ő, 0xDB Û/Ű), e.g. "Õsi rúna" for "Ősi rúna".
_LATIN1_LOOKALIKES = str.maketrans({"õ": "ő", "û": "ű", "Õ": "Ő", "Û": "Ű"})


def hungarian_lookalikes(s: str) -> str:
    """Replace the Latin-1 look-alikes õ/û/Õ/Û with the Hungarian ő/ű/Ő/Ű.

    Args:
        s: a card name or a key from :func:`normalize_name` (any case).

    Returns:
        ``s`` with every õ → ő, û → ű, Õ → Ő, Û → Ű; other characters unchanged. The card
        index applies this only when the exact spelling is unknown and the catalogue has the
        ő/ű form (docs/rules.md §1 (HKK card identity, colours and editions)).
    """
    return s.translate(_LATIN1_LOOKALIKES)
