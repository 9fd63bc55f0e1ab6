"""The HKK publisher's card-search API: a polite, cached HTTP client and the parsers of its
answers into editions and cards. No Django.

The API (base ``https://lapkereso.hkk.hu/api/api.php?lapkereso``) answers:

- ``BASE/cardConstants``: ``{"editions": [{"id", "nev", "tipus", "paklibaRakhato",
  "megjelent", "megjelenesDatum"}, …], "colors": …, "mainTypes": …}``: every edition with its
  name, kind, whether it is released and its release date;
- ``BASE/kereses&megjelenes=YYYY-YYYY``: ``{"cards": [{"ID", "name", "text", "link",
  "type": [...], "color": [...], "commonness", "editions": [ids]}, …]}``: the cards released
  in those years. The server returns at most :data:`RESULT_CAP` cards a query, so a year that
  reaches the cap is fetched again edition by edition (``BASE/kereses&kiegeszito=ID``).

Facts only: ``text`` and ``link`` are never kept (docs/rules.md §17 (Card data sources and
coverage)); a card becomes a domain card through :func:`decks.loaders.hkk.make_card`
(docs/rules.md §1 (HKK card identity, colours and editions)).

Politeness: one request at a time, at least ``delay`` seconds apart, retries with exponential
backoff on connection errors and 429/5xx answers (urllib3 ``Retry``), a User-Agent naming this
application, and every answer cached on disk, so a rerun or a resumed run fetches nothing it
already has.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

from decks.domain.editions import Edition, parse_partial_date
from decks.domain.types import Card
from decks.loaders.base import CatalogueFormatError
from decks.loaders.hkk import make_card

DEFAULT_BASE = "https://lapkereso.hkk.hu/api/api.php?lapkereso"
#: Most cards the server returns for one query.
RESULT_CAP = 1000
USER_AGENT = "hkk-tournament card catalogue sync (python-requests; one request at a time)"
#: Fields every card record must have (``text`` and ``link`` are not needed).
CARD_FIELDS = ("ID", "name", "type", "color", "commonness", "editions")
#: Fields every edition of ``cardConstants`` must have.
EDITION_FIELDS = ("id", "nev", "tipus", "megjelent", "megjelenesDatum")


class SourceError(CatalogueFormatError):
    """The API could not be reached or answered something unusable; the message names the URL
    (and the record, when one is malformed)."""


Progress = Callable[[int, int], None]


@dataclass
class HkkApiClient:
    """GET JSON from the API, one request at a time, cached on disk.

    Attributes:
        base: the API base URL (``DEFAULT_BASE``; tests point it at a loopback fake).
        cache_dir: where answers are kept (one JSON file per endpoint); ``None`` = no cache.
        delay: seconds between two requests to the server (cache hits do not wait).
        retries / backoff: urllib3 ``Retry`` total and backoff factor (seconds).
        timeout: seconds for connecting and for each read.
        cap: most cards the server returns for one query (:data:`RESULT_CAP`).
        fetched / cached: requests sent to the server / answered from the cache.
    """

    base: str = DEFAULT_BASE
    cache_dir: Path | None = None
    delay: float = 1.0
    retries: int = 3
    backoff: float = 0.5
    timeout: float = 30.0
    cap: int = RESULT_CAP
    sleep: Callable[[float], None] = time.sleep
    fetched: int = 0
    cached: int = 0
    _last_request: float | None = field(default=None, repr=False)
    _session: requests.Session | None = field(default=None, repr=False)

    def url(self, endpoint: str) -> str:
        """``BASE/endpoint``."""
        return f"{self.base.rstrip('/')}/{endpoint}"

    def _cache_path(self, endpoint: str) -> Path | None:
        if self.cache_dir is None:
            return None
        return Path(self.cache_dir) / (re.sub(r"[^A-Za-z0-9.-]+", "_", endpoint) + ".json")

    def _http(self) -> requests.Session:
        if self._session is None:
            retry = Retry(
                total=self.retries,
                backoff_factor=self.backoff,
                status_forcelist=(429, 500, 502, 503, 504),
                allowed_methods=frozenset({"GET"}),
                respect_retry_after_header=True,
            )
            session = requests.Session()
            session.headers.update({"User-Agent": USER_AGENT, "Accept": "application/json"})
            adapter = HTTPAdapter(max_retries=retry, pool_maxsize=1)
            session.mount("http://", adapter)
            session.mount("https://", adapter)
            self._session = session
        return self._session

    def get_json(self, endpoint: str) -> Any:
        """The decoded answer of ``BASE/endpoint``, from the cache when there.

        Raises:
            SourceError: unreachable host, an HTTP error status, or an answer that is not
                JSON (the message names the URL). Nothing is cached then.
        """
        path = self._cache_path(endpoint)
        if path is not None and path.is_file():
            self.cached += 1
            with open(path, encoding="utf-8") as handle:
                return json.load(handle)
        url = self.url(endpoint)
        if self._last_request is not None:
            wait = self.delay - (time.monotonic() - self._last_request)
            if wait > 0:
                self.sleep(wait)
        try:
            response = self._http().get(url, timeout=self.timeout)
        except requests.RequestException as exc:
            raise SourceError(f"{url}: cannot reach the server ({exc.__class__.__name__})") from exc
        finally:
            self._last_request = time.monotonic()
        self.fetched += 1
        if response.status_code != 200:
            raise SourceError(f"{url}: HTTP status {response.status_code}")
        try:
            data = json.loads(response.content.decode("utf-8-sig"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise SourceError(f"{url}: the answer is not JSON ({exc})") from exc
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            partial = path.with_suffix(".part")
            partial.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
            partial.replace(path)
        return data

    def close(self) -> None:
        """Close the HTTP session."""
        if self._session is not None:
            self._session.close()
            self._session = None


def _release(value: object, where: str) -> str:
    """``megjelenesDatum`` as a partial ISO date (``""`` when empty)."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise SourceError(f"{where}: 'megjelenesDatum' must be a string")
    text = value.strip()[:10]
    if text.startswith("0000"):
        return ""
    try:
        parse_partial_date(text)
    except ValueError as exc:
        raise SourceError(f"{where}: bad 'megjelenesDatum' {value!r}") from exc
    return text


