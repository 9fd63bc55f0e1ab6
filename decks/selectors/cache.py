"""In-process caches of catalogue reads, valid while the catalogue version is unchanged.

The card index and format specs are costly to build and read on every validation, so each
process keeps them and asks the database (:meth:`decks.models.CatalogueVersion.token`) at most
once per :data:`VERSION_CHECK_SECONDS` whether the catalogue changed; a change drops every
cached value. Admin edits therefore show up in every worker within about a second.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TypeVar, cast

from decks import models

__all__ = ["VERSION_CHECK_SECONDS", "VersionedCache", "catalogue_cache", "clear_caches"]

#: How often (seconds) cached readers ask the database whether the catalogue changed.
VERSION_CHECK_SECONDS = 1.0

T = TypeVar("T")


class VersionedCache:
    """Values cached against the catalogue version, re-checked at most once per interval.

    Thread-safe; a value is built outside the lock, so two threads may build the same value
    once each (the last one is kept).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._version: object = None
        self._checked_at = 0.0
        self._values: dict[object, object] = {}

    def _current_version(self) -> object:
        now = time.monotonic()
        if self._version is None or now - self._checked_at >= VERSION_CHECK_SECONDS:
            version = models.CatalogueVersion.token()
            if version != self._version:
                self._values = {}
                self._version = version
            self._checked_at = now
        return self._version

    def get(self, key: object, build: Callable[[], T]) -> T:
        """The value cached under ``key``, built by ``build()`` if missing or stale."""
        with self._lock:
            self._current_version()
            if key in self._values:
                return cast(T, self._values[key])
        value = build()
        with self._lock:
            self._values[key] = value
        return value

    def clear(self) -> None:
        """Forget every value and the version seen."""
        with self._lock:
            self._version = None
            self._values = {}


#: The one cache of this process (card index, format specs).
catalogue_cache = VersionedCache()


def clear_caches() -> None:
    """Forget cached indexes and format specs (tests; after writes in this process)."""
    catalogue_cache.clear()
