"""Top cut after the Swiss rounds: seeding from the standings, the higher seed's choice,
winners advancing, the champion; top-cut matches do not change the Swiss standings
(docs/rules.md §14 (Swiss pairing and byes), §15 (Match points and tiebreakers))."""

from __future__ import annotations

import pytest

from hkk_tournament.errors import Conflict, InvalidState, ValidationFailed
from tests.factories import UserFactory, make_tournament
from tests.services.tournaments.helpers import finish_round, start_and_pair
from tournaments import services
from tournaments.models import Round
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db


def swiss_done(entries: int = 8):
    t, _ = make_tournament(entries=entries, decks=False, owner=UserFactory(username="org"))
    t, rnd = start_and_pair(t)
    finish_round(rnd)
    rnd2 = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t)
    )
    finish_round(rnd2)
    return t


def win_all(rnd: Round, seat: str = "a") -> None:
    for m in rnd.matches.order_by("table"):
        services.match_result_record(
            actor=SYSTEM, match=m, result="3-0-0" if seat == "a" else "0-3-0"
        )
    services.round_finish(actor=SYSTEM, round=rnd)


def test_top_4_bracket_to_the_champion():
    t = swiss_done()
    ranked = [r.entry for r in services.standings_compute(tournament=t)]
    semi = services.top_cut_start(actor=SYSTEM, tournament=t, size=4)
    assert semi.stage == Round.Stage.TOP_CUT and semi.status == Round.Status.PUBLISHED
    tables = [(m.entry_a_id, m.entry_b_id) for m in semi.matches.order_by("table")]
    assert tables == [(ranked[0], ranked[3]), (ranked[1], ranked[2])]
    # The higher seed holds the game-1 choice: recorded as the die-roll winner.
    assert all(m.die_roll_winner_id == m.entry_a_id for m in semi.matches.all())
    with pytest.raises(Conflict):
        services.top_cut_next(actor=SYSTEM, tournament=t)
    win_all(semi, "b")
    final = services.top_cut_next(actor=SYSTEM, tournament=t)
    assert final is not None
    (m,) = final.matches.all()
    assert {m.entry_a_id, m.entry_b_id} == {ranked[3], ranked[2]}
    assert m.entry_a_id == ranked[2]  # the better seed is the higher seed
    win_all(final, "a")
    assert services.top_cut_next(actor=SYSTEM, tournament=t) is None
    assert services.top_cut_champion(tournament=t) == ranked[2]
    # Swiss standings ignore the top cut.
    assert [r.entry for r in services.standings_compute(tournament=t)] == ranked
    with pytest.raises(InvalidState):
        services.round_pair_next(actor=SYSTEM, tournament=t)


def test_top_cut_errors():
    t = swiss_done(entries=4)
    with pytest.raises(ValidationFailed) as exc:
        services.top_cut_start(actor=SYSTEM, tournament=t, size=8)
    assert exc.value.code == "top_cut_too_few_entries"
    with pytest.raises(ValidationFailed):
        services.top_cut_start(actor=SYSTEM, tournament=t, size=6)
    with pytest.raises(InvalidState):
        services.top_cut_next(actor=SYSTEM, tournament=t)
    services.top_cut_start(actor=SYSTEM, tournament=t, size=4, higher_seed_chooses=False)
    with pytest.raises(Conflict):
        services.top_cut_start(actor=SYSTEM, tournament=t, size=4)
    rnd = t.rounds.order_by("-number").first()
    assert all(m.die_roll_winner_id is None for m in rnd.matches.all())
    assert services.top_cut_default_size(t) == 0  # HKK: Swiss only by default
