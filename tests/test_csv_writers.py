"""Every CSV the application writes goes through the one safe writer
(``tournaments.services.csv_files.SafeCsvWriter``): the source is searched for CSV writers and
CSV responses, and every CSV download found is fetched with names, a judge and notes that start
like spreadsheet formulas; no cell of any of them may start with ``=``, ``+``, ``-``, ``@``, a
tab or a carriage return (OWASP "CSV Injection")."""

from __future__ import annotations

import csv
import io
import re
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import get_resolver, reverse

from tests.api.tournaments.helpers import play_round, published_round
from tests.factories import UserFactory
from tournaments import services
from tournaments.domain.meta import Tally
from tournaments.models import MetaSnapshot, Penalty, StaffRole, Tournament
from tournaments.services.csv_files import FORMULA_STARTS

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("accounts", "decks", "tournaments", "hkk_tournament")
SAFE_WRITER = "tournaments/services/csv_files.py"
CSV_RESPONSE = "hkk_tournament/web/downloads.py"

#: The season standings CSV: its hostile names are checked by
#: tests/pages/tournaments/test_pages_circuits.py (a finished event in a circuit).
CIRCUIT_PAGE = "tournaments/pages/circuits.py"

#: The CSV downloads this test fetches: module → number of ``csv_response(`` calls in it.
DOWNLOADS = {
    "tournaments/api/exports.py": 2,  # standings.csv, rounds/<n>/pairings.csv
    "tournaments/api/penalties.py": 1,  # penalties.csv
    "tournaments/pages/penalties.py": 1,  # penalties/?format=csv
    CIRCUIT_PAGE: 1,  # circuits/<id>/standings.csv (checked in its own test, see below)
    "tournaments/pages/meta.py": 2,  # meta/cards.csv, meta/hkkmeta.csv
}

HOSTILE = ['=HYPERLINK("http://x","y")', "+1+2", "@SUM(A1)", "-3", "\tTab", "\rReturn"]


def _sources() -> dict[str, str]:
    """The app's Python sources. Left out: migrations, and the maintainers' scripts under
    ``decks/data/`` that rebuild the bundled card-fact tables from their public sources (they
    write no text a user typed, and the app never runs them)."""
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" not in path.parts and "data" not in path.parts:
                found[str(path.relative_to(ROOT))] = path.read_text(encoding="utf-8")
    return found


def test_only_the_safe_writer_calls_csv_writer() -> None:
    writers = {
        path
        for path, text in _sources().items()
        if re.search(r"csv\.(writer|DictWriter)\s*\(", text) or re.search(r"from csv import", text)
    }
    assert writers == {SAFE_WRITER}


def test_every_csv_response_is_one_of_the_checked_downloads() -> None:
    sources = _sources()
    text_csv = {p for p, text in sources.items() if re.search(r"text/csv(?!\"\))", text)}
    declared_in_schema = {
        p for p, text in sources.items() if re.search(r'\(200, "text/csv"\)', text)
    }
    assert text_csv - declared_in_schema == {CSV_RESPONSE}
    calls = {
        p: len(re.findall(r"\bcsv_response\(", text))
        for p, text in sources.items()
        if p != CSV_RESPONSE and "csv_response(" in text
    }
    assert calls == DOWNLOADS
    # Every function that returns CSV text (``def …_csv(…) -> str``) uses the safe writer.
    makers = {p for p, t in sources.items() if re.search(r"def \w+_csv\([^)]*\)\s*->\s*str", t)}
    assert makers >= {"tournaments/services/standings.py", "tournaments/services/penalties.py"}
    for path in makers:
        assert "SafeCsvWriter(" in sources[path] or "csv_text(" in sources[path], path


def test_every_csv_route_is_fetched_below() -> None:
    routes = set()

    def walk(patterns: Any, prefix: str = "") -> None:
        for p in patterns:
            if hasattr(p, "url_patterns"):
                walk(p.url_patterns, prefix + str(p.pattern))
            elif ".csv" in str(p.pattern):
                routes.add(p.name)

    walk(get_resolver().url_patterns)
    assert routes == {
        "tournaments-standings-csv",
        "tournaments-round-pairings-csv",
        "tournaments-penalties-csv",
        "circuit-csv",
        "meta-csv",
        "meta-hkkmeta",
    }


def _hostile_meta(t: Any) -> list[str]:
    """The meta statistics downloads of ``t`` finished with published lists whose stored
    statistics name hostile cards."""
    Tournament.objects.filter(pk=t.pk).update(
        status=Tournament.Status.FINISHED, decklists_published=True
    )
    tally = Tally(lists=1, events=1, cards={name: ("card", [1] * 8) for name in HOSTILE})
    MetaSnapshot.objects.create(
        format=t.format, tournament=t, event_date=date(2026, 1, 1), tally=tally.to_json()
    )
    query = f"?game={t.format.game.slug}"
    return [reverse("tournaments:meta-csv") + query, reverse("tournaments:meta-hkkmeta") + query]


@pytest.mark.django_db
def test_no_downloaded_csv_cell_starts_like_a_formula() -> None:
    owner: Any = UserFactory(username="organiser")
    judge: Any = UserFactory(username="@judge")
    t, rnd = published_round(owner, 6)
    StaffRole.objects.create(tournament=t, user=judge, role=StaffRole.Role.JUDGE)
    entries = list(t.entries.order_by("pk"))
    for entry, name in zip(entries, HOSTILE, strict=True):
        entry.name = name
        entry.save(update_fields=["name"])
    for entry, note in zip(entries, reversed(HOSTILE), strict=True):
        services.penalty_record(
            tournament=t,
            entry=entry,
            category=Penalty.Category.SLOW_PLAY,
            kind=Penalty.Kind.WARNING,
            notes=note,
            actor=judge,
        )
    api = Client()
    api.force_login(owner)
    play_round(api, t, rnd)
    base = f"/api/tournaments/{t.pk}/"
    downloads = [
        base + "standings.csv",
        base + f"rounds/{rnd.number}/pairings.csv",
        base + "penalties.csv",
        reverse("tournaments:penalties", args=[t.pk]) + "?format=csv",
        *_hostile_meta(t),
    ]
    assert len(downloads) == sum(DOWNLOADS.values()) - DOWNLOADS[CIRCUIT_PAGE]
    for path in downloads:
        r = api.get(path)
        assert r.status_code == 200 and r["Content-Type"].startswith("text/csv"), path
        rows = list(csv.reader(io.StringIO(r.content.decode("utf-8-sig"), newline="")))
        cells = [c for row in rows for c in row]
        assert not [c for c in cells if c.startswith(FORMULA_STARTS)], path
        assert any(c.startswith("'") for c in cells), path  # the hostile values are there
