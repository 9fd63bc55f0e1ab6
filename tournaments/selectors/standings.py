"""Read model of the standings: the cached snapshot, rows with the entries' names and tiebreaker
values formatted for people ("66,67 %") and machines ("7/3", "2.3333"), and the tiebreaker
column headings. No writes here.

Rules: docs/rules.md §15 (Match points and tiebreakers).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from functools import lru_cache
from typing import Any

from django.core.cache import cache
from django.utils.formats import number_format
from django.utils.translation import gettext

from tournaments.domain.standings import TIEBREAKERS
from tournaments.domain.types import StandingRow
from tournaments.models import StandingsSnapshot, Tournament
from tournaments.models.entries import person_name
from tournaments.selectors.entries import names_by_entry
from tournaments.selectors.paging import SearchedPage, name_matches, paginate, search_needle
from tournaments.selectors.shared_state import SnapshotFacts

#: Digits shown for a tiebreaker value (the exact value goes in a title attribute / "exact").
TIEBREAKER_DIGITS = 4


def standings_snapshot(tournament: Tournament) -> StandingsSnapshot | None:
    """The cached standings written by the standings task, if any has been computed (a row
    created only to mark a recompute as pending, ``version`` 0, does not count).

    Only the small fields are read (``version``, ``computed_at``, …: what :func:`snapshot_tag`
    needs); ``rows`` (about 1 MB at 4,096 entries) is deferred and costs one query when first
    read, so a 304 or a cached page never loads it."""
    return (
        StandingsSnapshot.objects.filter(tournament=tournament, version__gt=0).defer("rows").first()
    )


#: Parsed snapshot rows kept in this process, newest last: ``(snapshot id, version, computed
#: at) → rows``. A version is read from the database once per process, not once per page.
_ROWS: OrderedDict[tuple[int, int, float], list[dict[str, Any]]] = OrderedDict()
_ROWS_LOCK = threading.Lock()
#: Snapshot versions kept (about 5–8 MB each at 4,096 entries).
ROWS_KEPT = 4


#: Seconds the shared cache keeps a version's parsed rows.
SHARED_ROWS_SECONDS = 600


def _shared_rows_key(snapshot: StandingsSnapshot) -> str:
    return f"snapshot-rows:{snapshot.pk}:{snapshot.version}:{snapshot.computed_at.timestamp()}"


def snapshot_rows_share(snapshot: StandingsSnapshot, rows: list[dict[str, Any]]) -> None:
    """Put a just computed version's ``rows`` into the shared cache (the standings task, right
    after the recompute), so no app server process parses them from the database."""
    cache.set(_shared_rows_key(snapshot), list(rows), SHARED_ROWS_SECONDS)


def snapshot_rows(snapshot: StandingsSnapshot) -> list[dict[str, Any]]:
    """The stored rows of ``snapshot`` (``StandingsSnapshot.rows``, about 1 MB of JSON at 4,096
    entries), read once per snapshot version and process and then kept (the ``ROWS_KEPT``
    newest versions): from the shared cache, where the standings task puts each new version
    (:func:`snapshot_rows_share`) and the first process to parse it from the database leaves
    it, else from the database. While results come in, every page and API answer a new
    version leaves uncached needs them, and a worker renders several of those at once. A new
    version has a new key, so nothing stale is ever read. Callers must not change the rows."""
    key = (snapshot.pk, snapshot.version, snapshot.computed_at.timestamp())
    with _ROWS_LOCK:
        rows = _ROWS.get(key)
        if rows is not None:
            _ROWS.move_to_end(key)
            return rows
        # Loaded under the lock: a worker's other threads wait for this read, not repeat it.
        shared = _shared_rows_key(snapshot)
        rows = cache.get(shared)
        if rows is None:
            rows = list(snapshot.rows)
            cache.set(shared, rows, SHARED_ROWS_SECONDS)
        _ROWS[key] = rows
        while len(_ROWS) > ROWS_KEPT:
            _ROWS.popitem(last=False)
        return rows


def snapshot_tag(snapshot: StandingsSnapshot | SnapshotFacts | None, *extra: object) -> str | None:
    """The identity of what is read from ``snapshot`` (for ETags and cached fragments):
    tournament, version and computation time, plus ``extra`` parts; ``None`` without one.
    ``snapshot``: the model or the public state's facts (``selectors.shared_state``)."""
    if snapshot is None:
        return None
    parts = [snapshot.tournament_id, snapshot.version, snapshot.computed_at.timestamp(), *extra]
    return "-".join(str(p) for p in parts)


def stored_row_name(row: dict[str, Any]) -> str:
    """A stored standings row's name in the active language's order (``family``/``given``
    when the snapshot has them: ``models.entries.person_name``; else the stored ``name``)."""
    fallback = row.get("name") or str(row["entry"])
    return person_name(row.get("family") or "", row.get("given") or "", fallback)


@lru_cache(maxsize=65536)
def _fraction(stored: str) -> Fraction:
    """A stored tiebreaker value (``"n/d"``) as a ``Fraction``; remembered, since a big event's
    rows repeat few values and are read again for every version (``Fraction`` is immutable)."""
    return Fraction(stored)


def stored_row_views(
    *, tournament: Tournament, rows: Sequence[dict[str, Any]]
) -> list[StandingView]:
    """Stored standings rows (the snapshot's JSON shape, ``StandingsSnapshot.rows``) as
    :class:`StandingView`, tiebreakers in the tournament's order (no query)."""
    codes = list(tournament.tiebreakers)
    views = []
    for r in rows:
        stored = r.get("tiebreakers", {})
        views.append(
            StandingView(
                rank=r["rank"],
                entry=r["entry"],
                name=stored_row_name(r),
                match_points=r["match_points"],
                game_points=r["game_points"],
                matches_played=r["matches_played"],
                dropped=bool(r.get("dropped", False)),
                tiebreakers=[
                    TiebreakerValue(code, _fraction(stored[code]))
                    for code in codes
                    if code in stored
                ],
            )
        )
    return views


