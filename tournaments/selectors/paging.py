"""Paging and name search of the long public lists (standings, a round's tables): the page
numbers of a list of ``count`` items, the search text a visitor typed, and whether a name
matches it (case- and accent-insensitive substring: "kovacs" finds "Kovács Péter"). The
page arithmetic is Django's paginator.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import QuerySet

from tournaments.domain.names import normalise_name

#: Longest search text read from ``?q=`` (characters; a longer one is cut).
SEARCH_MAX_CHARS = 100
#: Highest ``?page=`` read (a larger number is read as this; the page shown is the last one).
MAX_PAGE = 10_000
#: Page numbers linked on each side of the current page.
PAGES_AROUND = 2


def page_number(raw: str | None) -> int:
    """``?page=`` as a page number: 1 for a missing, non-numeric or non-positive value, at most
    ``MAX_PAGE`` (a page past the last shows the last, :func:`paginate`); the number that goes
    into cache keys and ETags."""
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


def paginate(items: Sequence[Any] | QuerySet[Any], *, number: int, size: int) -> Page:
    """Page ``number`` of ``items``, ``size`` per page, by Django's paginator: a number past
    the last page gives the last page, and an empty list one empty page. A query set is
    counted once and only the page's rows are read."""
    return Paginator(items, size).get_page(number)


@dataclass(frozen=True)
class SearchedPage:
    """What every paged public list shows besides its items: ``page`` (Django's
    :class:`~django.core.paginator.Page` over the items matching the search), ``total`` items
    in the whole list and the search text ``q`` (``""`` for none)."""

    page: Page
    total: int
    q: str

    @property
    def searchable(self) -> bool:
        """The list is longer than one page, or a search is on: show the search box."""
        return self.total > self.page.paginator.per_page or bool(self.q)

    @property
    def paged(self) -> bool:
        """More than one page: the page links are shown."""
        return self.page.paginator.num_pages > 1

    @property
    def around(self) -> list[int | str]:
        """The page numbers linked around the current one (``PAGES_AROUND`` on each side),
        with Django's ellipsis where numbers are left out."""
        return list(
            self.page.paginator.get_elided_page_range(
                self.page.number, on_each_side=PAGES_AROUND, on_ends=0
            )
        )
