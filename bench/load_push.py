"""Benchmark: live push to many open pages while a round is published (issue 22, 6c).

Usage (PostgreSQL and Redis; the ASGI servers are started by the benchmark itself)::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/hkk_bench \\
    HKK_PUSH_REDIS_URL=redis://127.0.0.1:6379/3 \\
        .venv/bin/python bench/load_push.py [--event ID | --entries 4096]
        [--connections 500 2000 4096] [--nodes 1] [--repeat 3]

(``bench/load.py --push …`` runs the same.) One event is used (``--event``: an existing one,
e.g. built by ``bench/event.py``, whose next round is paired here; otherwise a new public
event of ``--entries`` players with the organiser's override is built). ``--nodes`` uvicorn
processes (``hkk_tournament.asgi``, the production command of docs/production.md, one worker
each) are started on free loopback ports with the same environment; then for each count of
``--connections``: that many anonymous pages open the event's stream
(``/tournaments/<id>/events/``, spread over the nodes) and wait for their ``hello``; the round
is published through the services in this process (``round_publish``: the ``round`` event
with every entry's table goes out through Redis after the commit) and each page's time to its
``round`` event is taken from the moment ``round_publish`` was called. The round is then
unpublished again for the next try (``--repeat`` tries per count).

Printed per count: connections held, the servers' memory (RSS) before and while holding them
and per connection, seconds to open them all, the publish call itself (seconds, it includes
the commit and the send to Redis), and publish-to-delivery p50 / p99 / max (the last page) in
seconds over the tries, plus pages that got nothing within 10 s. The client runs on the same
machine (2 cores shared with the servers and PostgreSQL): its own reading is part of each
figure. Only 127.0.0.1 is contacted; every wait is bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import django

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hkk_tournament.settings")
os.environ.setdefault("DJANGO_LOG_LEVEL", "ERROR")
django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402

from tournaments import services  # noqa: E402
from tournaments.models import Round, Tournament  # noqa: E402
from tournaments.permissions import SYSTEM  # noqa: E402

UVICORN = Path(sys.executable).with_name("uvicorn")
#: Seconds a page waits for the round event before it counts as missed.
DELIVERY_TIMEOUT = 10.0


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _start_node() -> tuple[subprocess.Popen, int]:
    port = _free_port()
    env = {**os.environ, "DJANGO_LOG_LEVEL": "ERROR", "HKK_REQUEST_LOG_LEVEL": "WARNING"}
    server = subprocess.Popen(
        [str(UVICORN), "hkk_tournament.asgi:application", "--port", str(port)]
        + ["--lifespan", "off", "--log-level", "warning", "--no-access-log"]
        + ["--backlog", "4096"],
        cwd=BASE_DIR,
        env=env,
        stdout=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz/", timeout=2):
                return server, port
        except OSError:
            if time.monotonic() > deadline or server.poll() is not None:
                server.kill()
                raise SystemExit("the ASGI server did not start") from None
            time.sleep(0.2)


def _event(args: argparse.Namespace) -> Tournament:
    """The event to publish in: ``--event``, or a new one of ``--entries`` players."""
    if args.event:
        return Tournament.objects.get(pk=args.event)
    t = services.tournament_create(
        owner=None,
        name=f"Push {args.entries}",
        format_slug="hkk",
        settings=services.TournamentSettings(planned_rounds=20),
    )
    services.tournament_set_options(actor=SYSTEM, tournament=t, is_public=True)
    services.tournament_open_registration(actor=SYSTEM, tournament=t)
    for i in range(1, args.entries + 1):
        entry = services.entry_register_player(tournament=t, player_name=f"Player {i:05d}")
        services.entry_override_deck(actor=SYSTEM, entry=entry, reason="benchmark")
    print(f"event {t.pk}: {args.entries} entries", flush=True)
    return services.tournament_start(actor=SYSTEM, tournament=t)


def _draft(tournament: Tournament) -> Round:
    """A draft round of ``tournament`` to publish: the last round if it is a draft or
    published (unpublished again), else the next round paired now."""
    last = tournament.rounds.order_by("-number").first()
    if last is not None and last.status == Round.Status.PUBLISHED:
        return services.round_unpublish(
            actor=SYSTEM, round=last, reason="benchmark", delete_results=True
        )
    if last is not None and last.status == Round.Status.DRAFT:
        return last
    t0 = time.perf_counter()
    rnd = services.round_pair_next(actor=SYSTEM, tournament=tournament, seed=1)
    print(f"round {rnd.number} paired in {time.perf_counter() - t0:.1f} s", flush=True)
    return rnd


class Page:
    """One open stream: ``ready`` once its ``hello`` arrived, ``got`` the monotonic time of the
    ``round`` event."""

    def __init__(self) -> None:
        self.ready = asyncio.Event()
        self.got: float | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def run(self, port: int, path: str, published: asyncio.Event) -> None:
        reader, self.writer = await asyncio.open_connection("127.0.0.1", port)
        self.writer.write(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode()
        )
        while True:
            line = await reader.readline()
            if not line:
                return
            if line.startswith(b"event: hello"):
                self.ready.set()
            elif line.startswith(b"event: round") and published.is_set():
                self.got = time.monotonic()
                return

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def _try(
    count: int, ports: list[int], path: str, tournament: Tournament
) -> tuple[float, float, list[float], int]:
    """Open ``count`` pages, publish, wait: (seconds to open, publish call seconds, delivery
    seconds of the pages that got it, pages without it)."""
    published = asyncio.Event()
    pages = [Page() for _ in range(count)]
    t0 = time.monotonic()
    tasks = []
    for i, page in enumerate(pages):
        tasks.append(asyncio.ensure_future(page.run(ports[i % len(ports)], path, published)))
        if i % 100 == 99:
            await asyncio.sleep(0.05)  # a venue's phones do not all connect in one instant
    try:
        await asyncio.wait_for(asyncio.gather(*(p.ready.wait() for p in pages)), 600)
    except TimeoutError:
        failed = [t.exception() for t in tasks if t.done() and not t.cancelled()]
        ready = sum(p.ready.is_set() for p in pages)
        raise SystemExit(f"only {ready} of {count} pages opened in 600 s: {failed[:3]}") from None
    opened = time.monotonic() - t0
    rnd = await asyncio.to_thread(_draft, tournament)
    published.set()
    start = time.monotonic()
    await asyncio.to_thread(lambda: services.round_publish(actor=SYSTEM, round=rnd))
    call = time.monotonic() - start
    await asyncio.wait(tasks, timeout=DELIVERY_TIMEOUT)
    for task in tasks:
        task.cancel()
    for page in pages:
        page.close()
    delays = [p.got - start for p in pages if p.got is not None]
    return opened, call, delays, count - len(delays)


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def _measure(args: argparse.Namespace, tournament: Tournament, nodes: list) -> None:
    ports = [port for _, port in nodes]
    path = f"/tournaments/{tournament.pk}/events/"
    for count in args.connections:
        delays: list[float] = []
        missed = 0
        calls: list[float] = []
        held_mb = 0.0
        base_mb = sum(_rss_mb(s.pid) for s, _ in nodes)
        opened = 0.0
        for _ in range(args.repeat):
            opened, call, got, lost = asyncio.run(_try(count, ports, path, tournament))
            delays.extend(got)
            missed += lost
            calls.append(call)
            held_mb = max(held_mb, sum(_rss_mb(s.pid) for s, _ in nodes))
        per = (held_mb - base_mb) * 1024 / count
        print(
            f"{count:>5} connections on {len(nodes)} node(s): RSS {base_mb:.0f} → {held_mb:.0f} MB"
            f" ({per:.0f} kB each); opened in {opened:.1f} s; publish call p50"
            f" {_pct(calls, 0.5):.3f} s; publish → delivery p50 {_pct(delays, 0.5):.3f} s,"
            f" p99 {_pct(delays, 0.99):.3f} s, max {max(delays, default=float('nan')):.3f} s;"
            f" missed {missed} of {count * args.repeat}",
            flush=True,
        )


def main(argv: list[str] | None = None) -> None:
    """Run the push benchmark (module docstring); ``argv`` defaults to ``sys.argv[1:]``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--event", type=int, default=0)
    parser.add_argument("--entries", type=int, default=4096)
    parser.add_argument("--connections", type=int, nargs="+", default=[500, 2000, 4096])
    parser.add_argument("--nodes", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    if connection.vendor != "postgresql":
        print("warning: DATABASE_URL is not PostgreSQL; the figures are not comparable")
    if str(settings.CHANNEL_LAYERS["default"]["BACKEND"]).startswith("channels.layers"):
        raise SystemExit("set HKK_PUSH_REDIS_URL: the servers run in other processes")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))
    settings.DEBUG = False
    call_command("migrate", verbosity=0)
    tournament = _event(args)
    nodes = [_start_node() for _ in range(args.nodes)]
    try:
        _measure(args, tournament, nodes)
    finally:
        for server, _ in nodes:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()


if __name__ == "__main__":
    main()
