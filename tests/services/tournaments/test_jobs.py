"""``tournaments.services.jobs``: jobs are sent on commit, by task name, once per transaction."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection, transaction
from django.utils import timezone

from hkk_tournament.celery import app
from tests.factories import make_tournament
from tournaments.models import StandingsSnapshot
from tournaments.permissions import SYSTEM
from tournaments.services import jobs, standings_claim_recompute, standings_refresh
from tournaments.services.standings import RECOMPUTE_STALE_SECONDS

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, Any]]]:
    """The jobs sent, as ``(task name, kwargs)``, instead of running them."""
    calls: list[tuple[str, dict[str, Any]]] = []
    for name in (jobs.STANDINGS_RECOMPUTE, jobs.ROUND_PAIR_NEXT):
        task = app.tasks[name]
        monkeypatch.setattr(
            task,
            "apply_async",
            lambda *a, _name=name, kwargs=None, **kw: calls.append((_name, kwargs)),
        )
    return calls


@pytest.fixture
def events() -> tuple[int, int]:
    """Two tournaments' ids (standings recomputes are claimed on their snapshot rows)."""
    return make_tournament(decks=False)[0].pk, make_tournament(decks=False)[0].pk


def test_tasks_are_registered_by_name():
    assert jobs.STANDINGS_RECOMPUTE in app.tasks
    assert jobs.ROUND_PAIR_NEXT in app.tasks


def test_nothing_is_sent_before_the_commit(sent, events, django_capture_on_commit_callbacks):
    t7, _t8 = events
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        jobs.enqueue_standings(t7)
    # The recompute's send, and the public state's token (the snapshot row was touched).
    assert sent == [] and callbacks
    for callback in callbacks:
        callback()
    assert sent == [(jobs.STANDINGS_RECOMPUTE, {"tournament_id": t7})]


def test_the_same_job_runs_once_per_transaction(sent, events, django_capture_on_commit_callbacks):
    t7, t8 = events
    with django_capture_on_commit_callbacks(execute=True):
        jobs.enqueue_standings(t7)
        jobs.enqueue_standings(t7)
        jobs.enqueue_standings(t8)
        jobs.enqueue_round_pair_next(t7, requested_by_id=None, number=2)
    assert sent == [
        (jobs.STANDINGS_RECOMPUTE, {"tournament_id": t7}),
        (jobs.STANDINGS_RECOMPUTE, {"tournament_id": t8}),
        (jobs.ROUND_PAIR_NEXT, {"tournament_id": t7, "requested_by_id": None, "number": 2}),
    ]
    standings_refresh(tournament_id=t7)  # the queued recompute ran
    with django_capture_on_commit_callbacks(execute=True):
        jobs.enqueue_standings(t7)  # the next transaction sends it again
    assert sent[-1] == (jobs.STANDINGS_RECOMPUTE, {"tournament_id": t7}) and len(sent) == 4


def test_a_pending_recompute_absorbs_later_results(
    sent, events, django_capture_on_commit_callbacks
):
    """A burst of 200 committed results queues one recompute while it is pending; once it
    starts (the mark is cleared before it reads), the next result queues the next one."""
    t7, _t8 = events
    for _ in range(200):
        with django_capture_on_commit_callbacks(execute=True):
            jobs.enqueue_standings(t7)
    assert sent == [(jobs.STANDINGS_RECOMPUTE, {"tournament_id": t7})]
    assert StandingsSnapshot.objects.get(tournament_id=t7).recompute_requested_at is not None
    snapshot = standings_refresh(tournament_id=t7)
    assert snapshot.recompute_requested_at is None and snapshot.version == 1
    with django_capture_on_commit_callbacks(execute=True):
        jobs.enqueue_standings(t7)
    assert len(sent) == 2
    assert standings_refresh(tournament_id=t7).version == 2


