"""Unverified deck lists in an event: a list naming a card the partial HKK catalogue lacks is
stored as ``unverified``, not legal and not illegal; it counts as legal only once the organiser
approves it with a recorded reason (service, API and page). docs/rules.md §17."""

from __future__ import annotations

import pytest
from django.test import Client

from decks.models import Game
from decks.selectors.cache import clear_caches
from tests.api.tournaments.helpers import url
from tests.factories import (  # noqa: F401 (fixture)
    UserFactory,
    hkk_catalogue,
    hkk_deck,
    make_tournament,
)
from tournaments import services
from tournaments.permissions import SYSTEM
from tournaments.services.deck_lists import entry_is_pairable

pytestmark = pytest.mark.django_db

UNKNOWN = "Egy lap, amit a minta nem ismer"


@pytest.fixture
def event(request, owner):
    """An event whose only entry submitted a list with one name the catalogue lacks."""
    request.getfixturevalue("hkk_catalogue")
    assert Game.objects.get(slug="hkk").coverage == "partial"
    clear_caches()
    t, (entry,) = make_tournament(entries=1, decks=False, owner=owner)
    entry.pairing_override_reason = ""
    entry.save()
    member = entry.members.get()
    sub = services.deck_submit(
        actor=SYSTEM,
        tournament=t,
        entry=entry,
        player=member.player,
        text=hkk_deck() + f"\n1 {UNKNOWN}\n",
    )
    return t, entry, sub


def test_a_list_with_a_card_the_catalogue_lacks_is_unverified_not_legal(event):
    _t, entry, sub = event
    assert (sub.status, sub.legal, sub.validator_legal) == ("unverified", False, False)
    assert sub.result["status"] == "unverified" and sub.result["legal"] is False
    assert sub.result["unknown_cards"] == [UNKNOWN]
    assert sub.result["errors"] == []
    assert not entry_is_pairable(entry)


def test_the_organiser_approves_it_with_a_reason(event, owner):
    t, entry, sub = event
    with pytest.raises(Exception) as caught:
        services.deck_approve_unverified(
            tournament=t, entry=entry, submission_id=sub.pk, reason=" ", actor=owner
        )
    assert caught.value.code == "reason_required"
    approved = services.deck_approve_unverified(
        tournament=t, entry=entry, submission_id=sub.pk, reason="printed card seen", actor=owner
    )
    assert approved.legal and approved.approved_by == owner and approved.approved_at
    assert approved.approval_reason == "printed card seen"
    assert approved.status == "unverified"  # the verdict itself is kept
    assert entry_is_pairable(entry)


@pytest.mark.usefixtures("hkk_catalogue")
def test_only_an_unverified_list_can_be_approved(owner):
    t, (entry,) = make_tournament(entries=1, owner=owner)
    sub = entry.members.get().decks.get(is_current=True)
    assert sub.status == "legal"
    with pytest.raises(Exception) as caught:
        services.deck_approve_unverified(
            tournament=t, entry=entry, submission_id=sub.pk, reason="x", actor=owner
        )
    assert caught.value.code == "deck_not_unverified"


def test_api_approves_and_shows_the_status(event, api, outsider):
    t, entry, sub = event
    path = url(t, f"entries/{entry.pk}/decks/{sub.pk}/approve/")
    other = Client()
    other.force_login(outsider)
    assert other.post(path, {"reason": "x"}, content_type="application/json").status_code in (
        403,
        404,
    )
    listed = api.get(url(t, "entries/")).json()
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert rows[0]["deck_status"] == "unverified"
    r = api.post(path, {"reason": ""}, content_type="application/json")
    assert r.status_code == 400
    r = api.post(path, {"reason": "judge checked"}, content_type="application/json")
    assert r.status_code == 200, r.json()
    body = r.json()
    assert body["status"] == "unverified" and body["legal"] is True
    assert body["approval_reason"] == "judge checked"
    r = api.post(path, {"reason": "again"}, content_type="application/json")
    assert r.status_code == 200  # re-approving a current unverified list only updates the reason


