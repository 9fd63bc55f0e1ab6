"""Unpublishing or discarding a round that has results: refused with the counts unless the
organiser confirms deleting them; the deleted games, corrections, reports and die rolls are
kept in the action log and restored exactly (who recorded them and when included) once the
round is published again; the round's history offers the restore; a second restore, changed
pairings or new results are refused."""

from __future__ import annotations

from typing import Any

import pytest

from hkk_tournament.errors import Conflict, InvalidState, NotFound
from tests.factories import UserFactory, make_tournament, staff_user
from tests.services.tournaments.helpers import play
from tournaments import selectors, services
from tournaments.models import (
    Game,
    GameCorrection,
    Match,
    Player,
    ResultReport,
    Round,
    Tournament,
    TournamentAction,
)
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db
A = TournamentAction.Kind
GAME_FIELDS = ("number", "winner_id", "first_id", "right_holder_id", "waived", "is_draw")


def _round_with_results() -> tuple[Tournament, Round, Match, Match]:
    """Four entries, round 1 published: table 1 played 2–1 by a judge (game 2 corrected once),
    table 2 has a die roll and a player's pending report."""
    t, _ = make_tournament(entries=4, decks=False)
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t)
    )
    x, y = Match.objects.filter(round=rnd).order_by("table")
    judge = staff_user(t, "judge", username="judge")
    play(x, ["a", "a", "b"])
    Game.objects.filter(match=x).update(recorded_by=judge)
    g2 = Game.objects.get(match=x, number=2)
    services.game_correct(
        game=selectors.game_at(match=x, number=2),
        winner_entry=x.entry_b_id,
        first_entry=g2.first_id,
        reason="slip misread",
        actor=judge,
    )
    services.match_set_die_roll(actor=SYSTEM, match=y, winner_entry=y.entry_a_id)
    user = UserFactory(username="anna")
    Player.objects.filter(memberships__entry_id=y.entry_a_id).update(user=user)
    a, b = y.entry_a_id, y.entry_b_id
    services.result_report_submit(
        match=y,
        entry=a,
        actor=user,
        games=[
            {"number": 1, "winner": a, "first": a},
            {"number": 2, "winner": b, "first": b},
            {"number": 3, "winner": a, "first": a},
        ],
    )
    return t, rnd, x, y


def _snapshot(t: Tournament) -> dict[str, Any]:
    games = Game.objects.filter(match__round__tournament=t).order_by("match__table", "number")
    return {
        "games": [
            (g.match.table, *(getattr(g, f) for f in GAME_FIELDS), g.recorded_by_id, g.recorded_at)
            for g in games
        ],
        "corrections": list(
            GameCorrection.objects.filter(game__match__round__tournament=t).values_list(
                "game__number", "old", "new", "reason", "changed_at"
            )
        ),
        "reports": list(
            ResultReport.objects.filter(match__round__tournament=t).values_list(
                "match__table", "entry_id", "games", "status", "created_at"
            )
        ),
        "rolls": list(
            Match.objects.filter(round__tournament=t)
            .order_by("table")
            .values_list("table", "die_roll_winner_id", "ended_at_time")
        ),
    }


def test_unpublish_with_results_is_refused_with_the_counts():
    t, rnd, _x, _y = _round_with_results()
    with pytest.raises(Conflict) as refused:
        services.round_unpublish(actor=SYSTEM, round=rnd, reason="wrong tables")
    assert refused.value.code == "round_has_results"
    assert refused.value.params == {"round": 1, "games": 3, "reports": 1, "rolls": 2}
    assert "3" in str(refused.value.message) and "delete_results" in refused.value.fields
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.PUBLISHED
    assert Game.objects.filter(match__round=rnd).count() == 3


