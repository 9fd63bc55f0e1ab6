"""A real Celery worker consuming from Redis pairs a round (issue: "Celery … on a real
Redis-backed worker when CELERY_BROKER_URL is set").

Run with::

    CELERY_WORKER_TEST=1 CELERY_BROKER_URL=redis://127.0.0.1:6379/0 \
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/<db> .venv/bin/pytest -m celery_worker \
    tests/tournaments/test_celery_worker.py

The test starts a worker thread in this process (``celery.contrib.testing.worker.start_worker``,
solo pool) against the real broker, so the worker sees pytest's test database; the data is
committed (``transaction=True``) so the worker's own connection can read it. The task goes
through Redis both ways: ``.delay()`` publishes it, the worker consumes it, and the result comes
back through the Redis result backend.
"""

from __future__ import annotations

import os
import uuid

import pytest
from celery.contrib.testing.worker import start_worker
from celery.result import EagerResult

from hkk_tournament.celery import app
from tests.factories import make_tournament
from tournaments import services
from tournaments.models import Round, StandingsSnapshot
from tournaments.tasks import round_pair_next_task, standings_recompute_task

BROKER = os.environ.get("CELERY_BROKER_URL", "")

pytestmark = [
    pytest.mark.celery_worker,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        os.environ.get("CELERY_WORKER_TEST") != "1" or not BROKER,
        reason="set CELERY_WORKER_TEST=1 and CELERY_BROKER_URL (a running Redis) to run",
    ),
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
    t = services.tournament_start(tournament=t)

    result = round_pair_next_task.delay(t.pk)
    assert not isinstance(result, EagerResult)  # published to the broker, not run eagerly
    out = result.get(timeout=60)
    assert out["ok"] is True and out["number"] == 1
    rnd = Round.objects.get(tournament=t)
    assert rnd.pk == out["round"] and rnd.matches.count() == 3  # two tables and a bye

    again = round_pair_next_task.delay(t.pk).get(timeout=60)
    assert again["ok"] is False and again["code"] == "round_in_progress"

    services.round_publish(round=rnd)  # a draft round counts nothing, not even its bye
    summary = standings_recompute_task.delay(t.pk).get(timeout=60)
    assert summary["rows"] == 5
    snap = StandingsSnapshot.objects.get(tournament=t)
    bye = rnd.matches.get(entry_b__isnull=True)
    assert snap.rows[0]["entry"] == bye.entry_a_id and snap.rows[0]["match_points"] == 3
