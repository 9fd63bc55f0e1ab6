"""Meta statistics from published deck lists: per card, per deck feature, and match win rates.

The statistics of one event are a :class:`Tally` of whole numbers (lists, copies, top lists,
match wins …), so the tallies of many events add up (:meth:`Tally.merge`) to the statistics of
a format and period without reading a single list again. :func:`report` turns a tally into
exact shares (``fractions.Fraction``); the Django layer formats them with the decimal comma.

What counts (docs/rules.md §20 (Meta statistics)):

- A list counts once per card it names: in the main deck (``main`` and the single-card
  sections: rule card, follower, hero …) or the sideboard; copies are the line's count.
- A list is *top* when its entry's final rank is within :func:`top_size` of its event's field
  (``count`` best, or ``percent`` of the field rounded up, whichever is smaller); entries
  tied on the rank at the cut are all in it.
- Deck features (``DIMENSIONS``): which rule card, follower, hero, class … a list plays, read
  from the card facts. A game's entry in ``tournaments.domain.games`` names its features, the
  card kinds of its "narancslap" table and the feature its match win rates are kept by.
- Match win rates count every non-bye Swiss match of an entry once per feature value of its
  lists, except a mirror match (both sides share the value). Win % = wins / matches, shown
  only from ``min_matches`` matches on.
- HKKmeta columns (kissgabormatyas/HKKmeta, ``data/topcards-*.csv`` and ``data/orange-*.csv``:
  ``Alap összesen``, ``Alap top%``, ``Side összesen``, ``Side top%``): the number of lists
  playing the card in the main deck, the share of those lists that finished in the top, and
  the same for the sideboard; shares rounded half up to two decimals, trailing zeros dropped,
  ``0%`` when no list plays it (:func:`hkkmeta_percent`).

Pure Python (stdlib only).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from tournaments.domain.types import gettext_noop

__all__ = [
    "DIMENSIONS",
    "CardFacts",
    "CardRow",
    "Dimension",
    "GroupRow",
    "ListLine",
    "MetaList",
    "MetaReport",
    "Tally",
    "hkkmeta_percent",
    "hkkmeta_rows",
    "report",
    "round_half_up",
    "tally_event",
    "top_size",
]

#: Sections counted as the sideboard; every other section is the main deck ("Alap").
SIDEBOARD_SECTIONS = frozenset({"sideboard"})

#: Index of each count in a card's tally: main lists, main copies, main top lists, main top
#: copies, then the same four for the sideboard.
MAIN, MAIN_COPIES, MAIN_TOP, MAIN_TOP_COPIES, SIDE, SIDE_COPIES, SIDE_TOP, SIDE_TOP_COPIES = range(
    8
)
#: Index of each count in a feature value's tally: lists, top lists, wins, losses, draws.
LISTS, TOP_LISTS, WINS, LOSSES, DRAWS = range(5)


@dataclass(frozen=True, slots=True)
class CardFacts:
    """The facts of one catalogue card the statistics read.

    Attributes:
        name: printed name (reprint suffixes such as ``(2024)`` kept: distinct cards).
        kind: ``decks.domain.types.CardKind`` value (``"card"``, ``"rule_card"`` …).
        colours: HKK gods/colours (``()`` colourless or unknown).
        traits: WoW hero traits ``{"class": ("Mage",), "race": …, "faction": …}``.
        people: Blue Moon people (``""`` none).
    """

    name: str
    kind: str = "card"
    colours: tuple[str, ...] = ()
    traits: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    people: str = ""


@dataclass(frozen=True, slots=True)
class ListLine:
    """One line of a list: ``count`` copies of ``card`` in ``section`` (``"main"``,
    ``"sideboard"``, ``"rule_card"`` …)."""

    section: str
    card: CardFacts
    count: int = 1


@dataclass(frozen=True, slots=True)
class MetaList:
    """One published list: its event's entry id, whether it finished in the top, its lines."""

    entry: int
    top: bool
    lines: tuple[ListLine, ...]


