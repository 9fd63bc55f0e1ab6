"""Fixing a round after pairing: discard a draft round (and pair again), unpublish a published
round (one with results only when the organiser confirms deleting them: they are kept in the
action log and can be restored, ``services.results_archive``), drop an entry after pairing
with either a new pairing (``entry_drop_and_repair``) or a bye for its opponent
(``entry_drop_with_bye``), and score the rounds a re-added or late
entry missed (a loss, a bye, or a seat against the bye of the round in progress). Every
action is recorded as a
``TournamentAction`` (who, when, why, the tables before) and shown in the round's history.

Sources: docs/rules.md §14 (Swiss pairing and byes: a dropped entry is not paired again; a bye
counts as a match win), §16 (Deck checks, penalties and result reporting: audited changes).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from hkk_tournament.errors import Conflict, InvalidState, ValidationFailed
from tournaments.models import (
    Entry,
    Match,
    MissedRound,
    Round,
    RoundSeat,
    TournamentAction,
)
from tournaments.models import Tournament as TournamentModel
from tournaments.permissions import acting_user, require_manage
from tournaments.services._common import last_round, lock_tournament, require_status
from tournaments.services.deck_lists import lock_lists, require_pairable
from tournaments.services.jobs import enqueue_standings
from tournaments.services.push import push_round
from tournaments.services.results_archive import (
    archive_round_results,
    refuse_deleting_results,
    round_result_counts,
)
from tournaments.services.rounds import round_pair_next
from tournaments.services.standings import standings_inputs_changed

R = Round.Status
A = TournamentAction.Kind


def _tables(rnd: Round) -> list[dict[str, Any]]:
    return [
        {"table": m.table, "a": m.entry_a_id, "b": m.entry_b_id}
        for m in rnd.matches.order_by("table")
    ]


def _locked_round(round: Round) -> tuple[TournamentModel, Round]:
    """The tournament and ``round`` locked ``FOR UPDATE`` (in that order): the round's results
    are then all committed (result writers hold the round ``FOR SHARE``) and no new one starts
    until the caller's transaction ends."""
    tournament = lock_tournament(round.tournament_id)
    require_status(tournament, TournamentModel.Status.RUNNING)
    rnd = Round.objects.select_for_update().get(pk=round.pk)
    last = last_round(tournament)
    if last is None or last.pk != rnd.pk:
        raise InvalidState(
            "round_not_last",
            _("Only the last round can be changed this way."),
            {"round": rnd.number},
        )
    return tournament, rnd


def _locked_last_round(tournament: TournamentModel) -> Round | None:
    """The last round locked ``FOR UPDATE`` (after the tournament: tournament → round →
    match): results being written in it commit first and are seen by the caller; later ones
    wait and then see what the caller changed."""
    last = last_round(tournament)
    return None if last is None else Round.objects.select_for_update().get(pk=last.pk)


def _round_has_results(rnd: Round) -> bool:
    return any(round_result_counts(rnd).values())


def _record(
    tournament: TournamentModel,
    kind: str,
    *,
    by: Any,
    reason: str,
    round_number: int | None = None,
    entry: Entry | None = None,
    params: dict[str, Any] | None = None,
) -> TournamentAction:
    return TournamentAction.objects.create(
        tournament=tournament,
        kind=kind,
        round_number=round_number,
        entry=entry,
        reason=reason.strip(),
        params=params or {},
        by=by if getattr(by, "pk", None) else None,
    )


def _require_reason(reason: str) -> None:
    if not (reason or "").strip():
        raise ValidationFailed(
            "reason_required", _("Give a reason; it is recorded."), {"field": "reason"}
        )


def _deleted_results(rnd: Round, delete_results: bool) -> list[dict[str, Any]]:
    """The round's results, deleted and returned for the action log when there are any and
    ``delete_results`` confirms it; ``Conflict("round_has_results")`` with the counts when it
    does not; ``[]`` for a round without results."""
    counts = round_result_counts(rnd)
    if not any(counts.values()):
        return []
    if not delete_results:
        raise refuse_deleting_results(rnd, counts)
    return archive_round_results(rnd)


