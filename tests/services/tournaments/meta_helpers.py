"""Simulated finished events with published lists, for the meta statistics tests."""

from __future__ import annotations

from tests.factories import hkk_deck, make_tournament
from tests.services.tournaments.helpers import finish_round, start_and_pair
from tournaments import services
from tournaments.models import Tournament
from tournaments.permissions import SYSTEM

RULE_CARDS = ["Ősi rúna", "Zarknod börtönében", "Ősi bölcsesség", None]


def play_event(entries: int, *, publish: bool = True, seed: int = 0) -> Tournament:
    """A finished HKK event of two Swiss rounds with a legal list per entry (rule cards vary)."""
    t, made = make_tournament(entries=0)
    for i in range(entries):
        e = services.entry_register_player(tournament=t, player_name=f"S{seed}P{i}")
        services.deck_submit(
            actor=SYSTEM,
            tournament=t,
            entry=e,
            player=e.members.get().player,
            text=_deck(RULE_CARDS[(i + seed) % len(RULE_CARDS)], seed * 100 + i),
        )
    t, rnd = start_and_pair(t)
    finish_round(rnd)
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t)
    )
    finish_round(rnd, pattern=("b", "b", "a"))
    services.tournament_set_options(actor=SYSTEM, tournament=t, decklists_published=publish)
    return services.tournament_finish(actor=SYSTEM, tournament=t)


def _deck(rule_card: str | None, seed: int) -> str:
    return hkk_deck(rule_card=rule_card, seed=seed)
