"""The reverse proxy as shipped (``deploy/nginx/hkk-tournament.conf``, run by nginx through
``bench/proxy.py``'s :func:`start` in front of a live server): the micro-cache keeps exactly the
answers the app marks as shared (``X-Accel-Expires``, ``page_cache.mark_shared``) for one second,
one copy per language and encoding, answers 304 from them, never keeps a signed-in visitor's, a
token's or a pushed refetch's answer nor a page without the mark; writes and tokens reach the
staff pool with the headers the app trusts; the live streams go to the push server.

nginx comes from Debian's package (``make test`` installs it, as it installs Chromium): without
it these tests fail, they are not skipped."""

from __future__ import annotations

import gzip
import http.client
import importlib.util
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import ModuleType

import pytest
from django.conf import settings as django_settings
from django.test import Client

from hkk_tournament.web import fast_path
from tests.factories import make_tournament, publish_first_round
from tournaments import services
from tournaments.permissions import SYSTEM

BENCH_PROXY = Path(django_settings.BASE_DIR) / "bench" / "proxy.py"


def _proxy_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_proxy", BENCH_PROXY)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class _Recorder(ThreadingHTTPServer):
    """Stands in for the staff pool and the push server: answers 200 and keeps what it got."""

    daemon_threads = True

    def __init__(self) -> None:
        self.seen: list[tuple[str, str, dict[str, str]]] = []
        super().__init__(("127.0.0.1", 0), _RecordingHandler)


class _RecordingHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        server = self.server
        assert isinstance(server, _Recorder)
        headers = {k.lower(): v for k, v in self.headers.items()}
        server.seen.append((self.command, self.path, headers))
        body = b"recorded"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:  # http.server calls do_<METHOD>
        self._answer()

    def do_POST(self) -> None:
        self._answer()

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def proxy(live_server, tmp_path):
    """nginx with the shipped configuration: reads to the live server, writes and the live
    streams to a recorder. Yields ``(port, recorder)``."""
    recorder = _Recorder()
    thread = threading.Thread(target=recorder.serve_forever, daemon=True)
    thread.start()
    port = _free_port()
    process = _proxy_module().start(
        tmp_path,
        listen=port,
        public=int(live_server.url.rsplit(":", 1)[1]),
        staff=recorder.server_address[1],
        push=recorder.server_address[1],
    )
    try:
        yield port, recorder
    finally:
        process.terminate()
        process.wait(timeout=10)
        recorder.shutdown()


@pytest.fixture
def event(transactional_db):
    """A public event of 8 entries, round 1 published, standings computed (committed: the live
    server's thread reads them)."""
    t, _made = make_tournament(entries=8, decks=False)
    services.tournament_set_options(actor=SYSTEM, tournament=t, is_public=True)
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    publish_first_round(t)
    return t


def _get(port: int, path: str, method: str = "GET", body: bytes | None = None, **headers: str):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request(method, path, body=body, headers={"Accept-Language": "hu", **headers})
        response = conn.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        conn.close()


def test_a_shared_answer_is_kept_one_second_per_language_and_encoding(proxy, event):
    port, _ = proxy
    url = f"/tournaments/{event.pk}/live/"
    status, first, body = _get(port, url)
    assert (status, first["x-cache-status"]) == (200, "MISS")
    assert "x-accel-expires" not in first  # for the proxy only
    # Right away (the copy lives 1 to 2 s): the copy, and 304 from it for its tag.
    status, again, body_again = _get(port, url)
    status_304, headers, empty = _get(port, url, **{"If-None-Match": first["etag"]})
    assert (status, again["x-cache-status"], body_again) == (200, "HIT", body)
    assert again["etag"] == first["etag"]
    assert again["x-request-id"] != first["x-request-id"]  # each answer its own id
    assert (status_304, headers["x-cache-status"], empty) == (304, "HIT", b"")
    # Another language and the compressed copy are kept apart.
    status, english, english_body = _get(port, url, **{"Accept-Language": "en"})
    assert (status, english["x-cache-status"]) == (200, "MISS")
    assert b'<html lang="en"' in english_body and b'<html lang="hu"' in body
    status, packed, packed_body = _get(port, url, **{"Accept-Encoding": "gzip"})
    assert (status, packed["content-encoding"]) == (200, "gzip")
    assert gzip.decompress(packed_body) == body
    # Kept one second as nginx counts them, in whole seconds of its clock: 1 to 2 s.
    time.sleep(2.2)
    status, later, _ = _get(port, url)
    assert status == 200 and later["x-cache-status"] != "HIT"


