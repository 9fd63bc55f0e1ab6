"""GET /tournaments/<id>/events/: the live event stream of one tournament (Server-Sent Events)
for the live page, the projector, the player's pairing page and the judges' pages
(``tournaments/static/tournaments/push.js``). Served by the ASGI server (uvicorn,
docs/production.md) through :func:`events_app`; under WSGI (``manage.py runserver``, gunicorn)
the Django view :func:`events` answers 204, which tells the browser not to reconnect, and the
pages keep their polling.

Who receives what (the page's role on the object, as for the pages themselves): a visitor who
may see the tournament (``visible_tournament``: public events to anyone, private ones to their
staff and players) receives the ``round``, ``results``, ``standings`` and ``clock`` events; a
player also receives ``pairing``, the own entry's table and opponent of a published round, first;
``staff_only`` events reach the staff (``can_judge``) only.

Each app server process keeps one :class:`Hub` per event loop: it joins the channel layer group
of every tournament with an open stream in the process (``services.push.push_group``), receives
each event once and queues its bytes to the local streams allowed to see it. With the Redis
layer every process of every node has joined, so every node delivers every event.

Reconnecting: the stream starts with ``hello`` carrying the newest event id of the tournament;
the browser sends the id of the last event it saw as ``Last-Event-ID`` when it reconnects (after
``retry`` milliseconds), and the stream first replays the tournament's later events from the log
(``PushEvent``; more than :data:`REPLAY_LIMIT` of them: one ``reset`` event, the page reloads
its parts). A stream whose queue overflows (a client that does not read) is closed and replays
on its reconnect. ``?last=`` does the same as the header for clients that cannot set it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import weakref
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from hkk_tournament.errors import NotFound
from tournaments import selectors
from tournaments.access import can_judge, can_view_tournament, player_entry_ids
from tournaments.models import PushEvent
from tournaments.services.push import push_group

__all__ = ["REPLAY_LIMIT", "Hub", "StreamAccess", "events", "events_app", "hub"]

logger = logging.getLogger(__name__)

#: Events a reconnecting page gets again at most; beyond that it gets one ``reset``.
REPLAY_LIMIT = 50
#: Events waiting for a slow client at most before its stream is closed (it then replays).
QUEUE_SIZE = 64
#: Milliseconds the browser waits before it reconnects a dropped stream.
RETRY_MS = 3000
#: Seconds the results of a tournament are gathered into one ``results`` event (20 slips a
#: second would otherwise wake every open page 20 times a second).
RESULTS_EVERY = 1.0


def _frame(event_id: int, kind: str, data: Any) -> bytes:
    """One Server-Sent Events frame."""
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return f"id: {event_id}\nevent: {kind}\ndata: {body}\n\n".encode()


class StreamAccess:
    """What one open stream may receive: ``staff`` (the event's staff), ``entries`` (ids of the
    visitor's own entries, as strings, for their ``pairing`` events)."""

    __slots__ = ("entries", "queue", "staff", "__weakref__")

    def __init__(self, *, staff: bool, entries: frozenset[str]) -> None:
        self.staff = staff
        self.entries = entries
        self.queue: asyncio.Queue[tuple[int, bytes] | None] = asyncio.Queue(QUEUE_SIZE)

    def offer(self, message: dict[str, Any], frame: bytes) -> None:
        """Queue ``message`` (already rendered as ``frame``) if this stream may see it; the
        own entry's ``pairing`` goes first. A full queue closes the stream (``None``)."""
        if message["staff_only"] and not self.staff:
            return
        event_id = message["id"]
        frames = [
            (event_id, _frame(event_id, "pairing", message["tables"][entry]))
            for entry in self.entries
            if entry in message["tables"]
        ]
        frames.append((event_id, frame))
        for item in frames:
            try:
                self.queue.put_nowait(item)
            except asyncio.QueueFull:
                self._close()
                return

    def _close(self) -> None:
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait(None)


class Hub:
    """The streams of one process and event loop, and the channel layer group membership that
    feeds them: one receive per event for all of them."""

    def __init__(self) -> None:
        self.layer = get_channel_layer()
        self.channel: str | None = None
        self.streams: dict[int, set[StreamAccess]] = {}
        self._task: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()
        self._results: dict[int, list[dict[str, Any]]] = {}

    async def join(self, tournament_id: int, stream: StreamAccess) -> None:
        """Register ``stream`` for ``tournament_id``'s events (joining its group first)."""
        async with self._lock:
            if self.channel is None:
                self.channel = await self.layer.new_channel()
                self._task = asyncio.ensure_future(self._receive())
            streams = self.streams.get(tournament_id)
            if streams is None:
                await self.layer.group_add(push_group(tournament_id), self.channel)
                streams = self.streams[tournament_id] = set()
            streams.add(stream)

    def leave(self, tournament_id: int, stream: StreamAccess) -> None:
        """Forget ``stream`` (the process stays in the group: a page reconnects soon)."""
        self.streams.get(tournament_id, set()).discard(stream)

    def dispatch(self, message: dict[str, Any]) -> None:
        """Hand one received event to the local streams of its tournament; ``results`` are
        gathered for :data:`RESULTS_EVERY` seconds and handed on as one event."""
        tournament_id = message.get("tournament", 0)
        streams = self.streams.get(tournament_id)
        if not streams:
            return
        if message["kind"] == "results" and not message["staff_only"]:
            pending = self._results.get(tournament_id)
            if pending is None:
                pending = self._results[tournament_id] = []
                asyncio.get_running_loop().call_later(
                    RESULTS_EVERY, self._flush_results, tournament_id
                )
            pending.append(message)
            return
        self._deliver(streams, message)

    def _flush_results(self, tournament_id: int) -> None:
        pending = self._results.pop(tournament_id, [])
        streams = self.streams.get(tournament_id)
        if not pending or not streams:
            return
        merged = [r for m in pending for r in m["data"]["results"]]
        last = max(pending, key=lambda m: m["id"])
        self._deliver(streams, {**last, "data": {"results": merged}})

    @staticmethod
    def _deliver(streams: set[StreamAccess], message: dict[str, Any]) -> None:
        frame = _frame(message["id"], message["kind"], message["data"])
        for stream in list(streams):
            stream.offer(message, frame)

    async def _receive(self) -> None:
        assert self.channel is not None
        while True:
            try:
                message = await self.layer.receive(self.channel)
            except asyncio.CancelledError:
                raise
            except Exception:  # the layer is down: keep trying; pages poll meanwhile
                logger.warning("push: receiving failed", exc_info=True)
                await asyncio.sleep(1)
                continue
            self.dispatch(message)


_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = weakref.WeakKeyDictionary()


def hub() -> Hub:
    """The :class:`Hub` of the running event loop (created on first use)."""
    loop = asyncio.get_running_loop()
    found = _hubs.get(loop)
    if found is None:
        found = _hubs[loop] = Hub()
    return found


def _access(user: Any, tournament_id: int) -> tuple[StreamAccess, int] | None:
    """The stream's rights and the tournament's newest event id; ``None`` when the visitor may
    not see the tournament (as ``visible_tournament``: the page answers 404)."""
    try:
        tournament = selectors.tournament_get_visible(tournament_id=tournament_id, user=user)
    except NotFound:
        return None
    if not can_view_tournament(user, tournament):
        return None
    access = StreamAccess(
        staff=can_judge(user, tournament),
        entries=frozenset(str(e) for e in player_entry_ids(user, tournament)),
    )
    newest = (
        PushEvent.objects.filter(tournament_id=tournament_id)
        .order_by("-id")
        .values_list("id", flat=True)
        .first()
    )
    return access, newest or 0


def _replay(tournament_id: int, access: StreamAccess, last_id: int) -> list[tuple[int, bytes]]:
    """The frames of the events after ``last_id`` this stream may see, oldest first (one
    ``reset`` when there are more than :data:`REPLAY_LIMIT`)."""
    rows = list(
        PushEvent.objects.filter(tournament_id=tournament_id, id__gt=last_id).order_by("id")[
            : REPLAY_LIMIT + 1
        ]
    )
    if len(rows) > REPLAY_LIMIT:
        newest = PushEvent.objects.filter(tournament_id=tournament_id).order_by("-id").first()
        top = newest.pk if newest is not None else last_id
        return [(top, _frame(top, "reset", {}))]
    probe = StreamAccess(staff=access.staff, entries=access.entries)
    probe.queue = asyncio.Queue()  # unbounded: the replay is bounded by the query
    for row in rows:
        message = {
            "id": row.pk,
            "kind": row.kind,
            "data": row.data,
            "tables": row.tables,
            "staff_only": row.staff_only,
        }
        probe.offer(message, _frame(row.pk, row.kind, row.data))
    frames: list[tuple[int, bytes]] = []
    while not probe.queue.empty():
        item = probe.queue.get_nowait()
        if item is not None:
            frames.append(item)
    return frames


def _last_event_id(headers: dict[bytes, bytes], query: bytes) -> int | None:
    raw = headers.get(b"last-event-id") or parse_qs(query.decode("latin-1")).get("last", [""])[0]
    try:
        return max(0, int(raw)) if raw else None
    except ValueError:
        return None


async def _frames(
    tournament_id: int, access: StreamAccess, newest: int, last_id: int | None
) -> AsyncGenerator[bytes, None]:
    """The bytes of one open stream: ``retry``, ``hello`` or the replay, then the live events
    and a keep-alive comment every ``HKK_PUSH_KEEPALIVE_SECONDS``."""
    own = hub()
    await own.join(tournament_id, access)  # first, so nothing committed meanwhile is missed
    try:
        yield f"retry: {RETRY_MS}\n\n".encode()
        replayed: set[int] = set()
        if last_id is None:
            yield _frame(newest, "hello", {"id": newest})
        else:
            replay = await database_sync_to_async(_replay)(tournament_id, access, last_id)
            for event_id, frame in replay:
                replayed.add(event_id)
                yield frame
        keepalive = settings.HKK_PUSH_KEEPALIVE_SECONDS
        while True:
            try:
                async with asyncio.timeout(keepalive):
                    item = await access.queue.get()
            except TimeoutError:
                yield b": keep-alive\n\n"
                continue
            if item is None:
                return
            # A live event the replay sent, or one the client already has by its own word
            # (``Last-Event-ID``: received before it reconnected, handed to this stream late
            # by the hub), is not sent twice.
            if item[0] not in replayed and (last_id is None or item[0] > last_id):
                yield item[1]
    finally:
        own.leave(tournament_id, access)


async def _pump(send: Any, frames: AsyncIterator[bytes]) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [
                (b"content-type", b"text/event-stream; charset=utf-8"),
                (b"cache-control", b"no-store"),
                (b"x-accel-buffering", b"no"),  # nginx: pass each event on at once
            ],
        }
    )
    async for chunk in frames:
        await send({"type": "http.response.body", "body": chunk, "more_body": True})
    await send({"type": "http.response.body", "body": b""})


