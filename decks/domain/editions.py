"""Editions (sets) as data, and which editions a format allows.

Pure Python (stdlib only). An :class:`Edition` is one printing run: HKK editions (publisher
edition ids, ``decks/data/hkk/editions.json`` + ``edition-releases.csv``) and WoW TCG sets
(``decks/data/wowtcg/sets.csv``). A format names its legal editions with an
:class:`EditionPolicy`; :func:`resolve_edition_legality` turns the policy and the edition
table into an :class:`EditionLegality`, which travels in ``FormatSpec.editions`` and is what
the rule :class:`decks.domain.rules_common.EditionsLegal` reads.

Sources: docs/rules.md §1 (HKK card identity, colours and editions: a card is every printing
with its edition list), §4 (HKK formats and ban lists: Retró = cards released before April
2000 plus the Túlélők Földje retro reprints), §10 (WoW TCG formats and ban lists: Classic =
every set, Core = the last three blocks, Block = one block), §17 (card data sources and
coverage).

Release dates are partial ISO strings: ``"1995"``, ``"2000-04"`` or ``"2006-12-04"``; an
edition whose exact date no public source gives may carry only an upper bound
(``released_before``).
"""

from __future__ import annotations

import calendar
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from enum import StrEnum


class EditionStatus(StrEnum):
    """What an edition means for one format."""

    LEGAL = "legal"
    NOT_LEGAL = "not_legal"
    UNDETERMINED = "undetermined"  # the data cannot tell (no release date, no block …)


def parse_partial_date(value: str) -> tuple[date, date] | None:
    """The first and last day a partial ISO date can mean.

    ``"1995"`` → (1995-01-01, 1995-12-31); ``"2000-04"`` → (2000-04-01, 2000-04-30);
    ``"2006-12-04"`` → that day twice; ``""`` → ``None``.

    Raises:
        ValueError: not ``YYYY``, ``YYYY-MM`` or ``YYYY-MM-DD``, or not a real date.
    """
    text = value.strip()
    if not text:
        return None
    parts = text.split("-")
    if len(parts) > 3 or not all(p.isdigit() for p in parts) or len(parts[0]) != 4:
        raise ValueError(f"not a partial ISO date: {value!r}")
    year = int(parts[0])
    if len(parts) == 1:
        return date(year, 1, 1), date(year, 12, 31)
    month = int(parts[1])
    if len(parts) == 2:
        last = calendar.monthrange(year, month)[1]
        return date(year, month, 1), date(year, month, last)
    day = date(year, month, int(parts[2]))
    return day, day


@dataclass(frozen=True, slots=True)
class Edition:
    """One edition (set) of a game.

    Attributes:
        code: the edition code cards refer to in ``Card.attributes["editions"]`` (HKK edition
            id as a string, WoW set name as in the card data).
        name: display name.
        released: partial ISO release date (``"1995"``, ``"2000-04"``, ``"2006-12-04"``) or
            ``""`` when no public source gives it.
        released_before: an upper bound (exclusive) when only that is known.
        released_after: a lower bound (inclusive: released on or after) when only that is
            known.
        block: WoW block name (``"Scourgewar"``); ``""`` = none or unknown.
        block_order: chronological position of the block (1 = first); ``None`` = none.
        group: WoW set group: ``Basic``, ``Raid``, ``Dungeon``, ``Starter``, ``Special``,
            ``Promotional``; ``""`` for HKK.
        kind: what the set holds: ``Main``, ``Treasure``, ``Raid``, ``Token``, ``Crafted``,
            ``Badges``, ``Promo``, ``Starter``, ``Event`` … (``""`` = not stated).
    """

    code: str
    name: str = ""
    released: str = ""
    released_before: date | None = None
    released_after: date | None = None
    block: str = ""
    block_order: int | None = None
    group: str = ""
    kind: str = ""

    def released_between(self) -> tuple[date, date] | None:
        """First and last possible release day, or ``None`` when nothing is known (see
        :func:`parse_partial_date`; bounds alone give ``(released_after or date.min,
        released_before - 1 day or date.max)``).
        """
        span = parse_partial_date(self.released)
        if span is not None:
            return span
        if self.released_before is None and self.released_after is None:
            return None
        last = (
            date.fromordinal(self.released_before.toordinal() - 1)
            if self.released_before is not None
            else date.max
        )
        return self.released_after or date.min, last


