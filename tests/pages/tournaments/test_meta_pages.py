"""Meta statistics pages, exports and API (pages.meta, api.meta): Hungarian numbers, the
filter, CSV (HKKmeta's too), JSON, the consent page, and no unpublished list anywhere."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory
from tests.pages.test_no_developer_text import offences, visible_text
from tests.services.tournaments.meta_helpers import play_event
from tournaments.models import DeckSubmission, ListConsent
from tournaments.services.meta import meta_recompute

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalogue")]


@pytest.fixture
def events():
    shown = play_event(6, seed=0)
    hidden = play_event(4, publish=False, seed=5)
    for t in (shown, hidden):
        meta_recompute(tournament_id=t.pk)
    return shown, hidden


def hu() -> Client:
    c = Client()
    c.cookies["django_language"] = "hu"
    return c


def test_meta_page_is_hungarian_with_charts_and_tables(events):
    r = hu().get(reverse("tournaments:meta"), {"game": "hkk"})
    assert r.status_code == 200
    html = r.content.decode()
    assert 'id="meta-charts" type="application/json"' in html
    assert "vendor/chartjs/chart.umd.min.js" in html and "<script>" not in html
    assert 'data-testid="meta-feature-rule_card"' in html
    assert "1 verseny, 6 lista" in html
    assert "100,00 %" in html or ",00 %" in html  # decimal comma
    assert offences(visible_text(html)) == []


def test_filter_errors_are_shown_and_exports_refuse_them(events):
    r = hu().get(reverse("tournaments:meta"), {"game": "hkk", "format": "nincs-ilyen"})
    assert r.status_code == 200 and 'data-testid="meta-totals"' not in r.content.decode()
    r = hu().get(
        reverse("tournaments:meta-json"),
        {"game": "hkk", "date_from": "2030-01-02", "date_to": "2030-01-01"},
    )
    assert r.status_code == 400


def test_csv_json_and_hkkmeta_exports(events):
    shown, hidden = events
    q = {"game": "hkk"}
    rows = list(
        csv.reader(
            io.StringIO(hu().get(reverse("tournaments:meta-csv"), q).content.decode("utf-8-sig"))
        )
    )
    assert rows[0][:3] == ["name", "kind", "main_lists"]
    data = hu().get(reverse("tournaments:meta-json"), q).json()
    assert data["lists"] == 6 and data["events"] == 1
    assert [r[0] for r in rows[1:]] == [c["name"] for c in data["cards"]]
    top = list(
        csv.reader(
            io.StringIO(
                hu().get(reverse("tournaments:meta-hkkmeta"), q).content.decode("utf-8-sig")
            )
        )
    )
    assert top[0] == ["", "Lap", "Alap összesen", "Alap top%", "Side összesen", "Side top%"]
    orange = list(
        csv.reader(
            io.StringIO(
                hu()
                .get(reverse("tournaments:meta-hkkmeta"), {**q, "table": "signature"})
                .content.decode("utf-8-sig")
            )
        )
    )
    names = {r[1] for r in orange[1:]}
    assert "Ősi rúna" in names or "Zarknod börtönében" in names
    assert not names & {r[1] for r in top[1:]}


def test_unpublished_lists_appear_nowhere(events):
    shown, hidden = events
    only_hidden = set()
    for sub in DeckSubmission.objects.filter(member__tournament=hidden, locked=True):
        only_hidden |= {line["name"] for lines in sub.data.values() for line in lines}
    for sub in DeckSubmission.objects.filter(member__tournament=shown, locked=True):
        only_hidden -= {line["name"] for lines in sub.data.values() for line in lines}
    assert only_hidden, "the seeds give the hidden event a card of its own"
    data = hu().get(reverse("tournaments:meta-json"), {"game": "hkk"}).json()
    assert not only_hidden & {c["name"] for c in data["cards"]}
    api = hu().get("/api/meta/", {"game": "hkk", "tournament": hidden.pk}).json()
    assert api["lists"] == 0 and api["cards"] == []
    page = hu().get(reverse("tournaments:meta"), {"game": "hkk"}).content.decode()
    assert not any(name in page for name in only_hidden)


def test_api_matches_the_page_data_and_checks_the_filter(events):
    api = hu().get("/api/meta/", {"game": "hkk"})
    assert api.status_code == 200
    assert api.json() == hu().get(reverse("tournaments:meta-json"), {"game": "hkk"}).json()
    bad = hu().get("/api/meta/", {"game": "nincs"})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid_filter"


def test_player_sees_and_changes_consent(events):
    shown, _ = events
    player = DeckSubmission.objects.filter(member__tournament=shown, locked=True)[0].member.player
    user = UserFactory()
    player.user = user
    player.save()
    c = hu()
    c.force_login(user)
    page = c.get(reverse("tournaments:list-consent"))
    assert page.status_code == 200 and offences(visible_text(page.content.decode())) == []
    r = c.post(reverse("tournaments:list-consent"), {})
    assert r.status_code == 302
    assert ListConsent.objects.get(player=player).share_lists is False
    meta_recompute(tournament_id=shown.pk)
    assert hu().get("/api/meta/", {"game": "hkk"}).json()["lists"] == 5
    assert c.get("/api/me/list-consent/").json() == {"share_lists": False}
    r = c.put("/api/me/list-consent/", {"share_lists": True}, content_type="application/json")
    assert r.json() == {"share_lists": True}
    assert hu().get("/api/me/list-consent/").status_code in (401, 403)