def test_confirmed_unpublish_keeps_the_results_and_restores_them_exactly():
    t, rnd, x, y = _round_with_results()
    organiser = staff_user(t, username="org")
    before = _snapshot(t)
    services.round_unpublish(round=rnd, actor=organiser, reason="wrong tables", delete_results=True)
    assert not Game.objects.filter(match__round=rnd).exists()
    assert not ResultReport.objects.filter(match__round=rnd).exists()
    assert not Match.objects.filter(round=rnd).exclude(die_roll_winner=None).exists()
    action = TournamentAction.objects.get(tournament=t, kind=A.ROUND_UNPUBLISHED)
    kept = action.params["deleted_results"]
    assert [(k["table"], len(k["games"]), len(k["reports"])) for k in kept] == [
        (1, 3, 0),
        (2, 0, 1),
    ]
    history = selectors.round_history(tournament=t, number=1)
    assert [h["restorable"] for h in history if h["action"] == action.pk] == [True]
    with pytest.raises(InvalidState) as draft:
        services.round_results_restore(tournament=t, action_id=action.pk, actor=organiser)
    assert draft.value.code == "round_not_published"
    services.round_publish(actor=SYSTEM, round=rnd)
    restored = services.round_results_restore(tournament=t, action_id=action.pk, actor=organiser)
    assert restored.kind == A.RESULTS_RESTORED and restored.params["games"] == 3
    assert _snapshot(t) == before
    history = selectors.round_history(tournament=t, number=1)
    assert not any(h["restorable"] for h in history)
    with pytest.raises(Conflict) as again:
        services.round_results_restore(actor=SYSTEM, tournament=t, action_id=action.pk)
    assert again.value.code == "results_already_restored"
    assert selectors.match_score(Match.objects.get(pk=x.pk)).complete


def test_a_draft_round_with_results_is_discarded_only_when_confirmed_and_restorable():
    """Results that reached a draft round (before the round lock, a result could commit into
    a round just unpublished) are never deleted silently by a discard."""
    t, rnd, x, _y = _round_with_results()
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.DRAFT)
    before = _snapshot(t)
    with pytest.raises(Conflict) as refused:
        services.round_discard(actor=SYSTEM, round=rnd, reason="pair again", pair_again=True)
    assert refused.value.params["games"] == 3
    assert Round.objects.filter(pk=rnd.pk).exists()
    gone = services.round_discard(actor=SYSTEM, round=rnd, reason="pair again", delete_results=True)
    assert gone is None and not Round.objects.filter(pk=rnd.pk).exists()
    action = TournamentAction.objects.get(tournament=t, kind=A.ROUND_DISCARDED)
    assert sum(len(k["games"]) for k in action.params["deleted_results"]) == 3
    # Paired again with the recorded seed: the same entries meet again, in new match rows.
    new = services.round_pair_next(actor=SYSTEM, tournament=t, seed=action.params["seed"])
    assert not Match.objects.filter(pk=x.pk).exists()
    with pytest.raises(InvalidState):
        services.round_results_restore(actor=SYSTEM, tournament=t, action_id=action.pk)
    services.round_publish(actor=SYSTEM, round=new)
    services.round_results_restore(actor=SYSTEM, tournament=t, action_id=action.pk)
    assert _snapshot(t) == before


def test_restore_is_refused_where_the_pairings_changed_or_results_came_since():
    t, rnd, x, _y = _round_with_results()
    services.round_unpublish(actor=SYSTEM, round=rnd, reason="wrong tables", delete_results=True)
    action = TournamentAction.objects.get(tournament=t, kind=A.ROUND_UNPUBLISHED)
    services.round_swap_pairings(
        actor=SYSTEM, round=rnd, table_x=1, table_y=2, swap="b", reason="swap"
    )
    services.round_publish(actor=SYSTEM, round=rnd)
    with pytest.raises(Conflict) as blocked:
        services.round_results_restore(actor=SYSTEM, tournament=t, action_id=action.pk)
    assert blocked.value.code == "results_not_restorable"
    assert blocked.value.params["tables"] == [1, 2]
    assert not Game.objects.filter(match__round=rnd).exists()  # all or nothing
    with pytest.raises(NotFound) as missing:
        services.round_results_restore(actor=SYSTEM, tournament=t, action_id=action.pk + 999)
    assert missing.value.code == "action_not_found"


def test_a_result_in_a_discarded_round_is_refused_cleanly():
    """A judge's page loaded before the discard: the result finds no table (404), not a 500."""
    t, _ = make_tournament(entries=2, decks=False)
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_pair_next(actor=SYSTEM, tournament=t)
    m = Match.objects.get(round=rnd)
    services.round_discard(actor=SYSTEM, round=rnd, reason="again")
    with pytest.raises(NotFound) as gone:
        services.match_result_record(
            actor=SYSTEM, match=m, result="2-0-0", die_roll_winner=m.entry_a_id
        )
    assert gone.value.code == "match_not_found"
