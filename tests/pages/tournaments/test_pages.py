"""Server-rendered tournament pages: list, detail, forms (POST-redirect-GET with service errors
as messages), pairings by table and by name with the first-player holder, result entry by
table, standings; permissions and both languages."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.factories import UserFactory, make_tournament
from tournaments import selectors, services
from tournaments.models import DeckSubmission, Entry, Game, Round, Tournament
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


@pytest.fixture
def owner():
    return UserFactory(username="organiser")


@pytest.fixture
def client_owner(owner) -> Client:
    c = Client()
    c.force_login(owner)
    return c


def en(client: Client) -> Client:
    client.cookies["django_language"] = "en"
    return client


def published(owner, entries=4, seed=7):
    t, made = make_tournament(entries=entries, decks=False, owner=owner)
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t, seed=seed)
    )
    return t, rnd


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


# --- list, create, detail -----------------------------------------------------------------


@pytest.mark.parametrize("lang", ["hu", "en"])
def test_list_and_detail_render_in_both_languages(owner, lang):
    t, _ = make_tournament(entries=2, decks=False, owner=owner)
    c = Client()
    c.cookies["django_language"] = lang
    r = c.get(reverse("tournaments:list"))
    assert r.status_code == 200
    assert f'<html lang="{lang}">' in r.content.decode()
    assert t.name in r.content.decode()
    d = c.get(reverse("tournaments:detail", args=[t.pk]))
    assert d.status_code == 200
    html = d.content.decode()
    assert "P1" in html and "P2" in html
    assert "deck-override" in html  # both entries are paired by override


def test_list_link_is_in_the_base_navigation():
    r = Client().get(reverse("decks:validate"))
    assert reverse("tournaments:list") in r.content.decode()


def test_create_form_makes_the_user_owner(client_owner, owner):
    r = client_owner.post(
        reverse("tournaments:create"), {"name": "Őszi kupa", "format": "hkk", "kind": "individual"}
    )
    t = Tournament.objects.get(name="Őszi kupa")
    assert r.status_code == 302 and r["Location"] == reverse("tournaments:detail", args=[t.pk])
    assert t.owner == owner and t.status == "draft"


def test_create_form_starts_with_the_standard_hkk_format(client_owner):
    html = client_owner.get(reverse("tournaments:create")).content.decode()
    select = re.search(r'<select name="format".*?</select>', html, re.S).group(0)
    assert re.search(r'<option value="hkk-hagyomanyos" selected>', select)


def test_create_needs_login():
    r = Client().get(reverse("tournaments:create"))
    assert r.status_code == 302 and "login" in r["Location"]


def test_create_form_shows_errors_and_keeps_input(client_owner):
    r = client_owner.post(reverse("tournaments:create"), {"name": "", "format": "hkk"})
    assert r.status_code == 200
    assert r.context["form"].errors
    assert not Tournament.objects.exists()


def test_other_users_draft_is_404_and_their_actions_403(owner):
    draft = services.tournament_create(owner=owner, name="Secret", format_slug="hkk")
    outsider = Client()
    outsider.force_login(UserFactory(username="outsider"))
    assert outsider.get(reverse("tournaments:detail", args=[draft.pk])).status_code == 404
    t, _ = make_tournament(entries=2, decks=False, owner=owner)
    r = outsider.post(reverse("tournaments:start", args=[t.pk]))
    assert r.status_code == 403
    t.refresh_from_db()
    assert t.status == "registration"
    assert Client().post(reverse("tournaments:start", args=[t.pk])).status_code == 302
    t.refresh_from_db()
    assert t.status == "registration"  # anonymous: redirected to login, nothing changed


# --- organiser flow -----------------------------------------------------------------------


def test_open_add_player_submit_deck_and_start(client_owner, owner):
    c = en(client_owner)
    t = services.tournament_create(owner=owner, name="Kupa", format_slug="hkk")
    r = c.post(reverse("tournaments:open-registration", args=[t.pk]), follow=True)
    assert "Registration is open." in messages_of(r)
    for name in ("Anna", "Béla"):
        c.post(reverse("tournaments:entry-add", args=[t.pk]), {"player_a": name})
    assert list(t.entries.values_list("name", flat=True)) == ["Anna", "Béla"]

    # Start fails: no lists yet; the service error is shown and nothing changes.
    r = c.post(reverse("tournaments:start", args=[t.pk]), follow=True)
    assert any("Anna" in m and "Béla" in m for m in messages_of(r))
    t.refresh_from_db()
    assert t.status == "registration"

    anna, bela = t.entries.order_by("id")
    page = c.get(reverse("tournaments:entry-deck", args=[t.pk, anna.pk]))
    assert page.status_code == 200
    legal = (EXAMPLES / "hkk-legal.txt").read_text(encoding="utf-8")
    r = c.post(
        reverse("tournaments:entry-deck", args=[t.pk, anna.pk]),
        {"seat": "A", "text": legal},
        follow=True,
    )
    assert "The list is stored and legal." in messages_of(r)
    r = c.post(
        reverse("tournaments:entry-deck", args=[t.pk, bela.pk]),
        {"seat": "A", "text": "Pakli:\n3 Gigaököl\n"},
        follow=True,
    )
    assert "The list is stored but it is not legal." in messages_of(r)
    assert 'data-code="deck_too_small"' in r.content.decode()
    assert DeckSubmission.objects.count() == 2

    c.post(reverse("tournaments:entry-override", args=[t.pk, bela.pk]), {"reason": "judge call"})
    bela.refresh_from_db()
    assert bela.pairing_override_reason == "judge call"
    r = c.post(reverse("tournaments:start", args=[t.pk]), follow=True)
    assert "The tournament has started." in messages_of(r)
    t.refresh_from_db()
    assert t.status == "running"


def test_pair_swap_publish_and_pairing_pages(client_owner, owner):
    c = en(client_owner)
    t, _ = make_tournament(entries=5, decks=False, owner=owner)
    services.tournament_start(actor=SYSTEM, tournament=t)
    r = c.post(reverse("tournaments:round-pair-next", args=[t.pk]))
    assert r.status_code == 302 and r["Location"] == reverse("tournaments:round", args=[t.pk, 1])
    rnd = Round.objects.get(tournament=t, number=1)
    # Drafts are hidden from the public.
    assert Client().get(reverse("tournaments:round", args=[t.pk, 1])).status_code == 404

    before = {m.table: m.entry_b_id for m in rnd.matches.all()}
    c.post(
        reverse("tournaments:round-swap", args=[t.pk, 1]),
        {"table_x": 1, "table_y": 2, "swap": "b", "reason": "clubmates"},
    )
    after = {m.table: m.entry_b_id for m in rnd.matches.all()}
    assert after[1] == before[2] and after[2] == before[1]

    r = c.post(reverse("tournaments:round-publish", args=[t.pk, 1]), follow=True)
    assert "The round is published." in messages_of(r)
    page = en(Client()).get(reverse("tournaments:round", args=[t.pk, 1]))
    assert page.status_code == 200
    html = page.content.decode()
    real_tables = rnd.matches.filter(entry_b__isnull=False).count()
    assert html.count("game 1: a die roll decides") == real_tables  # holder shown per match
    by_name = en(Client()).get(reverse("tournaments:round-by-name", args=[t.pk, 1]))
    names = re.findall(r"<tr><td>(P\d)</td>", by_name.content.decode())
    assert names == sorted(names) and len(names) == 5


def test_result_entry_shows_the_right_holder_and_records_games(client_owner, owner):
    c = en(client_owner)
    t, rnd = published(owner, entries=2)
    m = rnd.matches.get()
    url = reverse("tournaments:match", args=[t.pk, 1, m.table])
    page = c.get(url)
    assert page.status_code == 200
    assert "Die roll winner (player 1)" in page.content.decode()

    r = c.post(url, {"roll-winner": str(m.entry_a_id)}, follow=True)
    assert "Die roll recorded." in messages_of(r)
    assert "game 1: player 1 (A) won the die roll" in r.content.decode()

    r = c.post(
        url,
        {"game-number": 1, "game-result": str(m.entry_a_id), "game-first": str(m.entry_a_id)},
        follow=True,
    )
    assert "Game 1 recorded." in messages_of(r)
    assert "game 2: player 2 (B) per rule" in r.content.decode()

    # Wrong first player: the service error is shown on the form, nothing is stored.
    r = c.post(url, {"game-number": 2, "game-result": "draw", "game-first": str(m.entry_a_id)})
    assert r.status_code == 200
    assert r.context["game_form"].non_field_errors()
    assert Game.objects.filter(match=m).count() == 1

    # B waives the right in game 2, so A goes first.
    c.post(
        url,
        {
            "game-number": 2,
            "game-result": "draw",
            "game-first": str(m.entry_a_id),
            "game-waived": "on",
        },
    )
    g2 = Game.objects.get(match=m, number=2)
    assert g2.waived and g2.is_draw and g2.right_holder_id == m.entry_b_id

    # Duplicate game → error message, no change.
    r = c.post(
        url, {"game-number": 2, "game-result": str(m.entry_b_id), "game-first": str(m.entry_a_id)}
    )
    assert r.context["game_form"].non_field_errors()
    assert Game.objects.get(match=m, number=2).is_draw


def test_result_page_for_table_not_in_round_is_404(client_owner, owner):
    t, _ = published(owner, entries=2)
    assert client_owner.get(reverse("tournaments:match", args=[t.pk, 1, 9])).status_code == 404


def test_result_page_is_for_the_owner_only(owner):
    t, rnd = published(owner, entries=2)
    m = rnd.matches.get()
    other = Client()
    other.force_login(UserFactory(username="outsider"))
    url = reverse("tournaments:match", args=[t.pk, 1, m.table])
    assert other.get(url).status_code == 403
    assert other.post(url, {"roll-winner": str(m.entry_a_id)}).status_code == 403
    m.refresh_from_db()
    assert m.die_roll_winner_id is None


def test_drop_from_the_detail_page(client_owner, owner):
    c = en(client_owner)
    t, entries = make_tournament(entries=2, decks=False, owner=owner)
    r = c.post(reverse("tournaments:entry-drop", args=[t.pk, entries[0].pk]), follow=True)
    assert "P1 has dropped." in messages_of(r)
    assert Entry.objects.get(pk=entries[0].pk).dropped_after_round == 0
    r = c.post(reverse("tournaments:entry-drop", args=[t.pk, entries[0].pk]), follow=True)
    assert any("already dropped" in m for m in messages_of(r))


@pytest.mark.parametrize("lang", ["hu", "en"])
def test_standings_page_shows_decimal_and_exact_values(owner, lang):
    t, rnd = published(owner, entries=3)
    for m in rnd.matches.filter(entry_b__isnull=False):
        services.match_set_die_roll(actor=SYSTEM, match=m, winner_entry=m.entry_a_id)
        for number, first in ((1, m.entry_a_id), (2, m.entry_b_id), (3, m.entry_a_id)):
            services.game_record(
                actor=SYSTEM, match=m, number=number, winner_entry=m.entry_a_id, first_entry=first
            )
    services.round_finish(actor=SYSTEM, round=rnd)
    c = Client()
    c.cookies["django_language"] = lang
    r = c.get(reverse("tournaments:standings", args=[t.pk]))
    assert r.status_code == 200
    html = r.content.decode()
    assert f'<html lang="{lang}">' in html
    rows = r.context["table"].rows
    assert [row.match_points for row in rows] == [3, 3, 0]
    for row in rows:
        assert [tb.code for tb in row.shown_tiebreakers] == ["buchholz"]  # game points: own column
        for tb in row.shown_tiebreakers:
            assert f'title="{tb.value}" data-code="{tb.code}">{tb.display}</td>' in html
            assert re.fullmatch(r"-?\d+\.\d{4}", tb.decimal)


def test_pairings_and_standings_pages_use_a_fixed_number_of_queries(
    owner, django_assert_max_num_queries
):
    t, rnd = published(owner, entries=12)
    anon = Client()
    # The paged round page: its table count and the page's names besides the round, the
    # snapshot, the matches and their games (a fixed number, whatever the tables).
    with django_assert_max_num_queries(8):
        r = anon.get(reverse("tournaments:round", args=[t.pk, 1]))
    assert len(r.context["matches"]) == 6
    with django_assert_max_num_queries(7):
        anon.get(reverse("tournaments:standings", args=[t.pk]))
    with django_assert_max_num_queries(7):
        anon.get(reverse("tournaments:detail", args=[t.pk]))


@pytest.mark.parametrize(
    ("code", "value", "lang", "shown"),
    [
        ("buchholz", Fraction(15), "hu", "15"),
        ("median_buchholz", Fraction(7, 2), "hu", "3,5000"),
        ("median_buchholz", Fraction(7, 2), "en", "3.5000"),
        ("omw", Fraction(2, 3), "hu", "66,67 %"),
        ("ogw", Fraction(1, 3), "en", "33.33 %"),
        ("gw", Fraction(1), "en", "100.00 %"),
    ],
)
def test_tiebreaker_display_is_localised_whole_or_percent(code, value, lang, shown):
    with translation.override(lang):
        assert selectors.TiebreakerValue(code, value).display == shown
