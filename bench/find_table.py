"""Benchmark: "find my table" in-process (target: at most 1 ms of server CPU per search).

Usage (a copy of the event ``bench/event.py`` built, never the one you work in)::

    createdb -h 127.0.0.1 -U postgres -T hkk_bench hkk_bench_find
    DJANGO_DEBUG=0 DJANGO_SECRET_KEY=bench .venv/bin/python manage.py collectstatic --noinput
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/hkk_bench_find \\
        HKK_CACHE_URL=redis://127.0.0.1:6379/12 DJANGO_DEBUG=0 DJANGO_SECRET_KEY=bench \\
        .venv/bin/python bench/find_table.py --event 1 --names 1000 --before 200

Prints, for the live page, its ``?partial=1`` fragment and the standings page of event
``--event`` (anonymous, Hungarian):

- before: CPU per search (``time.process_time``) with the search parts switched off, i.e. the
  page rendered per search as it was (``--before`` distinct names, each a new cache key);
- the parts: build time (wall and CPU, cold: nothing in the cache), pickled size (what the
  shared cache holds) and the memory the unpickled parts take in a process (``tracemalloc``);
- after: CPU per search over ``--names`` distinct names through the test client (the whole
  middleware stack) and through the view function alone (``RequestFactory``, no middleware),
  and the search itself (``find_table.respond`` on parts in memory);
- pages: CPU per first rendering of pages 2–21 of each list (every page is new after a
  standings recompute) with its rows rendered, and with its rows cut from the parts
  (``find_table.page_rows``).
"""

from __future__ import annotations

import argparse
import os
import pickle
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _cpu(get: Callable[[str], Any], urls: list[str]) -> float:
    """Milliseconds of this process's CPU per ``get(url)`` (the answers' statuses checked)."""
    start = time.process_time()
    for url in urls:
        response = get(url)
        assert response.status_code == 200, response.status_code
    return (time.process_time() - start) * 1000 / len(urls)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--event", type=int, default=1)
    parser.add_argument("--names", type=int, default=1000)
    parser.add_argument("--before", type=int, default=200)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hkk_tournament.settings")
    import django

    django.setup()
    from django.contrib.auth.models import AnonymousUser
    from django.core.cache import cache
    from django.test import Client, RequestFactory
    from django.utils import translation

    from tournaments import selectors
    from tournaments.models import Tournament
    from tournaments.pages import find_table, public

    translation.activate("hu")
    tournament = Tournament.objects.get(pk=args.event)
    names = sorted(set(selectors.names_by_entry(tournament).values()))[: args.names]
    live = f"/tournaments/{tournament.pk}/live/"
    standings = f"/tournaments/{tournament.pk}/standings/"
    pages = {
        "live": lambda n: f"{live}?{urlencode({'q': n})}",
        "live-partial": lambda n: f"{live}?{urlencode({'partial': 1, 'q': n})}",
        "standings": lambda n: f"{standings}?{urlencode({'q': n})}",
    }
    client = Client(HTTP_ACCEPT_LANGUAGE="hu")
    cache.clear()
    print(f"event {tournament.pk}: {len(names)} distinct names searched, Hungarian, anonymous")
    print(f"machine load average: {os.getloadavg()[0]:.2f}")
    real_live, real_standings = find_table.live_search, find_table.standings_search
    find_table.live_search = lambda *a, **kw: None
    find_table.standings_search = lambda *a, **kw: None
    for kind, url in pages.items():
        client.get(url("warm-up"))  # the page's other caches (fragments, index) warm
        urls = [url(n) for n in names[1 : args.before + 1]]
        print(
            f"before  {kind:13} {_cpu(client.get, urls):8.2f} ms CPU per search (rendered per name)"
        )
    find_table.live_search, find_table.standings_search = real_live, real_standings
    cache.clear()
    find_table._KEPT.clear()
    for kind, url in pages.items():
        wall, cpu = time.perf_counter(), time.process_time()
        client.get(url(names[0]))
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        key = f"find-parts:{kind}:{tournament.pk}:hu"
        blob = pickle.dumps(cache.get(key))
        tracemalloc.start()
        parts = pickle.loads(blob)
        memory = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        print(
            f"parts   {kind:13} built in {wall:.2f} s wall, {cpu:.2f} s CPU (cold, incl. the "
            f"first search); {len(parts.rows)} rows, {len(blob) / 1e6:.2f} MB pickled, "
            f"{memory / 1e6:.2f} MB in memory"
        )
    factory = RequestFactory(HTTP_ACCEPT_LANGUAGE="hu")

    def view(url: str) -> Any:
        request = factory.get(url)
        request.user = AnonymousUser()
        if "standings" in url:
            return public.standings(request, tournament.pk)
        return public.live(request, tournament.pk)

    for kind, url in pages.items():
        urls = [url(n) for n in names]
        print(f"after   {kind:13} {_cpu(client.get, urls):8.3f} ms CPU per search (test client)")
        print(f"after   {kind:13} {_cpu(view, urls):8.3f} ms CPU per search (view function)")
        parts = find_table._KEPT[f"find-parts:{kind}:{tournament.pk}:hu"]
        requests = [factory.get(u) for u in urls]
        start = time.process_time()
        for request, n in zip(requests, names, strict=True):
            find_table.respond(request, parts, n, None)
        per = (time.process_time() - start) * 1000 / len(names)
        print(f"after   {kind:13} {per:8.3f} ms CPU per search (find_table.respond alone)")
    _list_pages(client, tournament.pk, live, standings)


def _list_pages(client: Any, event: int, live: str, standings: str) -> None:
    """A list page rendered for the first time at a version (every page after a recompute):
    its rows rendered, then cut from the search parts this process holds (issue 22)."""
    from django.core.cache import cache

    from tournaments.pages import find_table

    lists = {
        "live": f"{live}?page=",
        "live-partial": f"{live}?partial=1&page=",
        "standings": f"{standings}?page=",
    }
    real = find_table.page_rows
    for kind, base in lists.items():
        urls = [f"{base}{n}" for n in range(2, 22)]
        find_table.page_rows = lambda *a, **kw: None
        rendered = _cpu(client.get, urls)
        find_table.page_rows = real
        cache.clear()  # the stored pages and fragments; this process keeps the parts
        cut = _cpu(client.get, urls)
        print(
            f"pages   {kind:13} {rendered:8.2f} ms CPU per new page with its rows rendered, "
            f"{cut:6.2f} ms cut from the parts ({len(urls)} pages)"
        )


if __name__ == "__main__":
    main()
