"""Re-adding a dropped entry or a no-show, and late entries, after rounds were paired without
them: the desk's choice for the missed rounds (a match loss, a bye, or a seat against the bye
of the round in progress), the reason in the action log, and exact standings."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from django.db import connection

from hkk_tournament.errors import InvalidState, ValidationFailed
from tests.factories import make_tournament, staff_user
from tests.services.tournaments.helpers import finish_round
from tests.services.tournaments.test_concurrency import run_concurrently
from tournaments import services
from tournaments.models import Entry, Match, MissedRound, RoundSeat, TournamentAction
from tournaments.permissions import SYSTEM
from tournaments.services.round_fixes import MissedChoice

pytestmark = pytest.mark.django_db
A = TournamentAction.Kind


def _running(n: int = 8, **kw: Any):
    t, entries = make_tournament(entries=n, decks=False, planned_rounds=4, **kw)
    return services.tournament_start(actor=SYSTEM, tournament=t), entries


def _row(t, entry: Entry) -> Any:
    return next(r for r in services.standings_compute(tournament=t) if r.entry == entry.pk)


def _one_round_without(t, entry: Entry):
    services.entry_drop(entry=entry)
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t)
    )
    assert not RoundSeat.objects.filter(round=rnd, entry=entry).exists()
    return finish_round(rnd)


def test_readd_with_a_loss_counts_a_lost_match_without_game_wins() -> None:
    t, entries = _running(tiebreakers=["omw", "gw", "ogw"])
    user: Any = staff_user(t)
    late = entries[0]
    _one_round_without(t, late)
    with pytest.raises(ValidationFailed) as exc:
        services.entry_readd(actor=SYSTEM, entry=late, missed="loss", reason=" ")
    assert exc.value.code == "reason_required"
    with pytest.raises(ValidationFailed) as exc:
        services.entry_readd(actor=SYSTEM, entry=late, missed="forfeit", reason="late")
    assert exc.value.code == "missed_choice_required"
    services.entry_readd(entry=late, actor=user, missed="loss", reason="stuck in traffic")
    late.refresh_from_db()
    assert late.dropped_after_round is None
    assert MissedRound.objects.get(entry=late).outcome == MissedRound.Outcome.LOSS
    action = TournamentAction.objects.get(kind=A.ENTRY_READDED)
    assert (action.by, action.reason, action.params["outcome"], action.params["rounds"]) == (
        user,
        "stuck in traffic",
        "loss",
        [1],
    )
    row = _row(t, late)
    assert (row.match_points, row.game_points, row.matches_played) == (0, 0, 1)
    assert row.tiebreakers["gw"] == Fraction(1, 3)  # 0 of 2 games, floored at 1/3
    assert row.tiebreakers["omw"] == 0  # no opponent in a missed round
    others = [r for r in services.standings_compute(tournament=t) if r.entry != late.pk]
    assert all(r.matches_played == 1 for r in others)
    rnd2 = services.round_pair_next(actor=SYSTEM, tournament=t)
    assert RoundSeat.objects.filter(round=rnd2, entry=late).exists()


def test_readd_with_a_bye_scores_a_bye_and_counts_for_pairing() -> None:
    t, entries = _running(n=7)
    late = entries[0]
    _one_round_without(t, late)  # six play, nobody gets the pairing bye
    services.entry_readd(actor=SYSTEM, entry=late, missed="bye", reason="judge call ran long")
    row = _row(t, late)
    assert (row.match_points, row.game_points, row.matches_played) == (3, 4, 1)
    cand = {c.id: c for c in services.pairing_candidates(t, list(entries))}
    assert cand[late.pk].byes == 1 and cand[late.pk].match_points == 3
    rnd2 = services.round_pair_next(actor=SYSTEM, tournament=t)
    bye = Match.objects.get(round=rnd2, entry_b=None)
    assert bye.entry_a_id != late.pk  # the one bye per entry holds


def test_a_no_show_comes_back_and_takes_the_bye_seat_of_the_round_in_progress() -> None:
    t, _ = _running()
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t)
    )
    match = rnd.matches.order_by("table")[0]
    absent: Any = match.entry_a
    opponent = match.entry_b_id
    services.entry_drop_with_bye(actor=SYSTEM, entry=absent, reason="no-show")
    services.entry_readd(actor=SYSTEM, entry=absent, missed="pair", reason="arrived at minute 5")
    match.refresh_from_db()
    assert (match.entry_a_id, match.entry_b_id) == (opponent, absent.pk)
    assert RoundSeat.objects.filter(round=rnd, entry=absent, match=match).exists()
    assert not MissedRound.objects.filter(entry=absent).exists()
    action = TournamentAction.objects.get(kind=A.ENTRY_READDED)
    assert action.params["table"] == match.table and action.params["rounds"] == []
    finish_round(rnd)
    assert _row(t, absent).matches_played == 1


def test_pair_needs_a_bye_without_results_in_the_round_in_progress() -> None:
    t, entries = _running()
    _one_round_without(t, entries[0])
    with pytest.raises(InvalidState) as exc:
        services.entry_readd(actor=SYSTEM, entry=entries[0], missed="pair", reason="late")
    assert exc.value.code == "no_bye_to_pair"
    entries[0].refresh_from_db()
    assert entries[0].dropped_after_round == 0  # nothing changed


def test_late_entry_after_round_one_without_a_cut_off_takes_the_desk_choice() -> None:
    t, _ = _running()
    finish_round(
        services.round_publish(
            actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t)
        )
    )
    with pytest.raises(InvalidState) as exc:
        services.entry_register_late(tournament=t, player="Késő Kata")
    assert exc.value.code == "late_entry_closed"
    late = services.entry_register_late(
        tournament=t,
        player="Késő Kata",
        missed=MissedChoice(outcome="loss", reason="came after round 1"),
    )
    assert late.registered_round == 2
    assert MissedRound.objects.get(entry=late).round.number == 1
    action = TournamentAction.objects.get(kind=A.LATE_ENTRY)
    assert action.entry == late and action.params["rounds"] == [1]
    assert _row(t, late).matches_played == 1


def test_late_entry_takes_the_bye_seat_only_with_a_pairable_list() -> None:
    t, _ = _running(n=7)
    finish_round(
        services.round_publish(
            actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t)
        )
    )
    rnd2 = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t)
    )
    bye = Match.objects.get(round=rnd2, entry_b=None)
    with pytest.raises(ValidationFailed) as exc:
        services.entry_register_late(
            tournament=t, player="Késő Kata", missed=MissedChoice(outcome="pair", reason="late")
        )
    assert exc.value.code == "entries_without_legal_list"
    assert not Entry.objects.filter(name="Késő Kata").exists()  # nothing half-saved
    late = services.entry_register_late(
        tournament=t, player="Késő Kata", missed=MissedChoice(outcome="loss", reason="late")
    )
    bye.refresh_from_db()
    missed = MissedRound.objects.filter(entry=late).order_by("round__number")
    assert list(missed.values_list("round__number", "outcome")) == [
        (1, "loss"),
        (2, "loss"),
    ]
    assert late.registered_round == 3
    assert bye.entry_b_id is None


@pytest.mark.postgres_only
@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL row locks")
def test_two_desks_cannot_both_take_the_same_bye() -> None:
    t, entries = _running(n=7)
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t)
    )
    bye = Match.objects.get(round=rnd, entry_b=None)
    seated = Match.objects.exclude(pk=bye.pk).filter(round=rnd).order_by("table")
    comers = [seated[0].entry_a, seated[1].entry_a]
    for e in comers:
        services.entry_drop_with_bye(actor=SYSTEM, entry=e, reason="no-show")
    queue = list(comers)

    def readd():
        entry = queue.pop()
        return services.entry_readd(actor=SYSTEM, entry=entry, missed="pair", reason="back")

    outcomes = run_concurrently(readd)
    refused = [o for o in outcomes if isinstance(o, InvalidState)]
    assert len(refused) == 0 or all(o.code == "no_bye_to_pair" for o in refused)
    for m in Match.objects.filter(round=rnd):
        seats = RoundSeat.objects.filter(match=m).count()
        assert seats == (1 if m.entry_b_id is None else 2)
    assert RoundSeat.objects.filter(round=rnd).count() == 7 - 2 + (2 - len(refused))