def test_page_shows_the_unknown_names_and_approves(event, api):
    t, entry, sub = event
    page = api.get(f"/tournaments/{t.pk}/entries/{entry.pk}/deck/").content.decode()
    assert 'data-status="unverified"' in page
    assert UNKNOWN in page
    action = f"/tournaments/{t.pk}/entries/{entry.pk}/decks/{sub.pk}/approve/"
    assert f'action="{action}"' in page
    response = api.post(action, {"reason": "seen the printed card"})
    assert response.status_code == 302
    sub.refresh_from_db()
    assert sub.legal and sub.approval_reason == "seen the printed card"
    page = api.get(f"/tournaments/{t.pk}/entries/{entry.pk}/deck/").content.decode()
    assert f'data-approved="{sub.pk}"' in page


# --- shown as unverified everywhere (tri-state verdict, never the boolean) ---------------------


def test_the_verdict_is_unverified_and_an_event_error_makes_it_illegal(event):
    _t, entry, sub = event
    assert (sub.verdict, sub.unknown_cards) == ("unverified", [UNKNOWN])
    sub.extra_errors = [{"code": "pair_rule_card_mismatch", "message": "x"}]
    assert sub.verdict == "illegal"


def test_entries_and_decks_apis_give_the_verdict_and_unknown_names(event, api):
    t, entry, sub = event
    listed = api.get(url(t, "entries/")).json()
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert rows[0]["members"][0]["deck"]["verdict"] == "unverified"
    decks = api.get(url(t, f"entries/{entry.pk}/decks/")).json()
    versions = decks["results"] if isinstance(decks, dict) else decks
    assert (versions[0]["verdict"], versions[0]["unknown_cards"]) == ("unverified", [UNKNOWN])


def test_the_entries_table_shows_unverified_with_the_unknown_names(event, api):
    t, entry, _sub = event
    page = api.get(f"/tournaments/{t.pk}/").content.decode()
    assert f'data-testid="deck-status-{entry.pk}" data-status="unverified"' in page
    assert f'data-testid="unknown-cards-{entry.pk}"' in page and UNKNOWN in page


def test_the_player_deck_page_shows_unverified_not_illegal(event, owner):
    t, entry, sub = event
    player_user = UserFactory(username="jatekos")
    member = entry.members.get()
    member.player.user = player_user
    member.player.save()
    client = Client(HTTP_ACCEPT_LANGUAGE="hu")
    client.force_login(player_user)
    page = client.get(f"/tournaments/{t.pk}/my-deck/").content.decode()
    assert 'data-testid="submission-verdict">Ellenőrizetlen' in page
    assert 'data-testid="submission-unverified"' in page and UNKNOWN in page
    assert "Szabálytalan<" not in page  # only the live script's data-t-illegal text remains
    response = client.post(
        f"/tournaments/{t.pk}/my-deck/", {"text": hkk_deck() + f"\n1 {UNKNOWN}\n"}, follow=True
    )
    text = response.content.decode()
    assert "A listádat elmentettük, de ellenőrizetlen" in text
    assert "de szabálytalan" not in text


@pytest.mark.usefixtures("hkk_catalogue")
def test_the_import_preview_gives_the_verdict_and_the_unknown_names(owner):
    clear_caches()
    t, _ = make_tournament(entries=0, owner=owner)
    deck = (hkk_deck() + f"\n1 {UNKNOWN}\n").replace('"', "'")
    preview = services.entries_import(actor=SYSTEM, tournament=t, text=f'Kovács Péter,,"{deck}"\n')
    (row,) = preview.rows
    assert (row.deck_status, row.deck_unknown_cards, row.deck_legal) == (
        "unverified",
        [UNKNOWN],
        False,
    )