@dataclass(frozen=True, slots=True)
class EditionPolicy:
    """Which editions a format allows, as the organiser states it.

    An edition is legal when any of these holds: its code is in ``legal``; it is in
    ``extra``; it was surely released before ``released_before``; its block is in ``blocks``;
    its block is among the last ``last_blocks`` blocks (counted back from ``as_of_block``, or
    from the newest block one of whose sets was surely released by ``as_of``, or from the
    newest block in the edition table). A policy with none of ``legal``,
    ``released_before``, ``blocks``, ``last_blocks`` and ``as_of`` allows every edition
    (:attr:`restricts` is False).

    ``as_of`` (the event date) also drops what did not exist yet: an edition surely released
    after it is not legal, one whose release date straddles it is undetermined; an edition
    without any release date is taken as released (app convention, docs/rules.md §10).

    Attributes:
        legal: edition codes named one by one, or ``None``.
        released_before: release-date cut-off (exclusive), or ``None``.
        extra: edition codes allowed on top of the cut-off (e.g. Retró: the Túlélők Földje
            retro reprints, edition 247).
        blocks: WoW block names (Block format), or ``None``.
        last_blocks: WoW Core: how many of the newest blocks are legal, or ``None``.
        as_of_block: the newest block for ``last_blocks`` (``None`` = newest in the table, or
            as of ``as_of``).
        as_of: the validation (event) date, or ``None`` = no date cut.
        label: short name for messages (``"Retró"``, ``"Core"``).

    Source: docs/rules.md §4 (HKK formats and ban lists), §10 (WoW TCG formats and ban lists).
    """

    legal: frozenset[str] | None = None
    released_before: date | None = None
    extra: frozenset[str] = frozenset()
    blocks: frozenset[str] | None = None
    last_blocks: int | None = None
    as_of_block: str | None = None
    as_of: date | None = None
    label: str = ""

    @property
    def restricts_pool(self) -> bool:
        """True when the policy names a card pool (editions, a date cut-off or blocks)."""
        return (
            self.legal is not None
            or self.released_before is not None
            or self.blocks is not None
            or self.last_blocks is not None
        )

    @property
    def restricts(self) -> bool:
        """True when the policy excludes anything at all."""
        return self.restricts_pool or self.as_of is not None


@dataclass(frozen=True, slots=True)
class EditionLegality:
    """A policy applied to an edition table: what ``FormatSpec.editions`` carries.

    Attributes:
        legal / not_legal / undetermined: edition codes by :class:`EditionStatus`.
        label: the policy's label, for messages.
    """

    legal: frozenset[str]
    not_legal: frozenset[str] = frozenset()
    undetermined: frozenset[str] = frozenset()
    label: str = ""

    def status(self, code: str) -> EditionStatus:
        """The status of one edition code; a code missing from the table is undetermined."""
        if code in self.legal:
            return EditionStatus.LEGAL
        if code in self.not_legal:
            return EditionStatus.NOT_LEGAL
        return EditionStatus.UNDETERMINED

    def card_status(self, codes: Iterable[str]) -> EditionStatus:
        """A card printed in ``codes`` is legal when any printing is legal, not legal when
        every printing is known and none is legal, else undetermined (``[]`` = undetermined).
        """
        seen = [self.status(code) for code in codes]
        if EditionStatus.LEGAL in seen:
            return EditionStatus.LEGAL
        if seen and all(s is EditionStatus.NOT_LEGAL for s in seen):
            return EditionStatus.NOT_LEGAL
        return EditionStatus.UNDETERMINED