def standings_matching(
    rows: Sequence[dict[str, Any]], *, q: str = "", entry: int | None = None
) -> list[dict[str, Any]]:
    """The stored rows (snapshot shape) whose name contains the search text ``q`` (case- and
    accent-insensitive, :mod:`tournaments.selectors.paging`) and, when ``entry`` is given,
    that entry's row; rank order and the real ranks are kept."""
    needle = search_needle(q) if q else ""
    return [
        r
        for r in rows
        if (entry is None or r["entry"] == entry)
        and (not needle or name_matches(stored_row_name(r), needle))
    ]


@dataclass(frozen=True)
class StandingsPage(SearchedPage):
    """One page of the standings for the public page: ``rows`` (:class:`StandingView`, real
    ranks) and, from :class:`~tournaments.selectors.paging.SearchedPage`, the page over the
    matching rows, the ``total`` rows of the standings and the search text ``q``."""

    rows: list[StandingView]


def standings_page(
    *, tournament: Tournament, rows: Sequence[dict[str, Any]], number: int, size: int, q: str = ""
) -> StandingsPage:
    """Page ``number`` (clamped to the last) of ``size`` rows of the stored ``rows`` that match
    ``q`` (:func:`standings_matching`); only that page's rows become views."""
    page = paginate(standings_matching(rows, q=q), number=number, size=size)
    return StandingsPage(
        rows=stored_row_views(tournament=tournament, rows=list(page.object_list)),
        page=page,
        total=len(rows),
        q=q,
    )


def fraction_str(value: Fraction | int) -> str:
    """An exact value as a string: ``"7/3"``, ``"6"``."""
    return str(Fraction(value))


def fraction_decimal(value: Fraction | int, digits: int = TIEBREAKER_DIGITS) -> str:
    """``value`` rounded half-up to ``digits`` decimals, e.g. ``Fraction(2, 3)`` → ``"0.6667"``."""
    value = Fraction(value)
    quantum = Decimal(1).scaleb(-digits)
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return str(exact.quantize(quantum, rounding=ROUND_HALF_UP))


@dataclass
class TiebreakerValue:
    """One tiebreaker cell: ``code``, exact ``value`` ("7/3") and ``decimal`` ("2.3333")."""

    code: str
    exact: Fraction

    @property
    def value(self) -> str:
        return fraction_str(self.exact)

    @property
    def decimal(self) -> str:
        return fraction_decimal(self.exact)

    @property
    def display(self) -> str:
        """For people, in the active language's number format: whole values as integers
        ("15"), percentage tiebreakers (OMW%, GW%, OGW%) as percents with 2 decimals
        ("66,67 %" in Hungarian), the rest with ``TIEBREAKER_DIGITS`` decimals."""
        entry = TIEBREAKERS.get(self.code)
        if entry is not None and entry.percent:
            return f"{number_format(Decimal(fraction_decimal(self.exact * 100, 2)), 2)} %"
        if self.exact.denominator == 1:
            return number_format(self.exact.numerator)
        return number_format(Decimal(self.decimal), TIEBREAKER_DIGITS)


@dataclass
class StandingView:
    """One standings row with the entry's name and formatted tiebreakers."""

    rank: int
    entry: int
    name: str
    match_points: int
    game_points: int
    matches_played: int
    dropped: bool
    tiebreakers: list[TiebreakerValue]

    @property
    def shown_tiebreakers(self) -> list[TiebreakerValue]:
        """The tiebreakers that need a column of their own (game points already have one)."""
        return [tb for tb in self.tiebreakers if not _in_base_column(tb.code)]


def standing_views(*, tournament: Tournament, rows: Sequence[StandingRow]) -> list[StandingView]:
    """Standings rows (``services.standings_compute``) with the entries' names and formatted
    tiebreakers (one query for the names)."""
    names = names_by_entry(tournament)
    return [
        StandingView(
            rank=r.rank,
            entry=r.entry,
            name=names.get(r.entry, str(r.entry)),
            match_points=r.match_points,
            game_points=r.game_points,
            matches_played=r.matches_played,
            dropped=r.dropped,
            tiebreakers=[TiebreakerValue(code, Fraction(v)) for code, v in r.tiebreakers.items()],
        )
        for r in rows
    ]


def _in_base_column(code: str) -> bool:
    entry = TIEBREAKERS.get(code)
    return entry is not None and entry.base_column


def tiebreaker_labels() -> dict[str, str]:
    """Translated column headings of the registered tiebreaker codes (their ``column``)."""
    return {code: gettext(tb.column) for code, tb in TIEBREAKERS.items()}


def tiebreaker_choices() -> list[tuple[str, str]]:
    """``(code, translated label)`` of every registered tiebreaker, in registry order: the
    organiser's choices."""
    return [(code, gettext(tb.label)) for code, tb in TIEBREAKERS.items()]


def tiebreaker_columns(tournament: Tournament) -> list[tuple[str, str]]:
    """``(code, translated heading)`` of the tiebreaker columns of a standings table, in the
    tournament's order, leaving out those already shown as a base column (game points)."""
    labels = tiebreaker_labels()
    return [
        (code, labels.get(code, code))
        for code in tournament.tiebreakers
        if not _in_base_column(code)
    ]
