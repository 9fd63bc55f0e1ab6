"""The event-day API: match-level results from slips and the round clock (docs/rules.md §6
(HKK first-player rights), §16 (Deck checks, penalties and result reporting))."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.api.tournaments.helpers import first_real_match, published_round, url
from tournaments import services
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db

J = "application/json"


def test_match_result_records_the_games(api, owner):
    t, rnd = published_round(owner)
    m = first_real_match(rnd)
    r = api.post(
        url(t, f"matches/{m.pk}/result/"),
        {"result": "2-1-0", "die_roll_winner": m.entry_a_id},
        content_type=J,
    )
    assert r.status_code == 201, r.json()
    body = r.json()
    assert (body["a_wins"], body["b_wins"], body["complete"]) == (2, 1, True)
    # match level: the winners count; holders, first players and choices were not reported
    assert [g["winner"] is not None for g in body["games"]] == [True, True, True]
    assert {(g["right_holder"], g["first"], g["choice"]) for g in body["games"]} == {
        (None, None, None)
    }
    assert not any(g["details_reported"] for g in body["games"])


#: A slip through the API: the token, the event and the caller's role, the match (read narrow,
#: ``selectors.match_to_lock``); the service's statements (``MAX_SLIP_QUERIES`` of the service
#: test, and the judge's own-match check); the answer's two names (its games are known, not
#: read). The same at 4 and at 4,096 entries.
MAX_SLIP_API_QUERIES = 16


def test_a_slip_answer_reads_its_two_names_only(api, owner, django_assert_max_num_queries):
    t, rnd = published_round(owner, entries=12)
    m = first_real_match(rnd)
    with django_assert_max_num_queries(MAX_SLIP_API_QUERIES) as ctx:
        r = api.post(
            url(t, f"matches/{m.pk}/result/"),
            {"result": "2-0-0", "die_roll_winner": m.entry_a_id},
            content_type=J,
        )
    assert r.status_code == 201, r.json()
    names = [
        q["sql"] for q in ctx.captured_queries if '"tournaments_entry"."given_name"' in q["sql"]
    ]
    assert len(names) == 1, names
    assert f"IN ({m.entry_a_id}, {m.entry_b_id})" in names[0] or (
        f"IN ({m.entry_b_id}, {m.entry_a_id})" in names[0]
    )
    assert "tournaments_tournament" not in names[0]  # no ordering join either
    body = r.json()
    assert (body["a_name"], body["b_name"]) == (m.entry_a.name, m.entry_b.name)


def test_match_result_errors(api, owner, outsider):
    t, rnd = published_round(owner)
    m = first_real_match(rnd)
    r = api.post(url(t, f"matches/{m.pk}/result/"), {"result": "2-1-0"}, content_type=J)
    assert r.status_code == 400
    assert r.json()["error"]["code"] == "roll_not_recorded"
    assert "die_roll_winner" in r.json()["error"]["fields"]
    r = api.post(url(t, f"matches/{m.pk}/result/"), {"result": "9-9"}, content_type=J)
    assert r.json()["error"]["code"] == "invalid_result"
    r = api.post(url(t, f"matches/{m.pk}/result/"), {"result": "no_show_b"}, content_type=J)
    assert r.status_code == 201 and r.json()["a_wins"] == 2
    r = api.post(url(t, f"matches/{m.pk}/result/"), {"result": "no_show_b"}, content_type=J)
    assert r.status_code == 409
    other = Client()
    other.force_login(outsider)
    r = other.post(url(t, f"matches/{m.pk}/result/"), {"result": "no_show_b"}, content_type=J)
    assert r.status_code == 403


def test_round_clock(api, owner, outsider):
    t, rnd = published_round(owner)
    clock = url(t, f"rounds/{rnd.number}/clock/")
    body = api.get(clock).json()
    assert body["state"] == "not_started" and body["seconds_left"] == 50 * 60
    r = api.post(clock, {"action": "start", "minutes": 30}, content_type=J)
    assert r.status_code == 200 and r.json()["state"] == "running"
    assert r.json()["ends_at"]
    assert api.post(clock, {"action": "start"}, content_type=J).status_code == 409
    assert api.post(clock, {"action": "extend"}, content_type=J).status_code == 400
    m = first_real_match(rnd)
    r = api.post(clock, {"action": "extend", "minutes": 5, "table": m.table}, content_type=J)
    assert r.json()["total_seconds"] == 35 * 60
    assert api.get(clock).json()["total_seconds"] == 30 * 60
    assert api.post(clock, {"action": "pause"}, content_type=J).json()["state"] == "paused"
    assert api.post(clock, {"action": "resume"}, content_type=J).json()["state"] == "running"
    judge = Client()
    services.staff_appoint(actor=SYSTEM, tournament=t, user=outsider, role="judge")
    judge.force_login(outsider)
    assert judge.post(clock, {"action": "pause"}, content_type=J).status_code == 403
    r = judge.post(clock, {"action": "extend", "minutes": 2, "table": m.table}, content_type=J)
    assert r.status_code == 200


def test_csv_headers_follow_the_language(api, owner):
    t, rnd = published_round(owner)
    hu = api.get(url(t, "standings.csv"), HTTP_ACCEPT_LANGUAGE="hu").content.decode("utf-8-sig")
    header = hu.splitlines()[0]
    assert header.startswith("Helyezés") or "Helyezés" in header, header
    assert "buchholz" not in header and "game_points" not in header
    en = api.get(
        url(t, f"rounds/{rnd.number}/pairings.csv"), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode("utf-8-sig")
    assert en.splitlines()[0].startswith("Table")


def test_penalty_log(api, owner, outsider):
    t, rnd = published_round(owner)
    m = first_real_match(rnd)
    body = {"entry": m.entry_a_id, "category": "slow_play", "kind": "warning", "round": 1}
    r = api.post(url(t, "penalties/"), body, content_type=J)
    assert r.status_code == 201, r.json()
    assert r.json()["kind"] == "warning" and r.json()["round"] == 1
    bad = api.post(url(t, "penalties/"), {**body, "entry": 999999}, content_type=J)
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid_value"
    check = services.deck_check_add(round=rnd, entry=m.entry_b_id, actor=owner)
    services.deck_check_record(check=check, outcome="problem", penalty="game_loss", actor=owner)
    rows = api.get(url(t, "penalties/")).json()
    assert [p["category"] for p in rows] == ["slow_play", "deck_problem"]
    csv_text = api.get(url(t, "penalties.csv"), HTTP_ACCEPT_LANGUAGE="hu").content.decode(
        "utf-8-sig"
    )
    assert csv_text.splitlines()[0].startswith("Időpont,Forduló,Nevező")
    assert "lassú játék" in csv_text
    other = Client()
    other.force_login(outsider)
    assert other.get(url(t, "penalties/")).status_code in (403, 404)


def test_top_cut_api(api, owner, outsider):
    t, rnd = published_round(owner)
    for m in rnd.matches.filter(entry_b__isnull=False):
        services.match_result_record(
            actor=SYSTEM, match=m, result="3-0-0", die_roll_winner=m.entry_a_id
        )
    services.round_finish(actor=SYSTEM, round=rnd)
    top = url(t, "top-cut/")
    body = api.get(top).json()
    assert body == {"default_size": 0, "champion": None, "rounds": []}
    other = Client()
    other.force_login(outsider)
    assert other.post(top, {"action": "next"}, content_type=J).status_code == 403
    assert api.post(top, {"action": "start"}, content_type=J).status_code == 400
    r = api.post(top, {"action": "start", "size": 4}, content_type=J)
    assert r.status_code == 201, r.json()
    (semi,) = r.json()["rounds"]
    assert len(semi["matches"]) == 2 and sorted(semi["seeds"].values()) == [1, 2, 3, 4]
    assert api.post(top, {"action": "next"}, content_type=J).json()["error"]["code"] == (
        "round_in_progress"
    )
