"""Who sees what through the tournaments API: private events, drafts and deck lists by role."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.tournaments.helpers import BASE
from tests.api.tournaments.permission_world import (
    ANON,
    DRAFT,
    OTHER_PLAYER,
    OUTSIDER,
    OWNER,
    PLAYER,
    PLAYERS,
    REG,
    ROLES,
    RUN,
    STAFF,
    World,
    build,
    client_for,
    t_url,
)
from tests.factories import ILLEGAL_DECK, make_tournament
from tournaments import services
from tournaments.models import DeckSubmission, Player, Tournament
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db


# --- private events -----------------------------------------------------------------------

PRIVATE_READS = [
    ("detail", t_url()),
    ("entries", t_url("entries/")),
    ("rounds", t_url("rounds/")),
    ("round", t_url("rounds/1/")),
    ("pairings.csv", t_url("rounds/1/pairings.csv")),
    ("match", lambda w: f"{BASE}{w.t.pk}/matches/{w.match.pk}/"),
    ("standings", t_url("standings/")),
    ("standings.csv", t_url("standings.csv")),
    ("export", t_url("export/")),
    ("me", t_url("me/")),
]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(("name", "path"), PRIVATE_READS, ids=[n for n, _ in PRIVATE_READS])
def test_private_event_is_404_for_outsiders(name, path, role):
    world = build(RUN, public=False)
    response = client_for(world.users[role]).get(path(world))
    if role in STAFF | PLAYERS:
        assert response.status_code == 200, (name, role)
    elif role == ANON and name == "me":
        assert response.status_code in (401, 403)
    else:
        assert response.status_code == 404, (name, role)


@pytest.mark.parametrize("role", ROLES)
def test_private_event_is_listed_only_for_its_people(role):
    world = build(RUN, public=False)
    ids = {t["id"] for t in client_for(world.users[role]).get(BASE).json()}
    assert (world.t.pk in ids) == (role in STAFF | PLAYERS)


def test_draft_is_listed_for_its_staff_only():
    world = build(DRAFT)
    for role in ROLES:
        ids = {t["id"] for t in client_for(world.users[role]).get(BASE).json()}
        assert (world.t.pk in ids) == (role in STAFF), role


# --- deck lists ---------------------------------------------------------------------------


@pytest.mark.parametrize("role", ROLES)
def test_published_lists_are_open_to_the_event_players(role):
    world = build(REG)
    Tournament.objects.filter(pk=world.t.pk).update(decklists_published=True)
    url = f"{BASE}{world.t.pk}/entries/{world.entry.pk}/decks/"
    response = client_for(world.users[role]).get(url)
    if role in STAFF | PLAYERS:
        assert response.status_code == 200
    else:
        assert response.status_code in (401, 403)


def submit_own(world: World, role: str, body: dict[str, Any]):
    url = f"{BASE}{world.t.pk}/entries/{world.entry.pk}/decks/"
    return client_for(world.users[role]).post(url, body, content_type="application/json")


def test_player_cannot_change_someone_elses_list():
    world = build(REG)
    other_url = f"{BASE}{world.t.pk}/entries/{world.other_entry.pk}/decks/"
    r = client_for(world.users[PLAYER]).post(
        other_url, {"text": ILLEGAL_DECK}, content_type="application/json"
    )
    assert r.status_code == 403
    assert not DeckSubmission.objects.exists()
    own = submit_own(world, PLAYER, {"text": ILLEGAL_DECK})
    assert own.status_code == 201
    sub = DeckSubmission.objects.get()
    assert sub.member.entry_id == world.entry.pk and sub.submitted_by == world.users[PLAYER]


def test_player_cannot_submit_for_the_partner_seat():
    world = build(REG)
    team, _ = make_tournament(owner=world.users[OWNER], kind="pair", format_slug="hkk-paros")
    entry = services.entry_register_pair(tournament=team, player_a="Anna", player_b="Béla")
    link_seat = Player.objects.get(memberships__entry=entry, memberships__seat="A")
    Player.objects.filter(pk=link_seat.pk).update(user=world.users[PLAYER])
    url = f"{BASE}{team.pk}/entries/{entry.pk}/decks/"
    client = client_for(world.users[PLAYER])
    partner = client.post(url, {"text": ILLEGAL_DECK, "seat": "B"}, content_type="application/json")
    assert partner.status_code == 403
    own = client.post(url, {"text": ILLEGAL_DECK}, content_type="application/json")
    assert own.status_code == 201 and own.json()["seat"] == "A"


def test_locked_list_is_a_clear_error_for_the_player():
    world = build(RUN)
    r = submit_own(world, PLAYER, {"text": ILLEGAL_DECK})
    assert r.status_code == 409
    assert r.json()["error"]["code"] == "lists_locked"
    assert r.json()["error"]["message"]
    assert not DeckSubmission.objects.exists()


def test_rule_cards_of_others_are_hidden_in_the_entry_list():
    world = build(REG)
    services.deck_submit(
        actor=SYSTEM,
        tournament=world.t,
        entry=world.entry,
        player=Player.objects.get(memberships__entry=world.entry),
        text=ILLEGAL_DECK,
    )
    DeckSubmission.objects.update(rule_card="Ősi rúna")

    def rule_card(role: str) -> str:
        rows = client_for(world.users[role]).get(f"{BASE}{world.t.pk}/entries/").json()
        row = next(r for r in rows if r["id"] == world.entry.pk)
        return row["members"][0]["deck"]["rule_card"]

    for role in ROLES:
        visible = role in STAFF | {PLAYER}
        assert rule_card(role) == ("Ősi rúna" if visible else ""), role
    Tournament.objects.filter(pk=world.t.pk).update(decklists_published=True)
    assert rule_card(OTHER_PLAYER) == "Ősi rúna"
    assert rule_card(OUTSIDER) == ""
