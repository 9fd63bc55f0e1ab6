"""``manage.py sync_catalogue hkk`` and the admin-started sync against a fake of the publisher's
card-search API on loopback (a threaded ``http.server`` serving ``tests/fixtures/hkk_api/``).
No test reaches the real host.
"""

from __future__ import annotations

import io
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client, override_settings
from django.utils import translation

from decks import models
from decks.domain import codes
from decks.selectors.cache import clear_caches
from decks.services.publisher_sync import catalogue_sync_run_start
from decks.services.validation import deck_validate, validation_result_dict

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "hkk_api"
#: The fake answers at most this many cards a query (the real server: 1,000).
CAP = 3

pytestmark = pytest.mark.django_db


class FakeApi(BaseHTTPRequestHandler):
    """``/<mode>/api.php?lapkereso/<endpoint>``; mode ``ok``, ``html`` (answers HTML) or
    ``broken`` (a card lacks ``editions``). Counts the requests in ``server.log``."""

    def log_message(self, format: str, *args: object) -> None:  # silence the default log
        pass

    def do_GET(self) -> None:
        path, _sep, query = self.path.partition("?")
        mode = path.strip("/").split("/")[0]
        endpoint = unquote(query).removeprefix("lapkereso/")
        self.server.log.append(endpoint)  # type: ignore[attr-defined]
        if mode == "html":
            self._send(200, b"<html>maintenance</html>", "text/html")
            return
        constants = json.loads((FIXTURES / "cardConstants.json").read_text("utf-8"))
        cards = json.loads((FIXTURES / "cards.json").read_text("utf-8"))["cards"]
        if mode == "broken":
            del cards[0]["editions"]
        years = {
            e["id"]: int(e["megjelenesDatum"][:4])
            for e in constants["editions"]
            if e["megjelenesDatum"]
        }
        if endpoint == "cardConstants":
            body: object = constants
        elif endpoint.startswith("kereses&megjelenes="):
            year = int(endpoint.split("=")[1].split("-")[0])
            found = [c for c in cards if min(years[e] for e in c.get("editions", [1])) == year]
            body = {"cards": found[:CAP]}
        elif endpoint.startswith("kereses&kiegeszito="):
            edition = int(endpoint.split("=")[1])
            body = {"cards": [c for c in cards if edition in c.get("editions", [])][:CAP]}
        else:
            self._send(404, b"not found", "text/plain")
            return
        self._send(200, json.dumps(body, ensure_ascii=False).encode("utf-8"), "application/json")

    def _send(self, status: int, body: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def fake_api() -> Iterator[tuple[str, list[str]]]:
    """``(http://127.0.0.1:PORT, request log)``; the server stops after the test."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), FakeApi)
    server.log = []  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", server.log  # type: ignore[attr-defined]
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(autouse=True)
def _empty_hkk_catalogue():
    """No HKK cards or editions (the bundled ones are restored when the test's transaction
    rolls back); the fake's cap; no delay between requests."""
    models.Card.objects.filter(game__slug="hkk").delete()
    models.Edition.objects.filter(game__slug="hkk").delete()
    with override_settings(HKK_CARD_API_CAP=CAP, HKK_CARD_API_DELAY=0):
        clear_caches()
        yield
    clear_caches()


def sync(base: str, cache: Path, *extra: str) -> str:
    out = io.StringIO()
    with translation.override("en"):
        _call(base, cache, extra, out)
    return out.getvalue()


def _call(base: str, cache: Path, extra: tuple[str, ...], out: io.StringIO) -> None:
    call_command(
        "sync_catalogue",
        "hkk",
        "--url",
        base,
        "--cache",
        str(cache),
        "--delay",
        "0",
        *extra,
        stdout=out,
        stderr=io.StringIO(),
    )


def hkk_cards() -> dict[str, models.Card]:
    return {c.external_id: c for c in models.Card.objects.filter(game__slug="hkk")}


def test_sync_creates_cards_and_editions_and_a_rerun_fetches_and_changes_nothing(
    fake_api, tmp_path
):
    base, log = fake_api
    out = sync(f"{base}/ok/api.php?lapkereso", tmp_path / "cache")
    years = 2019 - 1995 + 1
    # cardConstants + one query a year from 1995 to 2019 + 2019 split into its two editions
    assert len(log) == 1 + years + 2
    assert log.count("kereses&megjelenes=2019-2019") == 1
    assert {"kereses&kiegeszito=190", "kereses&kiegeszito=191"} <= set(log)
    assert "hkk: 9 created, 0 updated, 0 unchanged, 0 missing" in out
    cards = hkk_cards()
    assert set(cards) == {"1001", "1002", "1003", "1004", "2001", "3001", "3002", "3003", "3004"}
    garokk = cards["1001"]
    assert garokk.types == ["Szörny", "Óriás"] and garokk.colours == ["Vörös"]
    assert garokk.rarity == "common"
    assert sorted(e.code for e in garokk.editions.all()) == ["1", "37"]
    assert cards["1003"].kind == "rule_card" and cards["1003"].colours == []
    assert "rules text" not in json.dumps([c.attributes for c in cards.values()])
    edition = models.Edition.objects.get(game__slug="hkk", code="190")
    assert (edition.name, edition.released, edition.kind) == (
        "Próbakiadás 2019 tavasz",
        "2019-03-01",
        "kiegészítő",
    )
    assert models.Edition.objects.get(game__slug="hkk", code="300").released == ""
    game = models.Game.objects.get(slug="hkk")
    assert game.coverage == "complete" and game.last_synced_at is not None
    assert game.catalogue_source.startswith(base)

    log.clear()
    again = sync(f"{base}/ok/api.php?lapkereso", tmp_path / "cache")
    assert log == []  # everything came from the cache
    assert "0 created, 0 updated, 9 unchanged, 0 missing" in again
    assert "0 requests, 28 from the cache" in again
    assert hkk_cards().keys() == cards.keys()


def test_dry_run_prints_the_diff_and_writes_nothing(fake_api, tmp_path):
    base, _log = fake_api
    out = sync(f"{base}/ok/api.php?lapkereso", tmp_path / "cache", "--dry-run")
    assert "Dry run, nothing written." in out
    assert "created (9): 1001, 1002" in out
    assert hkk_cards() == {}
    assert models.Game.objects.get(slug="hkk").coverage == "partial"


def test_synced_cards_validate_and_a_2019_card_is_refused_in_retro(fake_api, tmp_path):
    base, _log = fake_api
    sync(f"{base}/ok/api.php?lapkereso", tmp_path / "cache")
    game = models.Game.objects.get(slug="hkk")
    models.Format.objects.create(
        slug="hkk-small", game=game, name="small", rule_set="hkk", min_main=9, copy_limit=3
    )
    clear_caches()
    text = "3 Garokk\n3 Gigaököl\n3 Vashegyi troll\nSzabálylap: Ősi rúna\nKövető: A legfőbb követő"
    result = validation_result_dict(deck_validate(format_slug="hkk-small", text=text))
    assert (result["status"], result["legal"]) == ("legal", True), result["errors"]

    retro = deck_validate(format_slug="hkk-retro", text=text + "\n3 Újkori sárkány")
    refused = {
        v.card: v.params["editions"]
        for v in retro.errors
        if v.code == codes.CARD_NOT_LEGAL_IN_FORMAT
    }
    # Retró: released before April 2000. Garokk's first printing (1995) is legal; the
    # 2019-only card and the card printed only in April 2000 are not.
    assert refused == {"Újkori sárkány": ["190"], "Vashegyi troll": ["37"]}
    assert retro.status == "illegal"


def test_unreachable_host_exits_2_and_writes_nothing(tmp_path):
    with pytest.raises(CommandError) as caught:
        sync("http://127.0.0.1:9/api.php?lapkereso", tmp_path / "cache")
    assert caught.value.returncode == 2
    assert "http://127.0.0.1:9/api.php?lapkereso/cardConstants" in str(caught.value)
    assert hkk_cards() == {}
    assert models.Game.objects.get(slug="hkk").coverage == "partial"


def test_a_non_json_answer_exits_2_naming_the_url(fake_api, tmp_path):
    base, _log = fake_api
    with pytest.raises(CommandError) as caught:
        sync(f"{base}/html/api.php?lapkereso", tmp_path / "cache")
    assert caught.value.returncode == 2
    assert f"{base}/html/api.php?lapkereso/cardConstants: the answer is not JSON" in str(
        caught.value
    )
    assert not list((tmp_path / "cache").glob("*.json"))


def test_a_record_missing_a_field_exits_2_naming_it_and_writes_nothing(fake_api, tmp_path):
    base, _log = fake_api
    with pytest.raises(CommandError) as caught:
        sync(f"{base}/broken/api.php?lapkereso", tmp_path / "cache")
    assert caught.value.returncode == 2
    assert "(ID 1001): missing field 'editions'" in str(caught.value)
    assert hkk_cards() == {}


def test_admin_started_sync_runs_as_a_job_and_stores_its_progress(
    fake_api, tmp_path, django_capture_on_commit_callbacks
):
    base, _log = fake_api
    user = get_user_model().objects.create_user("organiser", password="x" * 12, is_staff=True)
    game = models.Game.objects.get(slug="hkk")
    with (
        translation.override("en"),  # outermost: the job runs when the capture below exits
        override_settings(
            HKK_CARD_API_URL=f"{base}/ok/api.php?lapkereso",
            HKK_CARD_API_CACHE=str(tmp_path / "cache"),
        ),
        django_capture_on_commit_callbacks(execute=True),
    ):
        run = catalogue_sync_run_start(game=game, requested_by=user)
    run.refresh_from_db()
    assert run.status == "done", run.message
    assert (run.requests_done, run.requests_total) == (28, 28)
    assert "9 created" in run.message
    assert len(hkk_cards()) == 9


def test_a_second_sync_is_refused_while_one_waits():
    game = models.Game.objects.get(slug="hkk")
    models.CatalogueSyncRun.objects.create(game=game)
    with pytest.raises(Exception) as caught:
        catalogue_sync_run_start(game=game, requested_by=None)
    assert getattr(caught.value, "code", "") == "sync_already_running"


def test_admin_started_sync_with_the_broker_down_runs_in_process(
    fake_api, tmp_path, unreachable_broker, django_capture_on_commit_callbacks, caplog
):
    """The broker refuses connections: the admin action still answers (302), and the recorded
    run is not left waiting forever: the job runs in the admin's request and finishes."""
    base, _log = fake_api
    admin = get_user_model().objects.create_superuser("boss", "boss@example.com", "x" * 12)
    client = Client()
    client.force_login(admin)
    game = models.Game.objects.get(slug="hkk")
    with (
        translation.override("en"),
        override_settings(
            HKK_CARD_API_URL=f"{base}/ok/api.php?lapkereso",
            HKK_CARD_API_CACHE=str(tmp_path / "cache"),
        ),
        django_capture_on_commit_callbacks(execute=True),
    ):
        response = client.post(
            "/admin/decks/game/", {"action": "sync_from_publisher", "_selected_action": [game.pk]}
        )
    assert response.status_code == 302
    run = models.CatalogueSyncRun.objects.get(game=game)
    assert run.status == "done", run.message
    assert len(hkk_cards()) == 9
    assert any(
        "broker unavailable, running decks.catalogue_sync_run in-process" in r.getMessage()
        for r in caplog.records
    )
