"""The roles through the tournaments API: denied writes change nothing; result reports,
disputes, deck checks, staff appointments, self-registration and ``me`` work end to end."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.api.tournaments.helpers import BASE
from tests.api.tournaments.permission_world import (
    CO_ORGANISER,
    JUDGE,
    OTHER_JUDGE,
    OTHER_ORGANISER,
    OUTSIDER,
    OWNER,
    PLAYER,
    REG,
    RUN,
    build,
    client_for,
    game_one,
    hkk_games,
    link,
    record_report,
)
from tests.factories import UserFactory
from tournaments import services
from tournaments.models import Entry, ResultReport, StaffRole

pytestmark = pytest.mark.django_db


# --- denied writes change nothing ---------------------------------------------------------


def test_judge_of_another_event_cannot_record_or_confirm():
    world = build(RUN)
    record_report(world)
    client = client_for(world.users[OTHER_JUDGE])
    r1 = client.post(
        f"{BASE}{world.t.pk}/matches/{world.match.pk}/games/",
        game_one(world),
        content_type="application/json",
    )
    r2 = client.post(f"{BASE}{world.t.pk}/reports/{world.extra['report'].pk}/confirm/")
    assert (r1.status_code, r2.status_code) == (403, 403)
    assert not world.match.games.exists()
    assert ResultReport.objects.get().status == "pending"


def test_another_organiser_cannot_change_the_event():
    world = build(REG)
    client = client_for(world.users[OTHER_ORGANISER])
    for path, body in [
        ("start/", {}),
        ("entries/", {"players": ["X"]}),
        (f"entries/{world.entry.pk}/drop/", {}),
        ("staff/", {"username": OTHER_ORGANISER, "role": "organiser"}),
    ]:
        r = client.post(f"{BASE}{world.t.pk}/{path}", body, content_type="application/json")
        assert r.status_code == 403, path
    world.t.refresh_from_db()
    assert world.t.status == "registration"
    assert world.t.entries.count() == 4
    assert not StaffRole.objects.filter(tournament=world.t, user=world.users[OTHER_ORGANISER])


def test_co_organiser_cannot_appoint_staff():
    world = build(REG)
    r = client_for(world.users[CO_ORGANISER]).post(
        f"{BASE}{world.t.pk}/staff/",
        {"username": OUTSIDER, "role": "organiser"},
        content_type="application/json",
    )
    assert r.status_code == 403
    assert StaffRole.objects.filter(tournament=world.t).count() == 2


# --- the role flows through the API -------------------------------------------------------


def test_players_agree_through_the_api_and_the_match_counts():
    world = build(RUN)
    url = f"{BASE}{world.t.pk}/matches/{world.match.pk}/reports/"
    opponent = UserFactory(username="opponent")
    link(Entry.objects.get(pk=world.b), opponent)
    body = {"games": hkk_games(world.match)}
    first = client_for(world.users[PLAYER]).post(url, body, content_type="application/json")
    assert first.status_code == 201 and first.json()["status"] == "pending"
    assert first.json()["entry"] == world.a and first.json()["reported_by"] == PLAYER
    second = client_for(opponent).post(url, body, content_type="application/json")
    assert second.status_code == 201 and second.json()["status"] == "accepted"
    match = client_for(None).get(f"{BASE}{world.t.pk}/matches/{world.match.pk}/").json()
    assert match["complete"] is True and (match["a_wins"], match["b_wins"]) == (2, 1)
    listed = client_for(world.users[JUDGE]).get(url).json()
    assert [r["status"] for r in listed] == ["accepted", "accepted"]


def test_dispute_is_listed_for_judges_and_confirmed(django_assert_max_num_queries):
    world = build(RUN)
    url = f"{BASE}{world.t.pk}/matches/{world.match.pk}/reports/"
    opponent = UserFactory(username="opponent")
    link(Entry.objects.get(pk=world.b), opponent)
    games = hkk_games(world.match)
    client_for(world.users[PLAYER]).post(url, {"games": games}, content_type="application/json")
    other = [{**g, "winner": world.b} for g in games]
    r = client_for(opponent).post(url, {"games": other}, content_type="application/json")
    assert r.json()["status"] == "disputed"
    judge = client_for(world.users[JUDGE])
    with django_assert_max_num_queries(8):
        disputes = judge.get(f"{BASE}{world.t.pk}/disputes/").json()
    assert [(d["match"], len(d["reports"])) for d in disputes] == [(world.match.pk, 2)]
    chosen = disputes[0]["reports"][1]["id"]
    done = judge.post(f"{BASE}{world.t.pk}/reports/{chosen}/confirm/")
    assert done.status_code == 200 and done.json()["status"] == "accepted"
    assert done.json()["resolved_by"] == JUDGE
    assert judge.get(f"{BASE}{world.t.pk}/disputes/").json() == []
    again = judge.post(f"{BASE}{world.t.pk}/reports/{chosen}/confirm/")
    assert again.status_code == 409 and again.json()["error"]["code"] == "report_closed"


def test_report_with_a_wrong_first_player_is_a_400_with_the_code():
    world = build(RUN)
    games = hkk_games(world.match)
    games[1]["first"] = world.a
    r = client_for(world.users[PLAYER]).post(
        f"{BASE}{world.t.pk}/matches/{world.match.pk}/reports/",
        {"games": games},
        content_type="application/json",
    )
    assert r.status_code == 400 and r.json()["error"]["code"] == "first_player_mismatch"
    assert not ResultReport.objects.exists()


def test_deck_checks_through_the_api(django_assert_max_num_queries):
    world = build(RUN)
    judge = client_for(world.users[JUDGE])
    base = f"{BASE}{world.t.pk}/rounds/1/deck-checks/"
    picked = judge.post(base + "pick/", {"seed": 9}, content_type="application/json")
    assert picked.status_code == 200
    assert len(picked.json()) == 1 and picked.json()[0]["seed"] == 9
    again = judge.post(base + "pick/", {"seed": 10}, content_type="application/json").json()
    assert again == picked.json()
    chosen = {picked.json()[0]["entry"]}
    extra = next(e for e in world.t.entries.order_by("id") if e.pk not in chosen)
    added = judge.post(base, {"entry": extra.pk}, content_type="application/json")
    assert added.status_code == 201 and added.json()["random_pick"] is False
    dup = judge.post(base, {"entry": extra.pk}, content_type="application/json")
    assert dup.status_code == 409 and dup.json()["error"]["code"] == "deck_check_exists"
    record = f"{BASE}{world.t.pk}/deck-checks/{added.json()['id']}/record/"
    bad = judge.post(
        record, {"outcome": "ok", "penalty": "warning"}, content_type="application/json"
    )
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "penalty_without_problem"
    ok = judge.post(
        record, {"outcome": "problem", "penalty": "game_loss"}, content_type="application/json"
    )
    assert ok.status_code == 200 and ok.json()["checked_by"] == JUDGE
    with django_assert_max_num_queries(8):
        listed = judge.get(base).json()
    assert {c["entry"] for c in listed} == chosen | {extra.pk}


def test_staff_appointed_through_the_api_gain_the_role():
    world = build(RUN)
    owner = client_for(world.users[OWNER])
    url = f"{BASE}{world.t.pk}/staff/"
    r = owner.post(url, {"username": OUTSIDER, "role": "judge"}, content_type="application/json")
    assert r.status_code == 201 and r.json()["role"] == "judge"
    roll = f"{BASE}{world.t.pk}/matches/{world.match.pk}/die-roll/"
    outsider = client_for(world.users[OUTSIDER])
    assert (
        outsider.post(roll, {"winner": world.a}, content_type="application/json").status_code == 200
    )
    unknown = owner.post(
        url, {"username": "nobody", "role": "judge"}, content_type="application/json"
    )
    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "user_not_found"
    self_appoint = owner.post(
        url, {"username": OWNER, "role": "judge"}, content_type="application/json"
    )
    assert (
        self_appoint.status_code == 400
        and self_appoint.json()["error"]["code"] == "owner_is_organiser"
    )
    names = {s["username"] for s in owner.get(url).json()}
    assert names == {CO_ORGANISER, JUDGE, OUTSIDER}
    gone = owner.delete(f"{url}{world.users[OUTSIDER].pk}/")
    assert gone.status_code == 204
    assert (
        outsider.post(roll, {"winner": world.b}, content_type="application/json").status_code == 403
    )


def test_self_registration_through_the_api():
    world = build(REG)
    client = client_for(world.users[OUTSIDER])
    r = client.post(f"{BASE}{world.t.pk}/register/", {}, content_type="application/json")
    assert r.status_code == 201 and r.json()["name"] == OUTSIDER
    again = client.post(f"{BASE}{world.t.pk}/register/", {}, content_type="application/json")
    assert again.status_code == 409 and again.json()["error"]["code"] == "already_registered"
    me = client.get(f"{BASE}{world.t.pk}/me/").json()
    assert me["roles"] == ["player"] and me["entries"] == [r.json()["id"]]
    draft = services.tournament_create(owner=world.users[OWNER], name="D", format_slug="hkk")
    closed = client.post(f"{BASE}{draft.pk}/register/", {}, content_type="application/json")
    assert closed.status_code == 404  # a draft is not visible to outsiders


def test_me_lists_roles_and_own_matches():
    world = build(RUN)
    me = client_for(world.users[PLAYER]).get(f"{BASE}{world.t.pk}/me/").json()
    assert me["roles"] == ["player"] and me["entries"] == [world.entry.pk]
    assert [m["id"] for m in me["matches"]] == [world.match.pk]
    owner = client_for(world.users[OWNER]).get(f"{BASE}{world.t.pk}/me/").json()
    assert owner["roles"] == ["owner", "organiser", "judge"] and owner["matches"] == []
    judge = client_for(world.users[JUDGE]).get(f"{BASE}{world.t.pk}/me/").json()
    assert judge["roles"] == ["judge"]


def test_schema_lists_the_role_endpoints():
    paths = Client().get("/api/schema/?format=json").json()["paths"]
    t = "/api/tournaments/{tournament_id}/"
    expected = {
        t + "register/": "post",
        t + "entries/{entry_id}/decks/": "get",
        t + "staff/": "post",
        t + "staff/{user_id}/": "delete",
        t + "matches/{match_id}/reports/": "post",
        t + "reports/{report_id}/confirm/": "post",
        t + "disputes/": "get",
        t + "rounds/{number}/deck-checks/": "post",
        t + "rounds/{number}/deck-checks/pick/": "post",
        t + "deck-checks/{check_id}/record/": "post",
        t + "me/": "get",
    }
    for path, method in expected.items():
        assert path in paths and method in paths[path], path
        assert "403" in paths[path][method]["responses"], path