def _block_window(policy: EditionPolicy, editions: list[Edition]) -> frozenset[str] | None:
    if policy.last_blocks is None:
        return None
    order: dict[str, int] = {}
    for edition in editions:
        if edition.block and edition.block_order is not None:
            order[edition.block] = edition.block_order
    if not order:
        return frozenset()
    newest = order.get(policy.as_of_block or "", max(order.values()))
    if policy.as_of_block is None and policy.as_of is not None:
        started = [
            edition.block_order
            for edition in editions
            if edition.block_order is not None
            and (span := edition.released_between()) is not None
            and span[1] <= policy.as_of
        ]
        if not started:
            return frozenset()
        newest = max(started)
    return frozenset(
        block
        for block, position in order.items()
        if newest - policy.last_blocks < position <= newest
    )


def _released_by(edition: Edition, day: date) -> EditionStatus:
    """LEGAL when ``edition`` was surely released on or before ``day`` or has no release date
    at all, NOT_LEGAL when surely after, UNDETERMINED when its date straddles ``day``."""
    span = edition.released_between()
    if span is None or span[1] <= day:
        return EditionStatus.LEGAL
    if span[0] > day:
        return EditionStatus.NOT_LEGAL
    return EditionStatus.UNDETERMINED


def _pool_status(
    edition: Edition, policy: EditionPolicy, window: frozenset[str] | None
) -> EditionStatus:
    if not policy.restricts_pool:
        return EditionStatus.LEGAL
    undetermined = False
    if policy.released_before is not None:
        span = edition.released_between()
        if span is None:
            undetermined = True
        elif span[1] < policy.released_before:
            return EditionStatus.LEGAL
        elif span[0] < policy.released_before:
            undetermined = True
    blocks = set(policy.blocks or ()) | set(window or ())
    if policy.blocks is not None or window is not None:
        if edition.block in blocks:
            return EditionStatus.LEGAL
        if not edition.block:
            undetermined = True
    return EditionStatus.UNDETERMINED if undetermined else EditionStatus.NOT_LEGAL


def edition_status(
    edition: Edition, policy: EditionPolicy, window: frozenset[str] | None = None
) -> EditionStatus:
    """The status of one edition under ``policy`` (``window``: blocks legal by
    ``last_blocks``, from :func:`resolve_edition_legality`): named editions are legal; else
    the pool (date cut-off, blocks) decides, and ``as_of`` drops editions not yet released."""
    if not policy.restricts:
        return EditionStatus.LEGAL
    if (policy.legal is not None and edition.code in policy.legal) or edition.code in policy.extra:
        return EditionStatus.LEGAL
    pool = _pool_status(edition, policy, window)
    if policy.as_of is None or pool is EditionStatus.NOT_LEGAL:
        return pool
    released = _released_by(edition, policy.as_of)
    if released is EditionStatus.NOT_LEGAL:
        return EditionStatus.NOT_LEGAL
    if EditionStatus.UNDETERMINED in (released, pool):
        return EditionStatus.UNDETERMINED
    return EditionStatus.LEGAL


def resolve_edition_legality(
    policy: EditionPolicy | None, editions: Iterable[Edition]
) -> EditionLegality | None:
    """Apply ``policy`` to the edition table of one game.

    Args:
        policy: the format's policy; ``None`` or a policy that restricts nothing → ``None``
            (every edition legal, the rule is skipped).
        editions: every edition of the game (codes unique).

    Returns:
        The :class:`EditionLegality` for ``FormatSpec.editions``, or ``None``.
    """
    if policy is None or not policy.restricts:
        return None
    table = list(editions)
    window = _block_window(policy, table)
    found: dict[EditionStatus, set[str]] = {status: set() for status in EditionStatus}
    for edition in table:
        found[edition_status(edition, policy, window)].add(edition.code)
    found[EditionStatus.LEGAL] |= set(policy.legal or ()) | set(policy.extra)
    return EditionLegality(
        legal=frozenset(found[EditionStatus.LEGAL]),
        not_legal=frozenset(found[EditionStatus.NOT_LEGAL] - found[EditionStatus.LEGAL]),
        undetermined=frozenset(found[EditionStatus.UNDETERMINED] - found[EditionStatus.LEGAL]),
        label=policy.label,
    )


