"""The event and users shared by the page tests of the tournaments app: ``build_world`` makes a
running event with one user per role, ``World.client(role)`` signs that user in."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.test import Client

from tests.factories import UserFactory, make_tournament
from tournaments import services
from tournaments.models import Entry, Match, Round, Tournament
from tournaments.permissions import SYSTEM

ROLES = ("anonymous", "outsider", "player", "other_player", "judge", "other_judge", "organiser")


@dataclass
class World:
    tournament: Tournament
    round: Round
    users: dict[str, Any]
    player_entry: Entry
    other_entry: Entry
    match: Match

    def client(self, role: str, lang: str = "en") -> Client:
        c = Client()
        c.cookies["django_language"] = lang
        if role != "anonymous":
            c.force_login(self.users[role])
        return c


def build_world(*, public: bool = True) -> World:
    """A running event with round 1 published: two anonymous entries (P1, P2) and two entries
    of signed-in players; a judge; a judge of another event."""
    users = {
        name: UserFactory(username=name)
        for name in ("organiser", "outsider", "player", "other_player", "judge", "other_judge")
    }
    t, _ = make_tournament(entries=2, decks=False, owner=users["organiser"])
    mine = services.entry_self_register(tournament=t, user=users["player"])
    other = services.entry_self_register(tournament=t, user=users["other_player"])
    for e in (mine, other):
        services.entry_override_deck(actor=SYSTEM, entry=e, reason="test without decks")
    services.staff_appoint(
        tournament=t, user=users["judge"], role="judge", actor=users["organiser"]
    )
    elsewhere, _ = make_tournament(entries=0, decks=False, owner=UserFactory(username="org2"))
    services.staff_appoint(
        tournament=elsewhere, user=users["other_judge"], role="judge", actor=elsewhere.owner
    )
    if not public:
        t.is_public = False
        t.save(update_fields=["is_public"])
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t, seed=7)
    )
    match = rnd.matches.filter(entry_b__isnull=False).order_by("table").first()
    assert match is not None
    return World(t, rnd, users, mine, other, match)
