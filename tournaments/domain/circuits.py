"""Circuits (seasons of events): points by placement and field size, event tiers as
multipliers, best-N results, minimum attendance, tie-breaks, the season standings and the
league gates checked at registration. Pure Python, exact arithmetic (``Fraction``).

A *person* is an opaque key (``str``) given by the caller: the same person across the events
of a season has the same key. Placements are 1-based (1 = winner); a field size is the number
of entries ranked in the event.

Sources: docs/rules.md §19 (Circuits, season standings and league gates). The HKK preset
(:func:`hkk_preset`) has the structure of the publisher's HSZ points, profi points and the
three leagues (Kezdő, Amatőr, Profi Liga); its numbers are placeholders to be edited, because
the publisher's formulas are not public.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from tournaments.domain.types import gettext_noop

Person = str


class CircuitConfigError(ValueError):
    """A circuit setting that cannot be read: ``code`` (stable) and ``params`` (the line, the
    text)."""

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


def parse_number(text: str) -> Fraction:
    """``"1,5"`` / ``"1.5"`` / ``"3/2"`` → ``Fraction(3, 2)``; a decimal comma is accepted.
    Raises ``CircuitConfigError("invalid_number", text=…)`` for anything else or a negative."""
    try:
        value = Fraction(text.strip().replace(",", "."))
    except (ValueError, ZeroDivisionError):
        raise CircuitConfigError("invalid_number", text=text) from None
    if value < 0:
        raise CircuitConfigError("invalid_number", text=text)
    return value


def number_text(value: Fraction) -> str:
    """A number as an editable text: an integer plainly, else its decimal (at most 4 places,
    exact when it terminates) with a decimal point."""
    if value.denominator == 1:
        return str(value.numerator)
    text = f"{float(value):.4f}".rstrip("0").rstrip(".")
    return text


@dataclass(frozen=True, slots=True)
class PointsBand:
    """The points of events with at least ``min_field`` entries (up to the next band):
    ``points[i]`` for placement ``i + 1``, ``participation`` for every later placement."""

    min_field: int
    points: tuple[Fraction, ...]
    participation: Fraction = Fraction(0)


@dataclass(frozen=True, slots=True)
class PointsTable:
    """Points by placement and field size: the band with the largest ``min_field`` not above
    the field size applies; a field smaller than every band gives no points."""

    bands: tuple[PointsBand, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "bands", tuple(sorted(self.bands, key=lambda b: b.min_field)))

    def points_for(self, placement: int, field_size: int) -> Fraction:
        """Points (before the tier multiplier) of ``placement`` in a field of ``field_size``."""
        band = None
        for candidate in self.bands:
            if candidate.min_field > field_size:
                break
            band = candidate
        if band is None or placement < 1:
            return Fraction(0)
        if placement <= len(band.points):
            return band.points[placement - 1]
        return band.participation

    def to_json(self) -> list[dict[str, object]]:
        """``[{"min_field": int, "points": [str, …], "participation": str}]`` (exact strings)."""
        return [
            {
                "min_field": b.min_field,
                "points": [str(p) for p in b.points],
                "participation": str(b.participation),
            }
            for b in sorted(self.bands, key=lambda b: b.min_field)
        ]

    @classmethod
    def from_json(cls, data: Sequence[Mapping[str, object]]) -> PointsTable:
        """The inverse of :meth:`to_json`."""
        return cls(
            tuple(
                PointsBand(
                    int(str(b["min_field"])),
                    tuple(Fraction(str(p)) for p in _list(b.get("points"))),
                    Fraction(str(b.get("participation", "0"))),
                )
                for b in data
            )
        )

    def to_text(self) -> str:
        """One line per band: ``min_field: p1 p2 p3 … | participation``
        (:func:`parse_points_table`)."""
        return "\n".join(
            f"{b.min_field}: {' '.join(number_text(p) for p in b.points)}"
            f" | {number_text(b.participation)}"
            for b in sorted(self.bands, key=lambda b: b.min_field)
        )


def _list(value: object) -> list[object]:
    return list(value) if isinstance(value, list | tuple) else []


def parse_points_table(text: str) -> PointsTable:
    """Read the editable table: one band a line, ``MIN_FIELD: P1 P2 … [| PARTICIPATION]``
    (``16: 20 16 12 10 | 1``: events of 16 or more entries, 20 points for the winner, 1 for
    every placement after the 4th). Empty lines are ignored.

    Raises ``CircuitConfigError`` ``points_line`` (line, text), ``invalid_number`` (text),
    ``points_duplicate_band`` (min_field), ``points_empty``."""
    bands: list[PointsBand] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        head, sep, rest = line.partition(":")
        if not sep or not head.strip().isdigit() or int(head) < 1:
            raise CircuitConfigError("points_line", line=number, text=line)
        placed, _bar, participation = rest.partition("|")
        points = tuple(parse_number(p) for p in placed.split())
        extra = parse_number(participation) if participation.strip() else Fraction(0)
        if any(b.min_field == int(head) for b in bands):
            raise CircuitConfigError("points_duplicate_band", min_field=int(head))
        bands.append(PointsBand(int(head), points, extra))
    if not bands:
        raise CircuitConfigError("points_empty")
    return PointsTable(tuple(sorted(bands, key=lambda b: b.min_field)))


@dataclass(frozen=True, slots=True)
class Tier:
    """An event tier: its stable ``code``, ``label`` (as the owner typed it) and the
    ``multiplier`` of the points its events give."""

    code: str
    label: str
    multiplier: Fraction


def parse_tiers(text: str) -> tuple[Tier, ...]:
    """One tier a line: ``CODE MULTIPLIER LABEL…`` (``national 2 Országos``). The code is a
    word of letters, digits, ``-`` or ``_``.

    Raises ``CircuitConfigError`` ``tier_line`` (line, text), ``invalid_number``,
    ``tier_duplicate`` (tier), ``tiers_empty``."""
    tiers: list[Tier] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        parts = raw.split(None, 2)
        if not parts:
            continue
        code = parts[0]
        if len(parts) < 2 or not code.replace("-", "").replace("_", "").isalnum():
            raise CircuitConfigError("tier_line", line=number, text=raw.strip())
        if any(t.code == code for t in tiers):
            raise CircuitConfigError("tier_duplicate", tier=code)
        label = parts[2].strip() if len(parts) > 2 else code
        tiers.append(Tier(code, label, parse_number(parts[1])))
    if not tiers:
        raise CircuitConfigError("tiers_empty")
    return tuple(tiers)


def tiers_text(tiers: Iterable[Tier]) -> str:
    """The editable text of ``tiers`` (see :func:`parse_tiers`)."""
    return "\n".join(f"{t.code} {number_text(t.multiplier)} {t.label}" for t in tiers)


@dataclass(frozen=True, slots=True)
class EventResult:
    """One person's result in one event of the season: ``placement`` of ``field_size``,
    the event's tier ``multiplier``; ``order`` sorts the events (date, then id)."""

    event: int
    person: Person
    placement: int
    field_size: int
    multiplier: Fraction = Fraction(1)
    order: tuple[object, ...] = ()