def parse_constants(data: object, *, url: str) -> list[Edition]:
    """The editions of a ``cardConstants`` answer, by numeric id.

    ``code`` = ``id`` as a string, ``name`` = ``nev``, ``kind`` = ``tipus``, ``released`` =
    ``megjelenesDatum`` (partial ISO date; empty when not given). Editions not yet released
    (``megjelent`` false) are kept, without a date.

    Raises:
        SourceError: not an object with an ``editions`` list, or an edition missing a field
            (the message names the URL and the edition).
    """
    if not isinstance(data, Mapping) or not isinstance(data.get("editions"), list):
        raise SourceError(f"{url}: expected an object with an 'editions' list")
    editions: dict[str, Edition] = {}
    for index, record in enumerate(data["editions"]):
        where = f"{url}: edition #{index + 1}"
        if not isinstance(record, Mapping):
            raise SourceError(f"{where}: expected an object")
        missing = [name for name in EDITION_FIELDS if name not in record]
        if missing:
            raise SourceError(f"{where}: missing field {missing[0]!r}")
        code = str(record["id"]).strip()
        if not code.isdigit():
            raise SourceError(f"{where}: bad 'id' {record['id']!r}")
        released = _release(record["megjelenesDatum"], f"{where} (id {code})")
        editions[code] = Edition(
            code=code,
            name=str(record["nev"] or "").strip(),
            released=released if bool(record["megjelent"]) else "",
            kind=str(record["tipus"] or "").strip(),
        )
    return [editions[code] for code in sorted(editions, key=int)]


def parse_cards(data: object, *, url: str) -> list[Card]:
    """The cards of a ``kereses`` answer (``{"cards": [...]}``), facts only.

    Raises:
        SourceError: not ``{"cards": [...]}``, or a record missing one of
            :data:`CARD_FIELDS` or with a field of the wrong shape (names URL and record).
    """
    if not isinstance(data, Mapping) or not isinstance(data.get("cards"), list):
        raise SourceError(f"{url}: expected an object with a 'cards' list")
    cards: list[Card] = []
    for index, record in enumerate(data["cards"]):
        where = f"{url}: card #{index + 1}"
        if not isinstance(record, Mapping):
            raise SourceError(f"{where}: expected an object")
        if "ID" in record:
            where = f"{where} (ID {record['ID']})"
        missing = [name for name in CARD_FIELDS if name not in record]
        if missing:
            raise SourceError(f"{where}: missing field {missing[0]!r}")
        card_id = str(record["ID"]).strip()
        name = record["name"]
        if not card_id.isdigit() or not isinstance(name, str) or not name.strip():
            raise SourceError(f"{where}: bad 'ID' or empty 'name'")
        lists = {key: record[key] for key in ("type", "color", "editions")}
        for key, value in lists.items():
            if not isinstance(value, list) or not all(isinstance(v, str | int) for v in value):
                raise SourceError(f"{where}: {key!r} must be a list")
        if not isinstance(record["commonness"], str | type(None)):
            raise SourceError(f"{where}: 'commonness' must be a string")
        cards.append(
            make_card(
                card_id=card_id,
                name=name,
                types=[str(v) for v in lists["type"]],
                colours=[str(v) for v in lists["color"]],
                rarity=record["commonness"] or "",
                editions=[str(v) for v in lists["editions"]],
            )
        )
    return cards


