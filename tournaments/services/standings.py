"""Standings, the cached snapshot, the JSON export and CSV helpers.

Sources: docs/rules.md §8 (HKK tournament structure and scoring) and §15 (Match points and
tiebreakers); Magic Tournament Rules, appendix C (tiebreakers).
"""

from __future__ import annotations

import io
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.db.models import BigIntegerField, F, Q, Subquery, Sum, Value
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext

from tournaments import selectors
from tournaments.domain import standings as standings_domain
from tournaments.domain.first_player import RightMode, right_mode
from tournaments.domain.match_structure import MatchStructure
from tournaments.domain.types import StandingRow
from tournaments.models import Match, Round, StandingsSnapshot, Tournament
from tournaments.services._common import scoring_for
from tournaments.services.csv_files import SafeCsvWriter
from tournaments.services.public_state import public_state_changed
from tournaments.services.push import push_event


def listed_entries(tournament: Tournament) -> tuple[list[int], set[int]]:
    """``(listed, dropped)``: the ids of the entries the standings list (all but those who
    left before the event began, MTR 2.10) and of those among them who dropped later."""
    listed, dropped = [], set()
    for pk, after in tournament.entries.values_list("id", "dropped_after_round"):
        if after == 0:
            continue  # left before the event began (MTR 2.10): not in the standings
        listed.append(pk)
        if after is not None:
            dropped.add(pk)
    return listed, dropped


def standings_compute(*, tournament: Tournament) -> list[StandingRow]:
    """Standings from the complete matches: match points, then the tournament's ordered
    tiebreakers (exact ``Fraction`` values); a true tie shares the rank. Entries that dropped
    after the event began stay listed (``dropped``). Read-only, no transaction needed. The
    results are read as plain rows (``selectors.match_tallies``) and ranked in integers
    (``standings.rank_tallies``)."""
    listed, dropped = listed_entries(tournament)
    return standings_domain.rank_tallies(
        listed,
        selectors.match_tallies(tournament),
        scoring=scoring_for(tournament),
        tiebreakers=tournament.tiebreakers,
        games_per_match=tournament.structure.games_per_match,
        dropped=dropped,
    )


def standings_stored_rows(
    *, tournament: Tournament, snapshot: StandingsSnapshot | None
) -> list[dict[str, Any]]:
    """The standings rows the public pages and API read, in the snapshot's JSON shape
    (:func:`standings_rows`): the stored ``snapshot``'s rows when there is one (recomputed on
    write, never on read; loaded once per snapshot version and process,
    ``selectors.snapshot_rows``), else computed now (an event with no result recorded yet).
    The rows are shared: do not change them."""
    if snapshot is not None:
        return selectors.snapshot_rows(snapshot)
    return standings_rows(tournament=tournament)


def standings_rows(*, tournament: Tournament) -> list[dict[str, Any]]:
    """JSON-ready standings: ``[{"rank", "entry", "name", "family", "given", "match_points",
    "game_points", "matches_played", "dropped", "tiebreakers": {code: "exact value"}}]``;
    ``name`` is the stored one (a player's family name first), ``family``/``given`` its parts
    (empty for a team), shown in the reader's language (``selectors.stored_row_name``).
    Entries that share a rank are listed by family name, then given name."""
    names = {
        pk: (name, family, given)
        for pk, name, family, given in tournament.entries.values_list(
            "id", "name", "family_name", "given_name"
        )
    }  # one query: the names and their sort keys
    order = {pk: selectors.name_sort_key(*parts) for pk, parts in names.items()}
    computed = sorted(
        standings_compute(tournament=tournament),
        key=lambda r: (r.rank, order.get(r.entry, ("", "")), r.entry),
    )
    return [
        {
            "rank": r.rank,
            "entry": r.entry,
            "name": names.get(r.entry, ("", "", ""))[0],
            "family": names.get(r.entry, ("", "", ""))[1],
            "given": names.get(r.entry, ("", "", ""))[2],
            "match_points": r.match_points,
            "game_points": r.game_points,
            "matches_played": r.matches_played,
            "dropped": bool(getattr(r, "dropped", False)),
            "tiebreakers": {code: selectors.fraction_str(v) for code, v in r.tiebreakers.items()},
        }
        for r in computed
    ]


