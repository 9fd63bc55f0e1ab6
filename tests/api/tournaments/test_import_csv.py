"""The player-list import reads what people save: every file of the hostile corpus
(``tests/fixtures/hostile_csv.py``: encodings, line endings, delimiters, broken quotes, oversize
cells and files) gets per-row errors or one clear error for the whole list, through the service,
the organiser's page and the API; never a 500, and nothing saved by a preview."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from hkk_tournament.errors import ApplicationError
from tests.factories import UserFactory, make_tournament
from tests.fixtures.hostile_csv import Case, corpus
from tournaments import services
from tournaments.models import Entry
from tournaments.permissions import SYSTEM
from tournaments.services import IMPORT_MAX_BYTES

pytestmark = pytest.mark.django_db

CASES = corpus(IMPORT_MAX_BYTES)
IDS = [c.name for c in CASES]


@pytest.fixture
def owner() -> Any:
    return UserFactory(username="organiser")


def _event(owner: Any) -> Any:
    t, _ = make_tournament(entries=0, decks=False, owner=owner)
    return t


def _client(owner: Any) -> Client:
    client = Client()
    client.force_login(owner)
    return client


def _upload(case: Case) -> SimpleUploadedFile:
    return SimpleUploadedFile(f"{case.name}.csv", case.data, content_type="text/csv")


def _check_rows(case: Case, rows: list[dict[str, Any]]) -> None:
    names = [r["name"] if not (r["errors"] and not r["name"]) else None for r in rows]
    assert names == case.names
    assert {r["line"] for r in rows if r["errors"]} == case.error_lines
    assert {r["line"] for r in rows if r["warnings"]} == case.warning_lines


def test_the_corpus_covers_what_users_save() -> None:
    encodings = {c.encoding for c in CASES}
    assert {"UTF-8", "UTF-16", "Windows-1250", "ISO-8859-2 (Latin-2)"} <= encodings
    everything = b"".join(c.data for c in CASES)
    assert b"\r\n" in everything and b"\t" in everything and b";" in everything
    assert any(b"\r" in c.data and b"\n" not in c.data for c in CASES)  # bare CR only
    assert any(len(c.data) > IMPORT_MAX_BYTES for c in CASES)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_service_reads_each_file_row_by_row(case: Case, owner: Any) -> None:
    t = _event(owner)
    if case.list_error:
        if case.list_error == "size":
            return  # refused by its size before reading (pages and API below)
        with pytest.raises(ApplicationError) as exc:
            services.entries_import(actor=SYSTEM, tournament=t, data=case.data)
        assert exc.value.code == case.list_error
        return
    result = services.entries_import(actor=SYSTEM, tournament=t, data=case.data)
    _check_rows(case, [vars(r) for r in result.rows])
    assert result.encoding == case.encoding
    assert not result.saved and not Entry.objects.filter(tournament=t).exists()


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_api_answers_each_file_without_a_server_error(case: Case, owner: Any) -> None:
    t = _event(owner)
    url = f"/api/tournaments/{t.pk}/entries/import/"
    r = _client(owner).post(url, {"file": _upload(case), "dry_run": "true"})
    assert r.status_code < 500, r.content[:300]
    body = r.json()
    if case.list_error == "size":
        assert r.status_code == 413 and body["error"]["code"] == "request_too_large"
    elif case.list_error:
        assert r.status_code == 400 and body["error"]["code"] == case.list_error
    else:
        assert r.status_code == 200 and body["saved"] is False
        assert body["encoding"] == case.encoding
        rows = [{**row, "errors": row["row_errors"]} for row in body["rows"]]
        _check_rows(case, rows)
    assert not Entry.objects.filter(tournament=t).exists()


def _page_rows(html: str) -> list[dict[str, Any]]:
    rows = []
    pattern = r'<tr( class="has-error")? data-testid="import-row-(\d+)">(.*?)</tr>'
    for error, line, body in re.findall(pattern, html, re.S):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", body, re.S)
        name = unescape(cells[1])
        warned = 'class="warning"' in body
        rows.append({"line": int(line), "name": name, "errors": bool(error), "warnings": warned})
    return rows


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_page_previews_each_file_without_a_server_error(case: Case, owner: Any) -> None:
    t = _event(owner)
    url = reverse("tournaments:entries-import", args=[t.pk])
    r = _client(owner).post(url, {"file": _upload(case), "save": "0"})
    assert r.status_code < 500
    html = r.content.decode()
    if case.list_error:
        assert r.status_code == 200 and 'data-testid="import-preview-table"' not in html
        assert "errorlist" in html  # the form says what is wrong
    else:
        assert r.status_code == 200
        _check_rows(case, _page_rows(html))
        assert f"{case.encoding} kódolású" in unescape(html)
    assert not Entry.objects.filter(tournament=t).exists()


def test_page_refuses_a_huge_upload_before_reading_it(owner: Any) -> None:
    t = _event(owner)
    url = reverse("tournaments:entries-import", args=[t.pk])
    client = _client(owner)
    huge = SimpleUploadedFile("huge.csv", b"x" * 3_000_000, content_type="text/csv")
    r = client.post(url, {"file": huge, "save": "0"})
    assert r.status_code == 413 and "KiB" in r.content.decode()


def test_windows_1250_file_is_saved_with_its_accents(owner: Any) -> None:
    t = _event(owner)
    data = "név;e-mail\r\nŐri Űrsula;uri@example.com\r\n".encode("cp1250")
    url = reverse("tournaments:entries-import", args=[t.pk])
    client = _client(owner)
    preview = client.post(url, {"file": SimpleUploadedFile("l.csv", data), "save": "0"})
    assert "Őri Űrsula" in preview.content.decode()
    # The preview puts the list as read into the text box; "Import" sends that text.
    box = re.search(r"<textarea[^>]*>(.*?)</textarea>", preview.content.decode(), re.S)
    assert box is not None
    text = unescape(box[1])
    r = client.post(url, {"text": text, "save": "1"})
    assert r.status_code == 302
    assert list(Entry.objects.filter(tournament=t).values_list("name", flat=True)) == ["Őri Űrsula"]