def year_of(edition: Edition) -> int | None:
    """The release year of ``edition``, or ``None`` when not given."""
    span = parse_partial_date(edition.released)
    return None if span is None else span[0].year


@dataclass(frozen=True, slots=True)
class FetchedCatalogue:
    """Everything one sync read: the edition table, the cards (by id, first seen wins; a
    card's editions are the union of what the answers said) and the request counts."""

    editions: tuple[Edition, ...]
    cards: tuple[Card, ...]
    fetched: int
    cached: int


def _merge(found: dict[str, Card], cards: Iterable[Card]) -> None:
    for card in cards:
        seen = found.get(card.id)
        if seen is None:
            found[card.id] = card
            continue
        codes = tuple(
            dict.fromkeys(
                (*_codes(seen.attributes.get("editions")), *_codes(card.attributes.get("editions")))
            )
        )
        found[card.id] = make_card(
            card_id=seen.id,
            name=seen.name,
            types=list(seen.types),
            colours=list(seen.colours or ()),
            rarity=seen.rarity,
            editions=list(codes),
        )


def _codes(value: object) -> tuple[str, ...]:
    return tuple(str(v) for v in value) if isinstance(value, list | tuple) else ()


def fetch_catalogue(
    client: HkkApiClient, *, progress: Progress | None = None, today: date | None = None
) -> FetchedCatalogue:
    """Read the whole catalogue: ``cardConstants``, then one query per release year (from the
    first edition's year to the last), a year at the cap split by the editions released that
    year.

    Args:
        client: the HTTP client (cache, delay, retries).
        progress: called as ``progress(done, total)`` after each request; ``total`` grows
            when a year is split.
        today: the newest year asked for is at most this year (default: today).

    Raises:
        SourceError: anything unusable (see :meth:`HkkApiClient.get_json`,
            :func:`parse_constants`, :func:`parse_cards`), or an edition query at the cap.
    """
    report = progress or (lambda _done, _total: None)
    endpoint = "cardConstants"
    editions = parse_constants(client.get_json(endpoint), url=client.url(endpoint))
    by_year: dict[int, list[Edition]] = {}
    for edition in editions:
        year = year_of(edition)
        if year is not None:
            by_year.setdefault(year, []).append(edition)
    last_year = (today or datetime.now(tz=UTC).date()).year
    years = [y for y in range(min(by_year), max(by_year) + 1) if y <= last_year] if by_year else []
    total = 1 + len(years)
    done = 1
    report(done, total)
    found: dict[str, Card] = {}
    for year in years:
        endpoint = f"kereses&megjelenes={year}-{year}"
        cards = parse_cards(client.get_json(endpoint), url=client.url(endpoint))
        done += 1
        _merge(found, cards)
        if len(cards) >= client.cap:
            split = by_year.get(year, [])
            total += len(split)
            report(done, total)
            for edition in split:
                endpoint = f"kereses&kiegeszito={edition.code}"
                part = parse_cards(client.get_json(endpoint), url=client.url(endpoint))
                if len(part) >= client.cap:
                    raise SourceError(
                        f"{client.url(endpoint)}: {len(part)} cards, the server's cap; "
                        "the edition cannot be split further"
                    )
                _merge(found, part)
                done += 1
                report(done, total)
        else:
            report(done, total)
    return FetchedCatalogue(
        editions=tuple(editions),
        cards=tuple(found[key] for key in sorted(found, key=int)),
        fetched=client.fetched,
        cached=client.cached,
    )