#: A recompute requested longer ago than this (seconds) and still not started is taken as lost
#: (a worker died, a broker restarted): the next result queues a new one.
RECOMPUTE_STALE_SECONDS = 60


def standings_claim_recompute(*, tournament_id: int) -> bool:
    """Mark the cached standings of ``tournament_id`` as needing a recompute; ``True`` when
    this call set the mark (the caller then queues the one recompute on commit), ``False``
    when a recompute is already requested (it reads the latest results when it starts).

    One short ``UPDATE … WHERE recompute_requested_at IS NULL`` (or older than
    ``RECOMPUTE_STALE_SECONDS``), run after the result's transaction commits
    (``services.jobs``); once the mark is set the statements of later results match no row
    and write nothing. Creates the snapshot row the first time. On PostgreSQL the ``UPDATE``
    and the check that the row exists are one statement (:func:`_claim_postgresql`), else two."""
    now = timezone.now()
    stale = now - timedelta(seconds=RECOMPUTE_STALE_SECONDS)
    if connection.vendor == "postgresql":
        claimed, exists = _claim_postgresql(tournament_id, now, stale)
    else:
        claimed = bool(
            StandingsSnapshot.objects.filter(
                Q(recompute_requested_at__isnull=True) | Q(recompute_requested_at__lt=stale),
                tournament_id=tournament_id,
            ).update(recompute_requested_at=now)
        )
        exists = claimed or StandingsSnapshot.objects.filter(tournament_id=tournament_id).exists()
    if claimed or exists:
        return claimed
    try:
        with transaction.atomic():
            StandingsSnapshot.objects.create(
                tournament_id=tournament_id, computed_at=now, recompute_requested_at=now
            )
    except IntegrityError:
        return False  # created meanwhile by a concurrent result, which queued the recompute
    return True


def _claim_postgresql(tournament_id: int, now: datetime, stale: datetime) -> tuple[bool, bool]:
    """The claim's ``UPDATE`` and whether the snapshot row exists, in one statement: whether
    it set the mark, whether the row exists (as the statement started: a row created
    meanwhile by a concurrent result makes the caller's ``INSERT`` fail, as before)."""
    table = connection.ops.quote_name(StandingsSnapshot._meta.db_table)
    sql = (
        f"WITH claimed AS (UPDATE {table} SET recompute_requested_at = %s "
        "WHERE tournament_id = %s AND (recompute_requested_at IS NULL "
        "OR recompute_requested_at < %s) RETURNING 1) "
        f"SELECT EXISTS (SELECT 1 FROM claimed), EXISTS (SELECT 1 FROM {table} "
        "WHERE tournament_id = %s)"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [now, tournament_id, stale, tournament_id])
        claimed, exists = cursor.fetchone()
    return bool(claimed), bool(exists)


def _create_snapshot_row(tournament_id: int, **values: Any) -> bool:
    """Create the (empty, ``version`` 0: no reader shows it) snapshot row of ``tournament_id``
    in a savepoint; ``False`` when it exists (a concurrent creator made this wait, then lose)."""
    try:
        with transaction.atomic():
            StandingsSnapshot.objects.create(
                tournament_id=tournament_id, computed_at=timezone.now(), **values
            )
    except IntegrityError:
        return False
    return True


