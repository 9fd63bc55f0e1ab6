"""Benchmark: the CPU one anonymous cache hit of a hot public read costs in-process.

Usage::

    createdb -h 127.0.0.1 -U postgres -T hkk_bench hkk_bench_mine   # a copy: nothing is written
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/hkk_bench_mine \\
    HKK_CACHE_URL=redis://127.0.0.1:6379/N DJANGO_DEBUG=0 DJANGO_SECRET_KEY=bench \\
        .venv/bin/python bench/read_hits.py [--event 1] [--round 6] [--requests 300]

For each hot read of the event (the standings page, the live page's refresh fragment, the
standings API and the round page), an anonymous visitor's request is made a few times first
(the rendering is stored, then found current), then ``--requests`` times through

- Django's test client (``django.test.Client``: the whole middleware stack), and
- the WSGI application itself (``WSGIHandler`` called with a WSGI environ, as gunicorn does);

with ``Accept-Encoding: gzip`` (``--accept-encoding ''``: uncompressed answers);

printed per read and path: CPU milliseconds per request (``time.process_time``: this
process's share; Redis's and PostgreSQL's own work is not in it), wall milliseconds, and
database queries per request. The shared cache must be Redis (``HKK_CACHE_URL``); it is
cleared first (use your own Redis database number). Nothing is written to the database
(the renderings go to the cache only).
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hkk_tournament.settings")


def _environ(path: str, host: str, encoding: str) -> dict[str, Any]:
    """A WSGI environ of an anonymous GET of ``path`` (with its query) over HTTPS, accepting
    ``encoding`` (``Accept-Encoding``)."""
    base, _, query = path.partition("?")
    return {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": base,
        "QUERY_STRING": query,
        "SERVER_NAME": host,
        "SERVER_PORT": "443",
        "HTTP_HOST": host,
        "HTTP_ACCEPT_LANGUAGE": "hu",
        "HTTP_ACCEPT_ENCODING": encoding,
        "REMOTE_ADDR": "127.0.0.1",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "wsgi.url_scheme": "https",
        "wsgi.input": io.BytesIO(b""),
        "wsgi.errors": sys.stderr,
        "wsgi.version": (1, 0),
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }


def _measure(call: Any, requests: int) -> tuple[float, float, float]:
    """``(CPU ms, wall ms, queries)`` per call of ``call`` over ``requests`` calls."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        cpu, wall = time.process_time(), time.perf_counter()
        for _ in range(requests):
            call()
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return cpu * 1000 / requests, wall * 1000 / requests, len(queries) / requests


def main() -> None:
    """Measure and print (module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--event", type=int, default=1)
    parser.add_argument("--round", type=int, default=6)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument(
        "--accept-encoding", default="gzip", help="the clients' Accept-Encoding ('' for none)"
    )
    args = parser.parse_args()

    import django

    django.setup()
    from django.conf import settings
    from django.core.cache import cache
    from django.core.handlers.wsgi import WSGIHandler
    from django.test import Client

    if "redis" not in str(settings.CACHES["default"]["BACKEND"]).lower():
        sys.exit("HKK_CACHE_URL must name a Redis database (the shared cache)")
    cache.clear()
    host = next((h for h in settings.ALLOWED_HOSTS if h and "*" not in h), "localhost")
    reads = {
        "standings page": f"/tournaments/{args.event}/standings/",
        "live fragment": f"/tournaments/{args.event}/live/?partial=1",
        "standings API": f"/api/tournaments/{args.event}/standings/",
        "round page": f"/tournaments/{args.event}/rounds/{args.round}/",
    }
    encoding = args.accept_encoding
    client = Client(HTTP_HOST=host, HTTP_ACCEPT_LANGUAGE="hu", HTTP_ACCEPT_ENCODING=encoding)
    handler = WSGIHandler()

    def wsgi(path: str) -> int:
        status: list[str] = []

        def start_response(code: str, headers: Any, *rest: Any) -> Any:
            status.append(code)

        body = handler(_environ(path, host, encoding), start_response)
        size = sum(len(chunk) for chunk in body)
        getattr(body, "close", lambda: None)()
        return size if status and status[0].startswith("200") else -1

    print(f"{'read':16} {'path':12} {'CPU ms':>8} {'wall ms':>8} {'queries':>8}")
    for name, path in reads.items():
        for _ in range(3):  # render and store, then found current
            response = client.get(path, secure=True)
            assert response.status_code == 200, (path, response.status_code)
        for label, call in (
            ("test client", lambda p=path: client.get(p, secure=True)),
            ("WSGIHandler", lambda p=path: wsgi(p)),
        ):
            cpu, wall, queries = _measure(call, args.requests)
            print(f"{name:16} {label:12} {cpu:8.3f} {wall:8.3f} {queries:8.2f}")


if __name__ == "__main__":
    main()
