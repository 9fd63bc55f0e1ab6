"""Nobody judges a match they play in; the organisers' override notes are for the staff only.

A judge of the event who also plays in it (registered before being appointed) may record and
correct every other table, but not their own: not its games, slip, die rolls, report
confirmation or table time, through the API, the pages or the services. As a player they still
report their own result.
"""

from __future__ import annotations

import pytest
from django.db.models import Q
from django.test import Client

from hkk_tournament.errors import PermissionDenied
from tests.api.tournaments.helpers import url
from tests.factories import UserFactory, make_tournament
from tournaments import services
from tournaments.models import Entry, Game, StaffRole
from tournaments.permissions import SYSTEM, can_judge_match, plays_in_match

pytestmark = pytest.mark.django_db

J = "application/json"
NOTE = "Elveszett a pakli, a szervező engedte"


@pytest.fixture
def event(owner):
    """A running event of four signed-up players, one of them also a judge; round 1 published."""
    t, _ = make_tournament(entries=0, decks=False, owner=owner)
    users = [UserFactory(username=f"jatekos{i}") for i in range(3)]
    judge = UserFactory(username="biro")
    for user in users:
        entry = services.entry_self_register(tournament=t, user=user)
        services.entry_override_deck(entry=entry, reason="Késve érkezett lista", actor=owner)
    own = services.entry_self_register(tournament=t, user=judge)
    services.entry_override_deck(entry=own, reason=NOTE, actor=owner)
    services.staff_appoint(tournament=t, user=judge, role=StaffRole.Role.JUDGE, actor=owner)
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t, seed=7)
    )
    mine = rnd.matches.get(Q(entry_a=own) | Q(entry_b=own))
    other = rnd.matches.exclude(pk=mine.pk).get()
    client = Client()
    client.force_login(judge)
    return {"t": t, "round": rnd, "judge": judge, "own": own, "mine": mine, "other": other,
            "client": client}  # fmt: skip


def _user_of(entry_id: int):
    return Entry.objects.get(pk=entry_id).members.get().player.user


def _code(response) -> str:
    return response.json()["error"]["code"]


def test_the_predicate(event, owner):
    judge, mine, other = event["judge"], event["mine"], event["other"]
    assert plays_in_match(judge, mine) and not plays_in_match(judge, other)
    assert not can_judge_match(judge, mine) and can_judge_match(judge, other)
    assert can_judge_match(owner, mine)


def test_the_api_refuses_every_judge_action_on_their_own_match(event):
    t, client, mine, other = event["t"], event["client"], event["mine"], event["other"]
    a = mine.entry_a_id
    refused = {
        "die roll": client.post(url(t, f"matches/{mine.pk}/die-roll/"), {"winner": a}, J),
        "re-roll": client.post(url(t, f"matches/{mine.pk}/reroll-agreement/"), {"agreed": True}, J),
        "game": client.post(
            url(t, f"matches/{mine.pk}/games/"), {"number": 1, "winner": a, "first": a}, J
        ),
        "game by table": client.post(
            url(t, f"rounds/1/tables/{mine.table}/games/"),
            {"number": 1, "winner": a, "first": a},
            J,
        ),
        "slip": client.post(
            url(t, f"matches/{mine.pk}/result/"), {"result": "2-0-0", "die_roll_winner": a}, J
        ),
        "table time": client.post(
            url(t, "rounds/1/clock/"), {"action": "extend", "minutes": 5, "table": mine.table}, J
        ),
    }
    assert {name: r.status_code for name, r in refused.items()} == dict.fromkeys(refused, 403)
    assert {_code(r) for r in refused.values()} == {"own_match"}
    assert not Game.objects.filter(match=mine).exists()
    # Every other table is theirs to judge.
    b = other.entry_a_id
    slip = {"result": "2-0-0", "die_roll_winner": b}
    assert client.post(url(t, f"matches/{other.pk}/result/"), slip, J).status_code == 201
    extend = {"action": "extend", "minutes": 5, "table": other.table}
    assert client.post(url(t, "rounds/1/clock/"), extend, J).status_code == 200


def test_a_judge_reports_their_own_result_as_a_player_but_cannot_confirm_it(event, owner):
    t, client, mine, own = event["t"], event["client"], event["mine"], event["own"]
    a, b = mine.entry_a_id, mine.entry_b_id
    games = [
        {"number": 1, "winner": a, "first": a, "waived": False},
        {"number": 2, "winner": a, "first": b, "waived": False},
    ]
    opponent_entry = b if own.pk == a else a
    opponent = services.result_report_submit(
        match=mine, entry=opponent_entry, actor=_user_of(opponent_entry), games=games
    )
    confirm = client.post(url(t, f"reports/{opponent.pk}/confirm/"), content_type=J)
    assert confirm.status_code == 403 and _code(confirm) == "own_match"
    assert not Game.objects.filter(match=mine).exists()
    # As a player: the same games reported by both sides are recorded.
    reported = client.post(url(t, f"matches/{mine.pk}/reports/"), {"games": games}, J)
    assert reported.status_code == 201, reported.content
    assert Game.objects.filter(match=mine).count() == 2


def test_the_services_refuse_the_judge_of_their_own_match(event, owner):
    judge, mine = event["judge"], event["mine"]
    with pytest.raises(PermissionDenied) as refused:
        services.match_result_record(
            match=mine, result="2-0-0", die_roll_winner=mine.entry_a_id, actor=judge
        )
    assert refused.value.code == "own_match" and refused.value.params == {"table": mine.table}
    services.match_result_record(
        match=mine, result="2-0-0", die_roll_winner=mine.entry_a_id, actor=owner
    )
    assert Game.objects.filter(match=mine).count() == 2


def test_the_pages_refuse_their_own_table_and_offer_no_result_buttons(event):
    t, client, mine, other = event["t"], event["client"], event["mine"], event["other"]
    screen = client.get(f"/tournaments/{t.pk}/rounds/1/tables/{mine.table}/")
    assert screen.status_code == 403
    assert client.get(f"/tournaments/{t.pk}/rounds/1/tables/{other.table}/").status_code == 200
    slip = client.post(
        f"/tournaments/{t.pk}/rounds/1/tables/{mine.table}/result/",
        {"result": "2-0-0", "die_roll_winner": mine.entry_a_id},
    )
    # The service's refusal reaches the error page (403), not a message on a redirect.
    assert slip.status_code == 403 and not Game.objects.filter(match=mine).exists()
    html = client.get(f"/tournaments/{t.pk}/rounds/1/").content.decode()
    assert f'data-testid="own-table-{mine.table}"' in html
    assert f'data-testid="result-{mine.table}-' not in html
    assert f'data-testid="result-{other.table}-' in html


def test_override_notes_are_for_the_staff_only(event, owner):
    t = event["t"]
    player = Client()
    player.force_login(_user_of(event["other"].entry_a_id))
    organiser = Client()
    organiser.force_login(owner)
    readers = {"anonymous": Client(), "player": player}
    staff = {"organiser": organiser, "judge": event["client"]}
    for name, client in {**readers, **staff}.items():
        rows = client.get(url(t, "entries/")).json()
        notes = {row["override_reason"] for row in rows if row["deck_status"] == "override"}
        page = client.get(f"/tournaments/{t.pk}/").content.decode()
        if name in staff:
            assert NOTE in notes and NOTE in page, name
        else:
            assert notes == {""} and NOTE not in page, name
