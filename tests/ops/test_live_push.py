"""Live push against the real thing: uvicorn processes (the production ASGI server) on free
loopback ports, the Redis channel layer (``TEST_REDIS_URL``, default
``redis://127.0.0.1:6379/0``), PostgreSQL or SQLite as configured. The services run in this
process and publish through Redis after their commit; the streams are read over HTTP.

Shown here: a published round reaches an open stream within 2 s, a player's own table first;
two app nodes both deliver; a reconnect with ``Last-Event-ID`` replays what was missed; the
private ``pairing`` reaches only that player, a private event's stream is refused to
strangers; the stream answers 204 under WSGI (the pages keep polling), and a request whose
layer is down still succeeds.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.db import connection
from django.db.models import Q
from django.test import Client

from tests.conftest import UNREACHABLE_REDIS_URL
from tests.factories import UserFactory, make_tournament
from tournaments import services
from tournaments.models import PushEvent, Round
from tournaments.permissions import SYSTEM

BASE_DIR = Path(django_settings.BASE_DIR)
UVICORN = Path(sys.executable).with_name("uvicorn")
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")

pytestmark = pytest.mark.django_db(transaction=True)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _database_url() -> str:
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    return f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def _start_node(tmp_path: Path) -> tuple[subprocess.Popen, int]:
    port = _free_port()
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "HKK_"))},
        "DATABASE_URL": _database_url(),
        "HKK_PUSH_REDIS_URL": REDIS_URL,
        "HKK_PUSH_KEEPALIVE_SECONDS": "1",
        "HKK_VAR_DIR": str(tmp_path),
        "DJANGO_LOG_LEVEL": "WARNING",
    }
    server = subprocess.Popen(
        [str(UVICORN), "hkk_tournament.asgi:application", "--port", str(port)]
        + ["--lifespan", "off", "--log-level", "warning"],
        cwd=BASE_DIR,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 90  # a loaded machine imports slowly
    while True:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz/")
            assert conn.getresponse().status == 200
            conn.close()
            return server, port
        except OSError:
            if time.monotonic() > deadline or server.poll() is not None:
                server.kill()
                raise AssertionError(server.communicate()[1]) from None
            time.sleep(0.2)


@pytest.fixture
def nodes(tmp_path, settings) -> Iterator[list[int]]:
    """Two uvicorn app nodes on the Redis layer (this process publishes to the same Redis)."""
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL], "prefix": "hkk"},
        }
    }
    started = [_start_node(tmp_path / str(i)) for i in range(2)]
    yield [port for _, port in started]
    for server, _ in started:
        server.send_signal(signal.SIGTERM)
        try:
            server.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()


class Stream:
    """One open event stream read frame by frame (``id``, ``event``, ``data`` as JSON)."""

    def __init__(self, port: int, path: str, **headers: str) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        self.conn.request("GET", path, headers=headers)
        self.response = self.conn.getresponse()
        self.status = self.response.status

    def next(self, timeout: float = 5.0) -> dict | None:
        """The next event (keep-alive comments skipped); ``None`` when none came in time."""
        deadline = time.monotonic() + timeout
        frame: dict = {}
        while time.monotonic() < deadline:
            line = self.response.fp.readline().decode().rstrip("\n")
            if not line:
                if "event" in frame:
                    return frame
                frame = {}
                continue
            key, _, value = line.partition(": ")
            if key == "data":
                frame[key] = json.loads(value)
            elif key in ("id", "event"):
                frame[key] = value
        return None

    def until(self, kind: str, timeout: float = 5.0) -> tuple[dict, list[str]]:
        """Read up to the first ``kind`` event: (that event, the kinds read before it)."""
        seen: list[str] = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            frame = self.next(deadline - time.monotonic())
            if frame is None:
                break
            if frame["event"] == kind:
                return frame, seen
            seen.append(frame["event"])
        raise AssertionError(f"no {kind} event within {timeout} s (got {seen})")

    def close(self) -> None:
        self.conn.close()


def _session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


def _draft(entries: int = 4, **options) -> tuple[Round, list]:
    t, made = make_tournament(entries=entries, decks=False)
    if options:
        services.tournament_set_options(actor=SYSTEM, tournament=t, **options)
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    return services.round_pair_next(actor=SYSTEM, tournament=t, seed=7), made


def _own(entry, user) -> None:
    player = entry.members.get().player
    player.user = user
    player.save(update_fields=["user"])


def test_publish_reaches_both_nodes_within_two_seconds_own_table_first(nodes):
    rnd, made = _draft()
    alice = UserFactory()
    _own(made[0], alice)
    path = f"/tournaments/{rnd.tournament_id}/events/"
    public = Stream(nodes[0], path)
    player = Stream(nodes[1], path, Cookie=_session_cookie(alice))
    stranger = Stream(nodes[1], path, Cookie=_session_cookie(UserFactory()))
    assert (public.status, player.status, stranger.status) == (200, 200, 200)
    for s in (public, player, stranger):
        assert s.until("hello")[0]["data"] == {"id": 0}

    started = time.monotonic()
    services.round_publish(actor=SYSTEM, round=rnd)
    got, before = public.until("round", timeout=2.0)
    assert time.monotonic() - started < 2.0
    assert got["data"] == {"round": 1, "status": "published"} and before == []
    pairing, _ = player.until("pairing", timeout=2.0)
    assert time.monotonic() - started < 2.0
    match = rnd.matches.get(Q(entry_a=made[0]) | Q(entry_b=made[0]))
    assert pairing["data"]["table"] == match.table and pairing["data"]["round"] == 1
    assert player.until("round", timeout=2.0)[1] == []  # the own table came first
    # Nobody else receives that player's table.
    assert stranger.until("round", timeout=2.0)[1] == []

    # Clock changes and results reach the pages too.
    services.round_clock_start(actor=SYSTEM, round=rnd, minutes=50)
    assert public.until("clock", timeout=2.0)[0]["data"]["state"] == "running"
    services.round_clock_pause(actor=SYSTEM, round=rnd)
    assert public.until("clock", timeout=2.0)[0]["data"]["state"] == "paused"
    assert [player.until("clock")[0]["data"]["state"] for _ in range(2)] == ["running", "paused"]
    real = rnd.matches.filter(entry_b__isnull=False).order_by("table").first()
    services.match_result_record(
        actor=SYSTEM, match=real, result="2-0-0", die_roll_winner=real.entry_a_id
    )
    results = public.until("results", timeout=3.0)[0]["data"]["results"]
    assert [(r["table"], r["a"], r["b"], r["complete"]) for r in results] == [
        (real.table, 2, 0, True)
    ]
    for s in (public, player, stranger):
        s.close()


def test_reconnect_with_last_event_id_replays_missed_events(nodes):
    rnd, made = _draft()
    bob = UserFactory()
    _own(made[1], bob)
    path = f"/tournaments/{rnd.tournament_id}/events/"
    first = Stream(nodes[0], path, Cookie=_session_cookie(bob))
    last_id = first.until("hello")[0]["id"]
    first.close()  # the phone lost its connection …
    services.round_publish(actor=SYSTEM, round=rnd)  # … while the round was published
    services.round_clock_start(actor=SYSTEM, round=rnd)
    again = Stream(nodes[1], path, Cookie=_session_cookie(bob), **{"Last-Event-ID": last_id})
    kinds = [again.next()["event"] for _ in range(3)]
    assert kinds == ["pairing", "round", "clock"]
    again.close()
    # Up to date: a reconnect with the newest id replays nothing and stays open for live ones.
    newest = str(PushEvent.objects.order_by("-id").first().pk)
    quiet = Stream(nodes[0], path, **{"Last-Event-ID": newest})
    assert quiet.next(timeout=1.5) is None
    quiet.close()


def test_private_event_stream_only_for_its_people(nodes):
    rnd, made = _draft(is_public=False)
    carol = UserFactory()
    _own(made[2], carol)
    path = f"/tournaments/{rnd.tournament_id}/events/"
    assert Stream(nodes[0], path).status == 404  # anonymous
    assert Stream(nodes[0], path, Cookie=_session_cookie(UserFactory())).status == 404
    own = Stream(nodes[0], path, Cookie=_session_cookie(carol))
    assert own.status == 200
    own.until("hello")
    services.round_publish(actor=SYSTEM, round=rnd)
    assert own.until("pairing", timeout=2.0)[0]["data"]["round"] == 1
    own.close()


def test_wsgi_answers_no_content_so_pages_keep_polling(db):
    rnd, _ = _draft()
    response = Client().get(f"/tournaments/{rnd.tournament_id}/events/")
    assert response.status_code == 204


def test_layer_down_loses_only_the_live_delivery(settings):
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [{"address": UNREACHABLE_REDIS_URL, "socket_connect_timeout": 1}]},
        }
    }
    rnd, _ = _draft()
    services.round_publish(actor=SYSTEM, round=rnd)  # no error although Redis cannot be reached
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.PUBLISHED
    assert PushEvent.objects.filter(tournament_id=rnd.tournament_id, kind="round").exists()


def test_a_live_event_the_client_already_has_is_not_sent_again(monkeypatch):
    """A reconnected stream sends neither a live event its replay sent nor one at or below the
    client's ``Last-Event-ID`` that the hub hands over late (seen under load: the publish of a
    round reached a stream opened after it)."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from tournaments.pages import live_push

    class QuietHub:
        async def join(self, tournament_id, access):
            return None

        def leave(self, tournament_id, access):
            return None

    monkeypatch.setattr(live_push, "hub", lambda: QuietHub())
    monkeypatch.setattr(live_push, "_replay", lambda t, a, last: [(9, b"replayed 9")])

    async def run() -> list[bytes]:
        access = live_push.StreamAccess(staff=False, entries=frozenset())
        frames = live_push._frames(1, access, newest=9, last_id=7)
        out = [await frames.__anext__(), await frames.__anext__()]  # retry, the replay
        for item in ((6, b"old 6"), (9, b"again 9"), (10, b"new 10")):
            access.queue.put_nowait(item)
        out.append(await frames.__anext__())
        await frames.aclose()
        return out

    # A thread of its own: after the browser tests this thread may hold a running event loop,
    # where ``asyncio.run`` refuses to start.
    with ThreadPoolExecutor(1) as pool:
        out = pool.submit(asyncio.run, run()).result(timeout=10)
    assert out[1:] == [b"replayed 9", b"new 10"]