def _discard(
    tournament: TournamentModel,
    rnd: Round,
    *,
    by: Any,
    reason: str,
    kind: str,
    deleted: list[dict[str, Any]],
) -> None:
    params: dict[str, Any] = {"tables": _tables(rnd), "seed": rnd.seed}
    if deleted:
        params["deleted_results"] = deleted
    _record(tournament, kind, by=by, reason=reason, round_number=rnd.number, params=params)
    rnd.delete()
    # Its matches' result versions leave the event's sum (standings_current_ranks).
    standings_inputs_changed(tournament_id=tournament.pk)


@transaction.atomic
def round_discard(
    *,
    round: Round,
    actor: Any,
    reason: str = "",
    pair_again: bool = False,
    delete_results: bool = False,
) -> Round | None:
    """Delete a draft round (its tables and seats) and, with ``pair_again``, pair it anew.

    The tables before, the seed, who and why are recorded (``round_discarded``). A draft round
    with results (recorded before it went back to draft) is refused unless ``delete_results``
    confirms deleting them; they are kept in the action's ``params["deleted_results"]``
    (restorable: ``round_results_restore``). Returns the new draft round, or ``None`` without
    ``pair_again``.

    Raises:
        InvalidState: ``tournament_status``, ``round_not_last``, ``round_not_draft``.
        Conflict: ``round_has_results`` (params ``games``, ``reports``, ``rolls``).
        ValidationFailed: ``reason_required``; the errors of ``round_pair_next``.
    """
    require_manage(actor, round.tournament)
    _require_reason(reason)
    tournament, rnd = _locked_round(round)
    if rnd.status != R.DRAFT:
        raise InvalidState(
            "round_not_draft",
            _("Only a draft round can be discarded; unpublish it first."),
            {"round": rnd.number, "status": rnd.status},
        )
    deleted = _deleted_results(rnd, delete_results)
    _discard(
        tournament,
        rnd,
        by=acting_user(actor),
        reason=reason,
        kind=A.ROUND_DISCARDED,
        deleted=deleted,
    )
    if deleted:
        enqueue_standings(tournament.pk)
    if pair_again:
        return round_pair_next(tournament=tournament, actor=actor)
    return None


@transaction.atomic
def round_unpublish(
    *, round: Round, actor: Any, reason: str = "", delete_results: bool = False
) -> Round:
    """published → draft. A round with results (games, player reports or die rolls) is refused
    unless ``delete_results`` confirms deleting them; they are then kept in the action's
    ``params["deleted_results"]`` (``round_unpublished``), restorable once the round is
    published again (``round_results_restore``).

    Locks the tournament and the round ``FOR UPDATE``: a result being written (it holds the
    round ``FOR SHARE``) is committed first and counted, a later one sees the draft.

    Raises:
        InvalidState: ``tournament_status``, ``round_not_last``, ``round_not_published``.
        Conflict: ``round_has_results`` (params ``games``, ``reports``, ``rolls``).
        ValidationFailed: ``reason_required``.
    """
    require_manage(actor, round.tournament)
    _require_reason(reason)
    tournament, rnd = _locked_round(round)
    if rnd.status != R.PUBLISHED:
        raise InvalidState(
            "round_not_published",
            _("Only a published round can be unpublished."),
            {"round": rnd.number, "status": rnd.status},
        )
    deleted = _deleted_results(rnd, delete_results)
    params: dict[str, Any] = {"tables": _tables(rnd)}
    if deleted:
        params["deleted_results"] = deleted
        enqueue_standings(tournament.pk)
    _record(
        tournament,
        A.ROUND_UNPUBLISHED,
        by=acting_user(actor),
        reason=reason,
        round_number=rnd.number,
        params=params,
    )
    rnd.status = R.DRAFT
    rnd.published_at = None
    rnd.save(update_fields=["status", "published_at"])
    standings_inputs_changed(tournament_id=tournament.pk)  # a draft round counts nothing
    push_round(rnd)
    return rnd


