"""CPU priority of the pools (``hkk_tournament.priority``): ``GUNICORN_NICE`` reaches every
Gunicorn worker through the master's ``on_starting`` hook, ``HKK_WORKER_NICE`` the Celery
worker through ``worker_init``; invalid values stop the start with a message naming them.
Every niceness is changed in a child process, never in the test runner."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from hkk_tournament.priority import NicenessError, parse_niceness
from tests.ops.test_gunicorn import BASE_DIR, GUNICORN, _environment, _free_port, _start, _stop


@pytest.mark.parametrize(
    ("text", "expected"), [(None, None), ("", None), ("  ", None), ("10", 10), (" -3 ", -3)]
)
def test_a_niceness_is_an_integer_or_nothing(text, expected):
    assert parse_niceness("GUNICORN_NICE", text) == expected


@pytest.mark.parametrize(
    ("text", "words"),
    [("abc", "is not a niceness"), ("1.5", "is not a niceness"), ("20", "out of range")],
)
def test_an_invalid_niceness_is_refused_with_its_name(text, words):
    with pytest.raises(NicenessError) as refused:
        parse_niceness("GUNICORN_NICE", text)
    assert "GUNICORN_NICE" in str(refused.value) and words in str(refused.value)


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    parent = int(f.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
            if parent == pid:
                found.append(int(entry))
    return found


def test_every_gunicorn_worker_runs_at_the_pools_niceness(tmp_path):
    port = _free_port()
    mine = os.getpriority(os.PRIO_PROCESS, 0)
    wanted = min(mine + 7, 19)
    env = _environment(tmp_path, port, GUNICORN_NICE=str(wanted), WEB_CONCURRENCY="2")
    server = _start(env, f"http://127.0.0.1:{port}")
    try:
        deadline = time.monotonic() + 10
        while len(workers := _children(server.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(workers) == 2
        assert os.getpriority(os.PRIO_PROCESS, server.pid) == wanted
        assert [os.getpriority(os.PRIO_PROCESS, w) for w in workers] == [wanted, wanted]
    finally:
        _, stderr = _stop(server)
    assert f"niceness {wanted} (GUNICORN_NICE)" in stderr
    assert os.getpriority(os.PRIO_PROCESS, 0) == mine


def test_gunicorn_refuses_to_start_with_an_invalid_niceness(tmp_path):
    env = _environment(tmp_path, _free_port(), GUNICORN_NICE="ten")
    started = subprocess.run(
        [str(GUNICORN), "--config", str(BASE_DIR / "gunicorn.conf.py")],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert started.returncode != 0
    assert "GUNICORN_NICE='ten' is not a niceness" in started.stderr


def _worker_init(value: str) -> subprocess.CompletedProcess[str]:
    """Send Celery's ``worker_init`` in a fresh process with ``HKK_WORKER_NICE=value``; it
    prints its niceness afterwards."""
    code = (
        "import os; from celery.signals import worker_init; import hkk_tournament.celery; "
        "worker_init.send(sender=None); print(os.getpriority(os.PRIO_PROCESS, 0))"
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=BASE_DIR,
        env={**os.environ, "HKK_WORKER_NICE": value},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_celery_worker_runs_at_its_niceness():
    wanted = min(os.getpriority(os.PRIO_PROCESS, 0) + 6, 19)
    started = _worker_init(str(wanted))
    assert started.returncode == 0, started.stderr
    assert started.stdout.split() == [str(wanted)]


def test_the_celery_worker_stops_on_an_invalid_niceness():
    started = _worker_init("-99")
    assert started.returncode != 0
    assert "celery worker: HKK_WORKER_NICE=-99 is out of range" in started.stderr


_SESSION_CHILD = """
import os, sys
from pathlib import Path
from hkk_tournament.priority import apply_session_niceness
target = Path(sys.argv[1])
if sys.argv[2] == "leader":
    os.setsid()
print(apply_session_niceness(10, target))
"""


@pytest.mark.parametrize(("role", "written"), [("leader", True), ("member", False)])
def test_a_pool_leading_its_own_session_gives_its_niceness_to_the_sessions_autogroup(
    tmp_path, role, written
):
    """With autogroups the kernel shares the CPU between sessions first: a pool alone in its
    session (``setsid``) sets its autogroup's niceness too; a pool started beside others in
    one session leaves the shared autogroup alone (a file stands in for /proc/self/autogroup;
    the child runs in its own process, never the test runner)."""
    target = tmp_path / "autogroup"
    target.write_text("/autogroup-1 nice 0\n")
    done = subprocess.run(
        [sys.executable, "-c", _SESSION_CHILD, str(target), role],
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(written)
    assert target.read_text() == ("10\n" if written else "/autogroup-1 nice 0\n")


def test_an_autogroup_that_cannot_be_set_is_left_alone(tmp_path):
    """No autogroup file (another system, or a refusal): a session's leader sets nothing and
    nothing is raised."""
    missing = tmp_path / "no" / "autogroup"
    done = subprocess.run(
        [sys.executable, "-c", _SESSION_CHILD, str(missing), "leader"],
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False" and not missing.exists()