async def _until_disconnect(receive: Any) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


async def events_app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """The ASGI application of ``/tournaments/<id>/events/`` (routed in
    ``hkk_tournament.asgi`` behind Channels' ``AuthMiddlewareStack``, which puts the session's
    user in ``scope["user"]``): 404 when the visitor may not see the tournament, else the
    ``text/event-stream`` of the module docstring until the client goes away. It holds no
    thread and no database connection while it waits (unlike a Django view under ASGI, whose
    request keeps a thread of its own to its end)."""
    tournament_id = int(scope["url_route"]["kwargs"]["tournament_id"])
    found = await database_sync_to_async(_access)(scope["user"], tournament_id)
    if found is None or scope.get("method") not in ("GET", "HEAD"):
        status = 404 if found is None else 405
        await send({"type": "http.response.start", "status": status, "headers": []})
        await send({"type": "http.response.body", "body": b""})
        return
    access, newest = found
    headers = dict(scope.get("headers", []))
    frames = _frames(tournament_id, access, newest, _last_event_id(headers, scope["query_string"]))
    pump = asyncio.ensure_future(_pump(send, frames))
    gone = asyncio.ensure_future(_until_disconnect(receive))
    try:
        await asyncio.wait([pump, gone], return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (pump, gone):
            task.cancel()
        await asyncio.gather(pump, gone, return_exceptions=True)
        await frames.aclose()


@require_GET
def events(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """GET /tournaments/<id>/events/ where no ASGI server routes it to :func:`events_app`
    (``manage.py runserver``, gunicorn): 204, so the browser stops reconnecting and the
    pages keep their polling."""
    return HttpResponse(status=204)
