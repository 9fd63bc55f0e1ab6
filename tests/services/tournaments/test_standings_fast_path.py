"""The standings the services compute from the database (plain rows, integer columns:
``standings_compute``, and the standings' ranks pairing uses) equal the reference path
(``compute_standings_reference`` over ``selectors.match_records``) on a random event played
through the services: random results with drawn games, a bye, a drop (docs/rules.md §15
(Match points and tiebreakers))."""

from __future__ import annotations

import random

import pytest

from tests.factories import make_tournament
from tests.services.tournaments.helpers import play
from tournaments import selectors, services
from tournaments.domain.standings import compute_standings_reference
from tournaments.permissions import SYSTEM
from tournaments.services._common import scoring_for

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("seed", "chain"),
    [(3, ["buchholz", "game_points"]), (11, ["omw", "gw", "ogw", "head_to_head"])],
)
def test_database_standings_equal_the_reference_on_a_random_event(seed, chain):
    rng = random.Random(seed)
    t, entries = make_tournament(entries=9, decks=False, planned_rounds=4, tiebreakers=chain)
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    for number in range(1, 4):
        rnd = services.round_publish(
            actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t, seed=seed)
        )
        for m in rnd.matches.order_by("table"):
            if m.entry_b_id is not None:
                play(m, [rng.choice(("a", "b", "a", "b", None)) for _ in range(3)])
        services.round_finish(actor=SYSTEM, round=rnd)
        if number == 1:
            services.entry_drop(entry=entries[rng.randrange(len(entries))])
    t.refresh_from_db()
    listed = [e.pk for e in entries]
    dropped = {pk for pk, after in t.entries.values_list("id", "dropped_after_round") if after}
    reference = compute_standings_reference(
        listed,
        selectors.match_records(t),
        scoring=scoring_for(t),
        tiebreakers=t.tiebreakers,
        games_per_match=t.structure.games_per_match,
        dropped=dropped,
    )
    assert services.standings_compute(tournament=t) == reference
    active = [e for e in t.entries.order_by("id") if e.pk not in dropped]
    candidates = services.pairing_candidates(t, active)
    # Pairing reads the standings' own ranks (every listed entry ranked, the dropped one too),
    # so the stored snapshot can stand in for them (docs/rules.md §14 (Swiss pairing and byes)).
    ranks = {r.entry: (r.rank, r.match_points) for r in reference if r.entry not in dropped}
    assert {c.id: (c.rank, c.match_points) for c in candidates} == ranks
