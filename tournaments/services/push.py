"""Live events pushed to the open pages: the one function services call when a state the pages
show has changed (a round published, a result recorded or corrected, a standings version
computed, the clock started, paused, resumed or extended).

:func:`push_event` writes a :class:`~tournaments.models.PushEvent` in the caller's transaction
(its id is the Server-Sent Events id a page sends back when it reconnects) and, once the
transaction commits (``transaction.on_commit``; a rolled-back one sends nothing), sends it to
the channel layer group of the tournament (:func:`push_group`). Every app server process that
holds a page of that tournament open has joined the group (``tournaments.pages.live_push``),
so with the Redis channel layer (``HKK_PUSH_REDIS_URL``) every node delivers every event; the
embedded default is Channels' in-process layer, which reaches the pages of the same process.

A layer that cannot be reached (Redis down) loses the live delivery only: the failure is
logged, the request succeeds, the event stays in the log for reconnecting pages, and the pages
keep their polling. Events older than :data:`KEEP_HOURS` are deleted when a round is published.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.utils import timezone

from tournaments import selectors
from tournaments.models import Game, Match, PushEvent, Round
from tournaments.selectors.clock import clock_read
from tournaments.services.public_state import public_state_changed

__all__ = [
    "KEEP_HOURS",
    "push_clock",
    "push_event",
    "push_group",
    "push_result",
    "push_round",
]

logger = logging.getLogger(__name__)

#: Hours a pushed event stays in the log (a page away longer reloads everything).
KEEP_HOURS = 12


def push_group(tournament_id: int) -> str:
    """The channel layer group of ``tournament_id``'s live events (ASCII, < 100 characters)."""
    return f"hkk-push.t{tournament_id}"


#: Seconds a send to a Redis channel layer may take before the request goes on without it.
SEND_TIMEOUT = 5.0

_loop_lock = threading.Lock()
_loop: tuple[int, asyncio.AbstractEventLoop] | None = None


def _sending_loop() -> asyncio.AbstractEventLoop:
    """This process's event loop for sends to a Redis channel layer, run by a daemon thread and
    started on first use (again in a forked child: the pid is checked). Keeping it keeps the
    layer's Redis connection: ``async_to_sync`` made a loop and a connection per event (about
    a tenth of a result slip's CPU, issue 22)."""
    global _loop
    with _loop_lock:
        if _loop is None or _loop[0] != os.getpid() or _loop[1].is_closed():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="hkk-push-send", daemon=True).start()
            _loop = (os.getpid(), loop)
        return _loop[1]


def _send(message: dict[str, Any]) -> None:
    """Send ``message`` to its tournament's group; from a thread that runs an event loop
    (``async_to_sync`` refuses those: an ASGI view, a test driving a browser) through a
    short-lived worker thread, waited for."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        _deliver(message)
        return
    with ThreadPoolExecutor(1) as pool:
        pool.submit(_deliver, message).result()


def _deliver(message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    group = push_group(message["tournament"])
    try:
        if type(layer).__module__.startswith("channels_redis"):
            # Redis fan-out: sent from this process's own sending loop and waited for.
            sent = asyncio.run_coroutine_threadsafe(
                layer.group_send(group, message), _sending_loop()
            )
            try:
                sent.result(timeout=SEND_TIMEOUT)
            except BaseException:
                sent.cancel()
                raise
        else:  # the in-process layer: on the loop of the pages it reaches (async_to_sync)
            async_to_sync(layer.group_send)(group, message)
    except Exception:  # the layer is down: the pages keep polling; never fail the request
        logger.warning(
            "push: event %s of tournament %s not delivered live",
            message["id"],
            message["tournament"],
            exc_info=True,
        )


def push_event(
    *,
    tournament_id: int,
    kind: str,
    data: dict[str, Any],
    tables: dict[str, dict[str, Any]] | None = None,
    staff_only: bool = False,
) -> PushEvent:
    """Record a live event of ``tournament_id`` and send it to the open pages after the commit.

    ``kind``: ``round`` | ``results`` | ``standings`` | ``clock``; ``data``: small JSON every
    allowed page receives; ``tables``: ``{"<entry id>": {...}}``, each part sent only to that
    entry's players (as a ``pairing`` event, before the ``round`` event); ``staff_only``: sent
    to the event's staff only. Returns the stored event (its ``pk`` is the event id). Raises
    nothing of its own: a layer that cannot be reached is logged after the commit."""
    event = PushEvent.objects.create(
        tournament_id=tournament_id,
        kind=kind,
        data=data,
        tables=tables or {},
        staff_only=staff_only,
    )
    message = {
        "type": "push.event",
        "id": event.pk,
        "tournament": tournament_id,
        "kind": kind,
        "data": data,
        "tables": tables or {},
        "staff_only": staff_only,
    }
    transaction.on_commit(lambda: _send(message))
    if kind != "results":  # a result changes none of the public state's facts
        public_state_changed(tournament_id)
    return event


def push_round(rnd: Round) -> PushEvent:
    """A round was published (or unpublished, finished): ``round`` with ``{"round", "status"}``
    to every page and, when published, each entry's own table and opponent (``{"round",
    "table", "opponent"}``, ``opponent`` ``None`` for a bye) to that entry's players only.
    Publishing also deletes the tournament's events older than :data:`KEEP_HOURS`."""
    tables: dict[str, dict[str, Any]] = {}
    if rnd.status == Round.Status.PUBLISHED:
        matches = Match.objects.filter(round=rnd).select_related("entry_a", "entry_b")
        for m in matches.only("table", "entry_a__name", "entry_b__name"):
            a, b = m.entry_a, m.entry_b
            tables[str(a.pk)] = {"round": rnd.number, "table": m.table, "opponent": b and b.name}
            if b is not None:
                tables[str(b.pk)] = {"round": rnd.number, "table": m.table, "opponent": a.name}
        PushEvent.objects.filter(
            tournament_id=rnd.tournament_id,
            created_at__lt=timezone.now() - timedelta(hours=KEEP_HOURS),
        ).delete()
    return push_event(
        tournament_id=rnd.tournament_id,
        kind="round",
        data={"round": rnd.number, "status": rnd.status},
        tables=tables,
    )


def push_result(match: Match, games: Sequence[Game] | None = None) -> PushEvent:
    """A result of ``match`` was recorded or corrected: ``results`` with ``{"results":
    [{"round", "table", "a", "b", "draws", "complete"}]}`` (games won by seat A and B, drawn
    games; the app server merges the results of a second into one event).

    ``games``: the match's recorded games in order when the caller holds them already (read
    under the match's row lock, plus the ones it just stored: no query); ``None`` reads them."""
    if games is None:
        games = list(match.games.order_by("number"))
    score = selectors.match_score(match, games)
    return push_event(
        tournament_id=match.round.tournament_id,
        kind="results",
        data={
            "results": [
                {
                    "round": match.round.number,
                    "table": match.table,
                    "a": score.a_wins,
                    "b": score.b_wins,
                    "draws": score.draws,
                    "complete": score.complete,
                }
            ]
        },
    )


def push_clock(rnd: Round, match: Match | None = None) -> PushEvent:
    """The clock of ``rnd`` (of one table when ``match`` is given) changed: ``clock`` with
    ``{"round", "table", "state", "seconds_left"}`` read now (``selectors.clock_read``)."""
    reading = clock_read(round=rnd, match=match)
    return push_event(
        tournament_id=rnd.tournament_id,
        kind="clock",
        data={
            "round": rnd.number,
            "table": match.table if match is not None else None,
            "state": reading.state,
            "seconds_left": reading.seconds_left,
        },
    )
