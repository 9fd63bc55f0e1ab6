"""Open-loop load test of the public pages and API as a venue sends them.

Usage (the app served by Gunicorn with the repository's ``gunicorn.conf.py``, a real Celery
worker, a shared Redis cache, on the loopback; see README "Big events")::

    .venv/bin/python bench/load.py --event ID --scenario churn [--rate 200] [--duration 60]
        [--slip-rate 20] [--port 8000] [--staff-port 8001] [--server-pid PID ...]
        [--staff-pid PID] [--worker-pid PID] [--procs 2]
    .venv/bin/python bench/load.py --event ID --scenario staff --rate TWICE_CAPACITY
        --staff-port 8001 --server-pid PUBLIC --staff-pid STAFF --worker-pid WORKER
    .venv/bin/python bench/load.py --event ID --scenario burst [--lookups 4096] [--within 20]
    .venv/bin/python bench/load.py --event ID --scenario cached [--rate 200] [--count 2000]

Scenarios:

- ``churn`` (the venue while results arrive): public reads at ``--rate`` per second over many
  distinct URLs (every standings and live page, searches for many names, API offsets and single
  entries, the round page and the round API), none fetched before the run, a third conditional
  with the ETag the client last saw; meanwhile a judge posts result slips of the published
  round at ``--slip-rate`` per second to ``--staff-port`` (the staff pool; the same port when
  there is one pool) and the real Celery worker recomputes the standings. ``DATABASE_URL`` must
  name the event's database (``bench/venue.py`` appoints the judge and lists the open matches).
- ``staff`` (issue 22: staff first while the public side is overloaded): the churn with the
  public reads at ``--rate`` set to *twice the measured capacity* of the public pool (the rate
  at which ``churn`` still answers nearly everything without shedding) and the slips at
  ``--slip-rate`` (20) to the staff pool's own ``--staff-port``. It adds a verdict line: slips
  recorded of those sent with their p50 / p99 (target: all, p99 < 200 ms), and the public
  reads' shares answered, shed with 503, refused with 429 and failed otherwise.
- ``burst`` (right after a round is published): the next round is paired as a draft, the judge
  publishes it through the API, and at once ``--lookups`` distinct "find my table" requests
  (the live page with one entry's name, ``?q=``) arrive evenly within ``--within`` seconds.
- ``cached`` (the old figure, kept for comparison): a fixed mix over a few URLs, each fetched
  once before the run: it measures cache hits.

Requests are *scheduled* (open loop: request ``i`` is due at ``start + i / rate`` whether or not
earlier ones have answered); each public stream is sent by ``--procs`` forked client processes
(default 2: one interpreter lock would cap the schedule or delay it and count its own delay as
the server's), process ``k`` sending requests ``k``, ``k + procs`` … at their due times on one
shared clock, the slips by one more; the parent only waits and merges the figures. In each
process ``SENDERS`` threads with keep-alive connections take the due requests (the ETags a
process saw are its own). A latency is measured from the request's due time to the end of its
response, so a server that falls behind shows it (no coordinated omission); a request still unsent
``TIMEOUT`` seconds after its due time (every sender busy waiting) is counted as given up
(``GaveUpUnsent``, an error) without being sent. Each request carries
``X-Request-Start`` (its due time) as the reverse proxy in front of the app sets it (docs/
production.md), so the server can shed what waited too long; a request unanswered after
``TIMEOUT`` seconds is given up (the client leaves) and counts as an error.

Printed, CPU figures first because they do not depend on how busy the shared machine is: the
public pool's CPU milliseconds per answered public request (``--server-pid``: its Gunicorn
master, the workers counted) and, with ``--staff-pid``, the staff pool's per recorded slip,
each with the pool's niceness (``GUNICORN_NICE``; without ``--staff-pid`` one figure for
every pool given); the Celery worker's CPU (``--worker-pid``) and niceness; the machine's load
average before and after; then per stream: requests, statuses, errors (timeouts, refused, 5xx),
answered rate, latency p50 / p90 / p99 / max in ms, the shed answers (503 and 429: their share,
how fast they came back from the due time, how many carried ``Retry-After``), p50 / p99 per
kind of request, and the client processes' own CPU (a process busy more than 80 % of the time
is flagged: the client, not the server, set the pace); for the slips the number recorded
(201). Only 127.0.0.1 is ever contacted.
"""

