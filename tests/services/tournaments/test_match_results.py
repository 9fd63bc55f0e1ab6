"""Match-level results from slips (2–0, 2–1, 1–1, no-show …), the round clock, and a judge's
entry superseding the players' open reports (docs/rules.md §6 (HKK first-player rights), §15
(Match points and tiebreakers), §16 (Deck checks, penalties and result reporting))."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from hkk_tournament.errors import Conflict, InvalidState, ValidationFailed
from tests.factories import UserFactory, make_tournament, staff_user
from tournaments import selectors, services
from tournaments.models import Game, Match, Player, ResultReport, Round, Tournament
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db


def published(*, stop: bool = False) -> tuple[Tournament, Round, Match]:
    t, _ = make_tournament(entries=4, decks=False, owner=UserFactory(username="org"))
    if stop:
        best_of = {**t.match_structure, "ends_when_decided": True}
        Tournament.objects.filter(pk=t.pk).update(match_structure=best_of)
        t.refresh_from_db()
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t, seed=3)
    )
    m = rnd.matches.filter(entry_b__isnull=False).order_by("table").first()
    assert m is not None
    return t, rnd, m


def games(m: Match) -> list[Game]:
    return list(Game.objects.filter(match=m).order_by("number"))


def test_hkk_2_1_records_three_games_without_inventing_holders():
    _t, _rnd, m = published()
    services.match_result_record(
        actor=SYSTEM, match=m, result="2-1-0", die_roll_winner=m.entry_b_id
    )
    g = games(m)
    a, b = m.entry_a_id, m.entry_b_id
    assert [x.winner_id for x in g] == [b, a, a]
    # Checked in memory with the policy's holders (HKK: B, A, B), but a slip reports none of
    # them: right holder, first player and chooser are stored empty.
    assert [(x.right_holder_id, x.first_id, x.chosen_by_id, x.waived) for x in g] == [
        (None, None, None, False)
    ] * 3
    m.refresh_from_db()
    assert selectors.match_score(m).complete and not m.ended_at_time


def test_a_die_roll_is_needed_when_none_is_recorded():
    _t, _rnd, m = published()
    with pytest.raises(ValidationFailed) as exc:
        services.match_result_record(actor=SYSTEM, match=m, result="2-1-0")
    assert exc.value.code == "roll_not_recorded"
    assert not games(m)


def test_best_of_three_2_0_and_time_called_1_1():
    t, rnd, m = published(stop=True)
    services.match_result_record(actor=SYSTEM, match=m, result="2-0", die_roll_winner=m.entry_a_id)
    assert len(games(m)) == 2
    m.refresh_from_db()
    assert not m.ended_at_time and selectors.match_score(m).complete
    other = rnd.matches.filter(entry_b__isnull=False).exclude(pk=m.pk).first()
    services.match_result_record(
        actor=SYSTEM, match=other, result="1-1", die_roll_winner=other.entry_a_id
    )
    other.refresh_from_db()
    score = selectors.match_score(other)
    assert other.ended_at_time and score.complete
    assert score.points[other.entry_a_id] == t.match_draw_points


def test_no_show_is_a_match_loss_for_the_absent_side():
    t, _rnd, m = published()
    services.match_result_record(actor=SYSTEM, match=m, result="no_show_a")
    m.refresh_from_db()
    score = selectors.match_score(m)
    assert (score.a_wins, score.b_wins, score.complete) == (0, 2, True)
    assert score.points[m.entry_b_id] == t.match_win_points
    assert m.die_roll_winner_id == m.entry_b_id


def test_match_level_entry_refuses_recorded_games_and_bad_results():
    _t, _rnd, m = published()
    with pytest.raises(ValidationFailed) as exc:
        services.match_result_record(
            actor=SYSTEM, match=m, result="4-0-0", die_roll_winner=m.entry_a_id
        )
    assert exc.value.code == "invalid_result"
    services.match_result_record(
        actor=SYSTEM, match=m, result="3-0-0", die_roll_winner=m.entry_a_id
    )
    with pytest.raises(Conflict):
        services.match_result_record(actor=SYSTEM, match=m, result="3-0-0")


def test_outcome_buttons_follow_the_format():
    t, _rnd, _m = published(stop=True)
    labels = [o.label for o in services.match_outcomes(tournament=t)]
    assert labels[:2] == ["2–0", "2–1"]
    assert {"1–1", "1–0", "0–1", "0–0–1", "1–2", "0–2"} <= set(labels)
    t2, _r, _m2 = published()
    assert "3–0" in [o.label for o in services.match_outcomes(tournament=t2)]


def test_a_judge_entry_supersedes_the_pending_report():
    _t, _rnd, m = published()
    user = UserFactory(username="anna")
    Player.objects.filter(memberships__entry_id=m.entry_a_id).update(user=user)
    a, b = m.entry_a_id, m.entry_b_id
    report = services.result_report_submit(
        match=m,
        entry=a,
        actor=user,
        games=[
            {"number": 1, "winner": a, "first": a},
            {"number": 2, "winner": a, "first": b},
            {"number": 3, "winner": a, "first": a},
        ],
    )
    judge = staff_user(m.round.tournament, "judge", username="judge")
    services.match_result_record(match=m, result="1-2-0", die_roll_winner=a, actor=judge)
    report.refresh_from_db()
    assert report.status == ResultReport.Status.SUPERSEDED
    assert report.resolved_by == judge


def test_round_clock_start_pause_resume_extend():
    _t, rnd, m = published()
    rnd = services.round_clock_start(actor=SYSTEM, round=rnd, minutes=40)
    reading = services.clock_read(round=rnd)
    assert reading.state == "running" and 2390 <= reading.seconds_left <= 2400
    services.round_clock_pause(actor=SYSTEM, round=rnd)
    with pytest.raises(InvalidState):
        services.round_clock_pause(actor=SYSTEM, round=rnd)
    Round.objects.filter(pk=rnd.pk).update(clock_paused_at=timezone.now() - timedelta(minutes=5))
    rnd = services.round_clock_resume(actor=SYSTEM, round=rnd)
    assert rnd.clock_paused_seconds >= 299
    services.round_clock_extend(actor=SYSTEM, round=rnd, minutes=3, table=m.table)
    services.round_clock_extend(actor=SYSTEM, round=rnd, minutes=2)
    rnd.refresh_from_db()
    m.refresh_from_db()
    assert rnd.clock_extension_seconds == 120 and m.extension_seconds == 180
    assert services.clock_read(round=rnd, match=m).total_seconds == 40 * 60 + 300
    with pytest.raises(InvalidState):
        services.round_clock_start(actor=SYSTEM, round=rnd)


#: A slip is one locked read of the match, one check for recorded games, one update of the
#: match (die roll, time called), one INSERT of all its games, one update of the open reports
#: and one of the match's ``result_version`` (the standings snapshot then knows it is stale:
#: the already locked match row, never a row other tables share), in a savepoint here (the
#: test's transaction), then the live push (one INSERT of the ``PushEvent``; its score from the
#: games just stored, no read): whatever the number of games.
MAX_SLIP_QUERIES = 10


@pytest.mark.parametrize("result", ["2-1-0", "3-0-0", "1-1-0", "no_show_b"])
def test_a_slip_records_a_match_in_a_bounded_number_of_queries(
    django_assert_max_num_queries, result
):
    _t, _rnd, m = published()
    with django_assert_max_num_queries(MAX_SLIP_QUERIES) as ctx:
        services.match_result_record(
            actor=SYSTEM, match=m, result=result, die_roll_winner=m.entry_a_id
        )
    inserts = [q["sql"] for q in ctx.captured_queries if q["sql"].startswith("INSERT")]
    assert len(inserts) == 2, inserts
    assert "tournaments_game" in inserts[0] and "tournaments_pushevent" in inserts[1]
    locks = [q["sql"] for q in ctx.captured_queries if "FOR UPDATE" in q["sql"]]
    # The match row only (never the tournament's): other tables do not wait for this one.
    assert all(sql.endswith('FOR UPDATE OF "tournaments_match"') for sql in locks), locks
    assert len(locks) == (1 if connection.features.has_select_for_update else 0)
    assert len(games(m)) == {"2-1-0": 3, "3-0-0": 3, "1-1-0": 2, "no_show_b": 2}[result]


def test_one_game_is_recorded_in_a_bounded_number_of_queries(django_assert_max_num_queries):
    """``game_record``: the round ``FOR SHARE``, the locked match, its games, the INSERT, the
    update of the open reports and of the match's ``result_version`` (the standings snapshot's
    staleness, on the already locked row), in a savepoint here, and the live push (its INSERT;
    the score from the games already read); nothing else."""
    _t, _rnd, m = published()
    a, b = m.entry_a_id, m.entry_b_id
    services.match_set_die_roll(actor=SYSTEM, match=m, winner_entry=a)
    for number, (winner, first) in enumerate([(a, a), (b, b), (a, a)], start=1):
        with django_assert_max_num_queries(9):
            services.game_record(
                actor=SYSTEM, match=m, number=number, winner_entry=winner, first_entry=first
            )
    m.refresh_from_db()
    assert selectors.match_score(m).complete


def test_a_slip_records_the_score_with_details_not_reported():
    """A slip's "2–1" stores three games whose winners make the score exact; their order, right
    holders and first players are marked as not reported, and a judge's correction of a game
    makes that game detailed."""
    t, _rnd, m = published()
    services.match_result_record(
        actor=SYSTEM, match=m, result="2-1-0", die_roll_winner=m.entry_b_id
    )
    g = games(m)
    assert [x.details_reported for x in g] == [False, False, False]
    assert sorted(x.winner_id for x in g) == sorted([m.entry_a_id, m.entry_a_id, m.entry_b_id])
    rows = {r.entry: r for r in services.standings_compute(tournament=t)}
    # HKK game points 2/1/0: two game wins and one loss are 4 points, one win 2 points.
    assert rows[m.entry_a_id].match_points == 3 and rows[m.entry_a_id].game_points == 4
    assert rows[m.entry_b_id].match_points == 0 and rows[m.entry_b_id].game_points == 2
    exported = services.tournament_export(tournament=t)
    table = next(x for r in exported["rounds"] for x in r["pairings"] if x["table"] == m.table)
    assert all(x["details_reported"] is False and x["first"] is None for x in table["games"])
    judge = staff_user(m.round.tournament, "judge", username="judge")
    # Game 2's right would follow from game 1, whose details are unknown: game 1 comes first.
    with pytest.raises(ValidationFailed) as exc:
        services.game_correct(
            actor=SYSTEM,
            game=g[1],
            winner_entry=g[1].winner_id,
            first_entry=m.entry_a_id,
            reason="order",
        )
    assert exc.value.code == "earlier_details_not_reported"
    assert exc.value.params == {"game": 2, "earlier": [1]}
    first = services.game_correct(
        game=g[0],
        winner_entry=g[0].winner_id,
        first_entry=m.entry_b_id,
        reason="details from the slip's back",
        actor=judge,
    )
    assert first.details_reported and first.corrections.get().old["details_reported"] is False
