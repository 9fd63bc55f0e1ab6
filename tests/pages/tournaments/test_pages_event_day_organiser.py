"""Organiser pages of the event day: confirmation pages (no script: a GET shows what will happen,
its button POSTs), fixing a round, the desk (check-in, import preview), claim codes, reopening,
details and the round's history; the sign-up asks the real name."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory, make_tournament
from tournaments import services
from tournaments.models import Entry, Round, Tournament, TournamentAction
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner():
    return UserFactory(username="organiser")


@pytest.fixture
def c(owner) -> Client:
    client = Client()
    client.force_login(owner)
    client.cookies["django_language"] = "en"
    return client


def _messages(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def test_start_asks_for_confirmation_first(c, owner):
    t, _ = make_tournament(entries=2, decks=False, owner=owner)
    url = reverse("tournaments:start", args=[t.pk])
    page = c.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-testid="confirm"' in html and "<script>" not in html.replace(" ", "")
    assert Tournament.objects.get(pk=t.pk).status == "registration"
    c.post(url)
    assert Tournament.objects.get(pk=t.pk).status == "running"


def test_drop_of_a_paired_entry_offers_a_bye_and_needs_a_reason(c, owner):
    t, entries = make_tournament(entries=4, decks=False, owner=owner)
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t)
    )
    url = reverse("tournaments:entry-drop", args=[t.pk, entries[0].pk])
    assert 'name="fix"' in c.get(url).content.decode()
    assert c.post(url, {"fix": "bye", "reason": ""}).status_code == 400
    r = c.post(url, {"fix": "bye", "reason": "no-show"}, follow=True)
    assert "the opponent gets a bye" in " ".join(_messages(r))
    assert "no-show" in r.content.decode()  # the round's history
    assert not rnd.seats.filter(entry=entries[0]).exists()


def test_discard_and_unpublish_from_the_round_page(c, owner):
    t, _ = make_tournament(entries=4, decks=False, owner=owner)
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    services.round_pair_next(actor=SYSTEM, tournament=t)
    r = c.post(
        reverse("tournaments:round-discard", args=[t.pk, 1]),
        {"reason": "wrong", "pair_again": "on"},
        follow=True,
    )
    assert r.status_code == 200 and Round.objects.filter(tournament=t).count() == 1
    services.round_publish(actor=SYSTEM, round=Round.objects.get(tournament=t))
    r = c.post(reverse("tournaments:round-unpublish", args=[t.pk, 1]), {"reason": "typo"})
    assert Round.objects.get(tournament=t).status == "draft"


def test_reopen_needs_a_reason(c, owner):
    t, _ = make_tournament(entries=2, decks=False, owner=owner)
    Tournament.objects.filter(pk=t.pk).update(status="finished")
    url = reverse("tournaments:reopen", args=[t.pk])
    assert c.post(url, {"reason": ""}).status_code == 400
    c.post(url, {"reason": "slip misread"})
    assert Tournament.objects.get(pk=t.pk).status == "running"


def test_import_preview_saves_nothing_then_import_saves_all(c, owner):
    t, _ = make_tournament(entries=0, decks=False, owner=owner)
    url = reverse("tournaments:entries-import", args=[t.pk])
    text = "Kovács Anna,anna@example.org\nNagy Bence,\n"
    preview = c.post(url, {"text": text, "save": "0"})
    assert preview.status_code == 200 and 'data-testid="import-save"' in preview.content.decode()
    assert not Entry.objects.filter(tournament=t).exists()
    c.post(url, {"text": text, "save": "1"})
    assert Entry.objects.filter(tournament=t).count() == 2


def test_check_in_and_claim_codes_page(c, owner):
    t, (e1, e2) = make_tournament(entries=2, decks=False, owner=owner)
    c.post(reverse("tournaments:entry-check-in", args=[t.pk, e1.pk]))
    assert Entry.objects.get(pk=e1.pk).checked_in_at is not None
    r = c.post(reverse("tournaments:claim-code", args=[t.pk, e2.pk]), follow=True)
    code = e2.members.get().player.__class__.objects.get(memberships__entry=e2).claim_code
    assert code and code in r.content.decode()


def test_details_and_cap_on_the_event_page(c, owner):
    t, _ = make_tournament(entries=0, decks=False, owner=owner)
    c.post(
        reverse("tournaments:details", args=[t.pk]),
        {"venue": "Debrecen", "max_entries": "16", "description": "", "starts_at": ""},
    )
    t.refresh_from_db()
    assert (t.venue, t.max_entries) == ("Debrecen", 16)
    assert "Debrecen" in c.get(reverse("tournaments:detail", args=[t.pk])).content.decode()


def test_sign_up_needs_the_real_name():
    r = Client().post(
        "/accounts/signup/",
        {
            "username": "x1",
            "email": "x1@example.org",
            "password1": "Kartya-2026!x",
            "password2": "Kartya-2026!x",
        },
    )
    assert r.status_code == 200 and "first_name" in r.context["form"].errors


def test_a_deck_list_pasted_in_the_entries_table_returns_to_the_table(c, owner):
    t, (entry,) = make_tournament(entries=1, decks=False, owner=owner)
    page = c.get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    assert f'data-testid="paste-deck-{entry.pk}"' in page
    r = c.post(
        reverse("tournaments:entry-deck", args=[t.pk, entry.pk]),
        {"seat": "A", "text": "Pakli:\n3 Gigaököl\n", "back": "event"},
    )
    assert r.status_code == 302 and r["Location"].endswith(f"/tournaments/{t.pk}/#entry-{entry.pk}")


def test_unpublish_with_results_asks_to_delete_them_and_the_history_restores_them(c, owner):
    t, _ = make_tournament(entries=2, decks=False, owner=owner)
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t)
    )
    m = rnd.matches.get()
    services.match_result_record(
        actor=SYSTEM, match=m, result="2-0-0", die_roll_winner=m.entry_a_id
    )
    url = reverse("tournaments:round-unpublish", args=[t.pk, 1])
    assert 'name="delete_results"' in c.get(url).content.decode()
    refused = c.post(url, {"reason": "typo"})
    assert refused.status_code == 409
    assert "2 recorded games" in refused.content.decode()
    assert Round.objects.get(pk=rnd.pk).status == "published"
    c.post(url, {"reason": "typo", "delete_results": "on"})
    assert Round.objects.get(pk=rnd.pk).status == "draft" and not m.games.exists()
    services.round_publish(actor=SYSTEM, round=Round.objects.get(pk=rnd.pk))
    page = c.get(reverse("tournaments:round", args=[t.pk, 1])).content.decode()
    action = TournamentAction.objects.get(tournament=t, kind="round_unpublished")
    restore = reverse("tournaments:results-restore", args=[t.pk, action.pk])
    assert restore in page
    assert c.get(restore).status_code == 200
    r = c.post(restore, follow=True)
    assert "The deleted results are restored." in " ".join(_messages(r))
    assert m.games.count() == 2
    assert restore not in c.get(reverse("tournaments:round", args=[t.pk, 1])).content.decode()


def test_a_late_no_show_is_added_back_with_the_bye_seat_from_the_event_page(c, owner):
    t, _ = make_tournament(entries=5, decks=False, owner=owner)
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t)
    )
    match = rnd.matches.exclude(entry_b=None).order_by("table")[0]
    absent = match.entry_a
    services.entry_drop_with_bye(actor=SYSTEM, entry=absent, reason="no-show")
    detail = c.get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    url = reverse("tournaments:entry-readd", args=[t.pk, absent.pk])
    assert f'href="{url}"' in detail  # the button stays after the round was paired
    page = c.get(url)
    html = page.content.decode()
    assert page.status_code == 200 and 'name="missed"' in html and "Round 1 was paired" in html
    bad = c.post(url, {"missed": "pair", "reason": ""})
    assert bad.status_code == 400
    done = c.post(url, {"missed": "pair", "reason": "arrived at minute 5"})
    assert done.status_code == 302 and done["Location"].endswith(f"/rounds/{rnd.number}/")
    match.refresh_from_db()
    assert absent.pk in (match.entry_a_id, match.entry_b_id)
    assert Entry.objects.get(pk=absent.pk).dropped_after_round is None


def test_a_late_entry_after_round_one_takes_a_loss_from_the_add_form(c, owner):
    t, _ = make_tournament(entries=4, decks=False, owner=owner)
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    services.round_publish(actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t))
    detail = c.get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    assert 'name="missed"' in detail
    add = reverse("tournaments:entry-add", args=[t.pk])
    # typed in the English page's order (given name first), stored family name first
    c.post(add, {"player_a": "Kata Késő", "missed": "loss", "reason": "came late"})
    late = Entry.objects.get(tournament=t, name="Késő Kata")
    assert late.registered_round == 2 and late.missed_rounds.get().outcome == "loss"
