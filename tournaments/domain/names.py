"""Person names compared the way a registration desk does: "Kovács  Péter" and "kovacs peter"
are the same person for a duplicate warning. Pure and stdlib only."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache


@lru_cache(maxsize=65536)
def normalise_name(name: str) -> str:
    """Casefolded, accents removed (NFKD without combining marks), inner whitespace collapsed.
    The last 65,536 names are remembered (a big event's names are normalised again for every
    version of its standings and search parts: at 4,096 entries the family and given names,
    and the shown names in both languages' orders, are about 16,000 strings, which a smaller
    memory read in a cycle would forget before each comes round again; a few MB).

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


#: Languages that write a person's family name first (Hungarian: "Kovács Anna"); the others
#: write the given name first ("Anna Kovács"). docs/rules.md §18 (Person names).
FAMILY_FIRST_LANGUAGES = frozenset({"hu"})


def family_first(language: str | None) -> bool:
    """Whether ``language`` (a code such as ``"hu"`` or ``"en-gb"``) writes the family name
    first (:data:`FAMILY_FIRST_LANGUAGES`; ``None`` or an empty code: the default, Hungarian)."""
    code = (language or "hu").split("-")[0].casefold()
    return code in FAMILY_FIRST_LANGUAGES


@dataclass(frozen=True)
class PersonName:
    """A person's name in two parts. ``family``: the family name (a single-word name, or one
    that cannot be split, is all family name); ``given``: the given name(s), may be empty."""

    family: str
    given: str = ""

    def shown(self, *, family_first: bool) -> str:
        """The name in one language's order ("Kovács Anna" or "Anna Kovács"); a part that is
        empty is left out."""
        parts = [self.family, self.given] if family_first else [self.given, self.family]
        return " ".join(p for p in parts if p)

    @property
    def stored(self) -> str:
        """The stored one-string form: family name first, whatever the language (the
        duplicate check's key and the sort are computed from it)."""
        return self.shown(family_first=True)

    def sort_key(self) -> tuple[str, str]:
        """Sort by family name, then given name, case- and accent-insensitive
        (:func:`normalise_name`)."""
        return (normalise_name(self.family), normalise_name(self.given))


def split_name(text: str, *, family_first: bool) -> PersonName:
    """Split a one-string name written in one language's order: with ``family_first`` the
    first word is the family name ("Kovács Anna Mária" → Kovács / Anna Mária), otherwise the
    last one ("Anna Maria Kovacs" → Kovacs / Anna Maria). A single word is a family name
    alone; inner whitespace is collapsed.

    >>> split_name("Kovács  Anna", family_first=True)
    PersonName(family='Kovács', given='Anna')
    >>> split_name("Anna Kovács", family_first=False)
    PersonName(family='Kovács', given='Anna')
    """
    words = text.split()
    if len(words) < 2:
        return PersonName(" ".join(words))
    if family_first:
        return PersonName(words[0], " ".join(words[1:]))
    return PersonName(words[-1], " ".join(words[:-1]))
