"""Event-day API: the format decides the kind, details, import preview, drop after pairing,
reopen and the action log."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.factories import UserFactory, ensure_format, make_tournament
from tournaments import services
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner():
    return UserFactory()


@pytest.fixture
def api(owner) -> APIClient:
    client = APIClient()
    client.force_authenticate(owner)
    return client


def test_create_a_paros_event_without_a_kind_makes_a_pair_event(api):
    ensure_format("hkk-paros")
    r = api.post(
        "/api/tournaments/",
        {"name": "Páros", "format": "hkk-paros", "venue": "Győr"},
        format="json",
    )
    assert r.status_code == 201 and r.json()["kind"] == "pair" and r.json()["venue"] == "Győr"
    r = api.post(
        "/api/tournaments/",
        {"name": "x", "format": "hkk-paros", "kind": "individual"},
        format="json",
    )
    assert r.status_code == 400 and r.json()["error"]["code"] == "kind_mismatch"


def test_import_preview_and_errors(api, owner):
    t, _ = make_tournament(entries=0, decks=False, owner=owner)
    url = f"/api/tournaments/{t.pk}/entries/import/"
    r = api.post(url, {"text": "Anna,bad-email\nBence,\n"}, format="json")
    body = r.json()
    assert r.status_code == 200 and body["saved"] is False and body["ok"] is False
    assert body["rows"][0]["row_errors"] and not body["rows"][1]["row_errors"]


def test_drop_after_pairing_with_a_bye_and_the_log(api, owner):
    t, entries = make_tournament(entries=4, decks=False, owner=owner)
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    services.round_publish(actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t))
    r = api.post(
        f"/api/tournaments/{t.pk}/entries/{entries[0].pk}/drop-after-pairing/",
        {"fix": "bye", "reason": ""},
        format="json",
    )
    assert r.status_code == 400 and r.json()["error"]["code"] == "reason_required"
    r = api.post(
        f"/api/tournaments/{t.pk}/entries/{entries[0].pk}/drop-after-pairing/",
        {"fix": "bye", "reason": "no-show"},
        format="json",
    )
    assert r.status_code == 200
    summary = r.json()["round"]
    assert summary["number"] == 1 and summary["tables"] == 2  # the opponent now has a bye
    assert any(m["is_bye"] for m in api.get(summary["url"]).json()["matches"])
    log = api.get(f"/api/tournaments/{t.pk}/actions/").json()
    assert log[0]["kind"] == "drop_bye" and log[0]["reason"] == "no-show"


def test_readd_a_no_show_and_a_late_entry_with_the_missed_rounds_scored(api, owner):
    t, entries = make_tournament(entries=4, decks=False, owner=owner)
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t)
    )
    assert rnd.status == "published"  # the round stays in progress
    url = f"/api/tournaments/{t.pk}/entries/{entries[1].pk}/readd/"
    services.entry_drop_with_bye(actor=SYSTEM, entry=entries[1], reason="no-show")
    r = api.post(url, {}, format="json")
    assert r.status_code == 400 and r.json()["error"]["code"] == "missed_choice_required"
    r = api.post(url, {"missed": "pair", "reason": "arrived late"}, format="json")
    assert r.status_code == 200 and r.json() == {"entries": [entries[1].pk]}
    late = api.post(
        f"/api/tournaments/{t.pk}/entries/",
        {"players": ["Késő Kata"], "missed": "loss", "reason": "came late"},
        format="json",
    )
    assert late.status_code == 201, late.json()
    r = api.post(f"/api/tournaments/{t.pk}/entries/", {"players": ["Még Későbbi"]}, format="json")
    assert r.status_code == 409 and r.json()["error"]["code"] == "late_entry_closed"
