"""Shared helpers of the circuit tests: real events whose final standings follow a given
order (the stronger player wins every match 2–1), in a circuit."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tests.services.tournaments.helpers import play
from tournaments import services
from tournaments.models import Circuit, Tournament
from tournaments.permissions import SYSTEM
from tournaments.services import circuits as circuit_services

#: The test circuit's table: events of 4 or more, 10 / 6 / 4 / 2 points for places 1-4.
TABLE = "4: 10 6 4 2 | 1"
TIERS = "local 1 Helyi\nnational 2 Országos"


def make_circuit(owner, game, **overrides) -> Circuit:
    """A circuit of ``game`` with :data:`TABLE` and :data:`TIERS`, best 2, at least 2 events."""
    data: dict[str, Any] = dict(
        name="Szezon 2026",
        points_text=TABLE,
        tiers_text=TIERS,
        best_n=2,
        min_events=2,
        tiebreaks=("wins", "all_points"),
    )
    data.update(overrides)
    return circuit_services.circuit_create(
        owner=owner, game=game, data=circuit_services.CircuitSettings(**data)
    )


def play_event(owner, names: Sequence[str], *, name: str = "Event") -> Tournament:
    """A finished 4-player, 3-round HKK event (a round robin) in which the earlier name of
    ``names`` wins every match 2–1: the final standings are ``names`` in order."""
    t = services.tournament_create(
        owner=owner, name=name, format_slug="hkk", kind=Tournament.Kind.INDIVIDUAL
    )
    t = services.tournament_open_registration(actor=SYSTEM, tournament=t)
    strength = {}
    for i, player in enumerate(names):
        e = services.entry_register_player(tournament=t, player_name=player)
        services.entry_override_deck(actor=SYSTEM, entry=e, reason="test without decks")
        strength[e.pk] = i
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    for _number in range(3):
        rnd = services.round_publish(
            actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t)
        )
        for m in rnd.matches.order_by("table"):
            assert m.entry_b_id is not None  # four players: no bye
            a_wins = strength[m.entry_a_id] < strength[m.entry_b_id]
            play(m, ("a", "a", "b") if a_wins else ("b", "b", "a"))
        services.round_finish(actor=SYSTEM, round=rnd)
    return services.tournament_finish(actor=SYSTEM, tournament=t)
