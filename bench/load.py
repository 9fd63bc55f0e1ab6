"""Open-loop load test of the public standings and live pages and the standings API.

Usage (the app served by Gunicorn with the repository's ``gunicorn.conf.py``, on the loopback;
see README "Benchmarks")::

    .venv/bin/python bench/load.py --event ID [--port 8000] [--rate 200] [--count 1000]
        [--duration 10]

Requests are *scheduled* at ``--rate`` per second (open loop: request ``i`` is due at
``start + i / rate`` whether or not earlier ones have answered) until ``--count`` requests or
``--duration`` seconds, whichever comes first; 64 sender threads with keep-alive connections
take the due requests. A latency is measured from the request's due time to the end of its
response, so a server that falls behind shows it (no coordinated omission). Mix: standings page
35 %, live page 15 %, live fragment (``?partial=1``) 25 %, standings API 25 %; a third of them
conditional (``If-None-Match`` with the ETag of a first answer, 304 expected).

Printed: requests sent, answered per status, errors (timeouts, refused, 5xx), achieved rate,
latency p50 / p90 / p99 / max in ms. Only 127.0.0.1 is ever contacted; each request has a 5 s
timeout.
"""

from __future__ import annotations

import argparse
import http.client
import random
import threading
import time
from collections import Counter

HOST = "127.0.0.1"
SENDERS = 64
TIMEOUT = 5.0


def _paths(event: int) -> list[tuple[str, float]]:
    return [
        (f"/tournaments/{event}/standings/", 0.35),
        (f"/tournaments/{event}/live/", 0.15),
        (f"/tournaments/{event}/live/?partial=1", 0.25),
        (f"/api/tournaments/{event}/standings/", 0.25),
    ]


def _get(conn: http.client.HTTPConnection, path: str, etag: str | None) -> tuple[int, str | None]:
    headers = {"Accept-Language": "hu"}
    if etag:
        headers["If-None-Match"] = etag
    conn.request("GET", path, headers=headers)
    response = conn.getresponse()
    response.read()
    return response.status, response.getheader("ETag")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--event", type=int, required=True)
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--rate", type=float, default=200.0)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--duration", type=float, default=10.0, help="seconds, at most 120")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    count = min(args.count, int(args.rate * min(args.duration, 120.0)))
    rng = random.Random(args.seed)
    paths = _paths(args.event)

    # Warm-up: one answer per path gives its ETag (and fills the server's caches).
    etags: dict[str, str | None] = {}
    warm = http.client.HTTPConnection(HOST, args.port, timeout=30)
    for path, _share in paths:
        status, etag = _get(warm, path, None)
        print(f"warm-up {status} {path}")
        etags[path] = etag
    warm.close()

    plan = []
    for _ in range(count):
        path = rng.choices([p for p, _ in paths], weights=[w for _, w in paths])[0]
        plan.append((path, etags[path] if rng.random() < 1 / 3 else None))

    start = time.perf_counter() + 0.5
    lock = threading.Lock()
    next_index = iter(range(count))
    latencies: list[float] = []
    statuses: Counter[str] = Counter()

    def sender() -> None:
        conn: http.client.HTTPConnection | None = None
        while True:
            with lock:
                i = next(next_index, None)
            if i is None:
                break
            due = start + i / args.rate
            delay = due - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            path, etag = plan[i]
            try:
                if conn is None:
                    conn = http.client.HTTPConnection(HOST, args.port, timeout=TIMEOUT)
                status, _etag = _get(conn, path, etag)
                outcome = str(status)
            except (OSError, http.client.HTTPException) as exc:
                outcome = type(exc).__name__
                if conn is not None:
                    conn.close()
                conn = None
            elapsed = time.perf_counter() - due
            with lock:
                latencies.append(elapsed)
                statuses[outcome] += 1
        if conn is not None:
            conn.close()

    threads = [threading.Thread(target=sender) for _ in range(SENDERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - start
    latencies.sort()
    errors = sum(n for s, n in statuses.items() if not s.isdigit() or s.startswith("5"))

    def pct(q: float) -> float:
        return latencies[min(len(latencies) - 1, int(len(latencies) * q))] * 1000

    print(
        f"requests {len(latencies)} in {wall:.1f} s ({len(latencies) / wall:.0f}/s asked "
        f"{args.rate:.0f}/s); statuses {dict(sorted(statuses.items()))}; errors {errors}"
    )
    print(
        f"latency ms: p50 {pct(0.5):.1f}, p90 {pct(0.9):.1f}, p99 {pct(0.99):.1f}, "
        f"max {latencies[-1] * 1000:.1f}"
    )


if __name__ == "__main__":
    main()
