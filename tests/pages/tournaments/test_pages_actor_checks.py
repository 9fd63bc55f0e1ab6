"""The pages answer the services' refusals once (the error middleware): a 403 page with the
translated message (Hungarian by default), not a flash message on a redirect."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.api.tournaments.permission_world import (
    JUDGE,
    OTHER_JUDGE,
    PLAYER,
    RUN,
    build,
    client_for,
    link,
)
from tournaments.models import Entry

pytestmark = pytest.mark.django_db


def _clock(w) -> str:
    return reverse("tournaments:round-clock", args=[w.t.pk, 1])


def test_a_judge_starting_the_round_clock_gets_the_403_page():
    w = build(RUN)
    response = client_for(w.users[JUDGE]).post(_clock(w), {"action": "start"})
    assert response.status_code == 403
    assert "Ezt a versenyt csak a szervezői módosíthatják." in response.content.decode()


def test_a_judge_extending_their_own_table_gets_the_403_page():
    w = build(RUN)
    link(Entry.objects.get(pk=w.b), w.users[JUDGE])
    response = client_for(w.users[JUDGE]).post(
        _clock(w), {"action": "extend", "minutes": 3, "table": w.match.table}
    )
    assert response.status_code == 403
    assert "asztalnál te játszol" in response.content.decode()


@pytest.mark.parametrize("role", [PLAYER, OTHER_JUDGE])
def test_a_player_or_another_events_judge_recording_a_result_gets_the_403_page(role):
    w = build(RUN)
    other = w.match.round.matches.exclude(pk=w.match.pk).order_by("table").first()
    url = reverse("tournaments:match-result", args=[w.t.pk, 1, other.table])
    response = client_for(w.users[role]).post(url, {"result": "2-0"})
    assert response.status_code == 403
    assert "Ezt csak a verseny versenybírói tehetik meg." in response.content.decode()


def test_anonymous_is_sent_to_log_in():
    w = build(RUN)
    response = client_for(None).post(_clock(w), {"action": "start"})
    assert response.status_code == 302
    assert "login" in response["Location"]
