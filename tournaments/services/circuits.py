"""Circuits: create a season (or the HKK preset), edit its points table, tiers, best-N,
minimum attendance and tie-breaks, its leagues and their gates; events ask to join and the
owner accepts or refuses; the season standings (page, CSV, API) and the league gate checked
at registration; OpenSkill ratings recomputed in a background job; the player's profile
setting.

Every write takes the actor (``by``) and checks the role on the object: the circuit's owner
edits it and decides requests; an organiser of the event asks to join. Join decisions lock the
circuit row. Sources: docs/rules.md §19 (Circuits, season standings and league gates).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from hkk_tournament.errors import InvalidState, NotFound, PermissionDenied, ValidationFailed
from tournaments import selectors
from tournaments.domain import circuits as domain
from tournaments.domain.names import normalise_name
from tournaments.domain.ratings import RatedMatch, rate_matches
from tournaments.models import (
    Circuit,
    CircuitEvent,
    CircuitRating,
    EntryMember,
    League,
    Player,
    PlayerProfile,
    Tournament,
)
from tournaments.permissions import can_manage
from tournaments.selectors.profiles import (
    HistoryRow,
    person_key,
    person_keys_of,
    player_history,
    user_display_name,
)
from tournaments.services.csv_files import SafeCsvWriter
from tournaments.services.jobs import enqueue_circuit_ratings
from tournaments.services.standings import standings_stored_rows

ACCEPTED = CircuitEvent.Status.ACCEPTED

#: Messages of the domain's configuration errors (code → translated text with its params).
CONFIG_MESSAGES = {
    "points_line": _("Line %(line)s of the points table is not “field size: points …”."),
    "invalid_number": _("“%(text)s” is not a number that is zero or more."),
    "points_duplicate_band": _("The field size %(min_field)s is given twice."),
    "points_empty": _("The points table needs at least one line."),
    "tier_line": _("Line %(line)s of the tiers is not “code multiplier name”."),
    "tier_duplicate": _("The tier %(tier)s is given twice."),
    "tiers_empty": _("At least one tier is needed."),
    "unknown_tiebreak": _("Unknown tie-break: %(tiebreak)s."),
}

#: Reasons a league gate refuses (``domain.gate_check`` codes) as translated texts.
GATE_MESSAGES = {
    "league_list_only": _("%(name)s is not on the list of players of the %(league)s."),
    "league_points_above": _(
        "%(name)s cannot enter the %(league)s: %(value)s points in %(circuit)s, at most "
        "%(limit)s are allowed."
    ),
    "league_points_below": _(
        "%(name)s cannot enter the %(league)s: %(value)s points in %(circuit)s, at least "
        "%(limit)s are needed."
    ),
    "league_events_above": _(
        "%(name)s cannot enter the %(league)s: %(value)s events played in %(circuit)s, at most "
        "%(limit)s are allowed."
    ),
    "league_events_below": _(
        "%(name)s cannot enter the %(league)s: %(value)s events played in %(circuit)s, at "
        "least %(limit)s are needed."
    ),
}


def _config_error(exc: domain.CircuitConfigError, field_name: str) -> ValidationFailed:
    message = str(CONFIG_MESSAGES[exc.code]) % exc.params
    return ValidationFailed(exc.code, message, dict(exc.params), fields={field_name: [message]})


@dataclass(frozen=True, slots=True)
class CircuitSettings:
    """The editable settings of a circuit. ``points_text``: the table (one band a line,
    ``field size: points … | participation``); ``tiers_text``: ``code multiplier name`` a line;
    ``best_n`` (``None``: all); ``min_events``; ``tiebreaks``: codes in order."""

    name: str
    description: str = ""
    points_text: str = "1: 3 2 1"
    tiers_text: str = "normal 1 Normal"
    best_n: int | None = None
    min_events: int = 0
    tiebreaks: Sequence[str] = ("wins", "best_finish", "all_points")
    ratings_enabled: bool = False
    is_public: bool = True


def _apply(circuit: Circuit, data: CircuitSettings) -> None:
    if not data.name.strip():
        raise ValidationFailed(
            "invalid_value", _("A circuit needs a name."), {}, fields={"name": [_("Required.")]}
        )
    try:
        table = domain.parse_points_table(data.points_text)
    except domain.CircuitConfigError as exc:
        raise _config_error(exc, "points_text") from None
    try:
        tiers = domain.parse_tiers(data.tiers_text)
    except domain.CircuitConfigError as exc:
        raise _config_error(exc, "tiers_text") from None
    unknown = [c for c in data.tiebreaks if c not in domain.SEASON_TIEBREAKS]
    if unknown:
        raise _config_error(
            domain.CircuitConfigError("unknown_tiebreak", tiebreak=unknown[0]), "tiebreaks"
        )
    circuit.name = data.name.strip()
    circuit.description = data.description.strip()
    circuit.points_table = table.to_json()
    circuit.tiers = [
        {"code": t.code, "label": t.label, "multiplier": str(t.multiplier)} for t in tiers
    ]
    circuit.best_n = data.best_n or None
    circuit.min_events = data.min_events
    circuit.tiebreaks = list(data.tiebreaks)
    circuit.ratings_enabled = data.ratings_enabled
    circuit.is_public = data.is_public


@transaction.atomic
def circuit_create(*, owner: Any, game: Any, data: CircuitSettings) -> Circuit:
    """A new circuit of ``game`` owned by ``owner`` (a signed-in user).

    Raises ``PermissionDenied("login_required")``, ``ValidationFailed`` (``invalid_value`` and
    the configuration codes of :data:`CONFIG_MESSAGES`)."""
    _require_user(owner)
    circuit = Circuit(owner=owner, game=game)
    _apply(circuit, data)
    circuit.save()
    return circuit


@transaction.atomic
def circuit_update(*, circuit: Circuit, actor: Any, data: CircuitSettings) -> Circuit:
    """Change the settings of ``circuit`` (its owner only); the standings follow at once, the
    ratings are recomputed when enabled.

    Raises ``PermissionDenied("not_circuit_owner")``, ``ValidationFailed`` as
    :func:`circuit_create`."""
    circuit = _lock_owned(circuit, actor)
    _apply(circuit, data)
    circuit.save()
    if circuit.ratings_enabled:
        enqueue_circuit_ratings(circuit.pk)
    return circuit


@transaction.atomic
def circuit_create_hkk_preset(*, owner: Any, game: Any, season: str) -> list[Circuit]:
    """The HKK preset (``domain.hkk_preset``): the HSZ points and profi points circuits of
    ``season`` (e.g. "2026") and the Kezdő, Amatőr and Profi Liga on the first, every number
    editable and the page noting that the publisher's formulas are not public. Returns the
    circuits, HSZ first.

    Raises ``PermissionDenied("login_required")``."""
    _require_user(owner)
    preset = domain.hkk_preset()
    made: list[Circuit] = []
    for spec in preset.circuits:
        circuit = Circuit.objects.create(
            owner=owner,
            game=game,
            name=f"{gettext(spec.name)} {season}".strip(),
            points_table=spec.rules.table.to_json(),
            tiers=[
                {"code": t.code, "label": gettext(t.label), "multiplier": str(t.multiplier)}
                for t in spec.tiers
            ],
            best_n=spec.rules.best_n,
            min_events=spec.rules.min_events,
            tiebreaks=list(spec.rules.tiebreaks),
            formulas_unpublished=True,
        )
        made.append(circuit)
    for spec_league in preset.leagues:
        gate = spec_league.gate
        League.objects.create(
            circuit=made[0],
            name=gettext(spec_league.name),
            measured_on=made[spec_league.measured_on],
            min_points=_decimal(gate.min_points),
            max_points=_decimal(gate.max_points),
            min_events=gate.min_events,
            max_events=gate.max_events,
        )
    return made


def _decimal(value: Fraction | None) -> Decimal | None:
    return None if value is None else Decimal(value.numerator) / Decimal(value.denominator)


@dataclass(frozen=True, slots=True)
class LeagueData:
    """A league's settings: ``name``, the circuit whose standings are measured
    (``measured_on``: the league's own or another circuit of the same owner), the bounds
    (``None``: none), ``listed_only`` and the explicit list (``listed_names``, names)."""

    name: str
    measured_on: Circuit | None = None
    min_points: Decimal | None = None
    max_points: Decimal | None = None
    min_events: int | None = None
    max_events: int | None = None
    listed_only: bool = False
    listed_names: Sequence[str] = field(default_factory=tuple)


@transaction.atomic
def league_save(
    *, circuit: Circuit, actor: Any, data: LeagueData, league: League | None = None
) -> League:
    """Create (``league`` ``None``) or change a league of ``circuit`` (its owner only).

    Raises ``PermissionDenied("not_circuit_owner")``, ``ValidationFailed("invalid_value")``
    (no name; measured on a circuit of another owner), ``NotFound("league_not_found")``."""
    circuit = _lock_owned(circuit, actor)
    measured = data.measured_on or circuit
    if not data.name.strip() or measured.owner_id != circuit.owner_id:
        raise ValidationFailed(
            "invalid_value",
            _("A league needs a name and is measured on one of your circuits."),
            {},
            fields={"name": [_("Required.")]},
        )
    if league is None:
        league = League(circuit=circuit)
    elif league.circuit_id != circuit.pk:
        raise NotFound("league_not_found", _("No such league in this circuit."), {})
    league.name = data.name.strip()
    league.measured_on = measured
    league.min_points, league.max_points = data.min_points, data.max_points
    league.min_events, league.max_events = data.min_events, data.max_events
    league.listed_only = data.listed_only
    league.listed_names = "\n".join(n.strip() for n in data.listed_names if n.strip())
    league.save()
    return league


@transaction.atomic
def circuit_event_request(
    *, circuit: Circuit, tournament: Tournament, actor: Any, tier: str, league: League | None = None
) -> CircuitEvent:
    """An organiser of ``tournament`` asks for it to count in ``circuit`` with ``tier`` (and,
    optionally, as an event of ``league``, whose gate registration then checks). Accepted at
    once when the requester owns the circuit; a refused request may be asked again.

    Raises ``PermissionDenied("not_organiser")``, ``ValidationFailed`` ``unknown_tier``,
    ``wrong_game`` (the event's game is not the circuit's), ``league_not_found``;
    ``InvalidState("already_in_circuit")`` (requested or accepted already)."""
    circuit = Circuit.objects.select_for_update().get(pk=circuit.pk)
    if not can_manage(actor, tournament):
        raise PermissionDenied(
            "not_organiser", _("Only an organiser of the event may ask to join a circuit."), {}
        )
    if tier not in {t.code for t in circuit.tier_list}:
        raise ValidationFailed(
            "unknown_tier",
            _("Choose one of the circuit's tiers."),
            {"tier": tier},
            fields={"tier": [_("Choose one of the circuit's tiers.")]},
        )
    if tournament.format.game_id != circuit.game_id:
        raise ValidationFailed(
            "wrong_game", _("The event is of another game than the circuit."), {}
        )
    if league is not None and league.circuit_id != circuit.pk:
        raise ValidationFailed("league_not_found", _("No such league in this circuit."), {})
    link = CircuitEvent.objects.filter(circuit=circuit, tournament=tournament).first()
    if link is not None and link.status != CircuitEvent.Status.REFUSED:
        raise InvalidState(
            "already_in_circuit", _("The event has already asked to join this circuit."), {}
        )
    link = link or CircuitEvent(circuit=circuit, tournament=tournament)
    link.tier, link.league, link.requested_by = tier, league, actor
    link.status, link.decided_by, link.decided_at = CircuitEvent.Status.REQUESTED, None, None
    link.save()
    if circuit.owner_id == getattr(actor, "pk", None):
        _decide(circuit, link, actor, accept=True)
    return link


@transaction.atomic
def circuit_event_decide(*, link: CircuitEvent, actor: Any, accept: bool) -> CircuitEvent:
    """The circuit's owner accepts or refuses an event's request (or takes an accepted event
    out again with ``accept=False``).

    Raises ``PermissionDenied("not_circuit_owner")``."""
    circuit = _lock_owned(link.circuit, actor)
    link = CircuitEvent.objects.select_for_update().get(pk=link.pk)
    return _decide(circuit, link, actor, accept=accept)


def _decide(circuit: Circuit, link: CircuitEvent, by: Any, *, accept: bool) -> CircuitEvent:
    link.status = CircuitEvent.Status.ACCEPTED if accept else CircuitEvent.Status.REFUSED
    link.decided_by, link.decided_at = by, timezone.now()
    link.save(update_fields=["status", "decided_by", "decided_at"])
    if circuit.ratings_enabled:
        enqueue_circuit_ratings(circuit.pk)
    return link


def _require_user(user: Any) -> None:
    if not getattr(user, "is_authenticated", False):
        raise PermissionDenied("login_required", _("Log in first."), {})


def _lock_owned(circuit: Circuit, by: Any) -> Circuit:
    circuit = Circuit.objects.select_for_update().get(pk=circuit.pk)
    if circuit.owner_id != getattr(by, "pk", None):
        raise PermissionDenied(
            "not_circuit_owner", _("Only the owner of the circuit may do this."), {}
        )
    return circuit


# --- season standings (reads) ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeasonData:
    """The season of a circuit: its ``rows`` (domain rows), person ``names``, the counted
    ``events`` (finished, accepted; oldest first) and ``users`` (person key → user id)."""

    rows: list[domain.SeasonRow]
    names: dict[str, str]
    events: list[Tournament]
    users: dict[str, int]


def _counted_links(circuit: Circuit) -> list[CircuitEvent]:
    links = circuit.links.filter(status=ACCEPTED, tournament__status=Tournament.Status.FINISHED)
    return list(
        links.select_related("tournament").order_by(
            "tournament__starts_at", "tournament__finished_at", "tournament_id"
        )
    )


def _members(tournament: Tournament) -> dict[int, list[tuple[str, str, int | None]]]:
    """entry id → [(person key, name, user id)] of its members."""
    out: dict[int, list[tuple[str, str, int | None]]] = {}
    members = EntryMember.objects.filter(tournament=tournament).select_related("player__user")
    for m in members.order_by("entry_id", "seat"):
        p = m.player
        key = person_key(user_id=p.user_id, name_key=p.name_key)
        name = user_display_name(p.user) if p.user is not None else p.display_name
        out.setdefault(m.entry_id, []).append((key, name, p.user_id))
    return out


def circuit_season(*, circuit: Circuit) -> SeasonData:
    """The season standings of ``circuit`` from the final standings of its accepted, finished
    events (a pair team's placement counts for both players). Read-only.

    Raises ``ValidationFailed("unknown_tiebreak")`` for a stored tie-break no longer known."""
    tiers = {t.code: t.multiplier for t in circuit.tier_list}
    results: list[domain.EventResult] = []
    names: dict[str, str] = {}
    users: dict[str, int] = {}
    events = []
    for link in _counted_links(circuit):
        t = link.tournament
        events.append(t)
        rows = standings_stored_rows(tournament=t, snapshot=selectors.standings_snapshot(t))
        members = _members(t)
        order = (t.starts_at or t.finished_at, t.pk)
        multiplier = tiers.get(link.tier, Fraction(1))
        for row in rows:
            for key, name, user_id in members.get(row["entry"], []):
                names[key] = name
                if user_id is not None:
                    users[key] = user_id
                results.append(
                    domain.EventResult(t.pk, key, int(row["rank"]), len(rows), multiplier, order)
                )
    try:
        season = domain.season_standings(circuit.rules, results)
    except domain.CircuitConfigError as exc:
        raise _config_error(exc, "tiebreaks") from None
    return SeasonData(season, names, events, users)


def circuit_standings_csv(*, circuit: Circuit) -> str:
    """The season standings as CSV (``SafeCsvWriter``): rank, name, points, events played,
    then one column per tie-break and per counted event (its points, empty when not played;
    points not counted among the best N in brackets). Decimal comma in Hungarian."""
    season = circuit_season(circuit=circuit)
    out = io.StringIO()
    writer = SafeCsvWriter(out)
    breaks = [domain.SEASON_TIEBREAKS[c] for c in circuit.rules.tiebreaks]
    writer.writerow(
        [gettext("Rank"), gettext("Name"), gettext("Points"), gettext("Events played")]
        + [gettext(t.label) for t in breaks]
        + [t.name for t in season.events]
    )
    for row in season.rows:
        by_event = {s.result.event: s for s in row.results}
        cells = []
        for t in season.events:
            s = by_event.get(t.pk)
            text = "" if s is None else number_display(s.points)
            cells.append(text if s is None or s.counted else f"({text})")
        writer.writerow(
            [row.rank or "", season.names.get(row.person, row.person), number_display(row.points)]
            + [row.events_played]
            + [number_display(row.tiebreaks[t.code]) for t in breaks]
            + cells
        )
    return out.getvalue()


def number_display(value: Fraction) -> str:
    """A number for people: integers plainly, else two decimals with the language's decimal
    separator."""
    if value.denominator == 1:
        return str(value.numerator)
    return number_format(Decimal(value.numerator) / Decimal(value.denominator), 2)


# --- league gate at registration -------------------------------------------------------------


def league_gate_check(*, tournament: Tournament, players: Sequence[Player]) -> None:
    """Refuse a registration for an event of a league when a player does not pass the gate
    (points and events played in the league's measured circuit, or the explicit list; a
    person's account and name results both count, the larger of each). Called by the
    registration services inside their transaction.

    Raises ``InvalidState("league_gate_refused")`` with params ``reason`` (the domain's
    refusal code), ``league``, ``player``, ``limit``, ``value``."""
    links = CircuitEvent.objects.filter(
        tournament=tournament, status=ACCEPTED, league__isnull=False
    ).select_related("league__measured_on")
    seasons: dict[int, dict[str, domain.SeasonRow]] = {}
    for link in links:
        league = link.league
        assert league is not None
        measured = league.measured_on
        if measured.pk not in seasons:
            rows = circuit_season(circuit=measured).rows
            seasons[measured.pk] = {r.person: r for r in rows}
        listed = {normalise_name(n) for n in league.listed_names.splitlines() if n.strip()}
        for player in players:
            _gate_one(league, measured, seasons[measured.pk], listed, player)


def _gate_one(
    league: League,
    measured: Circuit,
    season: dict[str, domain.SeasonRow],
    listed: set[str],
    player: Player,
) -> None:
    rows = [season[k] for k in person_keys_of(player) if k in season]
    points = max((r.points for r in rows), default=Fraction(0))
    events = max((r.events_played for r in rows), default=0)
    names = {player.name_key}
    if player.user is not None:
        names.add(normalise_name(user_display_name(player.user)))
    refusal = domain.gate_check(
        league.gate, points=points, events=events, listed=bool(names & listed)
    )
    if refusal is None:
        return
    params = {
        "name": player.display_name,
        "league": league.name,
        "circuit": measured.name,
        "limit": refusal.params.get("limit", ""),
        "value": refusal.params.get("value", ""),
    }
    raise InvalidState(
        "league_gate_refused",
        str(GATE_MESSAGES[refusal.code]) % params,
        {**params, "reason": refusal.code, "player": player.pk, "league_id": league.pk},
    )


# --- ratings -----------------------------------------------------------------------------------


@transaction.atomic
def circuit_ratings_refresh(*, circuit_id: int) -> int:
    """Recompute the OpenSkill ratings of a circuit from every match of its accepted, finished
    events, in the order played (events by date, rounds, tables); replaces the stored ratings
    (none when ratings are off). Idempotent (the background job). Returns the persons rated."""
    circuit = Circuit.objects.select_for_update().filter(pk=circuit_id).first()
    if circuit is None:
        return 0
    CircuitRating.objects.filter(circuit=circuit).delete()
    if not circuit.ratings_enabled:
        return 0
    matches: list[RatedMatch] = []
    names: dict[str, tuple[str, int | None]] = {}
    for link in _counted_links(circuit):
        members = _members(link.tournament)
        for entry_people in members.values():
            for key, name, user_id in entry_people:
                names[key] = (name, user_id)
        for m in selectors.match_records(link.tournament):
            if m.b is None:
                continue
            a = [k for k, _n, _u in members.get(m.a, [])]
            b = [k for k, _n, _u in members.get(m.b, [])]
            matches.append(RatedMatch(a, b, m.a_wins, m.b_wins))
    ratings = rate_matches(matches)
    CircuitRating.objects.bulk_create(
        CircuitRating(
            circuit=circuit,
            person=key,
            name=names[key][0],
            user_id=names[key][1],
            mu=r.mu,
            sigma=r.sigma,
            ordinal=r.ordinal,
            matches=r.matches,
        )
        for key, r in ratings.items()
    )
    return len(ratings)


def circuits_event_finished(*, tournament: Tournament) -> None:
    """Ask for the ratings of every circuit with ratings that counts ``tournament`` (just
    finished or reopened) to be recomputed after the commit."""
    ids = CircuitEvent.objects.filter(
        tournament=tournament, status=ACCEPTED, circuit__ratings_enabled=True
    ).values_list("circuit_id", flat=True)
    for circuit_id in ids:
        enqueue_circuit_ratings(circuit_id)


def person_history(*, players: Any, public_only: bool = False) -> list[HistoryRow]:
    """The history of a person (``selectors.profiles.player_history``) with every event's
    standings (stored, or computed when none is stored yet). Read-only."""
    return player_history(players, public_only=public_only, rows_of=_stored_rows)


def _stored_rows(tournament: Tournament) -> list[dict[str, Any]]:
    return standings_stored_rows(
        tournament=tournament, snapshot=selectors.standings_snapshot(tournament)
    )


# --- profile ------------------------------------------------------------------------------------


@transaction.atomic
def profile_set_public(*, actor: Any, user: Any, is_public: bool) -> PlayerProfile:
    """The player makes their profile public or private.

    Raises ``PermissionDenied("login_required")`` for an anonymous ``actor``,
    ``PermissionDenied("not_own_profile")`` when ``actor`` is not ``user``."""
    _require_user(actor)
    if getattr(actor, "pk", None) != getattr(user, "pk", None):
        raise PermissionDenied("not_own_profile", _("Only the player may change this."))
    profile, _created = PlayerProfile.objects.select_for_update().get_or_create(user=user)
    profile.is_public = is_public
    profile.save(update_fields=["is_public"])
    return profile