def standings_inputs_changed(*, tournament_id: int, match_id: int | None = None) -> None:
    """Record, inside the caller's transaction, that what the standings of ``tournament_id``
    are computed from has changed, so a stored snapshot computed before is never taken for
    current (:func:`standings_current_ranks`). ``services.jobs.enqueue_standings`` calls it for
    every write that queues a recompute.

    ``match_id``: a result write (games, time called) of that match, whose row the caller holds
    locked (``locked_match``): its ``result_version`` grows by one (one ``UPDATE`` of that row:
    results of different tables never wait for each other). Without: a write under the
    tournament lock (a drop, a late entry, a round published, unpublished, finished or
    discarded, a bye given …): the snapshot's ``inputs_generation`` grows by one, the row
    created when missing (a foreign key checked at commit, harmless under the tournament lock).
    Either counter commits or rolls back with the change itself."""
    assert transaction.get_connection().in_atomic_block, "the change's transaction is needed"
    if match_id is not None:
        Match.objects.filter(pk=match_id).update(result_version=F("result_version") + 1)
        return
    bump = F("inputs_generation") + 1
    rows = StandingsSnapshot.objects.filter(tournament_id=tournament_id)
    if not rows.update(inputs_generation=bump) and not _create_snapshot_row(
        tournament_id, inputs_generation=1
    ):
        rows.update(inputs_generation=bump)  # created meanwhile by a concurrent writer


def _live_results(tournament_id: int) -> Coalesce:
    """The event's sum of ``Match.result_version`` (0 without a match), as a subquery."""
    total = (
        Match.objects.filter(round__tournament_id=tournament_id)
        .order_by()
        .values("round__tournament_id")
        .annotate(total=Sum("result_version"))
        .values("total")
    )
    return Coalesce(Subquery(total), Value(0), output_field=BigIntegerField())


def standings_current_ranks(*, tournament_id: int) -> dict[int, tuple[int, int]] | None:
    """``{entry: (match points, rank)}`` of the stored standings of ``tournament_id`` when they
    are provably current, else ``None``: no snapshot, or a standings input changed since the
    rows were computed (``rows_generation`` ≠ ``inputs_generation``, or ``rows_results`` ≠ the
    event's sum of result versions, which only grows while the generation stays: a match is
    deleted only under the tournament lock, which bumps the generation).

    The counters, the live sum and the rows are read in one statement, so they belong to one
    committed state; a change committed after it is ordered after the caller's read, as for any
    other read. On PostgreSQL the database takes the three values per entry out of the stored
    JSON (``jsonb_to_recordset``: no megabyte of JSON parsed in Python); elsewhere the rows are
    read whole."""
    if connection.vendor == "postgresql":
        got = _current_ranks_postgresql(tournament_id)
    else:
        got = _current_ranks_portable(tournament_id)
    if got is None:
        return None
    counters, ranks = got
    if counters[0] is None or (counters[0], counters[1]) != (counters[2], counters[3]):
        return None
    return ranks


Counters = tuple[int | None, int | None, int, int]


