"""Tournament services on a real database: first-player rights, results, corrections,
the standings snapshot, Celery tasks and CSV exports."""

from __future__ import annotations

import pytest
from django.utils import translation

from hkk_tournament.errors import Conflict, InvalidState, NotFound, ValidationFailed
from tests.factories import (
    eager_celery,  # noqa: F401 (fixture)
    make_tournament,
    staff_user,
)
from tests.services.tournaments.helpers import finish_round, finish_round_rest, play, start_and_pair
from tournaments import selectors, services
from tournaments.models import Game, GameCorrection, Round, StandingsSnapshot
from tournaments.permissions import SYSTEM
from tournaments.tasks import round_pair_next_task, standings_recompute_task

pytestmark = pytest.mark.django_db


# --- first-player rights and results ------------------------------------------------------


def test_hkk_first_player_rights_are_enforced():
    t, _ = make_tournament(entries=2, decks=False)
    t, rnd = start_and_pair(t)
    m = rnd.matches.get()
    a, b = m.entry_a_id, m.entry_b_id
    nxt = services.match_next_right(match=m)
    assert nxt.decision.needs_roll and nxt.holder is None
    with pytest.raises(ValidationFailed) as exc:
        services.game_record(actor=SYSTEM, match=m, number=1, winner_entry=a, first_entry=a)
    assert exc.value.code == "roll_not_recorded"
    services.match_set_die_roll(actor=SYSTEM, match=m, winner_entry=b)
    with translation.override("en"):
        assert services.match_next_right(match=m).text == "game 1: player 1 (B) won the die roll"
    # B holds the right; A going first is only possible if B waived.
    with pytest.raises(ValidationFailed) as exc:
        services.game_record(actor=SYSTEM, match=m, number=1, winner_entry=a, first_entry=a)
    assert exc.value.code == "first_player_mismatch"
    services.game_record(
        actor=SYSTEM, match=m, number=1, winner_entry=a, first_entry=a, waived=True
    )
    nxt = services.match_next_right(match=m)
    assert nxt.holder == a and nxt.seat == "A"
    with translation.override("en"):  # the explanation is rendered in the active language
        assert services.match_next_right(match=m).text == "game 2: player 2 (A) per rule"
    with pytest.raises(ValidationFailed) as exc:
        services.game_record(actor=SYSTEM, match=m, number=2, winner_entry=a, first_entry=b)
    assert exc.value.code == "first_player_mismatch"
    services.game_record(actor=SYSTEM, match=m, number=2, winner_entry=b, first_entry=a)
    assert services.match_next_right(match=m).holder == b  # game 3: back to player 1
    g1 = Game.objects.get(match=m, number=1)
    assert (g1.right_holder_id, g1.waived, g1.first_id) == (b, True, a)


def test_hkk_game_three_reroll_when_agreed():
    t, _ = make_tournament(entries=2, decks=False)
    t, rnd = start_and_pair(t)
    m = rnd.matches.get()
    a, b = m.entry_a_id, m.entry_b_id
    services.match_set_die_roll(actor=SYSTEM, match=m, winner_entry=a, reroll_game3_agreed=True)
    services.game_record(actor=SYSTEM, match=m, number=1, winner_entry=a, first_entry=a)
    services.game_record(actor=SYSTEM, match=m, number=2, winner_entry=b, first_entry=b)
    assert services.match_next_right(match=m).decision.needs_roll
    # The judge records game 3 with the re-roll winner as right holder.
    services.game_record(
        actor=SYSTEM, match=m, number=3, winner_entry=b, first_entry=b, right_holder_entry=b
    )
    m.refresh_from_db()
    assert m.game3_roll_winner_id == b
    assert services.match_next_right(match=m).decision is None


def test_loser_chooses_policy():
    t, _ = make_tournament(entries=2, decks=False, first_player_policy="loser_chooses")
    t, rnd = start_and_pair(t)
    m = rnd.matches.get()
    a, b = m.entry_a_id, m.entry_b_id
    services.match_set_die_roll(actor=SYSTEM, match=m, winner_entry=a)
    services.game_record(actor=SYSTEM, match=m, number=1, winner_entry=a, first_entry=a)
    assert services.match_next_right(match=m).holder == b
    services.game_record(actor=SYSTEM, match=m, number=2, winner_entry=None, first_entry=b)
    nxt = services.match_next_right(match=m)
    assert nxt.holder == b and nxt.decision.reason == "same_after_draw"


def test_a_best_of_match_ends_once_decided():
    t, _ = make_tournament(entries=2, decks=False, ends_when_decided=True)
    t, rnd = start_and_pair(t)
    m = rnd.matches.get()
    play(m, ["a", "a"])
    assert selectors.match_score(m).complete
    with pytest.raises(InvalidState) as exc:
        services.game_record(
            actor=SYSTEM, match=m, number=3, winner_entry=m.entry_a_id, first_entry=m.entry_a_id
        )
    assert exc.value.code == "match_already_decided"
    services.round_finish(actor=SYSTEM, round=rnd)
    rows = {r.entry: r for r in services.standings_compute(tournament=t)}
    assert rows[m.entry_a_id].game_points == 4 and rows[m.entry_a_id].match_points == 3


