"""Players' own result reports (docs/rules.md §16 (Deck checks, penalties and result
reporting)): agreement records the games, disagreement flags a dispute for the judges, a judge's
confirmation records or corrects the games."""

from __future__ import annotations

import pytest

from hkk_tournament.errors import InvalidState, PermissionDenied, ValidationFailed
from tests.factories import UserFactory, make_tournament, staff_user
from tournaments import selectors, services
from tournaments.models import (
    Game,
    GameCorrection,
    Match,
    Player,
    ResultReport,
    Round,
    Tournament,
)
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db

RS = ResultReport.Status


def link(entry_id: int, user) -> None:
    """Make ``user`` the account of the (single) player of the entry."""
    Player.objects.filter(memberships__entry_id=entry_id).update(user=user)


def published(entries: int = 4, *, seed: int = 7) -> tuple[Tournament, Round]:
    t, _ = make_tournament(entries=entries, decks=False, owner=UserFactory(username="org"))
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_pair_next(actor=SYSTEM, tournament=t, seed=seed)
    return t, services.round_publish(actor=SYSTEM, round=rnd)


@pytest.fixture
def setup():
    """A published round; ``ua`` plays entry A and ``ub`` entry B of the first real table."""
    t, rnd = published()
    m = rnd.matches.filter(entry_b__isnull=False).order_by("table").first()
    ua, ub = UserFactory(username="anna"), UserFactory(username="bela")
    link(m.entry_a_id, ua)
    link(m.entry_b_id, ub)
    return t, rnd, m, ua, ub


def hkk_games(m: Match, winners=("a", "b", "a")) -> list[dict]:
    """Three games that follow the HKK rule with A as player 1: A goes first in games 1 and 3,
    B in game 2 (no waivers)."""
    a, b = m.entry_a_id, m.entry_b_id
    firsts = (a, b, a)
    return [
        {"number": i + 1, "winner": {"a": a, "b": b, None: None}[w], "first": firsts[i]}
        for i, w in enumerate(winners)
    ]


def normal(games: list[dict]) -> list[dict]:
    return [{**g, "waived": g.get("waived", False)} for g in games]


def test_first_report_waits_for_the_opponent(setup):
    _t, _rnd, m, ua, _ub = setup
    r = services.result_report_submit(match=m, entry=m.entry_a_id, actor=ua, games=hkk_games(m))
    assert r.status == RS.PENDING
    assert r.games == normal(hkk_games(m))
    assert not Game.objects.filter(match=m).exists()


def test_agreeing_reports_record_the_games(setup):
    _t, _rnd, m, ua, ub = setup
    first = services.result_report_submit(match=m, entry=m.entry_a_id, actor=ua, games=hkk_games(m))
    second = services.result_report_submit(
        match=m, entry=m.entry_b_id, actor=ub, games=hkk_games(m)
    )
    first.refresh_from_db()
    assert (first.status, second.status) == (RS.ACCEPTED, RS.ACCEPTED)
    assert second.resolved_by == ub and second.resolved_at is not None
    games = list(Game.objects.filter(match=m).order_by("number"))
    assert [g.winner_id for g in games] == [m.entry_a_id, m.entry_b_id, m.entry_a_id]
    assert [g.right_holder_id for g in games] == [m.entry_a_id, m.entry_b_id, m.entry_a_id]
    assert all(g.recorded_by == ub for g in games)
    m.refresh_from_db()
    assert m.die_roll_winner_id == m.entry_a_id  # taken from game 1's holder
    assert services.match_disputes(tournament=m.round.tournament) == []


def test_waived_right_is_reported_and_recorded(setup):
    _t, _rnd, m, ua, ub = setup
    a, b = m.entry_a_id, m.entry_b_id
    # Game 2: B holds the right and waives it, so A goes first.
    games = [
        {"number": 1, "winner": a, "first": a},
        {"number": 2, "winner": b, "first": a, "waived": True},
        {"number": 3, "winner": a, "first": a},
    ]
    services.result_report_submit(match=m, entry=a, actor=ua, games=games)
    services.result_report_submit(match=m, entry=b, actor=ub, games=games)
    g2 = Game.objects.get(match=m, number=2)
    assert (g2.right_holder_id, g2.waived, g2.first_id) == (b, True, a)


def test_disagreement_marks_both_disputed(setup):
    t, _rnd, m, ua, ub = setup
    mine = services.result_report_submit(match=m, entry=m.entry_a_id, actor=ua, games=hkk_games(m))
    theirs = services.result_report_submit(
        match=m, entry=m.entry_b_id, actor=ub, games=hkk_games(m, ("a", "b", "b"))
    )
    mine.refresh_from_db()
    assert (mine.status, theirs.status) == (RS.DISPUTED, RS.DISPUTED)
    assert not Game.objects.filter(match=m).exists()
    assert services.match_disputes(tournament=t) == [m]