def _drop_paired(
    entry: Entry, reason: str, actor: Any
) -> tuple[TournamentModel, Entry, Round, RoundSeat]:
    """Lock the tournament, ``entry`` and the last round (in that order), check that the entry
    is paired in that unfinished round and has not dropped before it, and drop it after the
    round before. Returns ``(tournament, entry, round, its seat)``.

    Raises:
        InvalidState: ``tournament_status``, ``not_paired``, ``already_dropped``.
        PermissionDenied: ``actor`` may not manage the event.
        ValidationFailed: ``reason_required``.
    """
    require_manage(actor, entry.tournament)
    _require_reason(reason)
    tournament = lock_tournament(entry.tournament_id)
    require_status(tournament, TournamentModel.Status.RUNNING)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    rnd = _locked_last_round(tournament)
    seat = (
        RoundSeat.objects.select_related("match").filter(round=rnd, entry=entry).first()
        if rnd is not None and rnd.status != R.FINISHED
        else None
    )
    if rnd is None or seat is None:
        raise InvalidState(
            "not_paired",
            _("%(name)s is not paired in an unfinished round; drop them normally.")
            % {"name": entry.shown_name},
            {"entry": entry.pk},
        )
    if entry.dropped_after_round is not None and entry.dropped_after_round < rnd.number:
        raise InvalidState(
            "already_dropped",
            _("%(name)s has already dropped.") % {"name": entry.shown_name},
            {"entry": entry.pk},
        )
    entry.dropped_after_round = rnd.number - 1
    entry.save(update_fields=["dropped_after_round"])
    return tournament, entry, rnd, seat


@transaction.atomic
def entry_drop_and_repair(*, entry: Entry, actor: Any, reason: str = "") -> Round:
    """Drop an entry paired in the last, unfinished round, and pair that round again without
    it (the entry is dropped after the round before). The round must have no results; a
    published one goes back to draft. Recorded as ``drop_repaired`` (the tables before and the
    seed). Returns the new draft round. Source: docs/rules.md §14 (Swiss pairing and byes: a
    dropped entry is not paired again).

    Raises:
        InvalidState: ``tournament_status``, ``not_paired`` (the entry has no table in an
            unfinished last round), ``already_dropped``; the errors of ``round_pair_next``.
        Conflict: ``round_has_results``.
        ValidationFailed: ``reason_required``.
    """
    tournament, entry, rnd, _seat = _drop_paired(entry, reason, actor)
    if _round_has_results(rnd):
        raise Conflict(
            "round_has_results",
            _("Results are already recorded in round %(round)s; give a bye instead.")
            % {"round": rnd.number},
            {"round": rnd.number},
        )
    _record(
        tournament,
        A.DROP_REPAIRED,
        by=acting_user(actor),
        reason=reason,
        round_number=rnd.number,
        entry=entry,
        params={"tables": _tables(rnd), "seed": rnd.seed},
    )
    rnd.delete()
    standings_inputs_changed(tournament_id=tournament.pk)  # its matches left the event
    return round_pair_next(tournament=tournament, actor=actor)


@transaction.atomic
def entry_drop_with_bye(*, entry: Entry, actor: Any, reason: str = "") -> Round:
    """Drop an entry paired in the last, unfinished round, and turn its table into a bye for
    its opponent (the entry is dropped after the round before; the table must have no games or
    reports yet). The bye counts as a match win (docs/rules.md §14 (Swiss pairing and byes)).
    Recorded as ``drop_bye`` (the tables before and after, the opponent). Returns the round.

    Raises:
        InvalidState: ``tournament_status``, ``not_paired`` (the entry has no table in an
            unfinished last round), ``already_dropped``.
        Conflict: ``match_has_results``.
        ValidationFailed: ``reason_required``.
    """
    tournament, entry, rnd, seat = _drop_paired(entry, reason, actor)
    match: Match = seat.match
    if match.games.exists() or match.reports.exists():
        raise Conflict(
            "match_has_results",
            _("Results are already recorded at table %(table)s.") % {"table": match.table},
            {"table": match.table},
        )
    before = _tables(rnd)
    opponent = match.entry_b_id if match.entry_a_id == entry.pk else match.entry_a_id
    seat.delete()
    if opponent is None:
        match.delete()
    else:
        match.entry_a_id, match.entry_b_id = opponent, None
        match.die_roll_winner = match.game3_roll_winner = None
        match.save(update_fields=["entry_a", "entry_b", "die_roll_winner", "game3_roll_winner"])
    _record(
        tournament,
        A.DROP_BYE,
        by=acting_user(actor),
        reason=reason,
        round_number=rnd.number,
        entry=entry,
        params={"tables": before, "after": _tables(rnd), "opponent": opponent},
    )
    enqueue_standings(tournament.pk)
    return rnd


