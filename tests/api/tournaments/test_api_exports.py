"""The tournaments REST API once a round is played: finishing it, standings, CSV exports,
the event export, the OpenAPI schema and query counts."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client

from tests.api.tournaments.helpers import first_real_match, play_round, published_round, url
from tournaments import services
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db


def test_finish_round_standings_csv_and_export(api, owner):
    t, rnd = published_round(owner, 5)
    early = api.post(url(t, "rounds/1/finish/"))
    assert early.status_code == 409
    assert early.json()["error"]["code"] == "matches_incomplete"
    play_round(api, t, rnd)
    fin = api.post(url(t, "rounds/1/finish/"))
    assert fin.status_code == 200, fin.json()
    assert fin.json()["status"] == "finished"

    body = Client().get(url(t, "standings/")).json()
    assert (body["count"], body["next"], body["previous"]) == (5, None, None)
    standings = body["results"]
    assert len(standings) == 5
    # Two 3-0 winners share rank 1; the bye (3 match points, 2-0 credited) is third.
    assert [row["rank"] for row in standings] == [1, 1, 3, 4, 4]
    assert [row["match_points"] for row in standings] == [3, 3, 3, 0, 0]
    top = standings[0]
    assert top["match_points"] == 3
    assert [tb["code"] for tb in top["tiebreakers"]] == ["buchholz", "game_points"]
    for tb in top["tiebreakers"]:
        assert "." in tb["decimal"] and len(tb["decimal"].split(".")[1]) == 4

    text = Client().get(url(t, "standings.csv")).content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text)))
    assert len(rows) == 6
    assert rows[0][-3:-1] == ["Buchholz", "Játszmapont (holtversenyt eldöntő szempont)"]
    assert {r[1] for r in rows[1:]} == {e.name for e in t.entries.all()}

    pcsv = Client().get(url(t, "rounds/1/pairings.csv"))
    assert pcsv["Content-Type"].startswith("text/csv")
    prow = list(csv.reader(io.StringIO(pcsv.content.decode("utf-8-sig"))))
    assert len(prow) == 4  # header + 3 tables
    real = [r for r in prow[1:] if r[3] == "3"]
    assert len(real) == 2 and all(r[6] == "3" and r[7] == "0" for r in real)

    export = Client().get(url(t, "export/")).json()
    assert export["format"] == "hkk"
    assert len(export["entries"]) == 5
    assert export["rounds"][0]["status"] == "finished"
    assert len(export["standings"]) == 5


def test_pairings_csv_header_follows_the_language(api, owner):
    t, _ = published_round(owner, 2)
    hu = Client().get(url(t, "rounds/1/pairings.csv"), HTTP_ACCEPT_LANGUAGE="hu")
    en = Client().get(url(t, "rounds/1/pairings.csv"), HTTP_ACCEPT_LANGUAGE="en")
    assert en.content.decode("utf-8-sig").splitlines()[0].startswith("Table")
    assert hu.status_code == 200


# --- schema and query counts --------------------------------------------------------------


def test_schema_lists_the_tournament_paths():
    r = Client().get("/api/schema/?format=json")
    assert r.status_code == 200
    paths = r.json()["paths"]
    for p in [
        "/api/tournaments/",
        "/api/tournaments/{tournament_id}/",
        "/api/tournaments/{tournament_id}/open-registration/",
        "/api/tournaments/{tournament_id}/entries/",
        "/api/tournaments/{tournament_id}/entries/{entry_id}/decks/",
        "/api/tournaments/{tournament_id}/entries/{entry_id}/override/",
        "/api/tournaments/{tournament_id}/entries/{entry_id}/drop/",
        "/api/tournaments/{tournament_id}/start/",
        "/api/tournaments/{tournament_id}/rounds/",
        "/api/tournaments/{tournament_id}/rounds/{number}/",
        "/api/tournaments/{tournament_id}/rounds/{number}/swap/",
        "/api/tournaments/{tournament_id}/rounds/{number}/publish/",
        "/api/tournaments/{tournament_id}/rounds/{number}/pairings.csv",
        "/api/tournaments/{tournament_id}/matches/{match_id}/die-roll/",
        "/api/tournaments/{tournament_id}/matches/{match_id}/games/",
        "/api/tournaments/{tournament_id}/standings/",
        "/api/tournaments/{tournament_id}/standings.csv",
        "/api/tournaments/{tournament_id}/export/",
    ]:
        assert p in paths, p
    create = paths["/api/tournaments/{tournament_id}/matches/{match_id}/games/"]["post"]
    assert "requestBody" in create and "409" in create["responses"]


def test_query_counts_do_not_grow_with_tables(api, owner, django_assert_max_num_queries):
    t, rnd = published_round(owner, 16)
    play_round(api, t, rnd)
    services.round_finish(actor=SYSTEM, round=rnd)
    rnd2 = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t, seed=5)
    )
    m = first_real_match(rnd2)
    services.match_set_die_roll(actor=SYSTEM, match=m, winner_entry=m.entry_a_id)
    anon = Client()
    # 16 entries, 8 tables, two rounds: a fixed number of queries, none per table or entry.
    # The round, its page of tables with their games, the page's count, the standings version
    # and the names of the page's entries, read once (shown names and their sort order by
    # family name come from the same rows): a fixed number still.
    with django_assert_max_num_queries(7):
        r = anon.get(url(t, "rounds/2/"))
    assert r.status_code == 200 and len(r.json()["matches"]) == 8
    with django_assert_max_num_queries(6):
        s = anon.get(url(t, "standings/"))
    assert s.status_code == 200 and len(s.json()["results"]) == 16
    for path in ("entries/", "rounds/2/pairings.csv", "standings.csv"):
        with django_assert_max_num_queries(6):
            assert anon.get(url(t, path)).status_code == 200


def test_csv_exports_neutralise_spreadsheet_formulas(api, owner):
    """OWASP CSV injection: a name starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
    return is written with a leading ``'`` in the standings and the pairings CSV."""
    t, rnd = published_round(owner, 4)
    hostile = '=HYPERLINK("http://x","y")'
    names = [hostile, "+1+2", "@SUM(A1)", "-3"]
    for entry, name in zip(t.entries.order_by("pk"), names, strict=True):
        entry.name = name
        entry.save(update_fields=["name"])
    play_round(api, t, rnd)

    text = Client().get(url(t, "standings.csv")).content.decode("utf-8-sig")
    cells = {r[1] for r in list(csv.reader(io.StringIO(text)))[1:]}
    assert cells == {"'" + n for n in names}
    assert hostile not in {c for row in csv.reader(io.StringIO(text)) for c in row}

    ptext = Client().get(url(t, "rounds/1/pairings.csv")).content.decode("utf-8-sig")
    pcells = [c for row in list(csv.reader(io.StringIO(ptext)))[1:] for c in row[1:3]]
    assert "'" + hostile in pcells
    assert not any(c.startswith(("=", "+", "-", "@", "\t", "\r")) for c in pcells)


def test_csv_safe_cell_leaves_numbers_and_plain_text():
    from tournaments.services.csv_files import csv_safe_cell

    assert csv_safe_cell(-3) == -3 and csv_safe_cell("7/3") == "7/3"
    assert csv_safe_cell("\tx") == "'\tx" and csv_safe_cell("\rx") == "'\rx"
    assert csv_safe_cell("Kovács Anna") == "Kovács Anna"
