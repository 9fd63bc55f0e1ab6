"""The services write a live event where the state the pages show changes, and send it only
after the commit (``tournaments.services.push``)."""

from __future__ import annotations

import pytest
from django.db import transaction

from tests.factories import make_tournament
from tournaments import services
from tournaments.models import PushEvent
from tournaments.permissions import SYSTEM
from tournaments.services import push

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch) -> list[dict]:
    messages: list[dict] = []
    monkeypatch.setattr(push, "_send", messages.append)
    return messages


def _draft():
    t, made = make_tournament(entries=5, decks=False)
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    return services.round_pair_next(actor=SYSTEM, tournament=t, seed=3), made


def test_publish_sends_the_round_and_every_entrys_own_table_after_commit(
    sent, django_capture_on_commit_callbacks
):
    rnd, made = _draft()
    with django_capture_on_commit_callbacks(execute=True):
        services.round_publish(actor=SYSTEM, round=rnd)
        assert sent == []  # nothing before the commit
    assert [m["kind"] for m in sent] == ["round"]
    tables = sent[0]["tables"]
    assert set(tables) == {str(e.pk) for e in made}  # the bye's entry too
    for m in rnd.matches.all():
        assert tables[str(m.entry_a_id)]["table"] == m.table
        if m.entry_b_id is not None:
            assert tables[str(m.entry_b_id)]["opponent"] == m.entry_a.name
        else:
            assert tables[str(m.entry_a_id)]["opponent"] is None
    assert PushEvent.objects.get(pk=sent[0]["id"]).kind == "round"


def test_clock_results_and_standings_are_pushed(sent, django_capture_on_commit_callbacks):
    rnd, _ = _draft()
    with django_capture_on_commit_callbacks(execute=True):
        rnd = services.round_publish(actor=SYSTEM, round=rnd)
        services.round_clock_start(actor=SYSTEM, round=rnd, minutes=30)
        services.round_clock_extend(actor=SYSTEM, round=rnd, minutes=5)
        m = rnd.matches.filter(entry_b__isnull=False).order_by("table").first()
        services.match_result_record(
            actor=SYSTEM, match=m, result="2-1-0", die_roll_winner=m.entry_a_id
        )
        services.standings_refresh(tournament_id=rnd.tournament_id)
    kinds = [x["kind"] for x in sent]
    assert kinds[:3] == ["round", "clock", "clock"] and "results" in kinds
    assert kinds[-1] == "standings"
    clock = sent[2]["data"]
    assert (clock["state"], clock["table"]) == ("running", None)
    assert clock["seconds_left"] > 30 * 60
    result = next(x for x in sent if x["kind"] == "results")["data"]["results"][0]
    assert (result["table"], result["a"], result["b"]) == (m.table, 2, 1)


def test_a_rolled_back_change_sends_nothing(sent, django_capture_on_commit_callbacks):
    rnd, _ = _draft()
    with (
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        services.round_publish(actor=SYSTEM, round=rnd)
        raise RuntimeError
    assert sent == [] and not PushEvent.objects.exists()