def _current_ranks_postgresql(
    tournament_id: int,
) -> tuple[Counters, dict[int, tuple[int, int]]] | None:
    """One statement: the snapshot's counters, the live sum of result versions (evaluated once)
    and one ``(entry, match points, rank)`` row per stored standings row."""
    quote = connection.ops.quote_name
    snapshot, match, rnd = (quote(m._meta.db_table) for m in (StandingsSnapshot, Match, Round))
    sql = (
        "SELECT s.rows_generation, s.rows_results, s.inputs_generation, "
        f"(SELECT COALESCE(SUM(m.result_version), 0) FROM {match} m "
        f"JOIN {rnd} r ON r.id = m.round_id WHERE r.tournament_id = %s), "
        "x.entry, x.match_points, x.rank "
        f"FROM {snapshot} s LEFT JOIN LATERAL jsonb_to_recordset(s.rows) "
        "AS x(entry bigint, match_points bigint, rank bigint) ON TRUE "
        "WHERE s.tournament_id = %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [tournament_id, tournament_id])
        rows = cursor.fetchall()
    if not rows:
        return None
    counters: Counters = (rows[0][0], rows[0][1], rows[0][2], int(rows[0][3]))
    return counters, {e: (mp, rank) for *_c, e, mp, rank in rows if e is not None}


def _current_ranks_portable(
    tournament_id: int,
) -> tuple[Counters, dict[int, tuple[int, int]]] | None:
    """:func:`_current_ranks_postgresql` through the ORM (one statement; the rows parsed)."""
    got = (
        StandingsSnapshot.objects.filter(tournament_id=tournament_id)
        .annotate(live_results=_live_results(tournament_id))
        .values_list("rows_generation", "rows_results", "inputs_generation", "live_results", "rows")
        .first()
    )
    if got is None:
        return None
    *counters, rows = got
    ranks = {r["entry"]: (r["match_points"], r["rank"]) for r in rows}
    return (counters[0], counters[1], counters[2], int(counters[3])), ranks


def standings_refresh(*, tournament_id: int) -> StandingsSnapshot:
    """Recompute and store the cached standings of a tournament (idempotent; used by
    ``standings_recompute_task``); the snapshot's ``version`` grows by one; its
    ``rows_generation`` and ``rows_results`` are the ``inputs_generation`` and the event's sum of
    result versions read before the results (the row is created first when missing).

    The request mark is cleared *before* the results are read (in its own statement, committed
    at once when called outside a transaction, as by the task), so a result committed while
    this runs claims a new recompute (``standings_claim_recompute``) and is never lost."""
    if not StandingsSnapshot.objects.filter(tournament_id=tournament_id).update(
        recompute_requested_at=None
    ):
        # Created (and, outside a transaction, committed) before the generation is read: every
        # change committed from then on bumps this row, and the transaction below only updates
        # a committed row (no foreign key check, so no lock on the tournament at its commit).
        _create_snapshot_row(tournament_id)
    with transaction.atomic():
        # Read before the inputs (one statement of its own): the rows below are computed from
        # these counters' inputs or newer ones; a change committed meanwhile moved a counter
        # past them, so the rows are never taken for current when they are not.
        generation, results = (
            StandingsSnapshot.objects.filter(tournament_id=tournament_id)
            .annotate(live_results=_live_results(tournament_id))
            .values_list("inputs_generation", "live_results")
            .get()
        )
        tournament = Tournament.objects.get(pk=tournament_id)
        rows = standings_rows(tournament=tournament)
        after = tournament.rounds.filter(status=Round.Status.FINISHED).count()
        values = {
            "computed_at": timezone.now(),
            "rows": rows,
            "after_round": after,
            "rows_generation": generation,
            "rows_results": int(results),  # SUM is numeric on PostgreSQL
        }
        StandingsSnapshot.objects.filter(tournament=tournament).update(
            version=F("version") + 1, **values
        )
        public_state_changed(tournament_id)  # the update above bypasses the model signals
        # The rows just written are not read back (about 1 MB at 4,096 entries).
        snapshot = StandingsSnapshot.objects.defer("rows").get(tournament=tournament)
        snapshot.rows = rows
        push_event(
            tournament_id=tournament_id,
            kind="standings",
            data={"version": snapshot.version, "after_round": after},
        )
        return snapshot


def _export_game(g: Any, structure: MatchStructure) -> dict[str, Any]:
    """One game: right holder, waiver, first, winner; ``chosen_by`` where the format gives a
    choice (WoW TCG, Blue Moon) and ``score`` where it keeps one (Blue Moon crystals)."""
    out: dict[str, Any] = {
        "number": g.number,
        "right_holder": g.right_holder_id,
        "waived": g.waived,
        "first": g.first_id,
        "winner": g.winner_id,
        "details_reported": g.details_reported,
    }
    if not g.details_reported:  # only the winner was reported
        out["right_holder"] = out["first"] = None
    if right_mode(structure) == RightMode.CHOOSES:
        out["chosen_by"] = g.chosen_by_id
    if structure.scored:
        out["score"] = g.score
    return out


def _export_match(m: Match) -> dict[str, Any]:
    games = selectors.match_games(m)
    score = selectors.match_score(m, games)
    structure = m.round.tournament.structure
    return {
        "table": m.table,
        "a": m.entry_a_id,
        "b": m.entry_b_id,
        "policy": str(structure.policy),
        "reroll_game3_agreed": m.reroll_game3_agreed,
        "games": [_export_game(g, structure) for g in games],
        "match_points": {str(k): v for k, v in score.points.items()},
    }


def _export_rounds(tournament: Tournament) -> list[dict[str, Any]]:
    by_round: dict[int, list[Match]] = {}
    for m in selectors.tournament_matches(tournament):
        by_round.setdefault(m.round_id, []).append(m)
    return [
        {
            "number": rnd.number,
            "seed": rnd.seed,
            "status": rnd.status,
            "relaxations": rnd.relaxations,
            "pair_downs": rnd.pair_downs,
            "pairings": [_export_match(m) for m in by_round.get(rnd.pk, [])],
        }
        for rnd in tournament.rounds.order_by("number")
    ]


def tournament_export(*, tournament: Tournament) -> dict[str, Any]:
    """The whole event as one JSON-ready dict (the ``simulate_tournament --json`` shape):

    ``{"format", "kind", "policy", "games_per_match", "match_structure", "tiebreakers": [codes],
    "entries": [{"id", "name", "members": [names], "registered_round", "dropped_after_round"}],
    "rounds": [{"number", "seed", "status", "relaxations", "pairings": [{"table", "a", "b",
    "policy", "reroll_game3_agreed", "games": [{"number", "right_holder", "waived", "first",
    "winner", ("chosen_by" where the format gives a choice), ("score" where it keeps one)}],
    "match_points": {"<id>": n}}]}], "drops": [{"entry", "after_round"}],
    "standings": [{"rank", "entry", "match_points", "game_points", "tiebreakers": {code: str}}]}``.
    """
    entries = list(selectors.entries_with_members(tournament))
    rounds = _export_rounds(tournament)
    return {
        "format": tournament.format.slug,
        "kind": tournament.kind,
        "policy": str(tournament.structure.policy),
        "games_per_match": tournament.structure.games_per_match,
        "match_structure": tournament.structure.to_dict(),
        "tiebreakers": list(tournament.tiebreakers),
        "entries": [
            {
                "id": e.pk,
                "name": e.name,
                "members": [m.player.display_name for m in e.members.all()],
                "registered_round": e.registered_round,
                "dropped_after_round": e.dropped_after_round,
            }
            for e in entries
        ],
        "rounds": rounds,
        "drops": [
            {"entry": e.pk, "after_round": e.dropped_after_round}
            for e in entries
            if e.dropped_after_round is not None
        ],
        "standings": [
            {
                "rank": r["rank"],
                "entry": r["entry"],
                "match_points": r["match_points"],
                "game_points": r["game_points"],
                "tiebreakers": r["tiebreakers"],
            }
            for r in standings_rows(tournament=tournament)
        ],
    }


def pairings_csv(round: Round) -> str:
    """The tables of a round as CSV (header in the active language): table, both entries,
    game wins, draws and match points."""
    out = io.StringIO()
    w = SafeCsvWriter(out)
    w.writerow(
        [
            gettext("Table"),
            gettext("Entry A"),
            gettext("Entry B"),
            gettext("Games won A"),
            gettext("Games won B"),
            gettext("Drawn games"),
            gettext("Match points A"),
            gettext("Match points B"),
        ]
    )
    for row in selectors.round_pairings(round):
        w.writerow(
            [
                row["table"],
                row["a_name"],
                row["b_name"] or gettext("bye"),
                row["a_wins"],
                row["b_wins"],
                row["draws"],
                row["match_points"].get(row["a"], ""),
                row["match_points"].get(row["b"], "") if row["b"] else "",
            ]
        )
    return out.getvalue()


def standings_csv(tournament: Tournament) -> str:
    """The standings as CSV: rank, entry, match points, game points, each tiebreaker (exact),
    dropped. Every header is in the active language (the request's language: its cookie or
    ``Accept-Language``), tiebreakers by their translated labels."""
    out = io.StringIO()
    w = SafeCsvWriter(out)
    codes = list(tournament.tiebreakers)
    labels = selectors.tiebreaker_labels()
    w.writerow(
        [gettext("Rank"), gettext("Entry"), gettext("Match points"), gettext("Game points")]
        + [labels.get(c, c) for c in codes]
        + [gettext("Dropped")]
    )
    for r in standings_rows(tournament=tournament):
        w.writerow(
            [r["rank"], selectors.stored_row_name(r), r["match_points"], r["game_points"]]
            + [r["tiebreakers"].get(c, "") for c in codes]
            + [gettext("yes") if r["dropped"] else ""]
        )
    return out.getvalue()
