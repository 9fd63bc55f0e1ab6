"""The import preview in bounded time, on PostgreSQL: the duplicate check is a fixed number of
indexed queries whatever the list and field size; a preview takes no lock, so a check-in while
another connection holds the event's lock is not in its way, and a preview runs while the event
is locked; saving takes the lock once for one short transaction; the stored name keys follow
every rename; PostgreSQL's statement_timeout really stops a statement."""

from __future__ import annotations

import importlib
import threading
import time

import pytest
from django.apps import apps
from django.db import OperationalError, connection, connections, transaction
from django.test.utils import CaptureQueriesContext

from tests.factories import make_tournament
from tournaments import services
from tournaments.models import Entry, EntryMember, Player
from tournaments.permissions import SYSTEM
from tournaments.services._common import lock_tournament

pytestmark = [
    pytest.mark.postgres_only,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="needs PostgreSQL row locks, statement_timeout and concurrent connections",
    ),
]


def _list(rows: int, offset: int = 0) -> str:
    return "név;e-mail\n" + "".join(
        f"Új Játékos {offset + i};uj{offset + i}@example.com\n" for i in range(rows)
    )


def _queries(t, text: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        services.entries_import(actor=SYSTEM, tournament=t, text=text)
    return len(ctx.captured_queries)


def test_preview_queries_do_not_grow_with_the_list_or_the_field() -> None:
    t, entries = make_tournament(entries=4, decks=False)
    small = _queries(t, _list(5))
    big = _queries(t, _list(200))
    for i in range(40):
        services.entry_register_player(tournament=t, player_name=f"Kovács Péter {i}")
    bigger_field = _queries(t, _list(200) + "KOVACS PETER 7;\n")
    assert small == big == bigger_field <= 5
    result = services.entries_import(actor=SYSTEM, tournament=t, text="kovacs  péter 7;\n")
    assert len(result.rows[0].warnings) == 1 and "Kovács Péter 7" in result.rows[0].warnings[0]


def test_preview_takes_no_lock_and_checkin_is_never_behind_it() -> None:
    t, entries = make_tournament(entries=3, decks=False)
    held = threading.Event()
    release = threading.Event()

    def hold_the_event_lock() -> None:
        try:
            with transaction.atomic():
                lock_tournament(t.pk)
                held.set()
                release.wait(timeout=20)
        finally:
            connections.close_all()

    holder = threading.Thread(target=hold_the_event_lock)
    holder.start()
    try:
        assert held.wait(timeout=10)
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '2s'")  # a lock wait fails instead of hanging
        started = time.perf_counter()
        result = services.entries_import(actor=SYSTEM, tournament=t, text=_list(50))
        assert time.perf_counter() - started < 2 and result.ok and not result.saved
    finally:
        release.set()
        holder.join(timeout=20)
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = 0")
    assert not Entry.objects.filter(name__startswith="Új").exists()


def test_saving_holds_the_event_lock_only_for_its_short_write() -> None:
    t, entries = make_tournament(entries=3, decks=False)
    text = _list(300)
    waits: list[float] = []
    stop = threading.Event()

    def check_in_meanwhile() -> None:
        try:
            while not stop.is_set():
                began = time.perf_counter()
                services.entry_check_in(actor=SYSTEM, entry=Entry.objects.get(pk=entries[0].pk))
                waits.append(time.perf_counter() - began)
                time.sleep(0.01)
        finally:
            connections.close_all()

    checker = threading.Thread(target=check_in_meanwhile)
    checker.start()
    try:
        with CaptureQueriesContext(connection) as ctx:
            result = services.entries_import(actor=SYSTEM, tournament=t, text=text, dry_run=False)
    finally:
        stop.set()
        checker.join(timeout=20)
    assert result.saved and Entry.objects.filter(tournament=t).count() == 303
    locks = [q["sql"] for q in ctx.captured_queries if "FOR UPDATE" in q["sql"]]
    assert len(locks) == 1  # one lock, one transaction
    assert len(ctx.captured_queries) <= 12  # bulk inserts, not one registration per row
    assert waits and max(waits) < 1.0


def test_name_keys_follow_every_save_and_the_migration_fills_them() -> None:
    t, (entry,) = make_tournament(entries=1, decks=False)
    player = EntryMember.objects.get(entry=entry).player
    player.display_name = "  Őri   ÜRSULA "
    player.save(update_fields=["display_name"])
    entry.name = "Csapat Ékezet"
    entry.save(update_fields=["name"])
    assert Player.objects.get(pk=player.pk).name_key == "ori ursula"
    assert Entry.objects.get(pk=entry.pk).name_key == "csapat ekezet"
    assert services.same_name_entries(t, "ori ursula") == ["  Őri   ÜRSULA "]
    Player.objects.update(name_key="")
    Entry.objects.update(name_key="")
    migration = importlib.import_module("tournaments.migrations.0011_name_keys_for_duplicate_check")
    migration.fill(apps, None)
    assert Player.objects.get(pk=player.pk).name_key == "ori ursula"
    assert Entry.objects.get(pk=entry.pk).name_key == "csapat ekezet"


def test_statement_timeout_is_set_and_stops_a_long_statement() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SHOW statement_timeout")
        assert cursor.fetchone()[0] == "30s"
        cursor.execute("SET statement_timeout = '100ms'")
        try:
            with pytest.raises(OperationalError) as exc:
                cursor.execute("SELECT pg_sleep(2)")
        finally:
            cursor.execute("RESET statement_timeout")
        assert type(exc.value.__cause__).__name__ == "QueryCanceled"


def test_a_cancelled_statement_answers_503_on_the_api_and_the_pages() -> None:
    from django.test import RequestFactory

    from hkk_tournament.web.exceptions import describe_exception
    from hkk_tournament.web.middleware import ApplicationErrorMiddleware

    with connection.cursor() as cursor:
        cursor.execute("SET statement_timeout = '50ms'")
        try:
            with pytest.raises(OperationalError) as exc:
                cursor.execute("SELECT pg_sleep(1)")
        finally:
            cursor.execute("RESET statement_timeout")
    error = describe_exception(exc.value)
    assert error is not None and (error.status, error.code) == (503, "statement_timeout")
    assert error.headers["Retry-After"]
    page = ApplicationErrorMiddleware(lambda r: None).process_exception(  # type: ignore[arg-type,return-value]
        RequestFactory().get("/tournaments/"), exc.value
    )
    assert page is not None and page.status_code == 503 and page["Retry-After"]