def test_signed_in_token_and_pushed_refetch_skip_the_cache(proxy, event):
    port, recorder = proxy
    url = f"/tournaments/{event.pk}/standings/"
    assert _get(port, url)[1]["x-cache-status"] == "MISS"
    assert _get(port, url)[1]["x-cache-status"] == "HIT"
    for headers in ({"Cookie": "sessionid=abc"}, {"X-Live-Refresh": "push"}):
        for _ in range(2):
            status, got, _ = _get(port, url, **headers)
            assert (status, got["x-cache-status"]) == (200, "BYPASS")
    # An API token goes to the staff pool, uncached.
    status, got, body = _get(port, url, Authorization="Token x")
    assert (status, body, got["x-cache-status"]) == (200, b"recorded", "BYPASS")
    assert recorder.seen[-1][:2] == ("GET", url)


def test_an_answer_without_the_mark_and_a_search_are_never_kept(proxy, event):
    port, _ = proxy
    search = f"/tournaments/{event.pk}/live/?q=a"
    assert _get(port, search)[1]["cache-control"].startswith("public")  # shared, yet not kept
    for url in ("/accounts/login/", f"/tournaments/{event.pk}/rounds/9/", search):
        statuses = [_get(port, url)[1].get("x-cache-status") for _ in range(2)]
        assert "HIT" not in statuses, (url, statuses)


def test_writes_go_to_the_staff_pool_with_the_trusted_headers(proxy, event):
    port, recorder = proxy
    path = f"/api/tournaments/{event.pk}/matches/1/result/"
    status, _, body = _get(port, path, "POST", b'{"result": "2-0-0"}')
    assert (status, body) == (200, b"recorded")
    method, seen_path, headers = recorder.seen[-1]
    assert (method, seen_path) == ("POST", path)
    assert headers["x-request-start"].startswith("t=")
    assert float(headers["x-request-start"][2:]) == pytest.approx(time.time(), abs=30)
    assert headers["x-forwarded-for"] == "127.0.0.1"
    assert headers["x-forwarded-proto"] == "http"
    assert len(headers["x-request-id"]) == 32


def test_the_live_stream_goes_to_the_push_server(proxy, event):
    port, recorder = proxy
    path = f"/tournaments/{event.pk}/events/"
    status, _, body = _get(port, path, Accept="text/event-stream")
    assert (status, body) == (200, b"recorded")
    assert recorder.seen[-1][:2] == ("GET", path)


@pytest.mark.django_db
def test_only_shared_public_answers_carry_the_mark(settings, client: Client, monkeypatch):
    found = []
    lookup = fast_path.lookup

    def spy(request):
        found.append(lookup(request))
        return found[-1]

    monkeypatch.setattr(fast_path, "lookup", spy)
    t, _made = make_tournament(entries=4, decks=False)
    url = f"/tournaments/{t.pk}/standings/"
    services.tournament_set_options(actor=SYSTEM, tournament=t, is_public=True)
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    services.standings_refresh(tournament_id=t.pk)
    assert client.get(url)["X-Accel-Expires"] == "1"  # the view's answer
    assert client.get(url)["X-Accel-Expires"] == "1"  # the fast path's
    assert found[-2] is None and found[-1] is not None
    settings.HKK_PROXY_CACHE_SECONDS = 0  # followed at once, also by the stored rendering
    assert "X-Accel-Expires" not in client.get(url)
    settings.HKK_PROXY_CACHE_SECONDS = 1
    services.tournament_set_options(actor=SYSTEM, tournament=t, is_public=False)
    assert "X-Accel-Expires" not in client.get(url)
    assert "X-Accel-Expires" not in client.get("/accounts/login/")