@dataclass(frozen=True, slots=True)
class Dimension:
    """A deck feature: ``code``, ``label`` (English msgid) and ``keys`` (list → the feature's
    values it plays, ``()`` when none)."""

    code: str
    label: str
    keys: Callable[[MetaList], tuple[str, ...]]


def _names_of_kind(kind: str) -> Callable[[MetaList], tuple[str, ...]]:
    def keys(deck: MetaList) -> tuple[str, ...]:
        return tuple(sorted({ln.card.name for ln in deck.lines if ln.card.kind == kind}))

    return keys


def _main_lines(deck: MetaList) -> Iterable[ListLine]:
    return (ln for ln in deck.lines if ln.section not in SIDEBOARD_SECTIONS)


def _rule_and_follower(deck: MetaList) -> tuple[str, ...]:
    rules = _names_of_kind("rule_card")(deck)
    followers = _names_of_kind("follower")(deck) + _names_of_kind("epic_follower")(deck)
    if not rules and not followers:
        return ()
    return (f"{' / '.join(rules) or '–'} + {' / '.join(followers) or '–'}",)


def _colours(deck: MetaList) -> tuple[str, ...]:
    colours = sorted({c for ln in _main_lines(deck) for c in ln.card.colours})
    return (" / ".join(colours),) if colours else ()


def _hero_trait(trait: str) -> Callable[[MetaList], tuple[str, ...]]:
    def keys(deck: MetaList) -> tuple[str, ...]:
        heroes = [ln.card for ln in deck.lines if ln.card.kind == "hero"]
        return tuple(sorted({v for hero in heroes for v in hero.traits.get(trait, ())}))

    return keys


def _people(deck: MetaList) -> tuple[str, ...]:
    peoples = sorted({ln.card.people for ln in _main_lines(deck) if ln.card.people})
    return (" / ".join(peoples),) if peoples else ()


#: Every deck feature, by code; a game's entry in ``games.GAMES`` names the ones it uses.
DIMENSIONS: dict[str, Dimension] = {
    d.code: d
    for d in (
        Dimension("rule_card", gettext_noop("Rule cards"), _names_of_kind("rule_card")),
        Dimension("follower", gettext_noop("Followers"), _names_of_kind("follower")),
        Dimension("epic", gettext_noop("Epic followers"), _names_of_kind("epic_follower")),
        Dimension("rule_follower", gettext_noop("Rule card + follower"), _rule_and_follower),
        Dimension("colours", gettext_noop("Colours (gods)"), _colours),
        Dimension("hero", gettext_noop("Heroes"), _names_of_kind("hero")),
        Dimension("class", gettext_noop("Classes"), _hero_trait("class")),
        Dimension("faction", gettext_noop("Factions"), _hero_trait("faction")),
        Dimension("race", gettext_noop("Races"), _hero_trait("race")),
        Dimension("people", gettext_noop("Peoples"), _people),
    )
}


