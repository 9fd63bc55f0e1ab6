"""Open-loop load test of the public standings and live pages and the standings API.

Usage (the app served by Gunicorn with the repository's ``gunicorn.conf.py``, on the loopback;
see README "Big events")::

    .venv/bin/python bench/load.py --event ID [--port 8000] [--rate 200] [--count 1000]
        [--duration 10]

Requests are *scheduled* at ``--rate`` per second (open loop: request ``i`` is due at
``start + i / rate`` whether or not earlier ones have answered) until ``--count`` requests or
``--duration`` seconds, whichever comes first; 64 sender threads with keep-alive connections
take the due requests. A latency is measured from the request's due time to the end of its
response, so a server that falls behind shows it (no coordinated omission).

Mix, as a venue's phones and scripts read (the pages and the API are paged, 100 rows or tables a
page): standings page 1 20 %, a later standings page (2 to 5) 8 %, a standings search by a
player's name 4 %; live page 10 %, its refresh fragment (``?partial=1``) 25 %, the fragment of a
later tables page 5 %, a "find your table" search 3 % and its fragment 2 %; standings API with
the default paging 18 %, a later offset 3 %, one entry's row (``?entry=``) 2 %. The names and
entry ids searched for are taken from the event's standings before the run (eight of each,
fixed by ``--seed``). A third of the requests are conditional (``If-None-Match`` with the ETag
of a first answer, 304 expected).

Before the run every distinct URL is fetched once (its ETag, and the server's caches filled).
Printed: requests sent, answered per status, errors (timeouts, refused, 5xx), achieved rate,
latency p50 / p90 / p99 / max in ms, and p50 / p99 per kind of request. Only 127.0.0.1 is ever
contacted; each request has a 5 s timeout.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import threading
import time
import urllib.parse
from collections import Counter, defaultdict

HOST = "127.0.0.1"
SENDERS = 64
TIMEOUT = 5.0


#: (kind, share of the requests) of the mix (module docstring).
MIX = [
    ("standings", 0.20),
    ("standings-page", 0.08),
    ("standings-search", 0.04),
    ("live", 0.10),
    ("live-fragment", 0.25),
    ("live-fragment-page", 0.05),
    ("live-search", 0.03),
    ("live-search-fragment", 0.02),
    ("api", 0.18),
    ("api-offset", 0.03),
    ("api-entry", 0.02),
]
#: Names and entry ids searched for (taken from the standings before the run).
SAMPLES = 8


def _variants(event: int, names: list[str], entries: list[int]) -> dict[str, list[str]]:
    """The URLs of each kind of request in :data:`MIX`."""
    page = f"/tournaments/{event}"
    api = f"/api/tournaments/{event}/standings/"
    quoted = [urllib.parse.quote(n) for n in names]
    return {
        "standings": [f"{page}/standings/"],
        "standings-page": [f"{page}/standings/?page={n}" for n in range(2, 6)],
        "standings-search": [f"{page}/standings/?q={q}" for q in quoted],
        "live": [f"{page}/live/"],
        "live-fragment": [f"{page}/live/?partial=1"],
        "live-fragment-page": [f"{page}/live/?partial=1&page={n}" for n in range(2, 5)],
        "live-search": [f"{page}/live/?q={q}" for q in quoted],
        "live-search-fragment": [f"{page}/live/?partial=1&q={q}" for q in quoted],
        "api": [api],
        "api-offset": [f"{api}?offset={n}" for n in (100, 200, 300, 400)],
        "api-entry": [f"{api}?entry={e}" for e in entries],
    }


def _samples(port: int, event: int, rng: random.Random) -> tuple[list[str], list[int]]:
    """Names and entry ids of ``SAMPLES`` entries of the event's standings (first 1,000)."""
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    conn.request("GET", f"/api/tournaments/{event}/standings/?limit=1000")
    response = conn.getresponse()
    rows = json.loads(response.read())["results"] if response.status == 200 else []
    conn.close()
    if not rows:
        raise SystemExit(f"event {event}: no standings ({response.status})")
    chosen = rng.sample(rows, min(SAMPLES, len(rows)))
    return [r["name"] for r in chosen], [r["entry"] for r in chosen]


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
    names, entries = _samples(args.port, args.event, rng)
    variants = _variants(args.event, names, entries)

    # Warm-up: one answer per URL gives its ETag (and fills the server's caches).
    etags: dict[str, str | None] = {}
    warm = http.client.HTTPConnection(HOST, args.port, timeout=30)
    for kind, paths in variants.items():
        for path in paths:
            status, etag = _get(warm, path, None)
            etags[path] = etag
        print(f"warm-up {status} {kind} ({len(paths)} URLs)")
    warm.close()

    plan = []
    for _ in range(count):
        kind = rng.choices([k for k, _ in MIX], weights=[w for _, w in MIX])[0]
        path = rng.choice(variants[kind])
        plan.append((kind, path, etags[path] if rng.random() < 1 / 3 else None))

    start = time.perf_counter() + 0.5
    lock = threading.Lock()
    next_index = iter(range(count))
    latencies: list[float] = []
    by_kind: dict[str, list[float]] = defaultdict(list)
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
            kind, path, etag = plan[i]
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
                by_kind[kind].append(elapsed)
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

    def pct(values: list[float], q: float) -> float:
        return values[min(len(values) - 1, int(len(values) * q))] * 1000

    print(
        f"requests {len(latencies)} in {wall:.1f} s ({len(latencies) / wall:.0f}/s asked "
        f"{args.rate:.0f}/s); statuses {dict(sorted(statuses.items()))}; errors {errors}"
    )
    print(
        f"latency ms: p50 {pct(latencies, 0.5):.1f}, p90 {pct(latencies, 0.9):.1f}, "
        f"p99 {pct(latencies, 0.99):.1f}, max {latencies[-1] * 1000:.1f}"
    )
    for kind, _share in MIX:
        values = sorted(by_kind.get(kind, []))
        if values:
            print(
                f"  {kind:22s} {len(values):5d} requests: p50 {pct(values, 0.5):7.1f} ms, "
                f"p99 {pct(values, 0.99):7.1f} ms"
            )


if __name__ == "__main__":
    import sys

    if sys.argv[1:2] == ["--push"]:  # the live push benchmark: bench/load_push.py
        from load_push import main as push_main

        push_main(sys.argv[2:])
    else:
        main()
