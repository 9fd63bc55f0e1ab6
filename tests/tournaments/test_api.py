"""The tournaments REST API: every endpoint's happy path, permissions, error mapping
(``{"code", "message", "params"}``), CSV exports, the OpenAPI schema and query counts."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from django.test import Client

from tests.factories import UserFactory, make_tournament
from tournaments import services
from tournaments.models import DeckSubmission, Entry, Game, Match, Round, Tournament

pytestmark = pytest.mark.django_db

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
BASE = "/api/tournaments/"


@pytest.fixture
def owner():
    return UserFactory(username="organiser")


@pytest.fixture
def outsider():
    return UserFactory(username="outsider")


@pytest.fixture
def api(owner) -> Client:
    client = Client()
    client.force_login(owner)
    return client


def url(t, suffix: str = "") -> str:
    return f"{BASE}{t.pk}/{suffix}"


def running(owner, entries: int = 4) -> tuple[Tournament, list[Entry]]:
    """A running tournament with ``entries`` overridden entries, no round yet."""
    t, made = make_tournament(entries=entries, decks=False, owner=owner)
    t = services.tournament_start(tournament=t)
    return t, made


def published_round(owner, entries: int = 4) -> tuple[Tournament, Round]:
    t, _ = running(owner, entries)
    rnd = services.round_pair_next(tournament=t, seed=7)
    return t, services.round_publish(round=rnd)


def first_real_match(rnd: Round) -> Match:
    return rnd.matches.filter(entry_b__isnull=False).order_by("table").first()


# --- tournaments --------------------------------------------------------------------------


def test_create_makes_the_caller_owner(api, owner):
    r = api.post(BASE, {"name": "Kupa", "format": "hkk"}, content_type="application/json")
    assert r.status_code == 201, r.json()
    body = r.json()
    assert body["owner"] == "organiser"
    assert body["status"] == "draft"
    assert body["first_player_policy"] == "hkk"
    assert body["tiebreakers"] == ["buchholz", "game_points"]
    assert Tournament.objects.get(pk=body["id"]).owner == owner


def test_create_requires_login():
    r = Client().post(BASE, {"name": "Kupa", "format": "hkk"}, content_type="application/json")
    assert r.status_code in (401, 403)
    assert not Tournament.objects.exists()


def test_create_with_unknown_format_is_404_with_code(api):
    r = api.post(BASE, {"name": "Kupa", "format": "nope"}, content_type="application/json")
    assert r.status_code == 404
    body = r.json()
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
    assert r.json()["code"] == "unknown_tiebreaker"


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
    assert r.json()["code"] == "tournament_not_found"
    assert api.post(f"{BASE}999999/start/").status_code == 404


def test_open_registration_and_wrong_state(api, owner):
    t = services.tournament_create(owner=owner, name="Kupa", format_slug="hkk")
    r = api.post(url(t, "open-registration/"))
    assert r.status_code == 200
    assert r.json()["status"] == "registration"
    again = api.post(url(t, "open-registration/"))
    assert again.status_code == 409
    assert again.json()["code"] == "tournament_status"


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
    assert r.json()["code"] == "entries_without_legal_list"
    assert r.json()["params"]["entries"] == [entries[0].pk]
    services.entry_override_deck(entry=entries[0], reason="judge ok")
    r = api.post(url(t, "start/"))
    assert r.status_code == 200
    assert r.json()["status"] == "running"


def test_finish_tournament_before_any_round_is_409(api, owner):
    t, _ = running(owner, 2)
    r = api.post(url(t, "finish/"))
    assert r.status_code == 409
    assert r.json()["code"] == "no_rounds"


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
    assert single.json()["code"] == "pair_needs_two_players"


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
    assert r.json()["code"] == "not_a_member"


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
    assert again.json()["code"] == "already_dropped"


# --- rounds -------------------------------------------------------------------------------


def test_pair_next_round_returns_the_draft_with_first_player_info(api, owner):
    t, entries = running(owner, 5)
    r = api.post(url(t, "rounds/"))
    assert r.status_code == 201, r.json()
    body = r.json()
    assert body["number"] == 1 and body["status"] == "draft"
    assert len(body["matches"]) == 3
    byes = [m for m in body["matches"] if m["is_bye"]]
    assert len(byes) == 1 and byes[0]["next_right"] is None and byes[0]["complete"] is True
    real = [m for m in body["matches"] if not m["is_bye"]]
    for m in real:
        assert m["next_right"]["game"] == 1
        assert m["next_right"]["needs_roll"] is True
        assert m["next_right"]["text"]
    names = [row["name"] for row in body["by_name"]]
    assert names == sorted(names, key=str.casefold)
    assert len(body["by_name"]) == 5
    again = api.post(url(t, "rounds/"))
    assert again.status_code == 409
    assert again.json()["code"] == "round_in_progress"


def test_pair_next_round_async_enqueues(api, owner, django_capture_on_commit_callbacks):
    t, _ = running(owner, 4)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        r = api.post(url(t, "rounds/") + "?async=1")
    assert r.status_code == 202
    assert r.json() == {"queued": True, "tournament": t.pk}
    assert len(callbacks) >= 1
    # Celery is eager without a broker: the task ran and paired round 1.
    assert t.rounds.filter(number=1, status="draft").exists()


def test_draft_round_is_hidden_from_others(api, owner):
    t, _ = running(owner, 4)
    services.round_pair_next(tournament=t, seed=1)
    assert api.get(url(t, "rounds/1/")).status_code == 200
    anon = Client()
    assert anon.get(url(t, "rounds/1/")).status_code == 404
    assert anon.get(url(t, "rounds/")).json() == []
    assert anon.get(url(t, "export/")).json()["rounds"] == []
    assert len(api.get(url(t, "export/")).json()["rounds"]) == 1


def test_swap_and_publish(api, owner):
    t, _ = running(owner, 4)
    rnd = services.round_pair_next(tournament=t, seed=3)
    before = {m.table: (m.entry_a_id, m.entry_b_id) for m in rnd.matches.all()}
    r = api.post(
        url(t, "rounds/1/swap/"),
        {"table_x": 1, "table_y": 2, "swap": "b", "reason": "same club"},
        content_type="application/json",
    )
    assert r.status_code == 200, r.json()
    after = {m["table"]: (m["entry_a"], m["entry_b"]) for m in r.json()["matches"]}
    assert after[1] == (before[1][0], before[2][1])
    assert after[2] == (before[2][0], before[1][1])
    missing = api.post(
        url(t, "rounds/1/swap/"),
        {"table_x": 1, "table_y": 9, "swap": "b"},
        content_type="application/json",
    )
    assert missing.status_code == 404
    assert missing.json()["code"] == "table_not_in_round"
    p = api.post(url(t, "rounds/1/publish/"))
    assert p.status_code == 200
    assert p.json()["status"] == "published"
    late = api.post(
        url(t, "rounds/1/swap/"),
        {"table_x": 1, "table_y": 2, "swap": "a"},
        content_type="application/json",
    )
    assert late.status_code == 409
    assert late.json()["code"] == "round_not_draft"
    assert Client().get(url(t, "rounds/1/")).status_code == 200


def test_unknown_round_is_404(api, owner):
    t, _ = running(owner, 2)
    r = api.get(url(t, "rounds/3/"))
    assert r.status_code == 404
    assert r.json()["code"] == "round_not_found"


# --- matches and games --------------------------------------------------------------------


def test_die_roll_then_games_follow_the_hkk_rule(api, owner):
    t, rnd = published_round(owner, 2)
    m = first_real_match(rnd)
    a, b = m.entry_a_id, m.entry_b_id
    r = api.post(
        url(t, f"matches/{m.pk}/die-roll/"), {"winner": b}, content_type="application/json"
    )
    assert r.status_code == 200, r.json()
    assert r.json()["next_right"]["holder"] == b
    assert r.json()["next_right"]["seat"] == "B"
    g1 = api.post(
        url(t, f"matches/{m.pk}/games/"),
        {"number": 1, "winner": b, "first": b},
        content_type="application/json",
    )
    assert g1.status_code == 201, g1.json()
    right = g1.json()["match"]["next_right"]
    assert right["game"] == 2 and right["holder"] == a and right["reason"] == "player_2_game_2"
    # game 2: A holds the right and waives it, so B goes first.
    g2 = api.post(
        url(t, f"matches/{m.pk}/games/"),
        {"number": 2, "winner": b, "first": b, "waived": True},
        content_type="application/json",
    )
    assert g2.status_code == 201, g2.json()
    match = g2.json()["match"]
    assert match["b_wins"] == 2 and match["complete"] is False  # 3 games, no early stop
    assert Game.objects.filter(match=m).count() == 2


def test_duplicate_game_is_409_and_correction_is_200(api, owner):
    t, rnd = published_round(owner, 2)
    m = first_real_match(rnd)
    a = m.entry_a_id
    services.match_set_die_roll(match=m, winner_entry=a)
    body = {"number": 1, "winner": a, "first": a}
    assert (
        api.post(
            url(t, f"matches/{m.pk}/games/"), body, content_type="application/json"
        ).status_code
        == 201
    )
    dup = api.post(url(t, f"matches/{m.pk}/games/"), body, content_type="application/json")
    assert dup.status_code == 409
    assert dup.json()["code"] == "game_already_recorded"
    no_reason = api.post(
        url(t, f"matches/{m.pk}/games/"),
        {**body, "winner": None, "correction": True},
        content_type="application/json",
    )
    assert no_reason.status_code == 400
    fixed = api.post(
        url(t, f"matches/{m.pk}/games/"),
        {**body, "winner": None, "correction": True, "reason": "misread slip"},
        content_type="application/json",
    )
    assert fixed.status_code == 200, fixed.json()
    assert fixed.json()["game"]["is_draw"] is True
    assert fixed.json()["game"]["version"] == 2


def test_wrong_first_player_is_400(api, owner):
    t, rnd = published_round(owner, 2)
    m = first_real_match(rnd)
    services.match_set_die_roll(match=m, winner_entry=m.entry_a_id)
    r = api.post(
        url(t, f"matches/{m.pk}/games/"),
        {"number": 1, "winner": m.entry_a_id, "first": m.entry_b_id},
        content_type="application/json",
    )
    assert r.status_code == 400
    assert r.json()["code"] == "first_player_mismatch"
    assert not Game.objects.exists()


def test_game_for_a_table_not_in_the_round_is_404(api, owner):
    t, rnd = published_round(owner, 2)
    m = first_real_match(rnd)
    body = {
        "number": 1,
        "winner": m.entry_a_id,
        "first": m.entry_a_id,
        "right_holder": m.entry_a_id,
    }
    r = api.post(url(t, "rounds/1/tables/42/games/"), body, content_type="application/json")
    assert r.status_code == 404
    assert r.json()["code"] == "table_not_in_round"
    ok = api.post(
        url(t, f"rounds/1/tables/{m.table}/games/"), body, content_type="application/json"
    )
    assert ok.status_code == 201, ok.json()


def test_match_of_another_tournament_is_404(api, owner):
    t, rnd = published_round(owner, 2)
    other, _ = make_tournament(owner=owner)
    m = first_real_match(rnd)
    r = api.post(
        url(other, f"matches/{m.pk}/die-roll/"),
        {"winner": m.entry_a_id},
        content_type="application/json",
    )
    assert r.status_code == 404
    assert r.json()["code"] == "match_not_found"


def test_outsider_cannot_record_a_game(owner, outsider):
    t, rnd = published_round(owner, 2)
    m = first_real_match(rnd)
    client = Client()
    client.force_login(outsider)
    r = client.post(
        url(t, f"matches/{m.pk}/games/"),
        {"number": 1, "winner": m.entry_a_id, "first": m.entry_a_id, "right_holder": m.entry_a_id},
        content_type="application/json",
    )
    assert r.status_code == 403
    assert not Game.objects.exists()


def test_game_in_draft_round_is_409(api, owner):
    t, _ = running(owner, 2)
    rnd = services.round_pair_next(tournament=t, seed=1)
    m = first_real_match(rnd)
    r = api.post(
        url(t, f"matches/{m.pk}/die-roll/"),
        {"winner": m.entry_a_id},
        content_type="application/json",
    )
    assert r.status_code == 409
    assert r.json()["code"] == "round_not_published"


def play_round(api, t, rnd):
    """A wins 2–0 at every table (die roll to A; game 2 right holder B, not waived)."""
    for m in rnd.matches.filter(entry_b__isnull=False):
        a, b = m.entry_a_id, m.entry_b_id
        api.post(
            url(t, f"matches/{m.pk}/die-roll/"), {"winner": a}, content_type="application/json"
        )
        for number, first in ((1, a), (2, b), (3, a)):
            r = api.post(
                url(t, f"matches/{m.pk}/games/"),
                {"number": number, "winner": a, "first": first},
                content_type="application/json",
            )
            assert r.status_code == 201, r.json()


def test_finish_round_standings_csv_and_export(api, owner):
    t, rnd = published_round(owner, 5)
    early = api.post(url(t, "rounds/1/finish/"))
    assert early.status_code == 409
    assert early.json()["code"] == "matches_incomplete"
    play_round(api, t, rnd)
    fin = api.post(url(t, "rounds/1/finish/"))
    assert fin.status_code == 200, fin.json()
    assert fin.json()["status"] == "finished"

    standings = Client().get(url(t, "standings/")).json()
    assert len(standings) == 5
    # Two 3-0 winners share rank 1; the bye (3 match points, 2-0 credited) is third.
    assert [row["rank"] for row in standings] == [1, 1, 3, 4, 4]
    assert [row["match_points"] for row in standings] == [3, 3, 3, 0, 0]
    top = standings[0]
    assert top["match_points"] == 3
    assert [tb["code"] for tb in top["tiebreakers"]] == ["buchholz", "game_points"]
    for tb in top["tiebreakers"]:
        assert "." in tb["decimal"] and len(tb["decimal"].split(".")[1]) == 4

    text = Client().get(url(t, "standings.csv")).content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text)))
    assert len(rows) == 6
    assert rows[0][-3:-1] == ["buchholz", "game_points"]
    assert {r[1] for r in rows[1:]} == {e.name for e in t.entries.all()}

    pcsv = Client().get(url(t, "rounds/1/pairings.csv"))
    assert pcsv["Content-Type"].startswith("text/csv")
    prow = list(csv.reader(io.StringIO(pcsv.content.decode("utf-8-sig"))))
    assert len(prow) == 4  # header + 3 tables
    real = [r for r in prow[1:] if r[3] == "3"]
    assert len(real) == 2 and all(r[6] == "3" and r[7] == "0" for r in real)

    export = Client().get(url(t, "export/")).json()
    assert export["format"] == "hkk"
    assert len(export["entries"]) == 5
    assert export["rounds"][0]["status"] == "finished"
    assert len(export["standings"]) == 5


def test_pairings_csv_header_follows_the_language(api, owner):
    t, _ = published_round(owner, 2)
    hu = Client().get(url(t, "rounds/1/pairings.csv"), HTTP_ACCEPT_LANGUAGE="hu")
    en = Client().get(url(t, "rounds/1/pairings.csv"), HTTP_ACCEPT_LANGUAGE="en")
    assert en.content.decode("utf-8-sig").splitlines()[0].startswith("Table")
    assert hu.status_code == 200


# --- schema and query counts --------------------------------------------------------------


def test_schema_lists_the_tournament_paths():
    r = Client().get("/api/schema/?format=json")
    assert r.status_code == 200
    paths = r.json()["paths"]
    for p in [
        "/api/tournaments/",
        "/api/tournaments/{tournament_id}/",
        "/api/tournaments/{tournament_id}/open-registration/",
        "/api/tournaments/{tournament_id}/entries/",
        "/api/tournaments/{tournament_id}/entries/{entry_id}/decks/",
        "/api/tournaments/{tournament_id}/entries/{entry_id}/override/",
        "/api/tournaments/{tournament_id}/entries/{entry_id}/drop/",
        "/api/tournaments/{tournament_id}/start/",
        "/api/tournaments/{tournament_id}/rounds/",
        "/api/tournaments/{tournament_id}/rounds/{number}/",
        "/api/tournaments/{tournament_id}/rounds/{number}/swap/",
        "/api/tournaments/{tournament_id}/rounds/{number}/publish/",
        "/api/tournaments/{tournament_id}/rounds/{number}/pairings.csv",
        "/api/tournaments/{tournament_id}/matches/{match_id}/die-roll/",
        "/api/tournaments/{tournament_id}/matches/{match_id}/games/",
        "/api/tournaments/{tournament_id}/standings/",
        "/api/tournaments/{tournament_id}/standings.csv",
        "/api/tournaments/{tournament_id}/export/",
    ]:
        assert p in paths, p
    create = paths["/api/tournaments/{tournament_id}/matches/{match_id}/games/"]["post"]
    assert "requestBody" in create and "409" in create["responses"]


def test_query_counts_do_not_grow_with_tables(api, owner, django_assert_max_num_queries):
    t, rnd = published_round(owner, 16)
    play_round(api, t, rnd)
    services.round_finish(round=rnd)
    rnd2 = services.round_publish(round=services.round_pair_next(tournament=t, seed=5))
    m = first_real_match(rnd2)
    services.match_set_die_roll(match=m, winner_entry=m.entry_a_id)
    anon = Client()
    # 16 entries, 8 tables, two rounds: a fixed number of queries, none per table or entry.
    with django_assert_max_num_queries(6):
        r = anon.get(url(t, "rounds/2/"))
    assert r.status_code == 200 and len(r.json()["matches"]) == 8
    with django_assert_max_num_queries(6):
        s = anon.get(url(t, "standings/"))
    assert s.status_code == 200 and len(s.json()) == 16
    for path in ("entries/", "rounds/2/pairings.csv", "standings.csv"):
        with django_assert_max_num_queries(6):
            assert anon.get(url(t, path)).status_code == 200