def test_result_rejections_and_correction_history():
    t, _ = make_tournament(entries=4, decks=False)
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_pair_next(actor=SYSTEM, tournament=t)
    m = rnd.matches.order_by("table").first()
    a, b = m.entry_a_id, m.entry_b_id
    with pytest.raises(InvalidState) as exc:  # draft round
        services.game_record(
            actor=SYSTEM, match=m, number=1, winner_entry=a, first_entry=a, right_holder_entry=a
        )
    assert exc.value.code == "round_not_published"
    services.round_publish(actor=SYSTEM, round=rnd)
    with pytest.raises(NotFound) as exc:
        selectors.match_for_table(round=rnd, table=7)
    assert exc.value.code == "table_not_in_round"
    judge = staff_user(rnd.tournament, "judge")
    services.game_record(
        match=selectors.match_for_table(round=rnd, table=m.table),
        number=1,
        winner_entry=a,
        first_entry=a,
        right_holder_entry=a,
        actor=judge,
    )
    with pytest.raises(Conflict) as exc:
        services.game_record(actor=SYSTEM, match=m, number=1, winner_entry=b, first_entry=a)
    assert exc.value.code == "game_already_recorded"
    with pytest.raises(ValidationFailed) as exc:
        services.game_record(actor=SYSTEM, match=m, number=3, winner_entry=b, first_entry=a)
    assert exc.value.code == "wrong_game_number"
    finish_round_rest(rnd, m)
    services.game_record(actor=SYSTEM, match=m, number=2, winner_entry=b, first_entry=b)
    services.game_record(actor=SYSTEM, match=m, number=3, winner_entry=a, first_entry=a)
    services.round_finish(actor=SYSTEM, round=rnd)
    with pytest.raises(InvalidState) as exc:
        services.game_record(actor=SYSTEM, match=m, number=3, winner_entry=b, first_entry=a)
    assert exc.value.code == "round_finished"
    # An explicit correction in the finished round keeps the earlier value.
    game = services.game_correct(
        game=selectors.game_at(match=m, number=3),
        winner_entry=b,
        first_entry=a,
        reason="score sheet misread",
        actor=judge,
        expected_version=1,
    )
    assert game.version == 2 and game.winner_id == b
    history = GameCorrection.objects.get(game=game)
    assert history.old["winner"] == a and history.new["winner"] == b
    assert history.reason == "score sheet misread" and history.changed_by == judge
    with pytest.raises(Conflict) as exc:
        services.game_correct(
            actor=SYSTEM,
            game=selectors.game_at(match=m, number=3),
            winner_entry=a,
            first_entry=a,
            reason="again",
            expected_version=1,
        )
    assert exc.value.code == "stale_version"
    with pytest.raises(NotFound):
        selectors.game_at(match=m, number=4)
    assert Game.objects.filter(match=m).count() == 3
    rows = {r.entry: r for r in services.standings_compute(tournament=t)}
    assert rows[b].match_points == 3 and rows[a].match_points == 0


# --- standings, tasks, exports --------------------------------------------------------------


@pytest.mark.usefixtures("eager_celery")
def test_results_refresh_the_standings_snapshot_on_commit(django_capture_on_commit_callbacks):
    t, _ = make_tournament(entries=2, decks=False)
    t, rnd = start_and_pair(t)
    m = rnd.matches.get()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        play(m, ["a", "a", "b"])
    assert len(callbacks) >= 1
    snap = StandingsSnapshot.objects.get(tournament=t)
    assert snap.rows[0]["entry"] == m.entry_a_id and snap.rows[0]["match_points"] == 3
    assert snap.rows[0]["tiebreakers"] == {"buchholz": "0", "game_points": "4"}


def test_tasks_delegate_to_the_services():
    t, _ = make_tournament(entries=4, decks=False)
    services.tournament_start(actor=SYSTEM, tournament=t)
    out = round_pair_next_task.apply(args=(t.pk,)).get()
    assert out["ok"] and out["number"] == 1
    assert Round.objects.filter(tournament=t).count() == 1
    again = round_pair_next_task.apply(args=(t.pk,)).get()
    assert again == {**again, "ok": False, "code": "round_in_progress"}
    res = standings_recompute_task.apply(args=(t.pk,)).get()
    assert res["rows"] == 4


def test_csv_exports():
    t, _ = make_tournament(entries=3, decks=False)
    t, rnd = start_and_pair(t)
    finish_round(rnd)
    with translation.override("en"):
        pairings = services.pairings_csv(rnd).splitlines()
        standings = services.standings_csv(t).splitlines()
    assert pairings[0].startswith("Table,Entry A,Entry B")
    assert len(pairings) == 3 and "bye" in pairings[-1]
    assert standings[0] == (
        "Rank,Entry,Match points,Game points,Buchholz,Game points (tiebreaker),Dropped"
    )
    assert len(standings) == 4


def test_a_draft_round_counts_nothing_in_the_standings_not_even_its_bye():
    t, _entries = make_tournament(entries=3, decks=False)
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_pair_next(actor=SYSTEM, tournament=t, seed=1)
    assert rnd.matches.filter(entry_b__isnull=True).count() == 1
    assert all(row.match_points == 0 for row in services.standings_compute(tournament=t))
    services.round_publish(actor=SYSTEM, round=rnd)
    assert sorted(r.match_points for r in services.standings_compute(tournament=t)) == [0, 0, 3]
