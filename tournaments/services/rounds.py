"""Swiss rounds: pair the next round, swap pairings in a draft, publish, finish.

Each write follows the same steps: lock the tournament row → build the domain inputs → call the
pure domain (``tournaments.domain.swiss``) → store the result → enqueue follow-up jobs on commit.
Sources: docs/rules.md §14 (Swiss pairing and byes) and §15 (Match points and tiebreakers).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Collection, Sequence
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.db.models import Model
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from hkk_tournament.errors import Conflict, InvalidState, ValidationFailed
from tournaments import selectors
from tournaments.domain import standings as standings_domain
from tournaments.domain import swiss
from tournaments.domain.types import Pairing, PairingCandidate, PairingResult
from tournaments.models import (
    PAIRING_ENGINE_VERSION,
    Entry,
    Match,
    MissedRound,
    PairingChange,
    Round,
    RoundSeat,
)
from tournaments.models import Tournament as TournamentModel
from tournaments.permissions import acting_user, require_manage
from tournaments.services import standings as standings_service
from tournaments.services._common import last_round, lock_tournament, require_status, scoring_for
from tournaments.services.deck_lists import lock_lists, require_pairable
from tournaments.services.jobs import (
    enqueue_pages_warm,
    enqueue_round_pair_next,
    enqueue_standings,
)
from tournaments.services.push import push_round

R = Round.Status


def pairing_standings(
    tournament: TournamentModel, listed: Collection[int] | None = None
) -> dict[int, tuple[int, int]]:
    """``{entry: (match points, rank)}`` of the event's standings (docs/rules.md §15 (Match
    points and tiebreakers)): every entry the standings list (``listed``; ``None``: read them,
    one query), ranked among them as the standings page ranks them.

    Read from the stored snapshot when it is provably current
    (``standings.standings_current_ranks``: no standings input changed since it was computed)
    and lists exactly ``listed``; otherwise computed from the results as
    ``standings_compute`` does (two queries: the matches with their game counts and the desk's
    missed rounds). Both give the same values; the snapshot halves the CPU of pairing a
    4,096-entry round (``bench/service_paths.py``)."""
    if listed is None:
        listed = standings_service.listed_entries(tournament)[0]
    wanted = set(listed)
    stored = standings_service.standings_current_ranks(tournament_id=tournament.pk)
    if stored is not None and stored.keys() == wanted:
        return stored
    computed = standings_domain.rank_tallies(
        sorted(wanted),
        selectors.match_tallies(tournament),
        scoring=scoring_for(tournament),
        tiebreakers=tournament.tiebreakers,
        games_per_match=tournament.structure.games_per_match,
    )
    return {r.entry: (r.match_points, r.rank) for r in computed}


def pairing_candidates(
    tournament: TournamentModel, entries: list[Entry], *, listed: Collection[int] | None = None
) -> list[PairingCandidate]:
    """Domain candidates for the next round from the confirmed results so far: match points
    and rank from the standings (:func:`pairing_standings`: the tournament's tiebreakers over
    every entry the standings list, ``listed``), opponents met, byes received. A late entry
    has no results, so it starts with zero points (docs/rules.md §14 (Swiss pairing and
    byes)). Reads projections only (who met whom, the desk's byes, and the standings: the
    current snapshot, else the matches with their game counts), whatever the field size."""
    ids = [e.pk for e in entries]
    standing = pairing_standings(tournament, listed)
    opponents: dict[int, set[int]] = {i: set() for i in ids}
    byes = dict.fromkeys(ids, 0)
    history = Match.objects.filter(round__tournament=tournament).values_list(
        "entry_a_id", "entry_b_id"
    )
    for a, b in selectors.plain_rows(history):
        if b is None:
            if a in byes:
                byes[a] += 1
            continue
        if a in opponents:
            opponents[a].add(b)
        if b in opponents:
            opponents[b].add(a)
    for a in MissedRound.objects.filter(
        round__tournament=tournament, outcome=MissedRound.Outcome.BYE
    ).values_list("entry_id", flat=True):
        if a in byes:
            byes[a] += 1  # a bye the desk gave for a missed round is a bye too
    return [
        PairingCandidate(
            id=i,
            match_points=standing[i][0],
            opponents=frozenset(opponents[i]),
            byes=byes[i],
            rank=standing[i][1],
        )
        for i in ids
    ]


def _next_round_number(tournament: TournamentModel) -> int:
    """The number of the round to pair: the last one must be finished and the planned number
    of rounds not reached yet (``Conflict`` / ``InvalidState`` otherwise)."""
    last = last_round(tournament)
    if last is not None and last.status != R.FINISHED:
        raise Conflict(
            "round_in_progress",
            _("Round %(round)s is not finished yet.") % {"round": last.number},
            {"round": last.number, "status": last.status},
        )
    if last is not None and last.stage == Round.Stage.TOP_CUT:
        raise InvalidState(
            "top_cut_started", _("The top cut has started: no more Swiss rounds."), {}
        )
    number = (last.number if last else 0) + 1
    if tournament.planned_rounds and number > tournament.planned_rounds:
        raise InvalidState(
            "planned_rounds_reached",
            _("All %(rounds)s planned rounds have been paired.")
            % {"rounds": tournament.planned_rounds},
            {"planned_rounds": tournament.planned_rounds},
        )
    return number


def _active_entries(tournament: TournamentModel, number: int) -> tuple[list[Entry], list[int]]:
    """The entries that play round ``number`` (at least two, else ``not_enough_entries``) and
    the ids of every entry the standings list (all but those who left before round 1), from
    one query. Read through ``Entry.objects``, not the related manager: that one sets the
    tournament object on each of the 4,096 instances, which nothing here reads."""
    everyone = list(
        Entry.objects.filter(tournament_id=tournament.pk)
        .only(
            "id",
            "tournament_id",
            "name",
            "registered_round",
            "dropped_after_round",
            "pairing_override_reason",
        )
        .order_by("id")
    )
    entries = [e for e in everyone if e.is_active_for_round(number)]
    if len(entries) < 2:
        raise InvalidState(
            "not_enough_entries",
            _("At least two active entries are needed to pair a round."),
            {"entries": len(entries)},
        )
    return entries, [e.pk for e in everyone if e.dropped_after_round != 0]


def _store_round(
    tournament: TournamentModel,
    number: int,
    seed: int,
    result: PairingResult,
    *,
    requested_by: Any,
) -> Round:
    """Save the draft round with its relaxations, one match per table and one seat per entry."""
    try:
        with transaction.atomic():
            rnd = Round.objects.create(
                tournament=tournament,
                number=number,
                seed=seed,
                relaxations=[
                    {"code": r.code, "entries": list(r.entries), "params": dict(r.params)}
                    for r in result.relaxations
                ],
                pair_downs=result.pair_downs,
                pair_down_gap=result.pair_down_gap,
                engine_version=PAIRING_ENGINE_VERSION,
                created_by=requested_by,
            )
    except IntegrityError:
        raise Conflict(
            "round_already_paired",
            _("Round %(round)s has already been paired.") % {"round": number},
            {"round": number},
        ) from None
    if connection.vendor == "postgresql":
        _insert_matches(rnd.pk, result.pairings)
        _insert_seats(rnd.pk)
    else:
        _bulk_create_tables(rnd.pk, result.pairings)
    return rnd


def _bulk_create_tables(round_id: int, pairings: Sequence[Pairing]) -> None:
    """One match per table and one seat per entry through ``bulk_create`` (one statement per
    2,048 rows; plain ids, not model instances, in the foreign keys)."""
    matches = Match.objects.bulk_create(
        [Match(round_id=round_id, table=p.table, entry_a_id=p.a, entry_b_id=p.b) for p in pairings],
        batch_size=2048,
    )
    seats = [
        RoundSeat(round_id=round_id, entry_id=entry, match_id=match.pk)
        for match in matches
        for entry in (match.entry_a_id, match.entry_b_id)
        if entry is not None
    ]
    RoundSeat.objects.bulk_create(seats, batch_size=2048)


def _constants(
    model: type[Model], given: Collection[str]
) -> tuple[list[str], list[str], list[Any]]:
    """The columns of ``model`` other than its primary key and the fields ``given``: their
    quoted names, typed ``%s`` placeholders and default values (for an ``INSERT … SELECT``)."""
    rest = [f for f in model._meta.concrete_fields if not f.primary_key and f.name not in given]
    quote = connection.ops.quote_name
    return (
        [quote(str(f.column)) for f in rest],
        [f"%s::{f.db_type(connection)}" for f in rest],
        [f.get_db_prep_save(f.get_default(), connection) for f in rest],
    )


def _insert_matches(round_id: int, pairings: Sequence[Pairing]) -> None:
    """PostgreSQL: every table of the round in one ``INSERT … SELECT … FROM unnest(arrays)``:
    no model instance per row and three parameters instead of one per value (at 4,096 entries
    ``bulk_create`` spent about half of pairing a round building and preparing instances)."""
    quote = connection.ops.quote_name
    meta = Match._meta
    given = ["round", "table", "entry_a", "entry_b"]
    fields = sorted(
        (f for f in meta.concrete_fields if f.name in given), key=lambda f: given.index(f.name)
    )
    columns, placeholders, defaults = _constants(Match, given)
    names = ", ".join([quote(str(f.column)) for f in fields] + columns)
    round_type, *types = (f.db_type(connection) for f in fields)
    sql = (
        f"INSERT INTO {quote(meta.db_table)} ({names}) "
        f"SELECT %s::{round_type}, t, a, b{''.join(', ' + p for p in placeholders)} FROM unnest("
        f"%s::{types[0]}[], %s::{types[1]}[], %s::{types[2]}[]) AS x(t, a, b)"
    )
    arrays: list[list[Any]] = [
        [p.table for p in pairings],
        [p.a for p in pairings],
        [p.b for p in pairings],
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, [round_id, *defaults, *arrays])


def _insert_seats(round_id: int) -> None:
    """One ``RoundSeat`` per entry of the round's matches (both seats of a table, the one of a
    bye) in one ``INSERT … SELECT`` from the matches just written."""
    quote = connection.ops.quote_name
    seat, match = RoundSeat._meta, Match._meta
    columns, placeholders, defaults = _constants(RoundSeat, ["round", "entry", "match"])
    extra = "".join(", " + p for p in placeholders)
    select = (
        f"SELECT round_id, {{entry}}, {quote(str(match.pk.column))}{extra} "
        f"FROM {quote(match.db_table)} WHERE round_id = %s"
    )
    sql = (
        f"INSERT INTO {quote(seat.db_table)} "
        f"({', '.join(['round_id', 'entry_id', 'match_id', *columns])}) "
        + select.format(entry="entry_a_id")
        + " UNION ALL "
        + select.format(entry="entry_b_id")
        + " AND entry_b_id IS NOT NULL"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*defaults, round_id, *defaults, round_id])


@transaction.atomic
def round_pair_next(
    *,
    tournament: TournamentModel,
    actor: Any,
    seed: int | None = None,
    number: int | None = None,
) -> Round:
    """Pair the next Swiss round and store it as a draft.

    Locks the tournament row, builds the candidates (active entries only: registered by this
    round and not dropped), checks each has a legal list or an override, locks late entries'
    lists, draws ``seed = secrets.randbits(32)`` (unless given, e.g. by the simulator), calls
    ``swiss.pair_round`` with ``random.Random(seed)`` and stores round, matches and one
    ``RoundSeat`` per entry. A bye needs no games: it counts as a match win 2–0. The
    relaxations the engine reports are stored on the round (``round_relaxations`` renders them).

    ``number`` makes the call idempotent (the background job passes it): when round ``number``
    of the event already exists it is returned as it is and nothing else happens, so a job
    delivered twice (a worker killed mid-task, a broker redelivery) pairs the round once.

    Raises:
        InvalidState: ``tournament_status``, ``planned_rounds_reached``, ``not_enough_entries``.
        Conflict: ``round_in_progress`` (the last round is not finished, e.g. a concurrent request
            already paired it), ``round_already_paired`` (unique constraint hit),
            ``round_number_mismatch`` (``number`` is not the next round's number).
        ValidationFailed: ``entries_without_legal_list``.
    """
    require_manage(actor, tournament)
    tournament = lock_tournament(tournament)
    if number is not None:
        existing = Round.objects.filter(tournament=tournament, number=number).first()
        if existing is not None:
            return existing
    require_status(tournament, TournamentModel.Status.RUNNING)
    next_number = _next_round_number(tournament)
    if number is not None and number != next_number:
        raise Conflict(
            "round_number_mismatch",
            _("Round %(round)s cannot be paired now; the next round is %(next)s.")
            % {"round": number, "next": next_number},
            {"round": number, "next": next_number},
        )
    number = next_number
    entries, listed = _active_entries(tournament, number)
    require_pairable(entries)
    lock_lists(entries)
    seed = secrets.randbits(32) if seed is None else int(seed)
    candidates = pairing_candidates(tournament, entries, listed=listed)
    result = swiss.pair_round(candidates, rng=random.Random(seed), round_number=number)
    rnd = _store_round(tournament, number, seed, result, requested_by=acting_user(actor))
    if any(p.b is None for p in result.pairings):
        enqueue_standings(tournament.pk)
    return rnd


def round_pair_next_async(*, tournament: TournamentModel, actor: Any) -> None:
    """Ask a Celery worker to pair the next round once the caller's transaction commits
    (in-process when no broker is configured). The result is a draft round, or nothing if
    the service raised (the task returns the error as ``{"ok": False, "code", …}``). The job
    carries the round number, so running it twice pairs that round once."""
    require_manage(actor, tournament)
    last = last_round(tournament)
    number = (last.number if last else 0) + 1
    enqueue_round_pair_next(tournament.pk, getattr(acting_user(actor), "pk", None), number)


def round_relaxations(round: Round) -> list[dict[str, Any]]:
    """What was relaxed in pairing ``round`` and why: ``[{"code", "entries", "params",
    "message"}]`` with a translated explanation for the organiser."""
    names = selectors.names_by_entry(round.tournament)
    return [
        {
            **r,
            "message": selectors.relaxation_message(
                r["code"], [names.get(e, str(e)) for e in r.get("entries", [])]
            ),
        }
        for r in round.relaxations
    ]


def _tables(rnd: Round) -> list[dict[str, Any]]:
    return [
        {"table": m.table, "a": m.entry_a_id, "b": m.entry_b_id}
        for m in rnd.matches.order_by("table")
    ]


@transaction.atomic
def round_swap_pairings(
    *,
    round: Round,
    table_x: int,
    table_y: int,
    swap: str,
    actor: Any,
    reason: str = "",
) -> Round:
    """Swap the seat-``swap`` entries (``"a"`` or ``"b"``) of two tables of a draft round.

    Swapping ``"b"`` with a bye table moves the bye. The change (tables before and after, who,
    why) is recorded as a :class:`PairingChange`.

    Raises:
        InvalidState: ``round_not_draft``.
        NotFound: ``table_not_in_round``.
        ValidationFailed: ``invalid_value`` (same table twice, bad ``swap``).
    """
    require_manage(actor, round.tournament)
    lock_tournament(round.tournament_id)
    rnd = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
    if rnd.status != R.DRAFT:
        raise InvalidState(
            "round_not_draft",
            _("Pairings can be changed only before the round is published."),
            {"round": rnd.number, "status": rnd.status},
        )
    if swap not in ("a", "b") or table_x == table_y:
        raise ValidationFailed(
            "invalid_value",
            _("Choose two different tables and the seat to swap (a or b)."),
            {"swap": swap, "table_x": table_x, "table_y": table_y},
        )
    mx = selectors.match_for_table(round=rnd, table=table_x)
    my = selectors.match_for_table(round=rnd, table=table_y)
    before = _tables(rnd)
    field = "entry_a_id" if swap == "a" else "entry_b_id"
    vx, vy = getattr(mx, field), getattr(my, field)
    setattr(mx, field, vy)
    setattr(my, field, vx)
    mx.save(update_fields=["entry_a", "entry_b"])
    my.save(update_fields=["entry_a", "entry_b"])
    for m in (mx, my):
        RoundSeat.objects.filter(round=rnd, entry_id__in=[m.entry_a_id, m.entry_b_id]).update(
            match=m
        )
    PairingChange.objects.create(
        round=rnd,
        table_x=table_x,
        table_y=table_y,
        swap=swap,
        before=before,
        after=_tables(rnd),
        reason=reason,
        changed_by=acting_user(actor),
    )
    return rnd


@transaction.atomic
def round_publish(*, actor: Any, round: Round) -> Round:
    """draft → published: pairings are final and results may be recorded.

    Raises ``InvalidState("round_not_draft")``.
    """
    require_manage(actor, round.tournament)
    lock_tournament(round.tournament_id)
    rnd = Round.objects.select_for_update().get(pk=round.pk)
    if rnd.status != R.DRAFT:
        raise InvalidState(
            "round_not_draft",
            _("Only a draft round can be published."),
            {"round": rnd.number, "status": rnd.status},
        )
    rnd.status = R.PUBLISHED
    rnd.published_at = timezone.now()
    rnd.save(update_fields=["status", "published_at"])
    # A published round's byes and desk-scored missed rounds count in the standings.
    standings_service.standings_inputs_changed(tournament_id=rnd.tournament_id)
    enqueue_pages_warm(rnd.tournament_id)
    push_round(rnd)
    return rnd


@transaction.atomic
def round_finish(*, actor: Any, round: Round) -> Round:
    """published → finished once every match is complete; standings are recomputed on commit.

    Raises:
        InvalidState: ``round_not_published``, ``matches_incomplete`` (params: tables).
    """
    require_manage(actor, round.tournament)
    tournament = lock_tournament(round.tournament_id)
    rnd = Round.objects.select_for_update().get(pk=round.pk)
    if rnd.status != R.PUBLISHED:
        raise InvalidState(
            "round_not_published",
            _("Only a published round can be finished."),
            {"round": rnd.number, "status": rnd.status},
        )
    open_tables = [
        m.table
        for m in rnd.matches.select_related("round__tournament").prefetch_related("games")
        if not selectors.match_score(m).complete
    ]
    if open_tables:
        raise InvalidState(
            "matches_incomplete",
            _("Results are missing at tables %(tables)s.")
            % {"tables": ", ".join(str(t) for t in open_tables)},
            {"tables": open_tables},
        )
    rnd.status = R.FINISHED
    rnd.finished_at = timezone.now()
    rnd.save(update_fields=["status", "finished_at"])
    enqueue_standings(tournament.pk, at_once=True)
    push_round(rnd)
    return rnd