@dataclass(frozen=True, slots=True)
class ScoredResult:
    """An :class:`EventResult` with its ``points`` (table × multiplier) and whether it is one
    of the person's best N (``counted``)."""

    result: EventResult
    points: Fraction
    counted: bool


@dataclass(frozen=True, slots=True)
class SeasonTiebreak:
    """A registered season tie-break: ``code``, ``label`` (English msgid), ``compute`` of the
    person's scored results, ``higher_is_better``."""

    code: str
    label: str
    compute: Callable[[Sequence[ScoredResult]], Fraction]
    higher_is_better: bool = True


def _best_finish(results: Sequence[ScoredResult]) -> Fraction:
    return Fraction(min((r.result.placement for r in results), default=0))


SEASON_TIEBREAKS: dict[str, SeasonTiebreak] = {
    t.code: t
    for t in (
        SeasonTiebreak(
            "wins",
            gettext_noop("Event wins"),
            lambda rs: Fraction(sum(1 for r in rs if r.result.placement == 1)),
        ),
        SeasonTiebreak("best_finish", gettext_noop("Best placement"), _best_finish, False),
        SeasonTiebreak(
            "all_points",
            gettext_noop("Points of every event (not only the best)"),
            lambda rs: sum((r.points for r in rs), Fraction(0)),
        ),
        SeasonTiebreak(
            "events_played", gettext_noop("Events played"), lambda rs: Fraction(len(rs))
        ),
        SeasonTiebreak(
            "fewer_events",
            gettext_noop("Fewer events played"),
            lambda rs: Fraction(len(rs)),
            False,
        ),
    )
}