def _codes(value: object, key: str) -> frozenset[str] | None:
    if value is None:
        return None
    if isinstance(value, str) or not isinstance(value, list | tuple):
        raise ValueError(f"{key} must be a list of edition codes")
    return frozenset(str(v).strip() for v in value if str(v).strip())


def policy_from_params(
    params: Mapping[str, object], *, label: str = "", on: date | None = None
) -> EditionPolicy | None:
    """Read a format's edition policy from ``FormatSpec.params`` (``Format.params`` in the
    database), so organisers set it without a schema change.

    Keys (all optional): ``"legal_editions"`` [codes], ``"editions_released_before"``
    ``"YYYY-MM-DD"``, ``"extra_legal_editions"`` [codes], ``"legal_blocks"`` [block names],
    ``"last_blocks"`` int, ``"last_blocks_as_of"`` block name, ``"as_of_event_date"`` bool
    (true: the policy is read as of ``on``, the validation or event date: the block window
    counts back from the newest block released by then, and later sets are not legal).

    Returns:
        The policy, or ``None`` when no key is present.

    Raises:
        ValueError: a key has the wrong shape (message names the key).
    """
    keys = (
        "legal_editions",
        "editions_released_before",
        "extra_legal_editions",
        "legal_blocks",
        "last_blocks",
        "last_blocks_as_of",
        "as_of_event_date",
    )
    if not any(key in params for key in keys):
        return None
    cutoff = params.get("editions_released_before")
    released_before: date | None = None
    if cutoff is not None:
        if not isinstance(cutoff, str):
            raise ValueError("editions_released_before must be an ISO date string")
        released_before = date.fromisoformat(cutoff)
    last = params.get("last_blocks")
    if last is not None and (isinstance(last, bool) or not isinstance(last, int) or last < 1):
        raise ValueError("last_blocks must be a positive whole number")
    as_of = params.get("last_blocks_as_of")
    if as_of is not None and not isinstance(as_of, str):
        raise ValueError("last_blocks_as_of must be a block name")
    dated = params.get("as_of_event_date", False)
    if not isinstance(dated, bool):
        raise ValueError("as_of_event_date must be true or false")
    return EditionPolicy(
        legal=_codes(params.get("legal_editions"), "legal_editions"),
        released_before=released_before,
        extra=_codes(params.get("extra_legal_editions"), "extra_legal_editions") or frozenset(),
        blocks=_codes(params.get("legal_blocks"), "legal_blocks"),
        last_blocks=last,
        as_of_block=as_of,
        as_of=on if dated else None,
        label=label,
    )


#: HKK Retró: cards released before April 2000, plus the Túlélők Földje retro reprints
#: (edition 247 "Túlélők Földje"). docs/rules.md §4 (HKK formats and ban lists).
HKK_RETRO = EditionPolicy(released_before=date(2000, 4, 1), extra=frozenset({"247"}), label="Retró")


def wow_core(as_of_block: str | None = None, *, as_of: date | None = None) -> EditionPolicy:
    """WoW TCG Core: the last three blocks, counted back from ``as_of_block``, or from the
    newest block released by the event date ``as_of`` (default: the newest block in the set
    table). docs/rules.md §10 (WoW TCG formats and ban lists)."""
    return EditionPolicy(last_blocks=3, as_of_block=as_of_block, as_of=as_of, label="Core")


def wow_block(block: str) -> EditionPolicy:
    """WoW TCG Block: the sets of one block (``"Drums of War"``). docs/rules.md §10."""
    return EditionPolicy(blocks=frozenset({block}), label="Block")


#: WoW TCG Classic: every set (no restriction). docs/rules.md §10.
WOW_CLASSIC = EditionPolicy(label="Classic")
