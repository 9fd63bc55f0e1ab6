"""The production app server: Gunicorn with the repository's gunicorn.conf.py on a free loopback
port, one worker; /healthz/, a page and a static file; JSON access lines on stdout. The second
test runs it with the production settings (DJANGO_DEBUG=0) after ``collectstatic``: hashed,
compressed static files served by WhiteNoise."""

from __future__ import annotations

import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from django.conf import settings as django_settings

BASE_DIR = Path(django_settings.BASE_DIR)
GUNICORN = Path(sys.executable).with_name("gunicorn")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _get(url: str, **headers: str):
    request = urllib.request.Request(url, headers=headers)
    with urllib.request.urlopen(request, timeout=5) as response:
        return response.status, dict(response.headers), response.read()


def _environment(tmp_path: Path, port: int, **extra: str) -> dict[str, str]:
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")},
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "WEB_CONCURRENCY": "1",
        "GUNICORN_THREADS": "2",
        "HKK_VAR_DIR": str(tmp_path),
        "DJANGO_LOG_LEVEL": "WARNING",
        **extra,
    }
    env.pop("DATABASE_URL", None)  # the pages below need no database; keep it off PostgreSQL
    return env


def _start(env: dict[str, str], base: str) -> subprocess.Popen:
    server = subprocess.Popen(
        [str(GUNICORN), "--config", str(BASE_DIR / "gunicorn.conf.py")],
        cwd=BASE_DIR,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 10
    while True:
        try:
            status, _, body = _get(f"{base}/healthz/")
        except OSError:
            if time.monotonic() > deadline or server.poll() is not None:
                _stop(server)
                raise
            time.sleep(0.1)
            continue
        assert (status, json.loads(body)) == (200, {"status": "ok"})
        return server


def _stop(server: subprocess.Popen) -> tuple[str, str]:
    server.send_signal(signal.SIGTERM)
    return server.communicate(timeout=15)


def test_gunicorn_serves_health_pages_and_static_files(tmp_path):
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    server = _start(_environment(tmp_path, port), base)
    try:
        status, headers, body = _get(f"{base}/accounts/login/", **{"X-Request-ID": "gunicorn-1"})
        assert status == 200
        assert headers["X-Request-ID"] == "gunicorn-1"
        assert "default-src 'self'" in headers["Content-Security-Policy"]
        assert b'<html lang="hu">' in body
        status, _, body = _get(f"{base}/static/css/site.css")
        assert status == 200 and body
    finally:
        stdout, stderr = _stop(server)
    assert server.returncode == 0, stderr
    lines = [json.loads(line) for line in stdout.splitlines() if line.startswith("{")]
    access = [line for line in lines if line["logger"] == "gunicorn.access"]
    # Threads may finish their lines in any order.
    assert sorted((a["method"], a["path"], a["status"]) for a in access) == [
        ("GET", "/accounts/login/", 200),
        ("GET", "/healthz/", 200),
        ("GET", "/static/css/site.css", 200),
    ]
    [login] = [a for a in access if a["path"] == "/accounts/login/"]
    assert login["request_id"] == "gunicorn-1"
    assert login["remote_addr"] == "127.0.0.1"
    assert isinstance(login["duration_ms"], float) and login["bytes"] > 0
    django_lines = [line for line in lines if line["logger"] == "hkk_tournament.request"]
    assert {"path": "/accounts/login/", "request_id": "gunicorn-1", "status": 200}.items() <= (
        [d for d in django_lines if d["path"] == "/accounts/login/"][0].items()
    )


def test_gunicorn_with_production_settings_serves_hashed_compressed_static_files(tmp_path):
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    env = _environment(
        tmp_path,
        port,
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(64),
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
        DJANGO_SECURE_SSL_REDIRECT="0",  # plain HTTP on the loopback in this test
    )
    collected = subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert collected.returncode == 0, collected.stderr
    server = _start(env, base)
    try:
        status, headers, body = _get(f"{base}/accounts/login/")
        assert status == 200
        assert "Strict-Transport-Security" not in headers  # plain HTTP
        # A proxy on the loopback (FORWARDED_ALLOW_IPS) saying it terminated TLS: HTTPS.
        status, headers, _ = _get(f"{base}/accounts/login/", **{"X-Forwarded-Proto": "https"})
        assert "max-age=31536000" in headers["Strict-Transport-Security"]
        css = re.search(r'href="(/static/css/site\.[0-9a-f]{12}\.css)"', body.decode()).group(1)
        script = re.search(r'src="(/static/js/site\.[0-9a-f]{12}\.js)"', body.decode()).group(1)
        status, headers, _ = _get(f"{base}{css}", **{"Accept-Encoding": "gzip"})
        assert status == 200
        assert headers["Content-Encoding"] == "gzip"
        assert "immutable" in headers["Cache-Control"]
        assert _get(f"{base}{script}")[0] == 200
    finally:
        _, stderr = _stop(server)
    assert server.returncode == 0, stderr