# --- rounds an entry missed (re-added after a drop or a no-show, or registered late) -------

#: What the desk gives an entry for the rounds it missed: a match loss for each, a bye for
#: each, or a seat against the bye of the round in progress (earlier missed rounds: losses).
MISSED_CHOICES = ("loss", "bye", "pair")


@dataclass(frozen=True)
class MissedChoice:
    """The desk's choice for the rounds a late or re-added entry missed: ``outcome`` one of
    :data:`MISSED_CHOICES`, the ``reason`` recorded in the action log and who chose (``by``)."""

    outcome: str
    reason: str = ""
    by: Any = None


def require_missed_choice(choice: MissedChoice | None) -> MissedChoice:
    """``choice`` when its outcome is known and it has a reason, else ``ValidationFailed``
    (``missed_choice_required`` / ``reason_required``)."""
    if choice is None or choice.outcome not in MISSED_CHOICES:
        raise ValidationFailed(
            "missed_choice_required",
            _("Choose what the missed rounds count as: a loss, a bye or a seat against the bye."),
            {"field": "missed", "choices": list(MISSED_CHOICES)},
        )
    _require_reason(choice.reason)
    return choice


def _pair_with_bye(rnd: Round, entry: Entry) -> Match:
    match = (
        Match.objects.select_for_update()
        .filter(round=rnd, entry_b=None)
        .exclude(entry_a=entry)
        .order_by("table")
        .first()
    )
    if match is None or match.games.exists() or match.reports.exists():
        raise InvalidState(
            "no_bye_to_pair",
            _("Round %(round)s has no bye without results to pair %(name)s with.")
            % {"round": rnd.number, "name": entry.shown_name},
            {"round": rnd.number},
        )
    require_pairable([entry])
    match.entry_b = entry
    match.save(update_fields=["entry_b"])
    RoundSeat.objects.create(round=rnd, entry=entry, match=match)
    lock_lists([entry])
    return match


def missed_rounds_give(
    tournament: TournamentModel, entry: Entry, *, after_round: int, outcome: str
) -> dict[str, Any]:
    """Score the Swiss rounds after ``after_round`` that ``entry`` did not play, as the desk
    chose (``outcome`` in :data:`MISSED_CHOICES`; the caller holds the tournament lock and
    has checked the choice). ``loss``/``bye``: a :class:`MissedRound` for each such round,
    the round in progress included. ``pair``: the entry takes the bye's empty seat in the
    unfinished last round (the round is locked; the table must have no results), the earlier
    missed rounds are losses. Source: docs/rules.md §14 (Swiss pairing and byes: re-adding
    and late entries), after Melee and MTR §2.10.

    Returns ``{"outcome", "rounds": [numbers scored], "table": table taken or None}``.

    Raises:
        InvalidState: ``top_cut_started``, ``no_bye_to_pair`` (no unfinished round, or it has
            no bye without results), ``entries_without_legal_list`` (``pair``).
    """
    rounds = list(
        Round.objects.select_for_update()
        .filter(tournament=tournament, number__gt=after_round)
        .exclude(seats__entry=entry)
        .order_by("number")
    )
    if any(r.stage == Round.Stage.TOP_CUT for r in rounds):
        raise InvalidState(
            "top_cut_started", _("The top cut has started: no more Swiss rounds."), {}
        )
    table = None
    last = last_round(tournament)
    if outcome == "pair":
        if last is None or last.status == R.FINISHED or last not in rounds:
            raise InvalidState(
                "no_bye_to_pair",
                _("No round is in progress: choose a loss or a bye."),
                {},
            )
        table = _pair_with_bye(last, entry).table
        rounds.remove(last)
    kind = MissedRound.Outcome.BYE if outcome == "bye" else MissedRound.Outcome.LOSS
    MissedRound.objects.bulk_create(
        [MissedRound(round=r, entry=entry, outcome=kind) for r in rounds],
        ignore_conflicts=True,
    )
    return {"outcome": outcome, "rounds": [r.number for r in rounds], "table": table}