def test_the_claim_creates_the_row_then_sets_the_mark_once(events, django_assert_num_queries):
    """The first claim creates the snapshot row with the mark; a later one, the mark set, is
    refused in one statement on PostgreSQL (the ``UPDATE`` and the row's existence together);
    a stale mark is claimed again."""
    t7, _t8 = events
    StandingsSnapshot.objects.filter(tournament_id=t7).delete()
    assert standings_claim_recompute(tournament_id=t7) is True
    assert StandingsSnapshot.objects.get(tournament_id=t7).recompute_requested_at is not None
    with django_assert_num_queries(1 if connection.vendor == "postgresql" else 2):
        assert standings_claim_recompute(tournament_id=t7) is False
    stale = timezone.now() - timedelta(seconds=RECOMPUTE_STALE_SECONDS + 1)
    StandingsSnapshot.objects.filter(tournament_id=t7).update(recompute_requested_at=stale)
    assert standings_claim_recompute(tournament_id=t7) is True
    assert standings_claim_recompute(tournament_id=t7) is False


def test_a_finished_round_recomputes_at_once_even_while_one_is_pending(
    monkeypatch, events, django_capture_on_commit_callbacks
):
    """Results wait ``STANDINGS_DEBOUNCE_SECONDS``; a finished round (people wait for its
    standings) is sent without a countdown and without the claim, even while a debounced
    recompute is pending."""
    t7, _t8 = events
    calls: list[dict[str, Any]] = []
    task = app.tasks[jobs.STANDINGS_RECOMPUTE]
    monkeypatch.setattr(task, "apply_async", lambda *a, **kw: calls.append(kw))
    with django_capture_on_commit_callbacks(execute=True):
        jobs.enqueue_standings(t7)
    with django_capture_on_commit_callbacks(execute=True):
        jobs.enqueue_standings(t7)  # absorbed by the pending one
    with django_capture_on_commit_callbacks(execute=True):
        jobs.enqueue_standings(t7, at_once=True)
    assert [c.get("countdown") for c in calls] == [jobs.STANDINGS_DEBOUNCE_SECONDS, None]
    assert all(c["kwargs"] == {"tournament_id": t7} for c in calls)


def test_a_rolled_back_savepoint_does_not_swallow_the_job(
    sent, events, django_capture_on_commit_callbacks
):
    """A dry run in a savepoint that is rolled back (as result reports do) sends nothing, and the
    real write afterwards still sends its job."""
    t7, _t8 = events
    with django_capture_on_commit_callbacks(execute=True):
        with pytest.raises(RuntimeError), transaction.atomic():
            jobs.enqueue_standings(t7)
            raise RuntimeError("dry run")
        jobs.enqueue_standings(t7)
    assert sent == [(jobs.STANDINGS_RECOMPUTE, {"tournament_id": t7})]


def test_job_arguments_are_ids_and_flags_only():
    with pytest.raises(TypeError):
        jobs.enqueue(jobs.STANDINGS_RECOMPUTE, tournament_id=object())


def test_an_unreachable_broker_runs_the_job_in_process(monkeypatch, caplog):
    """The publish fails (kombu's OperationalError): the job runs here, the error is logged."""
    from kombu.exceptions import OperationalError

    task = app.tasks[jobs.STANDINGS_RECOMPUTE]
    ran: list[dict[str, Any]] = []

    def refuse(*args: Any, **kwargs: Any) -> None:
        assert kwargs["retry"] is False
        raise OperationalError("Error 111 connecting to 127.0.0.1:1. Connection refused.")

    def apply(*args: Any, kwargs: dict[str, Any], **_: Any) -> Any:
        ran.append(kwargs)
        return _Done()

    class _Done:
        def failed(self) -> bool:
            return False

    monkeypatch.setattr(task, "apply_async", refuse)
    monkeypatch.setattr(task, "apply", apply)
    assert jobs.send(jobs.STANDINGS_RECOMPUTE, {"tournament_id": 7}) == "in_process"
    assert ran == [{"tournament_id": 7}]
    assert "broker unavailable" in caplog.text


@pytest.mark.django_db
def test_pairing_with_a_round_number_is_idempotent():
    from tests.factories import make_tournament
    from tournaments import services
    from tournaments.models import Round

    t, _ = make_tournament(entries=4, decks=False)
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    first = services.round_pair_next(actor=SYSTEM, tournament=t, number=1)
    again = services.round_pair_next(actor=SYSTEM, tournament=t, number=1)
    assert again.pk == first.pk and Round.objects.filter(tournament=t).count() == 1
    out = (
        app.tasks[jobs.ROUND_PAIR_NEXT]
        .apply(kwargs={"tournament_id": t.pk, "requested_by_id": None, "number": 1})
        .get()
    )
    assert out == {"ok": True, "round": first.pk, "number": 1}
