"""Throttles (hkk_tournament.web.throttling, REST_FRAMEWORK rates) through real requests.

Only writes to views with a ``throttle_scope`` are counted; reads never are, so a venue full of
players behind one address can refresh pairings and standings as often as they like.
"""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import path
from rest_framework.response import Response
from rest_framework.test import APIClient
from rest_framework.views import APIView

from hkk_tournament import urls as project_urls
from tests.factories import eager_celery  # noqa: F401 (fixture)
from tournaments.permissions import SYSTEM


class ScopedApi(APIView):
    """A read-and-write endpoint in the ``result_report`` scope."""

    throttle_scope = "result_report"

    def get(self, request):
        return Response({"ok": True})

    def post(self, request):
        return Response({"ok": True})


urlpatterns = [path("api/test-throttle/", ScopedApi.as_view()), *project_urls.urlpatterns]

pytestmark = [pytest.mark.django_db, pytest.mark.urls(__name__)]


@pytest.fixture(autouse=True)
def _empty_counters():
    cache.clear()  # the test settings' memory cache outlives a single test
    yield
    cache.clear()


def _rates(settings, **rates):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], **rates},
    }


def test_the_default_rates(settings):
    assert settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] == {
        "login": "300/min",
        "signup": "30/min",
        "deck_validation": "120/min",
        "result_report": "60/min",
        "claim": "10/hour",
        "claim_address": "100/hour",
        "invite": "100/hour",
        "invite_address": "200/hour",
        "password_reset_email": "3/hour",
        "password_reset_address": "30/hour",
    }


def test_token_api_is_throttled_per_address_with_retry_after(settings):
    _rates(settings, login="20/min")
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    for attempt in range(20):  # distinct usernames: below the django-axes limits
        body = {"username": f"nobody{attempt}", "password": "x"}
        assert api.post("/api/auth/token/", body, format="json").status_code == 400
    response = api.post("/api/auth/token/", {"username": "n", "password": "x"}, format="json")
    assert response.status_code == 429
    error = response.json()["error"]
    assert error["code"] == "throttled"
    assert 1 <= error["params"]["wait"] <= 60
    assert response["Retry-After"] == str(error["params"]["wait"])
    assert set(error) == {"code", "message", "fields", "params"}
    # Another address is not affected.
    other = APIClient(REMOTE_ADDR="198.51.100.7")
    response = other.post("/api/auth/token/", {"username": "n", "password": "x"}, format="json")
    assert response.status_code == 400


def test_reads_of_a_scoped_view_are_never_throttled(settings):
    _rates(settings, result_report="2/min")
    api = APIClient()
    statuses = {api.get("/api/test-throttle/").status_code for _ in range(400)}
    assert statuses == {200}
    assert [api.post("/api/test-throttle/").status_code for _ in range(3)] == [200, 200, 429]


def test_signed_in_users_behind_one_address_each_have_their_own_budget(settings, django_user_model):
    _rates(settings, result_report="2/min")
    clients = []
    for n in range(3):
        user = django_user_model.objects.create_user(username=f"jatekos{n}", password="x")
        client = APIClient(REMOTE_ADDR="203.0.113.10")  # one venue, one NAT address
        client.force_authenticate(user)
        clients.append(client)
    for client in clients:
        assert [client.post("/api/test-throttle/").status_code for _ in range(2)] == [200, 200]
    assert clients[0].post("/api/test-throttle/").status_code == 429
    assert APIClient(REMOTE_ADDR="203.0.113.10").post("/api/test-throttle/").status_code == 200


def test_trusted_proxy_count_picks_the_client_address(settings):
    _rates(settings, result_report="1/min")
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    proxy = APIClient(REMOTE_ADDR="127.0.0.1")
    first = proxy.post("/api/test-throttle/", HTTP_X_FORWARDED_FOR="6.6.6.6, 192.0.2.1")
    again = proxy.post("/api/test-throttle/", HTTP_X_FORWARDED_FOR="7.7.7.7, 192.0.2.1")
    other = proxy.post("/api/test-throttle/", HTTP_X_FORWARDED_FOR="192.0.2.2")
    assert [first.status_code, again.status_code, other.status_code] == [200, 429, 200]


def test_signup_page_posts_are_throttled_with_a_translated_429_page():
    client = Client()
    page = client.get("/accounts/signup/")
    assert page.status_code == 200
    for _ in range(30):
        response = client.post("/accounts/signup/", {"username": "x"})  # invalid form
        assert response.status_code == 200
    response = client.post("/accounts/signup/", {"username": "x"})
    assert response.status_code == 429
    assert response["Content-Type"].startswith("text/html")
    assert 1 <= int(response["Retry-After"]) <= 60
    html = response.content.decode()
    assert '<html lang="hu">' in html
    assert "Túl sok kérés" in html
    assert client.get("/accounts/signup/").status_code == 200  # reading the form is fine


@pytest.mark.usefixtures("eager_celery")
def test_a_venue_refreshing_public_pages_is_never_throttled(django_user_model):
    """200 players behind one address refresh standings twice a minute (API and page)."""
    from tests.factories import make_tournament
    from tournaments import services

    owner = django_user_model.objects.create_user(username="szervezo", password="x")
    tournament, _ = make_tournament(entries=4, decks=False, owner=owner)
    services.tournament_start(actor=SYSTEM, tournament=tournament)
    venue = Client(REMOTE_ADDR="203.0.113.20")
    urls = [
        f"/api/tournaments/{tournament.pk}/standings/",
        f"/tournaments/{tournament.pk}/standings/",
        f"/tournaments/{tournament.pk}/live/",
    ]
    statuses = {venue.get(url).status_code for _ in range(150) for url in urls}
    assert statuses == {200}