from __future__ import annotations

import argparse
import gc
import http.client
import json
import multiprocessing as mp
import os
import queue
import random
import threading
import time
import urllib.parse
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

HOST = "127.0.0.1"
SENDERS = 64
TIMEOUT = 5.0

#: One request of a plan: (kind, method, path, body or None).
Request = tuple[str, str, str, bytes | None]

#: (kind, share) of the ``cached`` scenario's fixed mix.
CACHED_MIX = [
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
#: (kind, share) of the ``churn`` scenario: the cached mix's kinds over many more URLs, plus
#: the round page and the round API.
CHURN_MIX = [
    *CACHED_MIX[:-2],
    ("api-offset", 0.02),
    ("api-entry", 0.01),
    ("round", 0.01),
    ("round-api", 0.01),
]
#: Names and entry ids searched for in the ``cached`` scenario / in ``churn``.
SAMPLES = 8
CHURN_SAMPLES = 400


def _variants(event: int, names: list[str], entries: list[int], pages: int) -> dict[str, list[str]]:
    """The URLs of each kind of request (``pages``: how many pages of 100 each list has)."""
    page = f"/tournaments/{event}"
    api = f"/api/tournaments/{event}/standings/"
    quoted = [urllib.parse.quote(n) for n in names]
    later = range(2, max(3, pages + 1))
    return {
        "standings": [f"{page}/standings/"],
        "standings-page": [f"{page}/standings/?page={n}" for n in later],
        "standings-search": [f"{page}/standings/?q={q}" for q in quoted],
        "live": [f"{page}/live/"],
        "live-fragment": [f"{page}/live/?partial=1"],
        "live-fragment-page": [f"{page}/live/?partial=1&page={n}" for n in later],
        "live-search": [f"{page}/live/?q={q}" for q in quoted],
        "live-search-fragment": [f"{page}/live/?partial=1&q={q}" for q in quoted],
        "api": [api],
        "api-offset": [f"{api}?offset={n * 100}" for n in later],
        "api-entry": [f"{api}?entry={e}" for e in entries],
        "round": [f"{page}/rounds/{{round}}/?page={n}" for n in range(1, pages // 2 + 2)],
        "round-api": [f"/api{page}/rounds/{{round}}/?page={n}" for n in range(1, pages // 2 + 2)],
    }


@dataclass
class Stream:
    """What one stream of requests got back: latencies (s) overall, per kind and per status,
    the statuses, how many shed answers (503, 429) carried ``Retry-After``, the wall time and
    the client's own CPU seconds (the process or processes that sent it). Plain containers
    only: a stream sent by several processes comes back pickled and is merged (:meth:`merge`).
    """

    latencies: list[float] = field(default_factory=list)
    by_kind: dict[str, list[float]] = field(default_factory=dict)
    by_status: dict[str, list[float]] = field(default_factory=dict)
    statuses: Counter[str] = field(default_factory=Counter)
    retry_after: int = 0
    cache: Counter[str] = field(default_factory=Counter)
    wall: float = 0.0
    client_cpu: list[float] = field(default_factory=list)

    def add(
        self, kind: str, status: str, elapsed: float, retry_after: bool = False, cache: str = ""
    ) -> None:
        """Count one request of ``kind`` that ended with ``status`` after ``elapsed`` s;
        ``cache``: the proxy's ``X-Cache-Status`` (``HIT``, ``MISS``…; empty without a proxy)."""
        self.latencies.append(elapsed)
        if cache:
            self.cache[cache] += 1
        self.by_kind.setdefault(kind, []).append(elapsed)
        self.by_status.setdefault(status, []).append(elapsed)
        self.statuses[status] += 1
        self.retry_after += retry_after

    def merge(self, other: Stream) -> None:
        """Add ``other`` (the same stream's share sent by another process)."""
        self.latencies += other.latencies
        for kind, values in other.by_kind.items():
            self.by_kind.setdefault(kind, []).extend(values)
        for status, values in other.by_status.items():
            self.by_status.setdefault(status, []).extend(values)
        self.statuses.update(other.statuses)
        self.retry_after += other.retry_after
        self.cache.update(other.cache)
        self.wall = max(self.wall, other.wall)
        self.client_cpu += other.client_cpu

    def errors(self) -> int:
        return sum(n for s, n in self.statuses.items() if not s.isdigit() or s.startswith("5"))

    def answered(self, status: str) -> int:
        return self.statuses.get(status, 0)

    def shed(self) -> list[float]:
        """Latencies (s) of the requests the server shed (503 or 429), sorted."""
        return sorted(self.by_status.get("503", []) + self.by_status.get("429", []))


def _pct(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, int(len(values) * q))] * 1000 if values else 0.0


#: The ``Accept-Language`` headers of the venue's phones (a Hungarian community: most ask for
#: Hungarian, in the forms browsers send), one per public read in turn. The answers vary with
#: it (``Vary: Accept-Language``), so a proxy keeps one copy per distinct header.
READER_LANGUAGES = (
    "hu-HU,hu;q=0.9,en-US;q=0.8,en;q=0.7",
    "hu-HU,hu;q=0.9,en-US;q=0.8,en;q=0.7",
    "hu-HU,hu;q=0.9,en-US;q=0.8,en;q=0.7",
    "hu-HU,hu;q=0.9",
    "hu",
    "hu-HU,hu;q=0.9,en-US;q=0.8,en;q=0.7",
    "en-US,en;q=0.9,hu;q=0.8",
    "en-GB,en;q=0.9",
)


class Client:
    """Keep-alive connections to one port, with the ETag each URL last answered; ``languages``:
    ``Accept-Language`` headers taken in turn (by the request's due time), none when empty."""

    def __init__(self, port: int, headers: dict[str, str], languages: tuple[str, ...] = ()) -> None:
        self.port = port
        self.headers = headers
        self.languages = languages
        self.etags: dict[str, str] = {}

    def send(
        self, conn: http.client.HTTPConnection, req: Request, due: float, conditional: bool
    ) -> tuple[int, bool, str]:
        """Send ``req`` on ``conn`` stamped as due at ``due`` (epoch seconds); returns the
        status, whether the answer carried ``Retry-After`` and the proxy's cache status."""
        _kind, method, path, body = req
        headers = {**self.headers, "Accept-Encoding": "gzip", "X-Request-Start": f"t={due:.6f}"}
        if self.languages:
            headers["Accept-Language"] = self.languages[int(due * 1000) % len(self.languages)]
        etag = self.etags.get(path)
        if conditional and etag:
            headers["If-None-Match"] = etag
        if body is not None:
            headers["Content-Type"] = "application/json"
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        response.read()
        new = response.getheader("ETag")
        if new and method == "GET":
            self.etags[path] = new
        retry_after = response.getheader("Retry-After") is not None
        return response.status, retry_after, response.getheader("X-Cache-Status") or ""


def open_loop(
    client: Client,
    plan: list[Request],
    rate: float,
    conditional: float,
    start_wall: float | None = None,
    share: tuple[int, int] = (0, 1),
) -> Stream:
    """Send ``plan`` at ``rate`` per second (open loop, module docstring); ``conditional``: the
    share of GETs sent with the last seen ETag. ``start_wall``: the epoch second request 0 is
    due (default: half a second from now); ``share`` ``(k, n)``: this process sends requests
    ``k``, ``k + n``, ``k + 2n`` … of the plan, each still due at ``start + i / rate`` (the
    other processes send the rest, :func:`run_streams`)."""
    stream = Stream()
    rng = random.Random(len(plan))
    flags = [rng.random() < conditional for _ in plan]
    lock = threading.Lock()
    next_index = iter(range(share[0], len(plan), share[1]))
    start_wall = time.time() + 0.5 if start_wall is None else start_wall
    start = time.perf_counter() + (start_wall - time.time())
    cpu = time.process_time()

    def sender() -> None:
        conn: http.client.HTTPConnection | None = None
        while True:
            with lock:
                i = next(next_index, None)
            if i is None:
                break
            due = start + i / rate
            delay = due - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            if -delay > TIMEOUT:  # every sender was busy until the client had given up
                with lock:
                    stream.add(plan[i][0], "GaveUpUnsent", -delay)
                continue
            retry_after, cached = False, ""
            try:
                if conn is None:
                    conn = http.client.HTTPConnection(HOST, client.port, timeout=TIMEOUT)
                due_wall = start_wall + i / rate
                status, retry_after, cached = client.send(conn, plan[i], due_wall, flags[i])
                outcome = str(status)
            except (OSError, http.client.HTTPException) as exc:
                outcome = type(exc).__name__
                if conn is not None:
                    conn.close()
                conn = None
            elapsed = time.perf_counter() - due
            with lock:
                stream.add(plan[i][0], outcome, elapsed, retry_after, cached)
        if conn is not None:
            conn.close()

    threads = [threading.Thread(target=sender) for _ in range(SENDERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    stream.wall = time.perf_counter() - start
    stream.client_cpu = [time.process_time() - cpu]
    return stream


@dataclass
class Load:
    """One stream to send (:func:`run_streams`): its client, plan, rate (requests per second),
    share of conditional GETs and the number of client processes that send it."""

    client: Client
    plan: list[Request]
    rate: float
    conditional: float = 0.0
    procs: int = 1


def _send_share(name: str, load: Load, start_wall: float, share: tuple[int, int], out: Any) -> None:
    """In a client process: send this process's share of ``load``, put ``(name, stream)`` on
    ``out``."""
    stream = open_loop(load.client, load.plan, load.rate, load.conditional, start_wall, share)
    out.put((name, stream))


def run_streams(
    loads: dict[str, Load], hook: Callable[[], None] | None = None
) -> dict[str, Stream]:
    """Send every stream of ``loads`` at once, each from ``procs`` forked client processes (so
    no interpreter lock of the load generator caps or delays the schedule: every process sends
    every ``procs``-th request at its own due time on one shared clock); the parent only waits
    (and runs ``hook`` once the processes are started). Returns each stream's figures merged
    across its processes.

    Raises:
        SystemExit: a client process ended without its figures.
    """
    context = mp.get_context("fork")
    # The parent may hold a big heap (the burst pairs a 4,096-entry round in-process first): a
    # collection in a forked client would walk all of it (up to a second, while its requests
    # wait, counted as the server's latency). Frozen objects are never collected.
    gc.collect()
    gc.freeze()
    out = context.Queue()
    start_wall = time.time() + 1.0 + 0.05 * sum(load.procs for load in loads.values())
    processes = [
        context.Process(
            target=_send_share, args=(name, load, start_wall, (k, load.procs), out), daemon=True
        )
        for name, load in loads.items()
        for k in range(load.procs)
    ]
    for process in processes:
        process.start()
    if hook is not None:
        hook()
    merged = {name: Stream() for name in loads}
    longest = max(len(load.plan) / load.rate for load in loads.values()) + 2 * TIMEOUT + 30
    for _ in processes:
        try:
            name, stream = out.get(timeout=longest)
        except queue.Empty:
            raise SystemExit("a client process ended without its figures") from None
        merged[name].merge(stream)
    for process in processes:
        process.join()
    return merged


def report(name: str, stream: Stream, rate: float, kinds: list[str]) -> None:
    """Print one stream's figures (module docstring)."""
    lat = sorted(stream.latencies)
    if not lat:
        print(f"{name}: no requests")
        return
    print(
        f"{name}: {len(lat)} requests in {stream.wall:.1f} s ({len(lat) / stream.wall:.0f}/s "
        f"asked {rate:.0f}/s); statuses {dict(sorted(stream.statuses.items()))}; "
        f"errors {stream.errors()}"
    )
    print(
        f"  latency ms: p50 {_pct(lat, 0.5):.1f}, p90 {_pct(lat, 0.9):.1f}, "
        f"p99 {_pct(lat, 0.99):.1f}, max {lat[-1] * 1000:.1f}"
    )
    shed = stream.shed()
    if shed:
        print(
            f"  shed (503/429): {len(shed)} = {len(shed) / len(lat):.1%} of the requests, "
            f"answered p50 {_pct(shed, 0.5):.1f} ms, p99 {_pct(shed, 0.99):.1f} ms from their due "
            f"time; Retry-After on {stream.retry_after} of them"
        )
    if stream.cache:
        shares = ", ".join(f"{k} {n} ({n / len(lat):.0%})" for k, n in stream.cache.most_common())
        print(f"  proxy cache (X-Cache-Status): {shares}")
    for kind in kinds:
        values = sorted(stream.by_kind.get(kind, []))
        if values:
            print(
                f"  {kind:22s} {len(values):5d} requests: p50 {_pct(values, 0.5):7.1f} ms, "
                f"p99 {_pct(values, 0.99):7.1f} ms"
            )
    busy = max(stream.client_cpu, default=0.0) / stream.wall if stream.wall else 0.0
    note = " (client-bound: add --procs)" if busy > 0.8 else ""
    print(
        f"  client: {len(stream.client_cpu)} process(es), CPU {sum(stream.client_cpu):.1f} s, "
        f"busiest {busy:.0%} of the wall time{note}"
    )


def _cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds of ``pids`` and all their descendants (Linux ``/proc``)."""
    tick = os.sysconf("SC_CLK_TCK")
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry)] = int(fields[1])
        times[int(entry)] = (int(fields[11]) + int(fields[12])) / tick
    total, todo, seen = 0.0, list(pids), set()
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        total += times.get(pid, 0.0)
        todo += [child for child, parent in parents.items() if parent == pid]
    return total


def _niceness(pid: int) -> int | None:
    """The niceness of ``pid`` (``/proc/<pid>/stat``), ``None`` if it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[16])
    except (OSError, IndexError, ValueError):
        return None


class Meter:
    """CPU of the servers and the worker, and the machine's load, around a run. ``servers``:
    the Gunicorn masters of the public pool (or of the only pool); ``staff``: the staff pool's
    master, measured apart (its CPU per recorded slip) when given."""

    def __init__(
        self,
        servers: list[int],
        worker: list[int],
        staff: list[int] | None = None,
        proxy: list[int] | None = None,
    ):
        self.servers, self.worker, self.staff = servers, worker, staff or []
        self.proxy = proxy or []
        self.load = os.getloadavg()
        self.cpu = _cpu_seconds(servers) if servers else 0.0
        self.proxy_cpu = _cpu_seconds(self.proxy) if self.proxy else 0.0
        self.staff_cpu = _cpu_seconds(self.staff) if self.staff else 0.0
        self.worker_cpu = _cpu_seconds(worker) if worker else 0.0

    def _pool(self, name: str, pids: list[int], used: float, count: int, unit: str) -> None:
        nice = sorted({n for n in map(_niceness, pids) if n is not None})
        each = f" for {count} {unit} ({used / count * 1000:.2f} ms each)" if count else ""
        print(f"{name} CPU: {used:.1f} s{each}; niceness {nice or '?'}")

    def print(self, answered: int, recorded: int = 0) -> None:
        """Print the figures: ``answered`` public requests, ``recorded`` slips (201)."""
        load = os.getloadavg()
        print(
            f"machine: {os.cpu_count()} cores, load average (1 min) {self.load[0]:.2f} before, "
            f"{load[0]:.2f} after (other jobs included)"
        )
        if self.servers:
            used = _cpu_seconds(self.servers) - self.cpu
            if self.staff:
                self._pool("public pool", self.servers, used, answered, "answered public requests")
            else:
                self._pool("server", self.servers, used, answered, "answered public requests")
                print("  (staff writes included: give --staff-pid to measure the pools apart)")
        if self.proxy:
            proxy = _cpu_seconds(self.proxy) - self.proxy_cpu
            self._pool("proxy (nginx)", self.proxy, proxy, answered, "answered public requests")
            if self.servers and answered:
                both = proxy + _cpu_seconds(self.servers) - self.cpu
                print(f"  public side (pool + proxy): {both / answered * 1000:.2f} ms each")
        if self.staff:
            used = _cpu_seconds(self.staff) - self.staff_cpu
            self._pool("staff pool", self.staff, used, recorded, "recorded slips")
        if self.worker:
            used = _cpu_seconds(self.worker) - self.worker_cpu
            nice = sorted({n for n in map(_niceness, self.worker) if n is not None})
            print(f"worker CPU: {used:.1f} s; niceness {nice or '?'}")


def _plan(
    variants: dict[str, list[str]], mix: list[tuple[str, float]], count: int, rng: random.Random
) -> list[Request]:
    kinds = [k for k, _ in mix]
    weights = [w for _, w in mix]
    plan: list[Request] = []
    for _ in range(count):
        kind = rng.choices(kinds, weights=weights)[0]
        plan.append((kind, "GET", rng.choice(variants[kind]), None))
    return plan


def _slips(event: int, count: int, rng: random.Random) -> list[Request]:
    """``count`` result slips of the published round's open matches (``bench/venue.py``)."""
    import venue

    matches = venue.open_matches(event)[:count]
    if len(matches) < count:
        print(f"note: only {len(matches)} open matches for {count} slips")
    plan: list[Request] = []
    for match, a, b in matches:
        result = rng.choice(["2-0-0", "2-1-0", "0-2-0", "1-2-0", "1-1-1"])
        body = json.dumps({"result": result, "die_roll_winner": rng.choice((a, b))}).encode()
        plan.append(("slip", "POST", f"/api/tournaments/{event}/matches/{match}/result/", body))
    return plan


def _churn_plans(
    args: argparse.Namespace, rng: random.Random
) -> tuple[str, list[Request], list[Request]]:
    """The organiser's token, the public reads and the slips of ``churn`` and ``staff``."""
    import venue

    token = venue.organiser_token(args.event)
    everyone = venue.entries(args.event)
    names = [name for _pk, name in everyone]
    entries = [pk for pk, _name in everyone]
    number = venue.shown_round(args.event)
    variants = _variants(
        args.event,
        rng.sample(names, min(CHURN_SAMPLES, len(names))),
        rng.sample(entries, min(CHURN_SAMPLES, len(entries))),
        (len(names) + 99) // 100,
    )
    for kind in ("round", "round-api"):
        variants[kind] = [u.replace("{round}", str(number)) for u in variants[kind]]
    public = _plan(variants, CHURN_MIX, int(args.rate * args.duration), rng)
    return token, public, _slips(args.event, int(args.slip_rate * args.duration), rng)


def churn(args: argparse.Namespace, rng: random.Random, hook: Callable[[], None] | None) -> None:
    """The ``churn`` and ``staff`` scenarios (module docstring)."""
    if args.scenario == "staff" and args.staff_port in (0, args.port):
        raise SystemExit("staff: give the staff pool's own --staff-port (and --staff-pid)")
    token, public, slips = _churn_plans(args, rng)
    staff = Client(args.staff_port or args.port, {"Authorization": f"Token {token}"})
    reader = Client(args.port, {}, READER_LANGUAGES)
    meter = Meter(args.server_pid, args.worker_pid, args.staff_pid, args.proxy_pid)
    results = run_streams(
        {
            "public": Load(reader, public, args.rate, 1 / 3, args.procs),
            "slips": Load(staff, slips, args.slip_rate, 0.0, 1),
        },
        hook,
    )
    reads, written = results["public"], results["slips"]
    meter.print(len(reads.latencies) - reads.errors(), written.answered("201"))
    report("public reads", reads, args.rate, [k for k, _ in CHURN_MIX])
    report("result slips", written, args.slip_rate, ["slip"])
    print(f"  slips recorded (201): {written.answered('201')} of {len(slips)}")
    if args.scenario == "staff":
        _staff_verdict(reads, written, len(slips))


def _staff_verdict(reads: Stream, written: Stream, asked: int) -> None:
    """The ``staff`` scenario's summary: the target of issue 22 next to what was measured."""
    slips = sorted(written.by_status.get("201", []))
    total = len(reads.latencies) or 1
    share = {s: n / total for s, n in reads.statuses.items()}
    ok = share.get("200", 0.0) + share.get("304", 0.0)
    print(
        f"staff verdict: {len(slips)} of {asked} slips recorded, p50 {_pct(slips, 0.5):.1f} ms, "
        f"p99 {_pct(slips, 0.99):.1f} ms (target: all, p99 < 200 ms); public reads answered "
        f"{ok:.1%}, shed 503 {share.get('503', 0.0):.1%}, 429 {share.get('429', 0.0):.1%}, "
        f"other errors {(reads.errors() - reads.answered('503')) / total:.1%}"
    )


def _pair_apart(event: int) -> int:
    """``venue.pair_next(event)`` in a forked process of its own: pairing 4,096 entries leaves a
    heap of hundreds of MB, which the client processes forked later would otherwise inherit
    (their first collections and copy-on-write faults held requests up to a second, counted as
    the server's latency). Returns the draft round's number.

    Raises:
        SystemExit: the pairing failed (its message is printed by the child)."""
    import venue
    from django.db import connections

    connections.close_all()  # the child opens its own; the parent's socket is not shared
    context = mp.get_context("fork")
    out = context.Queue()

    def pair() -> None:
        try:
            out.put(venue.pair_next(event))
        except SystemExit as exc:
            print(exc)
            out.put(None)

    child = context.Process(target=pair)
    child.start()
    number = out.get()
    child.join()
    if number is None:
        raise SystemExit(f"event {event}: the next round was not paired")
    return int(number)


def burst(args: argparse.Namespace, rng: random.Random, hook: Callable[[], None] | None) -> None:
    """The ``burst`` scenario (module docstring)."""
    import venue

    token = venue.organiser_token(args.event)
    names = [name for _pk, name in venue.entries(args.event)]
    number = _pair_apart(args.event) if args.publish else 0
    if args.publish:
        time.sleep(args.settle)  # let the pairing's after-effects (standings, warm-up) finish
    lookups = rng.sample(names, min(args.lookups, len(names)))
    plan: list[Request] = [
        ("find-my-table", "GET", f"/tournaments/{args.event}/live/?q={urllib.parse.quote(n)}", None)
        for n in lookups
    ]
    staff = Client(args.staff_port or args.port, {"Authorization": f"Token {token}"})
    meter = Meter(args.server_pid, args.worker_pid, args.staff_pid, args.proxy_pid)
    publish = (
        Stream()
        if not args.publish
        else open_loop(
            staff,
            [("publish", "POST", f"/api/tournaments/{args.event}/rounds/{number}/publish/", b"{}")],
            1.0,
            0.0,
        )
    )
    reader = Client(args.port, {}, READER_LANGUAGES)
    stream = run_streams(
        {"lookups": Load(reader, plan, len(plan) / args.within, 0.0, args.procs)}, hook
    )["lookups"]
    meter.print(len(stream.latencies) - stream.errors())
    report("publish", publish, 1.0, ["publish"])
    report("find my table", stream, len(plan) / args.within, ["find-my-table"])


def cached(args: argparse.Namespace, rng: random.Random, hook: Callable[[], None] | None) -> None:
    """The ``cached`` scenario (module docstring): the former figure, cache hits."""
    conn = http.client.HTTPConnection(HOST, args.port, timeout=30)
    conn.request("GET", f"/api/tournaments/{args.event}/standings/?limit=1000")
    response = conn.getresponse()
    rows = json.loads(response.read())["results"] if response.status == 200 else []
    conn.close()
    if not rows:
        raise SystemExit(f"event {args.event}: no standings ({response.status})")
    chosen = rng.sample(rows, min(SAMPLES, len(rows)))
    variants = _variants(args.event, [r["name"] for r in chosen], [r["entry"] for r in chosen], 5)
    reader = Client(args.port, {}, READER_LANGUAGES)
    warm = http.client.HTTPConnection(HOST, args.port, timeout=30)
    for kind, _share in CACHED_MIX:
        for path in variants[kind]:
            reader.send(warm, (kind, "GET", path, None), time.time(), False)
    warm.close()
    plan = _plan(variants, CACHED_MIX, min(args.count, int(args.rate * args.duration)), rng)
    meter = Meter(args.server_pid, args.worker_pid, args.staff_pid, args.proxy_pid)
    stream = run_streams({"public": Load(reader, plan, args.rate, 1 / 3, args.procs)}, hook)[
        "public"
    ]
    meter.print(len(stream.latencies) - stream.errors())
    report("public reads (cached)", stream, args.rate, [k for k, _ in CACHED_MIX])


#: The scenarios by name; each is called with the arguments, a random generator and an
#: optional hook started just before its public load (e.g. a push client's connections).
SCENARIOS: dict[
    str, Callable[[argparse.Namespace, random.Random, Callable[[], None] | None], None]
] = {"churn": churn, "staff": churn, "burst": burst, "cached": cached}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--event", type=int, required=True)
    parser.add_argument("--scenario", choices=sorted(SCENARIOS), default="churn")
    parser.add_argument("--port", type=int, default=8000, help="public pool")
    parser.add_argument("--staff-port", type=int, default=0, help="staff pool (default --port)")
    parser.add_argument("--rate", type=float, default=200.0, help="public reads per second")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds, at most 120")
    parser.add_argument("--count", type=int, default=2000, help="cached: requests")
    parser.add_argument("--slip-rate", type=float, default=20.0, help="churn: slips per second")
    parser.add_argument("--lookups", type=int, default=4096, help="burst: find-my-table requests")
    parser.add_argument("--within", type=float, default=20.0, help="burst: seconds")
    parser.add_argument("--settle", type=float, default=15.0, help="burst: seconds after pairing")
    parser.add_argument(
        "--no-publish",
        dest="publish",
        action="store_false",
        help="burst: look up tables of the shown round without pairing and publishing one "
        "(at a low --within: the CPU of a lookup)",
    )
    parser.add_argument(
        "--procs",
        type=int,
        default=2,
        help="client processes per public stream (each with its own interpreter lock)",
    )
    parser.add_argument(
        "--server-pid",
        type=int,
        nargs="*",
        default=[],
        help="Gunicorn masters of the public pool (of the only pool without --staff-pid)",
    )
    parser.add_argument(
        "--staff-pid", type=int, nargs="*", default=[], help="Gunicorn master of the staff pool"
    )
    parser.add_argument("--worker-pid", type=int, nargs="*", default=[], help="Celery worker")
    parser.add_argument(
        "--proxy-pid",
        type=int,
        nargs="*",
        default=[],
        help="nginx master in front of the pools (bench/proxy.py): its CPU, per public read",
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    args.duration = min(args.duration, 120.0)
    if args.procs < 1:
        parser.error("--procs must be at least 1")
    SCENARIOS[args.scenario](args, random.Random(args.seed), None)


if __name__ == "__main__":
    import sys

    if sys.argv[1:2] == ["--push"]:  # the live push benchmark: bench/load_push.py
        from load_push import main as push_main

        push_main(sys.argv[2:])
    else:
        main()