def test_re_report_replaces_the_own_open_report(setup):
    _t, _rnd, m, ua, ub = setup
    old = services.result_report_submit(
        match=m, entry=m.entry_a_id, actor=ua, games=hkk_games(m, ("b", "b", "b"))
    )
    new = services.result_report_submit(match=m, entry=m.entry_a_id, actor=ua, games=hkk_games(m))
    old.refresh_from_db()
    assert old.status == RS.SUPERSEDED and new.status == RS.PENDING
    assert ResultReport.objects.filter(match=m, status__in=["pending", "disputed"]).count() == 1
    # A dispute is settled when one side re-reports what the other said.
    services.result_report_submit(
        match=m, entry=m.entry_b_id, actor=ub, games=hkk_games(m, ("a", "a", "b"))
    )
    new.refresh_from_db()
    assert new.status == RS.DISPUTED
    fixed = services.result_report_submit(
        match=m, entry=m.entry_a_id, actor=ua, games=hkk_games(m, ("a", "a", "b"))
    )
    assert fixed.status == RS.ACCEPTED
    new.refresh_from_db()
    assert new.status == RS.SUPERSEDED
    assert Game.objects.filter(match=m).count() == 3
    assert services.match_disputes(tournament=m.round.tournament) == []


def test_judge_confirms_one_side_of_a_dispute(setup):
    t, _rnd, m, ua, ub = setup
    judge = staff_user(m.round.tournament, "judge", username="judge")
    mine = services.result_report_submit(match=m, entry=m.entry_a_id, actor=ua, games=hkk_games(m))
    theirs = services.result_report_submit(
        match=m, entry=m.entry_b_id, actor=ub, games=hkk_games(m, ("b", "b", "b"))
    )
    confirmed = services.result_report_confirm(report=theirs, actor=judge)
    mine.refresh_from_db()
    assert confirmed.status == RS.ACCEPTED and confirmed.resolved_by == judge
    assert mine.status == RS.SUPERSEDED
    assert [g.winner_id for g in Game.objects.filter(match=m).order_by("number")] == [
        m.entry_b_id
    ] * 3
    assert services.match_disputes(tournament=t) == []
    with pytest.raises(InvalidState) as exc:
        services.result_report_confirm(report=mine, actor=judge)
    assert exc.value.code == "report_closed"


def test_report_contradicting_a_recorded_game_is_disputed_and_confirm_corrects_it(setup):
    _t, _rnd, m, ua, _ub = setup
    judge = staff_user(m.round.tournament, "judge", username="judge")
    a, b = m.entry_a_id, m.entry_b_id
    services.game_record(
        match=m, number=1, winner_entry=b, first_entry=a, right_holder_entry=a, actor=judge
    )
    report = services.result_report_submit(match=m, entry=a, actor=ua, games=hkk_games(m))
    assert report.status == RS.DISPUTED
    assert services.match_disputes(tournament=m.round.tournament) == [m]
    services.result_report_confirm(report=report, actor=judge)
    games = list(Game.objects.filter(match=m).order_by("number"))
    assert [g.winner_id for g in games] == [a, b, a]
    assert games[0].version == 2
    correction = GameCorrection.objects.get(game=games[0])
    assert correction.old["winner"] == b and correction.new["winner"] == a
    assert f"#{report.pk}" in correction.reason
    assert correction.changed_by == judge


def test_report_on_a_bye_is_rejected():
    t, rnd = published(5)
    bye = rnd.matches.get(entry_b__isnull=True)
    user = UserFactory(username="byeplayer")
    link(bye.entry_a_id, user)
    with pytest.raises(InvalidState) as exc:
        services.result_report_submit(match=bye, entry=bye.entry_a_id, actor=user, games=[])
    assert exc.value.code == "bye_match"
    assert not ResultReport.objects.exists()


def test_report_on_an_unpublished_round_is_rejected():
    t, _ = make_tournament(entries=2, decks=False)
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_pair_next(actor=SYSTEM, tournament=t, seed=1)
    m = rnd.matches.get()
    user = UserFactory(username="early")
    link(m.entry_a_id, user)
    with pytest.raises(InvalidState) as exc:
        services.result_report_submit(match=m, entry=m.entry_a_id, actor=user, games=hkk_games(m))
    assert exc.value.code == "round_not_published"
    assert not ResultReport.objects.exists()


def test_report_on_a_finished_round_is_rejected(setup):
    _t, rnd, m, ua, ub = setup
    for match in rnd.matches.filter(entry_b__isnull=False):
        for g in hkk_games(match):
            services.game_record(
                actor=SYSTEM,
                match=match,
                number=g["number"],
                winner_entry=g["winner"],
                first_entry=g["first"],
                right_holder_entry=g["first"],
            )
    services.round_finish(actor=SYSTEM, round=rnd)
    with pytest.raises(InvalidState) as exc:
        services.result_report_submit(match=m, entry=m.entry_a_id, actor=ua, games=hkk_games(m))
    assert exc.value.code == "round_finished"