@dataclass(frozen=True, slots=True)
class SeasonRules:
    """How a season is scored: the points ``table``, ``best_n`` results counted (``None``:
    all), ``min_events`` to be ranked (fewer: listed after the ranked, without a rank), and the
    ``tiebreaks`` in order (codes of :data:`SEASON_TIEBREAKS`)."""

    table: PointsTable
    best_n: int | None = None
    min_events: int = 0
    tiebreaks: tuple[str, ...] = ("wins", "best_finish", "all_points")


@dataclass(frozen=True, slots=True)
class SeasonRow:
    """One person's line of the season standings: ``rank`` (``None`` below the minimum
    attendance; equal points and tie-breaks share a rank), counted ``points``,
    ``events_played``, the ``results`` (best first, ``counted`` marked) and the
    ``tiebreaks`` values by code."""

    rank: int | None
    person: Person
    points: Fraction
    events_played: int
    results: tuple[ScoredResult, ...]
    tiebreaks: dict[str, Fraction] = field(default_factory=dict)

    @property
    def qualified(self) -> bool:
        """Ranked: the person played at least the minimum number of events."""
        return self.rank is not None


def score_results(rules: SeasonRules, results: Sequence[EventResult]) -> list[ScoredResult]:
    """One person's results with their points, the best ``rules.best_n`` marked counted
    (more points first; on equal points the earlier event). Best first."""
    scored = []
    for r in results:
        points = rules.table.points_for(r.placement, r.field_size)
        scored.append((points if r.multiplier == 1 else points * r.multiplier, r))
    scored.sort(key=lambda pr: (-pr[0], pr[1].order, pr[1].event))
    limit = len(scored) if rules.best_n is None else rules.best_n
    return [ScoredResult(r, p, i < limit) for i, (p, r) in enumerate(scored)]


def season_standings(rules: SeasonRules, results: Iterable[EventResult]) -> list[SeasonRow]:
    """The season standings of ``results`` (any order): counted points (best N), then the
    tie-breaks in order; persons below ``min_events`` follow the ranked ones without a rank.
    Competition ranking: equal keys share a rank, the next rank skips (1, 1, 3).

    Raises ``CircuitConfigError("unknown_tiebreak", tiebreak=…)`` for an unregistered tie-break.
    """
    breaks = []
    for code in rules.tiebreaks:
        if code not in SEASON_TIEBREAKS:
            raise CircuitConfigError("unknown_tiebreak", tiebreak=code)
        breaks.append(SEASON_TIEBREAKS[code])
    by_person: dict[Person, list[EventResult]] = {}
    for r in results:
        by_person.setdefault(r.person, []).append(r)
    rows: list[tuple[tuple[object, ...], SeasonRow]] = []
    for person, own in by_person.items():
        scored = score_results(rules, own)
        points = sum((s.points for s in scored if s.counted), Fraction(0))
        values = {t.code: t.compute(scored) for t in breaks}
        key: tuple[object, ...] = (
            -points,
            *(-values[t.code] if t.higher_is_better else values[t.code] for t in breaks),
        )
        ranked = len(own) >= rules.min_events
        row = SeasonRow(None, person, points, len(own), tuple(scored), values)
        rows.append(((not ranked, key), row))
    rows.sort(key=lambda kr: (kr[0], kr[1].person))
    out: list[SeasonRow] = []
    previous: tuple[object, ...] | None = None
    rank = 0
    for position, (key, row) in enumerate(rows, start=1):
        if key[0]:  # below the minimum attendance
            out.append(row)
            continue
        if key != previous:
            rank, previous = position, key
        out.append(
            SeasonRow(rank, row.person, row.points, row.events_played, row.results, row.tiebreaks)
        )
    return out


@dataclass(frozen=True, slots=True)
class LeagueGate:
    """Who may enter a league's events, measured on a season's standings: counted points in
    ``[min_points, max_points]`` and events played in ``[min_events, max_events]`` (``None``:
    no bound; both bounds inclusive). A person on the explicit list (``listed``) is always
    admitted; with ``listed_only`` nobody else is."""

    min_points: Fraction | None = None
    max_points: Fraction | None = None
    min_events: int | None = None
    max_events: int | None = None
    listed_only: bool = False