def top_size(field_size: int, *, count: int, percent: int) -> int:
    """How many of a ``field_size``-entry event make its top: ``count`` (0: no such cap) or
    ``percent`` % of the field rounded up, whichever is smaller; at least 1 in a non-empty
    field. ``top_size(100, count=8, percent=25) == 8``; ``top_size(10, …) == 3``."""
    if field_size <= 0:
        return 0
    by_share = -(-field_size * percent // 100) if percent > 0 else field_size
    size = min(count, by_share) if count > 0 else by_share
    return max(1, size)


@dataclass(slots=True)
class Tally:
    """Additive counts of some lists (one event or many).

    ``cards``: name → ``[kind, counts]`` with the eight counts indexed by ``MAIN`` …
    ``SIDE_TOP_COPIES``; ``groups``: feature code → value → five counts (``LISTS`` …
    ``DRAWS``). JSON shape (:meth:`to_json`): ``{"lists", "top_lists", "events", "cards":
    {name: {"kind", "n": [8 ints]}}, "groups": {code: {value: [5 ints]}}}``.
    """

    lists: int = 0
    top_lists: int = 0
    events: int = 0
    cards: dict[str, tuple[str, list[int]]] = field(default_factory=dict)
    groups: dict[str, dict[str, list[int]]] = field(default_factory=dict)

    def merge(self, other: Tally) -> Tally:
        """Add ``other``'s counts to this tally (in place) and return it."""
        self.lists += other.lists
        self.top_lists += other.top_lists
        self.events += other.events
        for name, (kind, counts) in other.cards.items():
            _add(self.cards.setdefault(name, (kind, [0] * 8))[1], counts)
        for code, values in other.groups.items():
            mine = self.groups.setdefault(code, {})
            for key, counts in values.items():
                _add(mine.setdefault(key, [0] * 5), counts)
        return self

    def merge_json(self, data: Mapping[str, Any], *, sign: int = 1) -> Tally:
        """Add (``sign=1``) or take away (``sign=-1``: a tally this one contains) the counts of
        a tally's JSON (:meth:`to_json`), in place, without building the other tally first;
        rows left all zero are dropped. Returns this tally. Raises ``KeyError``/``TypeError``
        on other data."""
        self.lists += sign * int(data["lists"])
        self.top_lists += sign * int(data["top_lists"])
        self.events += sign * int(data["events"])
        cards = self.cards
        for name, value in data["cards"].items():
            mine = cards.setdefault(name, (str(value["kind"]), [0] * 8))[1]
            _add(mine, value["n"], sign)
            if sign < 0 and not any(mine):
                del cards[name]
        for code, values in data["groups"].items():
            groups = self.groups.setdefault(code, {})
            for key, counts in values.items():
                row = groups.setdefault(key, [0] * 5)
                _add(row, counts, sign)
                if sign < 0 and not any(row):
                    del groups[key]
        return self

    def to_json(self) -> dict[str, Any]:
        """The tally as JSON-ready data (see the class docstring)."""
        return {
            "lists": self.lists,
            "top_lists": self.top_lists,
            "events": self.events,
            "cards": {n: {"kind": k, "n": list(c)} for n, (k, c) in self.cards.items()},
            "groups": {code: {k: list(c) for k, c in v.items()} for code, v in self.groups.items()},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Tally:
        """The tally :meth:`to_json` wrote; raises ``KeyError``/``TypeError`` on other data."""
        return cls(
            lists=int(data["lists"]),
            top_lists=int(data["top_lists"]),
            events=int(data["events"]),
            cards={n: (str(v["kind"]), [int(x) for x in v["n"]]) for n, v in data["cards"].items()},
            groups={
                code: {k: [int(x) for x in c] for k, c in values.items()}
                for code, values in data["groups"].items()
            },
        )


def _add(into: list[int], counts: Sequence[int], sign: int = 1) -> None:
    for i, value in enumerate(counts):
        into[i] += sign * int(value)


def _tally_cards(cards: dict[str, tuple[str, list[int]]], deck: MetaList) -> None:
    seen: dict[tuple[str, bool], int] = {}
    kinds: dict[str, str] = {}
    for line in deck.lines:
        key = (line.card.name, line.section in SIDEBOARD_SECTIONS)
        seen[key] = seen.get(key, 0) + line.count
        kinds[line.card.name] = line.card.kind
    for (name, side), copies in seen.items():
        counts = cards.setdefault(name, (kinds[name], [0] * 8))[1]
        base = SIDE if side else MAIN
        counts[base] += 1
        counts[base + 1] += copies
        if deck.top:
            counts[base + 2] += 1
            counts[base + 3] += copies


def tally_event(
    lists: Sequence[MetaList],
    *,
    dimensions: Sequence[str],
    win_dimension: str | None = None,
    results: Mapping[int, Sequence[tuple[int, int]]] | None = None,
) -> Tally:
    """The tally of one event's published lists.

    Args:
        lists: the event's published lists (an entry of a pair event has two).
        dimensions: feature codes of ``DIMENSIONS`` to count (the game's entry).
        win_dimension: the feature match wins are kept by (``None``: none).
        results: entry id → its Swiss matches ``(opponent entry id, outcome)``, outcome ``1``
            win, ``0`` draw, ``-1`` loss; byes left out. Only entries with a published list
            count, and only against opponents with a different value (no mirrors) — an
            opponent without a published list counts as different.

    Raises:
        KeyError: a code not in ``DIMENSIONS``.
    """
    tally = Tally(lists=len(lists), top_lists=sum(1 for d in lists if d.top), events=1)
    for deck in lists:
        _tally_cards(tally.cards, deck)
    for code in dimensions:
        keys = DIMENSIONS[code].keys
        values = tally.groups.setdefault(code, {})
        for deck in lists:
            for key in keys(deck):
                counts = values.setdefault(key, [0] * 5)
                counts[LISTS] += 1
                counts[TOP_LISTS] += int(deck.top)
    if win_dimension is not None and results:
        _tally_wins(tally, lists, DIMENSIONS[win_dimension], results)
    return tally


def _tally_wins(
    tally: Tally,
    lists: Sequence[MetaList],
    dimension: Dimension,
    results: Mapping[int, Sequence[tuple[int, int]]],
) -> None:
    by_entry: dict[int, set[str]] = {}
    for deck in lists:
        by_entry.setdefault(deck.entry, set()).update(dimension.keys(deck))
    values = tally.groups.setdefault(dimension.code, {})
    slot = {1: WINS, -1: LOSSES, 0: DRAWS}
    for entry, keys in by_entry.items():
        for opponent, outcome in results.get(entry, ()):
            theirs = by_entry.get(opponent, set())
            for key in keys - theirs:
                values.setdefault(key, [0] * 5)[slot[outcome]] += 1


@dataclass(frozen=True, slots=True)
class CardRow:
    """One card's statistics: the tally's counts and exact shares.

    ``main_share`` = main lists / all lists; ``main_average`` = main copies / main lists;
    ``main_top_share`` = main top lists / all top lists; ``main_top_of`` (HKKmeta's
    ``Alap top%``) = main top lists / main lists; the ``side_`` fields likewise. A share over
    zero lists is ``Fraction(0)``.
    """

    name: str
    kind: str
    counts: tuple[int, ...]
    main_share: Fraction
    main_average: Fraction
    main_top_share: Fraction
    main_top_of: Fraction
    side_share: Fraction
    side_average: Fraction
    side_top_share: Fraction
    side_top_of: Fraction

    @property
    def total(self) -> int:
        """Lists playing the card in the main deck plus lists playing it in the sideboard."""
        return self.counts[MAIN] + self.counts[SIDE]


@dataclass(frozen=True, slots=True)
class GroupRow:
    """One value of a deck feature: lists and top lists playing it, their shares of all
    lists and of all top lists, its match record, and win % (``None``: fewer than
    ``min_matches`` matches, "too few")."""

    key: str
    lists: int
    share: Fraction
    top_lists: int
    top_share: Fraction
    wins: int
    losses: int
    draws: int
    win_rate: Fraction | None

    @property
    def matches(self) -> int:
        """Matches counted for the win rate."""
        return self.wins + self.losses + self.draws


@dataclass(frozen=True, slots=True)
class MetaReport:
    """A tally read out: totals, card rows (most played first) and each feature's rows."""

    lists: int
    top_lists: int
    events: int
    cards: tuple[CardRow, ...]
    groups: Mapping[str, tuple[GroupRow, ...]]


def _share(part: int, whole: int) -> Fraction:
    return Fraction(part, whole) if whole else Fraction(0)


def _card_row(name: str, kind: str, n: Sequence[int], lists: int, top: int) -> CardRow:
    return CardRow(
        name=name,
        kind=kind,
        counts=tuple(n),
        main_share=_share(n[MAIN], lists),
        main_average=_share(n[MAIN_COPIES], n[MAIN]),
        main_top_share=_share(n[MAIN_TOP], top),
        main_top_of=_share(n[MAIN_TOP], n[MAIN]),
        side_share=_share(n[SIDE], lists),
        side_average=_share(n[SIDE_COPIES], n[SIDE]),
        side_top_share=_share(n[SIDE_TOP], top),
        side_top_of=_share(n[SIDE_TOP], n[SIDE]),
    )


def _group_row(key: str, n: Sequence[int], lists: int, top: int, min_matches: int) -> GroupRow:
    matches = n[WINS] + n[LOSSES] + n[DRAWS]
    return GroupRow(
        key=key,
        lists=n[LISTS],
        share=_share(n[LISTS], lists),
        top_lists=n[TOP_LISTS],
        top_share=_share(n[TOP_LISTS], top),
        wins=n[WINS],
        losses=n[LOSSES],
        draws=n[DRAWS],
        win_rate=_share(n[WINS], matches) if matches and matches >= min_matches else None,
    )


def report(tally: Tally, *, min_matches: int) -> MetaReport:
    """Read ``tally`` out: card rows by lists playing them (main + sideboard) descending, then
    name; feature rows by lists descending, then value. ``min_matches``: the smallest number
    of matches a win rate is shown for."""
    cards = sorted(
        (
            _card_row(name, kind, n, tally.lists, tally.top_lists)
            for name, (kind, n) in tally.cards.items()
        ),
        key=lambda r: (-r.total, r.name.casefold(), r.name),
    )
    groups = {
        code: tuple(
            sorted(
                (
                    _group_row(k, n, tally.lists, tally.top_lists, min_matches)
                    for k, n in values.items()
                ),
                key=lambda r: (-r.lists, -r.matches, r.key.casefold(), r.key),
            )
        )
        for code, values in tally.groups.items()
    }
    return MetaReport(tally.lists, tally.top_lists, tally.events, tuple(cards), groups)


def round_half_up(value: Fraction, digits: int) -> Fraction:
    """``value`` rounded to ``digits`` decimals, halves away from zero (as a spreadsheet's
    ``ROUND``), exactly."""
    scale = 10**digits
    scaled = abs(value) * scale
    rounded = Fraction(int(scaled + Fraction(1, 2)), scale)
    return rounded if value >= 0 else -rounded


def hkkmeta_percent(share: Fraction) -> str:
    """A share as HKKmeta's CSV writes it: per cent, two decimals rounded half up, trailing
    zeros and point dropped, decimal *point* (its reader parses ``Number("23.68")``):
    ``Fraction(9, 38)`` → ``"23.68%"``, ``Fraction(1, 2)`` → ``"50%"``, ``0`` → ``"0%"``."""
    hundredths = int(round_half_up(share * 100, 2) * 100)  # exact: the rounding left no more
    whole, cents = divmod(hundredths, 100)
    if not cents:
        return f"{whole}%"
    return f"{whole}.{cents:02d}".rstrip("0") + "%"


def hkkmeta_rows(rows: Iterable[CardRow]) -> list[list[str]]:
    """HKKmeta's CSV rows for ``rows`` (kept in their order): header ``["", "Lap",
    "Alap összesen", "Alap top%", "Side összesen", "Side top%"]``, then ``["1.", name, main
    lists, Alap top%, sideboard lists, Side top%]`` … (kissgabormatyas/HKKmeta,
    ``data/topcards-classic.csv``)."""
    out = [["", "Lap", "Alap összesen", "Alap top%", "Side összesen", "Side top%"]]
    for number, row in enumerate(rows, start=1):
        out.append(
            [
                f"{number}.",
                row.name,
                str(row.counts[MAIN]),
                hkkmeta_percent(row.main_top_of),
                str(row.counts[SIDE]),
                hkkmeta_percent(row.side_top_of),
            ]
        )
    return out
