"""Paging and name search of the long public lists (standings, a round's tables): the page
numbers of a list of ``count`` items, the search text a visitor typed, and whether a name
matches it (case- and accent-insensitive substring: "kovacs" finds "Kovács Péter"). Pure
helpers, no query.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from tournaments.domain.names import normalise_name

#: Longest search text read from ``?q=`` (characters; a longer one is cut).
SEARCH_MAX_CHARS = 100
#: Highest ``?page=`` read (a larger number is read as this; the page shown is the last one).
MAX_PAGE = 10_000
#: Page numbers linked on each side of the current page.
PAGES_AROUND = 2


def page_number(raw: str | None) -> int:
    """``?page=`` as a page number: 1 for a missing, non-numeric or non-positive value, at most
    ``MAX_PAGE`` (a page past the last shows the last, :func:`page_info`)."""
    if raw is None or not raw.strip().isdecimal():
        return 1
    digits = raw.strip()
    if len(digits) > len(str(MAX_PAGE)):
        return MAX_PAGE
    return min(max(int(digits), 1), MAX_PAGE)


def search_text(raw: str | None) -> str:
    """``?q=`` as typed, trimmed, at most ``SEARCH_MAX_CHARS`` characters, NUL characters
    dropped; ``""`` when there is nothing to search for."""
    if not raw:
        return ""
    return raw.replace("\x00", "").strip()[:SEARCH_MAX_CHARS].strip()


def search_key(text: str) -> str:
    """A short fixed-length identity of a search text for ETags and cache keys (``""`` for no
    search)."""
    if not text:
        return ""
    return "q" + hashlib.sha256(text.encode()).hexdigest()[:16]


def search_needle(text: str) -> str:
    """The normalised form of a search text that :func:`name_matches` looks for
    (:func:`tournaments.domain.names.normalise_name`: casefolded, accents removed)."""
    return normalise_name(text)


def name_matches(name: str, needle: str) -> bool:
    """``needle`` (already normalised, :func:`search_needle`) occurs in ``name``, ignoring case,
    accents and repeated spaces; an empty needle matches every name."""
    return needle in normalise_name(name)


@dataclass(frozen=True)
class PageInfo:
    """Page ``number`` (1-based, at most the last) of ``count`` items, ``size`` per page."""

    number: int
    size: int
    count: int

    @property
    def num_pages(self) -> int:
        """Pages in all (1 for an empty list)."""
        return max(1, -(-self.count // self.size))

    @property
    def offset(self) -> int:
        """Index of the page's first item."""
        return (self.number - 1) * self.size

    @property
    def paged(self) -> bool:
        """More than one page: the page links are shown."""
        return self.num_pages > 1

    @property
    def has_previous(self) -> bool:
        return self.number > 1

    @property
    def has_next(self) -> bool:
        return self.number < self.num_pages

    @property
    def previous_number(self) -> int:
        return max(1, self.number - 1)

    @property
    def next_number(self) -> int:
        return min(self.num_pages, self.number + 1)

    @property
    def around(self) -> list[int]:
        """The page numbers linked around the current one (``PAGES_AROUND`` on each side)."""
        first = max(1, self.number - PAGES_AROUND)
        last = min(self.num_pages, self.number + PAGES_AROUND)
        return list(range(first, last + 1))


def page_info(*, requested: int, size: int, count: int) -> PageInfo:
    """The page ``requested`` of ``count`` items, clamped to the existing pages."""
    info = PageInfo(number=1, size=size, count=count)
    return PageInfo(number=min(max(requested, 1), info.num_pages), size=size, count=count)


@dataclass(frozen=True)
class SearchedPage:
    """What every paged public list shows besides its items: ``page`` (:class:`PageInfo` over
    the items matching the search), ``total`` items in the whole list and the search text
    ``q`` (``""`` for none)."""

    page: PageInfo
    total: int
    q: str

    @property
    def searchable(self) -> bool:
        """The list is longer than one page, or a search is on: show the search box."""
        return self.total > self.page.size or bool(self.q)