@dataclass(frozen=True, slots=True)
class GateRefusal:
    """Why a person may not enter: a stable ``code`` and its ``params`` (the bound, the
    person's value)."""

    code: str
    params: dict[str, str]


def gate_check(
    gate: LeagueGate, *, points: Fraction, events: int, listed: bool
) -> GateRefusal | None:
    """``None`` when a person with season ``points`` and ``events`` played (on the explicit
    list or not) may enter, else the first refusal: ``league_list_only``,
    ``league_points_above`` / ``league_points_below``, ``league_events_above`` /
    ``league_events_below`` (params ``limit`` and ``value``, as texts)."""
    if listed:
        return None
    if gate.listed_only:
        return GateRefusal("league_list_only", {})
    checks: tuple[tuple[str, Fraction | int | None, Fraction | int, bool], ...] = (
        ("league_points_above", gate.max_points, points, True),
        ("league_points_below", gate.min_points, points, False),
        ("league_events_above", gate.max_events, events, True),
        ("league_events_below", gate.min_events, events, False),
    )
    for code, limit, value, upper in checks:
        if limit is None:
            continue
        if (value > limit) if upper else (value < limit):
            return GateRefusal(
                code, {"limit": number_text(Fraction(limit)), "value": number_text(Fraction(value))}
            )
    return None


@dataclass(frozen=True, slots=True)
class PresetLeague:
    """A league of a preset: its ``name``, the preset circuit whose standings it is measured
    on (``measured_on``: an index into :attr:`Preset.circuits`) and its ``gate``."""

    name: str
    measured_on: int
    gate: LeagueGate


@dataclass(frozen=True, slots=True)
class PresetCircuit:
    """A circuit of a preset: ``name`` (English msgid), its ``rules`` and ``tiers``."""

    name: str
    rules: SeasonRules
    tiers: tuple[Tier, ...]


@dataclass(frozen=True, slots=True)
class Preset:
    """Circuits made together (``circuits``) and the ``leagues`` of the first one."""

    circuits: tuple[PresetCircuit, ...]
    leagues: tuple[PresetLeague, ...]


def _band(min_field: int, *points: int, participation: int = 0) -> PointsBand:
    return PointsBand(min_field, tuple(Fraction(p) for p in points), Fraction(participation))


def hkk_preset() -> Preset:
    """The structure of the HKK publisher's ranking: HSZ points (every event, participation
    counts, best 10), profi points (the top of larger and higher-tier events) and three
    leagues: Kezdő Liga (at most 5 events and 30 HSZ points), Amatőr Liga (fewer than 10 profi
    points) and Profi Liga (at least 10 profi points, or on the list). Every number is a
    placeholder to edit: the publisher's formulas are not public (docs/rules.md §19)."""
    tiers = (
        Tier("local", gettext_noop("Local"), Fraction(1)),
        Tier("regional", gettext_noop("Regional"), Fraction(3, 2)),
        Tier("national", gettext_noop("National"), Fraction(2)),
        Tier("championship", gettext_noop("Championship"), Fraction(3)),
    )
    hsz = SeasonRules(
        PointsTable(
            (
                _band(1, 5, 4, 3, 2, participation=1),
                _band(8, 10, 8, 6, 5, 4, 3, 2, 2, participation=1),
                _band(16, 15, 12, 10, 8, 6, 6, 5, 5, participation=2),
                _band(32, 20, 16, 13, 11, 9, 9, 7, 7, participation=2),
            )
        ),
        best_n=10,
        min_events=1,
    )
    profi = SeasonRules(
        PointsTable(
            (
                _band(8, 3, 2, 1, 1),
                _band(16, 5, 3, 2, 2, 1, 1, 1, 1),
                _band(32, 8, 5, 3, 3, 2, 2, 2, 2),
            )
        ),
        best_n=None,
        min_events=1,
    )
    return Preset(
        circuits=(
            PresetCircuit(gettext_noop("HSZ points"), hsz, tiers),
            PresetCircuit(gettext_noop("Profi points"), profi, tiers),
        ),
        leagues=(
            PresetLeague(
                gettext_noop("Beginners' League"),
                0,
                LeagueGate(max_points=Fraction(30), max_events=5),
            ),
            PresetLeague(gettext_noop("Amateur League"), 1, LeagueGate(max_points=Fraction(9))),
            PresetLeague(gettext_noop("Pro League"), 1, LeagueGate(min_points=Fraction(10))),
        ),
    )
