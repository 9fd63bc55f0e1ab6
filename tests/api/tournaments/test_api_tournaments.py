"""The tournaments REST API for events, entries and deck lists: happy paths, permissions and
error mapping (``{"code", "message", "params"}``)."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.api.tournaments.helpers import BASE, EXAMPLES, running, url
from tests.factories import make_tournament
from tournaments import services
from tournaments.models import DeckSubmission, Entry, Tournament
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db


# --- tournaments --------------------------------------------------------------------------


def test_create_makes_the_caller_owner(api, owner):
    r = api.post(BASE, {"name": "Kupa", "format": "hkk"}, content_type="application/json")
    assert r.status_code == 201, r.json()
    body = r.json()
    assert body["owner"] == "organiser"
    assert body["status"] == "draft"
    assert body["first_player_policy"] == "hkk"
    assert (body["games_per_match"], body["ends_when_decided"]) == (3, False)
    assert "stop_at_two_wins" not in body
    assert body["tiebreakers"] == ["buchholz", "game_points"]
    assert Tournament.objects.get(pk=body["id"]).owner == owner


def test_create_requires_login():
    r = Client().post(BASE, {"name": "Kupa", "format": "hkk"}, content_type="application/json")
    assert r.status_code in (401, 403)
    assert not Tournament.objects.exists()


def test_create_with_unknown_format_is_404_with_code(api):
    r = api.post(BASE, {"name": "Kupa", "format": "nope"}, content_type="application/json")
    assert r.status_code == 404
    body = r.json()["error"]
    assert body["code"] == "unknown_format"
    assert body["params"] == {"slug": "nope"}
    assert "nope" in body["message"]


def test_create_with_unknown_tiebreaker_is_400(api):
    r = api.post(
        BASE,
        {"name": "Kupa", "format": "hkk", "tiebreakers": ["dice"]},
        content_type="application/json",
    )
    assert r.status_code == 400
    assert r.json()["error"]["code"] == "unknown_tiebreaker"


def test_list_hides_other_users_drafts(api, owner, outsider):
    mine = services.tournament_create(owner=owner, name="Mine", format_slug="hkk")
    theirs = services.tournament_create(owner=outsider, name="Theirs", format_slug="hkk")
    public, _ = make_tournament(owner=outsider)
    ids = {t["id"] for t in api.get(BASE).json()}
    assert mine.pk in ids and public.pk in ids and theirs.pk not in ids
    anon_ids = {t["id"] for t in Client().get(BASE).json()}
    assert anon_ids == {public.pk}
    assert api.get(url(theirs)).status_code == 404
    assert api.get(url(mine)).json()["name"] == "Mine"


def test_unknown_tournament_is_404(api):
    r = api.get(f"{BASE}999999/")
    assert r.status_code == 404
    assert r.json()["error"]["code"] == "tournament_not_found"
    assert api.post(f"{BASE}999999/start/").status_code == 404


def test_open_registration_and_wrong_state(api, owner):
    t = services.tournament_create(owner=owner, name="Kupa", format_slug="hkk")
    r = api.post(url(t, "open-registration/"))
    assert r.status_code == 200
    assert r.json()["status"] == "registration"
    again = api.post(url(t, "open-registration/"))
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "tournament_status"


def test_other_user_cannot_change_the_tournament(owner, outsider):
    t, entries = make_tournament(entries=2, decks=False, owner=owner)
    client = Client()
    client.force_login(outsider)
    for path, body in [
        ("start/", {}),
        ("entries/", {"players": ["X"]}),
        (f"entries/{entries[0].pk}/drop/", {}),
        (f"entries/{entries[0].pk}/override/", {"reason": "x"}),
        ("rounds/", {}),
    ]:
        r = client.post(url(t, path), body, content_type="application/json")
        assert r.status_code == 403, path
    t.refresh_from_db()
    assert t.status == "registration"
    assert t.entries.count() == 2


def test_anonymous_write_is_refused(owner):
    t, _ = make_tournament(entries=2, decks=False, owner=owner)
    r = Client().post(url(t, "start/"))
    assert r.status_code in (401, 403)
    t.refresh_from_db()
    assert t.status == "registration"


def test_start_needs_legal_lists_or_override(api, owner):
    t, entries = make_tournament(entries=2, decks=False, owner=owner)
    Entry.objects.filter(pk=entries[0].pk).update(pairing_override_reason="")
    r = api.post(url(t, "start/"))
    assert r.status_code == 400
    assert r.json()["error"]["code"] == "entries_without_legal_list"
    assert r.json()["error"]["params"]["entries"] == [entries[0].pk]
    services.entry_override_deck(actor=SYSTEM, entry=entries[0], reason="judge ok")
    r = api.post(url(t, "start/"))
    assert r.status_code == 200
    assert r.json()["status"] == "running"


def test_finish_tournament_before_any_round_is_409(api, owner):
    t, _ = running(owner, 2)
    r = api.post(url(t, "finish/"))
    assert r.status_code == 409
    assert r.json()["error"]["code"] == "no_rounds"


# --- entries and decks --------------------------------------------------------------------


def test_register_player_and_list_entries(api, owner):
    t, _ = make_tournament(owner=owner)
    r = api.post(url(t, "entries/"), {"players": ["Kiss Anna"]}, content_type="application/json")
    assert r.status_code == 201, r.json()
    body = r.json()
    assert body["name"] == "Kiss Anna"
    assert body["deck_status"] == "missing"
    assert [m["seat"] for m in body["members"]] == ["A"]
    listed = Client().get(url(t, "entries/")).json()
    assert [e["name"] for e in listed] == ["Kiss Anna"]


def test_register_pair_team(api, owner):
    t, _ = make_tournament(owner=owner, kind="pair", format_slug="hkk-paros")
    r = api.post(
        url(t, "entries/"),
        {"name": "Duó", "players": ["Anna", "Béla"]},
        content_type="application/json",
    )
    assert r.status_code == 201, r.json()
    assert [(m["seat"], m["name"]) for m in r.json()["members"]] == [("A", "Anna"), ("B", "Béla")]
    single = api.post(url(t, "entries/"), {"players": ["Csaba"]}, content_type="application/json")
    assert single.status_code == 400
    assert single.json()["error"]["code"] == "pair_needs_two_players"


def test_submit_legal_and_illegal_decks(api, owner):
    t, _ = make_tournament(owner=owner)
    entry = services.entry_register_player(tournament=t, player_name="Anna")
    legal_text = (EXAMPLES / "hkk-legal.txt").read_text(encoding="utf-8")
    r = api.post(
        url(t, f"entries/{entry.pk}/decks/"), {"text": legal_text}, content_type="application/json"
    )
    assert r.status_code == 201, r.json()
    body = r.json()
    assert body["legal"] is True, body["result"]["errors"]
    assert body["version"] == 1
    assert body["rule_card"] == "Ősi rúna"
    bad = api.post(
        url(t, f"entries/{entry.pk}/decks/"),
        {"text": "Pakli:\n3 Gigaököl\n", "seat": "A"},
        content_type="application/json",
    )
    assert bad.status_code == 201
    assert bad.json()["legal"] is False
    assert bad.json()["version"] == 2
    assert "deck_too_small" in {e["code"] for e in bad.json()["result"]["errors"]}
    assert DeckSubmission.objects.filter(member__entry=entry).count() == 2
    entries = api.get(url(t, "entries/")).json()
    assert entries[0]["deck_status"] == "illegal"


def test_submit_deck_for_a_non_member_is_404(api, owner):
    t, _ = make_tournament(owner=owner)
    entry = services.entry_register_player(tournament=t, player_name="Anna")
    r = api.post(
        url(t, f"entries/{entry.pk}/decks/"),
        {"text": "3 Gigaököl", "seat": "B"},
        content_type="application/json",
    )
    assert r.status_code == 404
    assert r.json()["error"]["code"] == "not_a_member"


def test_submit_deck_needs_text_or_data(api, owner):
    t, _ = make_tournament(owner=owner)
    entry = services.entry_register_player(tournament=t, player_name="Anna")
    r = api.post(url(t, f"entries/{entry.pk}/decks/"), {}, content_type="application/json")
    assert r.status_code == 400
    assert not DeckSubmission.objects.exists()


def test_override_and_drop(api, owner):
    t, _ = make_tournament(owner=owner)
    entry = services.entry_register_player(tournament=t, player_name="Anna")
    empty = api.post(
        url(t, f"entries/{entry.pk}/override/"), {"reason": " "}, content_type="application/json"
    )
    assert empty.status_code == 400
    r = api.post(
        url(t, f"entries/{entry.pk}/override/"),
        {"reason": "lost list"},
        content_type="application/json",
    )
    assert r.status_code == 200
    assert r.json()["override_reason"] == "lost list"
    d = api.post(url(t, f"entries/{entry.pk}/drop/"), {}, content_type="application/json")
    assert d.status_code == 200
    assert d.json()["dropped_after_round"] == 0
    again = api.post(url(t, f"entries/{entry.pk}/drop/"), {}, content_type="application/json")
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "already_dropped"
