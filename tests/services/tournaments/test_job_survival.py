"""Background jobs survive a worker killed mid-task and a broker that is down.

Both need the real services: Redis (``TEST_REDIS_URL``, default ``redis://127.0.0.1:6379/0``;
``CELERY_BROKER_URL`` wins when set; a Redis that is not running fails the test) and, for the
killed worker, PostgreSQL (the worker is a separate ``celery -A hkk_tournament worker``
process, so it must reach the test database). Run alone with::

    .venv/bin/pytest -m celery_worker tests/services/tournaments/test_job_survival.py
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.db import connection
from django.test import Client

from hkk_tournament.celery import app
from tests.factories import UserFactory, make_tournament
from tournaments import services
from tournaments.models import Round, StandingsSnapshot
from tournaments.permissions import SYSTEM
from tournaments.services import jobs

BROKER = os.environ.get("CELERY_BROKER_URL") or os.environ.get(
    "TEST_REDIS_URL", "redis://127.0.0.1:6379/0"
)
REPO = Path(__file__).resolve().parents[3]

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def private_queue():
    """Publish through the real broker to a queue of this test's own."""
    queue = f"hkk-survival-{uuid.uuid4().hex[:8]}"
    keys = ("task_always_eager", "broker_url", "result_backend", "task_default_queue")
    saved = {key: app.conf.get(key) for key in keys}
    app.conf.update(
        task_always_eager=False, broker_url=BROKER, result_backend=BROKER, task_default_queue=queue
    )
    _reset_connections()
    try:
        yield queue
    finally:
        app.conf.update(saved)
        _reset_connections()


def _reset_connections() -> None:
    """Forget the cached broker connections so the next publish uses ``app.conf.broker_url``."""
    app._pool = None  # type: ignore[attr-defined]
    app.amqp._producer_pool = None  # type: ignore[attr-defined]


def _database_url() -> str:
    s = connection.settings_dict
    return (
        f"postgres://{s['USER']}:{s['PASSWORD'] or ''}@{s['HOST'] or '127.0.0.1'}:"
        f"{s['PORT'] or 5432}/{s['NAME']}"
    )


def _start_worker(queue: str, gate: Path, at: str) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "CELERY_BROKER_URL": BROKER,
        "CELERY_RESULT_BACKEND": BROKER,
        "HKK_BROKER_VISIBILITY_TIMEOUT": "2",
        "HKK_BROKER_RESTORE_INTERVAL": "1",
        "HKK_TEST_GATE_DIR": str(gate),
        "HKK_TEST_GATE_AT": at,
    }
    cmd = [
        sys.executable, "-m", "celery", "-A", "hkk_tournament", "worker",
        "-I", "tests.services.tournaments.worker_gate", "-P", "solo", "-Q", queue,
        "--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "WARNING",
    ]  # fmt: skip
    log = (gate / "worker.log").open("ab")
    return subprocess.Popen(cmd, cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT)


def _runs(gate: Path) -> list[str]:
    path = gate / "runs"
    return path.read_text().split() if path.exists() else []


def _wait(predicate, seconds: float, what: str, gate: Path) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > deadline:
            log = (gate / "worker.log").read_text(errors="replace")[-3000:]
            raise AssertionError(f"{what} within {seconds} s; worker log:\n{log}")
        time.sleep(0.1)


@pytest.mark.postgres_only
@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="the worker subprocess must reach the test database (PostgreSQL)",
)
@pytest.mark.parametrize("at", ["prerun", "postrun"])
def test_worker_killed_mid_task_the_job_is_redelivered_and_pairs_once(private_queue, tmp_path, at):
    """``prerun``: killed before pairing; ``postrun``: killed after the round was committed but
    before the message was acknowledged. Either way a new worker gets the job again and the
    event ends with exactly one round 1."""
    t, _ = make_tournament(entries=6, decks=False)
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    first = _start_worker(private_queue, tmp_path, at)
    try:
        services.round_pair_next_async(
            actor=SYSTEM, tournament=t
        )  # published: the job carries number=1
        started = "the first worker did not start the task"
        _wait(lambda: at in _runs(tmp_path), 60, started, tmp_path)
        if at == "postrun":
            assert Round.objects.filter(tournament=t, number=1).count() == 1
        else:
            assert not Round.objects.filter(tournament=t).exists()
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=10)
    finally:
        if first.poll() is None:
            first.kill()
    (tmp_path / "open").touch()
    killed_runs = _runs(tmp_path).count("prerun")

    second = _start_worker(private_queue, tmp_path, at)
    try:
        _wait(
            lambda: _runs(tmp_path).count("postrun") >= (2 if at == "postrun" else 1),
            90,
            "the job was not redelivered to the new worker",
            tmp_path,
        )
        assert _runs(tmp_path).count("prerun") == killed_runs + 1
        rounds = list(Round.objects.filter(tournament=t))
        assert [r.number for r in rounds] == [1]
        assert rounds[0].matches.count() == 3
        # The same job delivered once more (e.g. a second redelivery) changes nothing.
        again = app.tasks[jobs.ROUND_PAIR_NEXT].apply_async(
            kwargs={"tournament_id": t.pk, "requested_by_id": None, "number": 1}
        )
        out = again.get(timeout=60)
        assert out == {"ok": True, "round": rounds[0].pk, "number": 1}
        assert Round.objects.filter(tournament=t).count() == 1
    finally:
        second.send_signal(signal.SIGTERM)
        try:
            second.wait(timeout=20)
        except subprocess.TimeoutExpired:
            second.kill()


def test_broker_refusing_connections_the_game_is_recorded_and_standings_refreshed(caplog):
    """With the broker down (nothing listens on port 1) recording a game still answers 2xx in
    under 2 s; the standings job runs in-process and the cached standings are refreshed."""
    dead = "redis://127.0.0.1:1/0"
    keys = ("task_always_eager", "broker_url", "result_backend")
    saved = {key: app.conf.get(key) for key in keys}
    app.conf.update(task_always_eager=False, broker_url=dead, result_backend=dead)
    _reset_connections()
    try:
        owner = UserFactory()
        t, _ = make_tournament(entries=2, decks=False, owner=owner)
        t = services.tournament_start(actor=SYSTEM, tournament=t)
        rnd = services.round_publish(
            actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t, seed=1)
        )
        match = rnd.matches.get()
        a, b = match.entry_a_id, match.entry_b_id
        client = Client()
        client.force_login(owner)
        base = f"/api/tournaments/{t.pk}/matches/{match.pk}/"
        started = time.monotonic()
        roll = client.post(base + "die-roll/", {"winner": a}, content_type="application/json")
        assert roll.status_code < 300, roll.content
        for number, first in ((1, a), (2, b), (3, a)):
            started = time.monotonic()
            r = client.post(
                base + "games/",
                {"number": number, "winner": a, "first": first},
                content_type="application/json",
            )
            elapsed = time.monotonic() - started
            assert r.status_code == 201, r.content
            assert elapsed < 2, f"recording a game took {elapsed:.2f} s with the broker down"
        snap = StandingsSnapshot.objects.get(tournament=t)
        points = {row["entry"]: row["match_points"] for row in snap.rows}
        assert points == {a: 3, b: 0}, snap.rows
        assert any("broker unavailable" in rec.getMessage() for rec in caplog.records)
    finally:
        app.conf.update(saved)
        _reset_connections()
