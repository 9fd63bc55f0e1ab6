"""A real Celery worker consuming from Redis pairs a round.

Part of the normal suite: it needs the Redis that every machine of this project runs
(``TEST_REDIS_URL``, default ``redis://127.0.0.1:6379/0``; ``CELERY_BROKER_URL`` wins when set).
A Redis that is not running fails the test, it never skips. Run alone with::

    .venv/bin/pytest -m celery_worker tests/services/tournaments/test_celery_worker.py

The test starts a worker thread in this process (``celery.contrib.testing.worker.start_worker``,
solo pool) against the real broker, so the worker sees pytest's test database; the data is
committed (``transaction=True``) so the worker's own connection can read it. The task goes
through Redis both ways: ``.delay()`` publishes it, the worker consumes it, and the result comes
back through the Redis result backend.
"""

from __future__ import annotations

import os
import time
import uuid

import pytest
from celery.contrib.testing.worker import start_worker
from celery.result import EagerResult

from hkk_tournament.celery import app
from tests.factories import make_tournament
from tournaments import services
from tournaments.models import Round, StandingsSnapshot
from tournaments.permissions import SYSTEM
from tournaments.tasks import round_pair_next_task, standings_recompute_task

BROKER = os.environ.get("CELERY_BROKER_URL") or os.environ.get(
    "TEST_REDIS_URL", "redis://127.0.0.1:6379/0"
)

pytestmark = [
    pytest.mark.celery_worker,
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def redis_worker():
    """A worker thread on the real broker, with a private queue so no other consumer of the
    same Redis steals the task."""
    queue = f"hkk-test-{uuid.uuid4().hex[:8]}"
    saved = {
        key: app.conf.get(key)
        for key in ("task_always_eager", "broker_url", "result_backend", "task_default_queue")
    }
    app.conf.update(
        task_always_eager=False,
        broker_url=BROKER,
        result_backend=os.environ.get("CELERY_RESULT_BACKEND", BROKER),
        task_default_queue=queue,
    )
    try:
        with start_worker(
            app, pool="solo", perform_ping_check=False, queues=[queue], shutdown_timeout=20
        ):
            yield queue
    finally:
        app.conf.update(saved)


def test_real_worker_pairs_a_round_and_recomputes_standings(redis_worker):
    t, _ = make_tournament(entries=5, decks=False)
    t = services.tournament_start(actor=SYSTEM, tournament=t)

    result = round_pair_next_task.delay(t.pk)
    assert not isinstance(result, EagerResult)  # published to the broker, not run eagerly
    out = result.get(timeout=60)
    assert out["ok"] is True and out["number"] == 1
    rnd = Round.objects.get(tournament=t)
    assert rnd.pk == out["round"] and rnd.matches.count() == 3  # two tables and a bye

    again = round_pair_next_task.delay(t.pk).get(timeout=60)
    assert again["ok"] is False and again["code"] == "round_in_progress"

    services.round_publish(
        actor=SYSTEM, round=rnd
    )  # a draft round counts nothing, not even its bye
    summary = standings_recompute_task.delay(t.pk).get(timeout=60)
    assert summary["rows"] == 5
    snap = StandingsSnapshot.objects.get(tournament=t)
    bye = rnd.matches.get(entry_b__isnull=True)
    assert snap.rows[0]["entry"] == bye.entry_a_id and snap.rows[0]["match_points"] == 3


def test_services_enqueue_through_the_broker_by_task_name(redis_worker):
    """``round_pair_next_async`` goes through ``tournaments.services.jobs``: after the commit the
    job is published to Redis by its registered name and the worker pairs the round."""
    t, _ = make_tournament(entries=4, decks=False)
    t = services.tournament_start(actor=SYSTEM, tournament=t)

    services.round_pair_next_async(actor=SYSTEM, tournament=t)  # autocommit: sent at once

    deadline = time.monotonic() + 60
    while not Round.objects.filter(tournament=t).exists():
        assert time.monotonic() < deadline, "the worker did not pair the round within 60 s"
        time.sleep(0.2)
    assert Round.objects.get(tournament=t).matches.count() == 2
