"""Importing the teams of a pair event, on PostgreSQL: two players a row in seats A and B with
their e-mails and optional deck lists; the preview writes nothing and counts the bad rows; one
bad row saves nothing; repeated names, team names and e-mails are flagged; the two lists of a
team naming different rule cards are both stored as not legal; the preview's queries do not
grow with the list. The import page shows the summary of bad rows, and an individual event's
pages show no seat labels."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from hkk_tournament.errors import ValidationFailed
from tests.factories import (
    UserFactory,
    hkk_catalogue,  # noqa: F401 (fixture)
    hkk_deck,
    make_tournament,
)
from tournaments import services
from tournaments.models import DeckSubmission, Entry, EntryMember, Player, Tournament
from tournaments.permissions import SYSTEM
from tournaments.services import desk

pytestmark = [
    pytest.mark.postgres_only,
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the project runs on PostgreSQL"),
]

PAIR = Tournament.Kind.PAIR
HEADER = "csapatnév;A neve;A e-mail;B neve;B e-mail;A paklija;B paklija\n"


def _deck(rule_card: str, seed: int) -> str:
    return hkk_deck(rule_card=rule_card, seed=seed, format_slug="hkk-paros").replace('"', "'")


def _teams(count: int) -> str:
    return HEADER + "".join(
        f"Csapat {i};Kovács Anna {i};anna{i}@example.com;Nagy Béla {i};bela{i}@example.com;;\n"
        for i in range(count)
    )


def _nothing_written(t: Tournament) -> bool:
    return (
        not Entry.objects.filter(tournament=t).exists()
        and not Player.objects.filter(display_name__startswith=("Kovács Anna")).exists()
    )


@pytest.mark.usefixtures("hkk_catalogue")
def test_pair_list_previews_then_saves_teams_with_their_lists() -> None:
    t, _ = make_tournament(entries=0, kind=PAIR)
    a_deck, b_deck = _deck("Ősi rúna", 1), _deck("Ősi rúna", 2)
    text = (
        HEADER
        + f'Sárkányok;Kovács Anna;ka@example.com;Nagy Béla;nb@example.com;"{a_deck}";"{b_deck}"\n'
        + ";Szabó Cili;;Tóth Dénes;;;\n"
    )
    preview = services.entries_import(actor=SYSTEM, tournament=t, text=text)
    assert preview.ok and preview.pair and preview.bad_rows == 0 and not preview.saved
    assert _nothing_written(t)
    first = preview.rows[0]
    assert first.partner is not None
    assert (first.team, first.name, first.partner.name) == ("Sárkányok", "Kovács Anna", "Nagy Béla")
    assert first.deck_status == first.partner.deck_status == "legal"

    done = services.entries_import(actor=SYSTEM, tournament=t, text=text, dry_run=False)
    assert done.saved
    team, other = (r.entry or 0 for r in done.rows)
    names = set(Entry.objects.filter(tournament=t).values_list("name", flat=True))
    assert names == {"Sárkányok", "Szabó Cili & Tóth Dénes"}
    members = EntryMember.objects.filter(entry_id=team).order_by("seat")
    assert [(m.seat, m.player.display_name, m.player.email) for m in members] == [
        ("A", "Kovács Anna", "ka@example.com"),
        ("B", "Nagy Béla", "nb@example.com"),
    ]
    lists = DeckSubmission.objects.filter(member__entry_id=team)
    assert sorted((s.member.seat, s.version, s.legal) for s in lists) == [
        ("A", 1, True),
        ("B", 1, True),
    ]
    second = Entry.objects.get(pk=other)
    assert second.members.count() == 2
    assert not DeckSubmission.objects.filter(member__entry=second).exists()


@pytest.mark.usefixtures("hkk_catalogue")
def test_bad_rows_are_reported_by_seat_and_nothing_is_saved() -> None:
    t, _ = make_tournament(entries=0, kind=PAIR, decks=False)
    text = (
        HEADER
        + "Jó csapat;Kovács Anna;;Nagy Béla;;;\n"
        + "Fél csapat;Szabó Cili;;;;;\n"  # no partner
        + "Rossz cím;Tóth Dénes;nem-cim;Kiss Emő;;;\n"  # A's e-mail is not one
        + "Sok;a;;b;;;;túl sok\n"  # an eighth column
        + '"nincs lezárva;x;;y;;;\n'  # an unclosed quote (swallows nothing)
        + "Utolsó;Fekete Gábor;;Fehér Hanna;;;\n"
    )
    for dry_run in (True, False):
        result = services.entries_import(actor=SYSTEM, tournament=t, text=text, dry_run=dry_run)
        assert not result.ok and not result.saved
        assert result.bad_rows == 4 and len(result.rows) == 6
        by_line = {r.line: r for r in result.rows}
        assert [e.split(":")[0] for e in by_line[3].errors] == ["B hely"]
        assert [e.split(":")[0] for e in by_line[4].errors] == ["A hely"]
        assert by_line[5].errors and by_line[6].errors
        assert not by_line[2].errors and not by_line[7].errors
        assert _nothing_written(t)


def test_repeated_names_team_names_and_emails_are_flagged() -> None:
    t, _ = make_tournament(entries=0, kind=PAIR, decks=False)
    services.entry_register_pair(
        tournament=t, name="Régi csapat", player_a="Régi Anna", player_b="Régi Béla"
    )
    text = (
        HEADER
        + "Régi csapat;Új Cili;c@example.com;Új Dénes;;;\n"  # team name registered
        + "Más csapat;regi  ANNA;;Új Emő;c@example.com;;\n"  # A registered; B's e-mail = line 2
        + "Harmadik;Új Cili;;Új Feri;;;\n"  # A's name = line 2
    )
    rows = services.entries_import(actor=SYSTEM, tournament=t, text=text).rows
    assert any("Régi csapat" in w for w in rows[0].warnings)
    assert any("Régi Anna" in w for w in rows[1].warnings)
    assert any("2" in w and "e-mail" in w.lower() for w in rows[1].warnings)
    assert any("2" in w for w in rows[2].warnings)
    assert all(not r.errors for r in rows)


@pytest.mark.usefixtures("hkk_catalogue")
def test_a_team_with_two_rule_cards_is_stored_but_not_legal() -> None:
    t, _ = make_tournament(entries=0, kind=PAIR)
    text = (
        HEADER + f'Vegyes;Kovács Anna;;Nagy Béla;;"{_deck("Ősi rúna", 3)}";'
        f'"{_deck("Ősi bölcsesség", 4)}"\n'
    )
    preview = services.entries_import(actor=SYSTEM, tournament=t, text=text)
    assert preview.ok and preview.rows[0].warnings
    partner = preview.rows[0].partner
    assert partner is not None
    assert preview.rows[0].deck_legal is False and partner.deck_legal is False
    done = services.entries_import(actor=SYSTEM, tournament=t, text=text, dry_run=False)
    lists = DeckSubmission.objects.filter(member__entry_id=done.rows[0].entry or 0)
    assert len(lists) == 2
    for s in lists:
        assert not s.legal
        assert [e["code"] for e in s.extra_errors] == ["pair_rule_card_mismatch"]


def test_pair_preview_queries_do_not_grow_with_the_list() -> None:
    t, _ = make_tournament(entries=3, kind=PAIR, decks=False)

    def queries(text: str) -> int:
        with CaptureQueriesContext(connection) as ctx:
            services.entries_import(actor=SYSTEM, tournament=t, text=text)
        return len(ctx.captured_queries)

    assert queries(_teams(3)) == queries(_teams(200)) <= 5
    with CaptureQueriesContext(connection) as ctx:
        done = services.entries_import(actor=SYSTEM, tournament=t, text=_teams(200), dry_run=False)
    assert done.saved and Entry.objects.filter(tournament=t).count() == 203
    assert len(ctx.captured_queries) <= 15


def test_each_kind_of_event_reads_its_own_shape() -> None:
    t, _ = make_tournament(entries=0, decks=False)
    result = services.entries_import(
        actor=SYSTEM, tournament=t, text="Kovács Anna;ka@example.com\n"
    )
    assert result.ok and not result.pair and result.rows[0].partner is None
    pair_text = _teams(1).splitlines()[1] + "\n"
    bad = services.entries_import(actor=SYSTEM, tournament=t, text=pair_text)
    assert bad.bad_rows == 1  # seven columns are too many for a player list
    pair, _ = make_tournament(entries=0, kind=PAIR, decks=False)
    single = services.entries_import(
        actor=SYSTEM, tournament=pair, text="Kovács Anna;ka@example.com\n"
    )
    assert single.pair and single.bad_rows == 1  # a team needs player B
    assert not Entry.objects.filter(tournament=pair).exists()


def test_a_draft_event_that_changes_kind_refuses_the_stale_list() -> None:
    t, _ = make_tournament(entries=0, kind=PAIR, decks=False)
    Tournament.objects.filter(pk=t.pk).update(kind=Tournament.Kind.INDIVIDUAL)
    result = services.entries_import(actor=SYSTEM, tournament=t, text=_teams(2))
    assert not result.pair and result.bad_rows == 3  # read as players: header and rows too wide
    with pytest.raises(ValidationFailed) as exc:  # ``t`` still says pair: checked under the lock
        desk._save_rows(t, [], {}, None)
    assert exc.value.code == "wrong_entry_kind"


# --- pages ------------------------------------------------------------------------------------


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_import_page_shows_the_bad_rows_summary_and_the_teams() -> None:
    owner = UserFactory(username="szervezo")
    t, _ = make_tournament(entries=0, kind=PAIR, decks=False, owner=owner)
    text = HEADER + "Jó;Kovács Anna;;Nagy Béla;;;\nFél;Szabó Cili;;;;;\nFél2;;;Tóth Dénes;;;\n"
    url = reverse("tournaments:entries-import", args=[t.pk])
    html = _client(owner).post(url, {"text": text, "save": "0"}).content.decode()
    assert 'data-testid="import-summary"' in html
    assert "2 hibás sor" in html and "Összesen 3 sor." in html
    assert "Nagy Béla" in html and "B hely: " in html
    assert 'data-testid="import-save"' not in html
    good = HEADER + "Jó;Kovács Anna;;Nagy Béla;;;\n"
    html = _client(owner).post(url, {"text": good, "save": "0"}).content.decode()
    assert "nincs hiba" in html and "1 csapat importálása" in html
    response = _client(owner).post(url, {"text": good, "save": "1"})
    assert response.status_code == 302 and Entry.objects.filter(tournament=t).count() == 1


def test_individual_event_pages_show_no_seat_labels() -> None:
    owner = UserFactory(username="szervezo2")
    t, entries = make_tournament(entries=2, decks=False, owner=owner)
    client = _client(owner)
    detail = client.get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    assert "P1" in detail and "P1 (A)" not in detail and "(A hely)" not in detail
    deck_page = client.get(
        reverse("tournaments:entry-deck", args=[t.pk, entries[0].pk])
    ).content.decode()
    assert "P1 (A)" not in deck_page
    pair, teams = make_tournament(entries=1, kind=PAIR, decks=False, owner=owner)
    detail = client.get(reverse("tournaments:detail", args=[pair.pk])).content.decode()
    assert "P1A (A)" in detail and "P1B (B)" in detail


def test_api_previews_and_saves_teams() -> None:
    owner = UserFactory(username="szervezo3")
    t, _ = make_tournament(entries=0, kind=PAIR, decks=False, owner=owner)
    url = f"/api/tournaments/{t.pk}/entries/import/"
    text = HEADER + "Jó;Kovács Anna;ka@example.com;Nagy Béla;;;\nFél;Szabó Cili;;;;;\n"
    body = _client(owner).post(url, {"text": text}, content_type="application/json").json()
    assert (body["pair"], body["ok"], body["saved"], body["bad_rows"]) == (True, False, False, 1)
    first, second = body["rows"]
    assert first["team"] == "Jó" and first["name"] == "Kovács Anna"
    assert first["partner"]["name"] == "Nagy Béla" and first["partner"]["deck_status"] is None
    assert second["row_errors"] and not Entry.objects.filter(tournament=t).exists()
    good = HEADER + "Jó;Kovács Anna;ka@example.com;Nagy Béla;;;\n"
    body = (
        _client(owner)
        .post(url, {"text": good, "dry_run": False}, content_type="application/json")
        .json()
    )
    assert body["saved"] and body["rows"][0]["entry"] is not None
    single, _ = make_tournament(entries=0, decks=False, owner=owner)
    url = f"/api/tournaments/{single.pk}/entries/import/"
    body = _client(owner).post(url, {"text": "Kovács Anna\n"}, content_type="application/json")
    assert body.json()["rows"][0]["partner"] is None and body.json()["pair"] is False