def test_report_after_the_result_is_recorded_is_rejected(setup):
    _t, _rnd, m, ua, _ub = setup
    for g in hkk_games(m):
        services.game_record(
            actor=SYSTEM,
            match=m,
            number=g["number"],
            winner_entry=g["winner"],
            first_entry=g["first"],
            right_holder_entry=g["first"],
        )
    with pytest.raises(InvalidState) as exc:
        services.result_report_submit(match=m, entry=m.entry_a_id, actor=ua, games=hkk_games(m))
    assert exc.value.code == "match_complete"


def test_outsider_and_wrong_entry_are_rejected(setup):
    _t, rnd, m, ua, _ub = setup
    outsider = UserFactory(username="outsider")
    with pytest.raises(PermissionDenied) as refused:
        services.result_report_submit(
            match=m, entry=m.entry_a_id, actor=outsider, games=hkk_games(m)
        )
    assert refused.value.code == "permission_denied"
    # ua plays entry A, not entry B.
    with pytest.raises(PermissionDenied) as refused:
        services.result_report_submit(match=m, entry=m.entry_b_id, actor=ua, games=hkk_games(m))
    assert refused.value.code == "permission_denied"
    other = rnd.matches.exclude(pk=m.pk).filter(entry_b__isnull=False).first()
    with pytest.raises(PermissionDenied) as refused:  # nor for an entry of another table
        services.result_report_submit(match=m, entry=other.entry_a_id, actor=ua, games=hkk_games(m))
    assert refused.value.code == "permission_denied"
    assert not ResultReport.objects.exists()


@pytest.mark.parametrize(
    ("change", "code"),
    [
        (lambda g, m: g[0].update(number=4), "wrong_game_number"),
        (lambda g, m: g[1].update(number=1), "wrong_game_number"),
        (lambda g, m: g[0].update(winner=999999), "wrong_winner"),
        (lambda g, m: g[0].update(first=None), "roll_not_recorded"),
        (lambda g, m: g[1].update(first=None), "wrong_right_holder"),
    ],
)
def test_games_breaking_the_rules_are_rejected_in_memory(setup, change, code):
    """The rules (numbers in order, the two entries, who went first) are the pure domain's
    (``first_player.replay_reported``); the shape is the serializer's and the form's."""
    _t, _rnd, m, ua, _ub = setup
    games = hkk_games(m)
    change(games, m)
    with pytest.raises(ValidationFailed) as exc:
        services.result_report_submit(match=m, entry=m.entry_a_id, actor=ua, games=games)
    assert exc.value.params.get("reason", exc.value.code) == code
    assert not ResultReport.objects.exists()


def test_too_many_or_no_games_are_rejected(setup):
    _t, _rnd, m, ua, _ub = setup
    with pytest.raises(ValidationFailed) as exc:
        services.result_report_submit(match=m, entry=m.entry_a_id, actor=ua, games=[])
    assert exc.value.code == "invalid_report"
    games = hkk_games(m) + [{"number": 4, "winner": None, "first": m.entry_a_id}]
    with pytest.raises(InvalidState) as exc_state:
        services.result_report_submit(match=m, entry=m.entry_a_id, actor=ua, games=games)
    assert exc_state.value.code == "too_many_games"


def test_games_breaking_the_first_player_rule_surface_game_record_errors(setup):
    _t, _rnd, m, ua, _ub = setup
    games = hkk_games(m)
    games[1]["first"] = m.entry_a_id  # game 2 belongs to player 2 (B), not waived
    with pytest.raises(ValidationFailed) as exc:
        services.result_report_submit(match=m, entry=m.entry_a_id, actor=ua, games=games)
    assert exc.value.code == "first_player_mismatch"
    assert not ResultReport.objects.exists()
    assert not Game.objects.exists()
    m.refresh_from_db()
    assert m.die_roll_winner_id is None  # the validation run left nothing behind


def test_one_choice_reports_record_the_score_with_details_not_reported(setup):
    """Two agreeing one-choice reports ("2–1") record the score; the games' order and first
    players are not invented: each game is marked "details not reported"."""
    _t, _rnd, m, ua, ub = setup
    games = services.outcome_games(match=m, result="2-1-0", die_roll_winner=m.entry_a_id)
    assert all(g["details_reported"] is False for g in games)
    services.result_report_submit(match=m, entry=m.entry_a_id, actor=ua, games=games)
    report = services.result_report_submit(match=m, entry=m.entry_b_id, actor=ub, games=games)
    assert report.status == RS.ACCEPTED
    recorded = list(Game.objects.filter(match=m).order_by("number"))
    assert [g.details_reported for g in recorded] == [False, False, False]
    assert {(g.right_holder_id, g.first_id, g.chosen_by_id) for g in recorded} == {
        (None, None, None)
    }
    score = selectors.match_score(m)
    assert (score.a_wins, score.b_wins, score.complete) == (2, 1, True)
