"""The API answers the services' refusals once (the DRF exception handler): 403 with the
translated message (Hungarian by default) for the cases the services refuse in
``tests/services/tournaments/test_actor_checks.py``."""

from __future__ import annotations

import pytest

from tests.api.tournaments.helpers import BASE
from tests.api.tournaments.permission_world import (
    JUDGE,
    OTHER_JUDGE,
    PLAYER,
    RUN,
    build,
    client_for,
    hkk_games,
    link,
)
from tournaments.models import Entry

pytestmark = pytest.mark.django_db


def _error(response, status: int) -> dict:
    assert response.status_code == status, response.content
    return response.json()["error"]


def test_a_player_reporting_another_tables_result_gets_403_in_hungarian():
    w = build(RUN)
    other = w.match.round.matches.exclude(pk=w.match.pk).order_by("table").first()
    response = client_for(w.users[PLAYER]).post(
        f"{BASE}{w.t.pk}/matches/{other.pk}/reports/",
        {"games": hkk_games(other)},
        content_type="application/json",
    )
    error = _error(response, 403)
    assert error["code"] == "permission_denied"
    assert error["message"] == "Csak a saját mérkőzéseid eredményét jelentheted be."


def test_a_judge_of_another_event_gets_403_in_hungarian():
    w = build(RUN)
    response = client_for(w.users[OTHER_JUDGE]).post(
        f"{BASE}{w.t.pk}/matches/{w.match.pk}/result/",
        {"result": "2-0"},
        content_type="application/json",
    )
    error = _error(response, 403)
    assert error["message"] == "Ezt csak a verseny versenybírói tehetik meg."


def test_anonymous_gets_refused():
    w = build(RUN)
    response = client_for(None).post(
        f"{BASE}{w.t.pk}/rounds/1/clock/", {"action": "start"}, content_type="application/json"
    )
    assert response.status_code in (401, 403)


def test_the_clock_decision_comes_from_the_service():
    """A judge: the whole round 403 (organisers only), their own table 403 ``own_match``."""
    w = build(RUN)
    judge = client_for(w.users[JUDGE])
    clock = f"{BASE}{w.t.pk}/rounds/1/clock/"
    error = _error(judge.post(clock, {"action": "start"}, content_type="application/json"), 403)
    assert error["message"] == "Ezt a versenyt csak a szervezői módosíthatják."
    link(Entry.objects.get(pk=w.b), w.users[JUDGE])
    body = {"action": "extend", "minutes": 3, "table": w.match.table}
    error = _error(judge.post(clock, body, content_type="application/json"), 403)
    assert error["code"] == "own_match"
    assert error["message"].startswith(f"A(z) {w.match.table}. asztalnál te játszol")
