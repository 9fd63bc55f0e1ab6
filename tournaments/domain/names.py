"""Person names compared the way a registration desk does: "Kovács  Péter" and "kovacs peter"
are the same person for a duplicate warning. Pure and stdlib only."""

from __future__ import annotations

import unicodedata


def normalise_name(name: str) -> str:
    """Casefolded, accents removed (NFKD without combining marks), inner whitespace collapsed.

    >>> normalise_name("  Kovács   PÉTER ")
    'kovacs peter'
    """
    decomposed = unicodedata.normalize("NFKD", name)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(plain.casefold().split())


def duplicates(names: list[str]) -> dict[str, list[int]]:
    """Positions of names that occur more than once after :func:`normalise_name`:
    ``{normalised: [index, …]}`` (only groups of two or more; empty names ignored)."""
    seen: dict[str, list[int]] = {}
    for i, name in enumerate(names):
        key = normalise_name(name)
        if key:
            seen.setdefault(key, []).append(i)
    return {k: v for k, v in seen.items() if len(v) > 1}
