"""The tournaments REST API for rounds, matches and games: pairing, swaps, publishing, die
rolls, first-player rights, corrections and their error mapping."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.api.tournaments.helpers import first_real_match, published_round, running, url
from tests.factories import make_tournament
from tournaments import services
from tournaments.models import Game
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db


# --- rounds -------------------------------------------------------------------------------


def test_pair_next_round_answers_a_summary_and_the_url_of_its_tables(api, owner):
    t, entries = running(owner, 5)
    r = api.post(url(t, "rounds/"))
    assert r.status_code == 201, r.json()
    body = r.json()
    # A summary, not the tables (2,048 of them at 4,096 entries): they are read page by page.
    assert body == {
        "number": 1,
        "status": "draft",
        "tables": 3,
        "url": f"http://testserver{url(t, 'rounds/1/')}",
    }
    page = api.get(body["url"]).json()
    assert len(page["matches"]) == 3
    byes = [m for m in page["matches"] if m["is_bye"]]
    assert len(byes) == 1 and byes[0]["next_right"] is None and byes[0]["complete"] is True
    real = [m for m in page["matches"] if not m["is_bye"]]
    for m in real:
        assert m["next_right"]["game"] == 1
        assert m["next_right"]["needs_roll"] is True
        assert m["next_right"]["text"]
    names = [row["name"] for row in page["by_name"]]
    assert names == sorted(names, key=str.casefold)
    assert len(page["by_name"]) == 5
    again = api.post(url(t, "rounds/"))
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "round_in_progress"


def test_round_changes_answer_the_summary_only(api, owner):
    """Publish, finish and unpublish answer number, status, tables and the URL of the paged
    tables, never the tables themselves."""
    t, _ = running(owner, 4)
    services.round_pair_next(actor=SYSTEM, tournament=t, seed=2)
    summary = {"number": 1, "tables": 2, "url": f"http://testserver{url(t, 'rounds/1/')}"}
    p = api.post(url(t, "rounds/1/publish/"))
    assert p.status_code == 200 and p.json() == {**summary, "status": "published"}
    u = api.post(url(t, "rounds/1/unpublish/"), {"reason": "wrong tables"}, format="json")
    assert u.status_code == 200 and u.json() == {**summary, "status": "draft"}
    d = api.post(
        url(t, "rounds/1/discard/"), {"reason": "again", "pair_again": True}, format="json"
    )
    assert d.status_code == 200 and d.json() == {**summary, "status": "draft"}
    rnd = services.round_publish(actor=SYSTEM, round=t.rounds.get(number=1))
    for m in rnd.matches.all():
        services.match_result_record(
            actor=SYSTEM, match=m, result="2-0-0", die_roll_winner=m.entry_a_id
        )
    f = api.post(url(t, "rounds/1/finish/"))
    assert f.status_code == 200 and f.json() == {**summary, "status": "finished"}


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
    services.round_pair_next(actor=SYSTEM, tournament=t, seed=1)
    assert api.get(url(t, "rounds/1/")).status_code == 200
    anon = Client()
    assert anon.get(url(t, "rounds/1/")).status_code == 404
    assert anon.get(url(t, "rounds/")).json() == []
    assert anon.get(url(t, "export/")).json()["rounds"] == []
    assert len(api.get(url(t, "export/")).json()["rounds"]) == 1


def test_swap_and_publish(api, owner):
    t, _ = running(owner, 4)
    rnd = services.round_pair_next(actor=SYSTEM, tournament=t, seed=3)
    before = {m.table: (m.entry_a_id, m.entry_b_id) for m in rnd.matches.all()}
    r = api.post(
        url(t, "rounds/1/swap/"),
        {"table_x": 1, "table_y": 2, "swap": "b", "reason": "same club"},
        content_type="application/json",
    )
    assert r.status_code == 200, r.json()
    assert r.json()["status"] == "draft" and r.json()["tables"] == 2
    tables = api.get(r.json()["url"]).json()["matches"]
    after = {m["table"]: (m["entry_a"], m["entry_b"]) for m in tables}
    assert after[1] == (before[1][0], before[2][1])
    assert after[2] == (before[2][0], before[1][1])
    missing = api.post(
        url(t, "rounds/1/swap/"),
        {"table_x": 1, "table_y": 9, "swap": "b"},
        content_type="application/json",
    )
    assert missing.status_code == 404
    assert missing.json()["error"]["code"] == "table_not_in_round"
    p = api.post(url(t, "rounds/1/publish/"))
    assert p.status_code == 200
    assert p.json()["status"] == "published"
    late = api.post(
        url(t, "rounds/1/swap/"),
        {"table_x": 1, "table_y": 2, "swap": "a"},
        content_type="application/json",
    )
    assert late.status_code == 409
    assert late.json()["error"]["code"] == "round_not_draft"
    assert Client().get(url(t, "rounds/1/")).status_code == 200


def test_unknown_round_is_404(api, owner):
    t, _ = running(owner, 2)
    r = api.get(url(t, "rounds/3/"))
    assert r.status_code == 404
    assert r.json()["error"]["code"] == "round_not_found"


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
    services.match_set_die_roll(actor=SYSTEM, match=m, winner_entry=a)
    body = {"number": 1, "winner": a, "first": a}
    assert (
        api.post(
            url(t, f"matches/{m.pk}/games/"), body, content_type="application/json"
        ).status_code
        == 201
    )
    dup = api.post(url(t, f"matches/{m.pk}/games/"), body, content_type="application/json")
    assert dup.status_code == 409
    assert dup.json()["error"]["code"] == "game_already_recorded"
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
    services.match_set_die_roll(actor=SYSTEM, match=m, winner_entry=m.entry_a_id)
    r = api.post(
        url(t, f"matches/{m.pk}/games/"),
        {"number": 1, "winner": m.entry_a_id, "first": m.entry_b_id},
        content_type="application/json",
    )
    assert r.status_code == 400
    assert r.json()["error"]["code"] == "first_player_mismatch"
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
    assert r.json()["error"]["code"] == "table_not_in_round"
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
    assert r.json()["error"]["code"] == "match_not_found"


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
    rnd = services.round_pair_next(actor=SYSTEM, tournament=t, seed=1)
    m = first_real_match(rnd)
    r = api.post(
        url(t, f"matches/{m.pk}/die-roll/"),
        {"winner": m.entry_a_id},
        content_type="application/json",
    )
    assert r.status_code == 409
    assert r.json()["error"]["code"] == "round_not_published"
