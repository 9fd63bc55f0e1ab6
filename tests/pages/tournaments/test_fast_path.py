"""The fast path of anonymous public reads (``hkk_tournament.web.fast_path``): a current shared
rendering is answered without the view and without a query, with the same status, body and
headers as the slow path; private events, draft rounds, signed-in visitors and POSTs never get
it; the event's public state (``tournaments.selectors.shared_state``) follows every write; a
stale key is answered with its previous rendering while a worker renders the new one; the
language switch needs no CSRF token."""

from __future__ import annotations

import gzip

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.http import HttpResponse
from django.test import Client

from hkk_tournament.web import fast_path, page_cache
from tests.factories import make_tournament, publish_first_round, store_standings
from tournaments import selectors, services
from tournaments.permissions import SYSTEM
from tournaments.selectors import shared_state as state_module
from tournaments.services.public_state import public_state_changed

pytestmark = pytest.mark.django_db

#: Headers that differ per request whatever the path (the request id).
PER_REQUEST = {"x-request-id"}


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def event():
    """A public event of 8 entries, round 1 published, standings computed."""
    t, _made = make_tournament(entries=8, decks=False)
    services.tournament_set_options(actor=SYSTEM, tournament=t, is_public=True)
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = publish_first_round(t)
    return t, rnd


def _urls(t) -> list[str]:
    return [
        f"/tournaments/{t.pk}/standings/",
        f"/tournaments/{t.pk}/live/",
        f"/tournaments/{t.pk}/live/?partial=1",
        f"/tournaments/{t.pk}/rounds/1/",
        f"/api/tournaments/{t.pk}/standings/",
        f"/api/tournaments/{t.pk}/standings/?limit=5&offset=2",
        f"/api/tournaments/{t.pk}/rounds/1/",
    ]


def _slow(monkeypatch, url: str, method: str = "get", **meta):
    """The same request answered by the slow path (the view), the fast path switched off."""
    with monkeypatch.context() as patch:
        patch.setattr(fast_path, "lookup", lambda request: None)
        return getattr(Client(), method)(url, **meta)


def _headers(response) -> dict[str, str]:
    """The headers that must match; a compressed body's length differs (Django pads its own
    compression at random), so it is checked against the body instead."""
    skip = PER_REQUEST | ({"content-length"} if response.get("Content-Encoding") else set())
    if response.get("Content-Encoding") and response.content:
        assert response["Content-Length"] == str(len(response.content))
    return {k.lower(): v for k, v in response.items() if k.lower() not in skip}


def _body(response) -> bytes:
    if response.get("Content-Encoding") == "gzip":
        return gzip.decompress(response.content)
    return response.content


@pytest.mark.parametrize("encoding", ["", "gzip, deflate, br"])
def test_a_fast_answer_equals_the_slow_one_without_a_query(
    event, encoding, django_assert_num_queries, monkeypatch
):
    t, _ = event
    for url in _urls(t):
        meta = {"HTTP_ACCEPT_LANGUAGE": "en", "HTTP_ACCEPT_ENCODING": encoding}
        first = Client().get(url, **meta)  # renders and stores it
        slow = _slow(monkeypatch, url, **meta)
        Client().get(url, **meta)  # the first fast answer after a change reads the state
        with django_assert_num_queries(0):
            fast = Client().get(url, **meta)
            head = Client().head(url, **meta)
        assert first.status_code == slow.status_code == fast.status_code == 200, url
        assert _body(fast) == _body(slow) == _body(first), url
        assert _headers(fast) == _headers(slow), url
        assert _headers(head) == _headers(fast) and head.content == b"", url
        slow_head = _slow(monkeypatch, url, "head", **meta)
        assert slow_head.status_code == 200 and _headers(slow_head) == _headers(head), url
        for name in ("Content-Security-Policy", "X-Frame-Options", "Vary", "Cache-Control"):
            assert fast[name] == slow[name], (url, name)
        assert "public" in fast["Cache-Control"] and "Accept-Language" in fast["Vary"]
        if url.startswith("/tournaments/"):
            assert fast["Content-Language"] == "en"
        assert (fast.get("Content-Encoding") == "gzip") == bool(encoding)
        assert fast.get("Referrer-Policy") == slow.get("Referrer-Policy")
        # A conditional GET answers 304 from the fast path too, with the same headers.
        with django_assert_num_queries(0):
            fast_304 = Client().get(url, HTTP_IF_NONE_MATCH=fast["ETag"], **meta)
        slow_304 = _slow(monkeypatch, url, HTTP_IF_NONE_MATCH=fast["ETag"], **meta)
        assert fast_304.status_code == slow_304.status_code == 304, url
        assert _headers(fast_304) == _headers(slow_304), url


def test_an_api_client_that_accepts_no_json_gets_the_views_answer(event):
    t, _ = event
    url = f"/api/tournaments/{t.pk}/standings/"
    Client().get(url)
    Client().get(url)
    assert Client().get(url, HTTP_ACCEPT="application/json").status_code == 200
    assert Client().get(url, HTTP_ACCEPT="text/csv").status_code == 406
    assert Client().get(url, {"format": "json"}).status_code == 200


def test_the_language_is_part_of_the_fast_answer(event):
    t, _ = event
    url = f"/tournaments/{t.pk}/standings/"
    for code in ("hu", "en"):
        Client().get(url, HTTP_ACCEPT_LANGUAGE=code)
    hu = Client().get(url, HTTP_ACCEPT_LANGUAGE="hu")
    en = Client().get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert hu["Content-Language"] == "hu" and 'lang="hu"' in hu.content.decode()
    assert en["Content-Language"] == "en" and 'lang="en"' in en.content.decode()


def test_private_events_signed_in_visitors_posts_and_draft_rounds_never_get_it(event):
    t, rnd = event
    url = f"/tournaments/{t.pk}/standings/"
    Client().get(url)
    Client().get(url)
    # Signed in: their own page (the lookup is never asked).
    user = get_user_model().objects.create_user("olvaso", password="x-Pw-12345")
    client = Client()
    client.force_login(user)
    request = client.get(url).wsgi_request
    assert fast_path.lookup(request) is None
    assert "olvaso" in client.get(url).content.decode()
    # A POST goes to the view (405 from require_GET).
    assert Client().post(url).status_code == 405
    # A private event: the state follows the write, the fast path stops answering.
    services.tournament_set_options(actor=SYSTEM, tournament=t, is_public=False)
    assert Client().get(url).status_code == 404
    assert Client().get(f"/api/tournaments/{t.pk}/standings/").status_code == 404
    # A draft round is not in the public state: never answered by the fast path.
    services.tournament_set_options(actor=SYSTEM, tournament=t, is_public=True)
    state, _ = selectors.public_state(t.pk)
    assert state is not None and [r.number for r in state.rounds] == [rnd.number]
    assert state.round(2) is None


def test_a_new_standings_version_is_never_answered_from_the_old_rendering(event):
    t, _ = event
    url = f"/tournaments/{t.pk}/standings/"
    assert "Uj Nev" not in Client().get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    Client().get(url, HTTP_ACCEPT_LANGUAGE="en")  # from the fast path
    store_standings(t, ["Uj Nev"])  # a save: the token is replaced
    # Eager mode (no broker): the stale key is rendered in this request.
    assert "Uj Nev" in Client().get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_the_public_state_is_read_once_and_again_after_a_write(event, django_assert_num_queries):
    t, _ = event
    selectors.public_state(t.pk)
    with django_assert_num_queries(0):
        state, _ = selectors.public_state(t.pk)
    assert state is not None and state.anonymous_visible and state.snapshot is not None
    public_state_changed(t.pk)
    with django_assert_num_queries(3):
        again, _ = selectors.public_state(t.pk)
    assert again is not None and again.token != state.token
    # A missing token is created (add) and the state stored under it.
    cache.delete(state_module.token_key(t.pk))
    with django_assert_num_queries(3):
        fresh, _ = selectors.public_state(t.pk)
    assert fresh is not None and cache.get(state_module.token_key(t.pk)) == fresh.token


def test_a_state_read_before_a_commit_is_not_taken_for_current(event, monkeypatch):
    t, _ = event
    reads: list[int] = []
    real = state_module._read

    def read_then_a_writer_commits(tournament_id, token):
        state = real(tournament_id, token)
        reads.append(tournament_id)
        if len(reads) == 1:
            public_state_changed(tournament_id)  # committed after the database was read
        return state

    monkeypatch.setattr(state_module, "_read", read_then_a_writer_commits)
    cache.clear()
    selectors.public_state(t.pk)
    selectors.public_state(t.pk)  # the stored state's token is not the current one: read again
    selectors.public_state(t.pk)  # now current
    assert len(reads) == 2


def test_the_hooks_replace_the_token_after_the_commit(event, django_capture_on_commit_callbacks):
    t, rnd = event
    before, _ = selectors.public_state(t.pk)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.round_clock_start(actor=SYSTEM, round=rnd)
    assert callbacks  # the push and the round's save each hand a replacement to the commit
    tokens = set()
    for callback in callbacks:
        callback()
        tokens.add(cache.get(state_module.token_key(t.pk)))
    assert before is not None and before.token not in tokens
    after, _ = selectors.public_state(t.pk)
    assert after is not None and after.current_round is not None
    assert after.current_round.clock_started_at is not None


def test_a_stale_key_is_answered_while_a_worker_renders_it(settings):
    settings.HKK_PAGE_REFRESH_SECONDS = 15
    rendered: list[str] = []
    handed: list[str] = []

    def render(text: str):
        def inner() -> HttpResponse:
            rendered.append(text)
            return HttpResponse(text * 300)

        return inner

    def refresh() -> bool:
        handed.append("k")
        return True

    page_cache.current("k", "v1", render("a"))
    assert page_cache.current("k", "v2", render("b"), refresh=refresh).version == "v1"
    assert page_cache.current("k", "v2", render("b"), refresh=refresh).version == "v1"
    assert rendered == ["a"] and handed == ["k"]  # one refresh per period, none rendered here
    with page_cache.rendering_inline():  # the worker
        assert page_cache.current("k", "v2", render("b"), refresh=refresh).version == "v2"
    assert rendered == ["a", "b"]
    # No worker (eager mode: refresh answers False): this request renders under the lock.
    page_cache.current("e", "v1", render("x"))
    stored = page_cache.current("e", "v2", render("c"), refresh=lambda: False)
    assert stored is not None and stored.version == "v2" and rendered[-1] == "c"
    assert cache.get("e:refresh") is None
    # A key never rendered renders in the request, whatever the refresh.
    assert page_cache.current("new", "v1", render("d"), refresh=refresh).version == "v1"
    assert stored.gzipped is not None and gzip.decompress(stored.gzipped) == b"c" * 300


def test_a_stale_page_hands_its_refresh_to_the_worker_task(
    event, monkeypatch, django_assert_num_queries
):
    from tournaments.pages import common

    t, _ = event
    url = f"/tournaments/{t.pk}/standings/?page=1"
    Client().get(url, HTTP_ACCEPT_LANGUAGE="en")
    store_standings(t, ["Uj Nev"])
    sent: list[tuple[str, str]] = []

    def enqueue(path: str, language: str) -> bool:
        sent.append((path, language))
        return True

    monkeypatch.setattr(common, "enqueue_page_refresh", enqueue)
    stale = Client().get(url, HTTP_ACCEPT_LANGUAGE="en")  # reads the changed state
    assert "Uj Nev" not in stale.content.decode() and sent == [(url, "en")]
    # Until the worker has rendered it, the fast path answers the previous rendering, no query
    # and no second refresh within HKK_PAGE_REFRESH_SECONDS.
    with django_assert_num_queries(0):
        again = Client().get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert again.content == stale.content and sent == [(url, "en")]
    from tournaments import tasks

    assert tasks.page_refresh_task.run(path=url, language="en")["pages"] == 1
    assert "Uj Nev" in Client().get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_the_language_switch_needs_no_csrf_token(db):
    client = Client(enforce_csrf_checks=True)
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/accounts/login/"})
    assert response.status_code == 302 and response["Location"] == "/accounts/login/"
    assert client.cookies["django_language"].value == "en"
    # Only the language: an unsafe "next" is not followed.
    away = client.post("/i18n/setlang/", {"language": "hu", "next": "https://evil.example/"})
    assert away.status_code == 302 and away["Location"] == "/"


def test_a_recorded_result_keeps_the_state_and_a_standings_version_replaces_it(event):
    from tournaments.services.push import push_event

    t, _ = event
    state, _ = selectors.public_state(t.pk)
    assert state is not None
    token = state.token
    push_event(tournament_id=t.pk, kind="results", data={})
    assert cache.get(state_module.token_key(t.pk)) == token
    push_event(tournament_id=t.pk, kind="standings", data={})
    assert cache.get(state_module.token_key(t.pk)) != token


def test_a_foreign_host_or_a_waiting_message_never_gets_the_fast_answer(event):
    t, _ = event
    url = f"/tournaments/{t.pk}/standings/"
    Client().get(url)
    Client().get(url)
    foreign = Client(raise_request_exception=False).get(url, HTTP_HOST="evil.example")
    assert foreign.status_code == 400
    client = Client()
    client.cookies["messages"] = "x"  # Django's default MESSAGE_COOKIE_NAME
    assert fast_path.lookup(client.get(url).wsgi_request) is None


def test_the_fast_path_resolves_a_path_once_per_urlconf_and_language(monkeypatch, settings):
    """The URL patterns are walked once per path (issue 22: 8 % of a public worker's CPU): a
    search or a repeated visit finds the match kept; another URLconf resolves anew."""
    from django import urls

    from hkk_tournament.web import fast_path

    fast_path._RESOLVED.clear()
    calls: list[str] = []
    real = urls.resolve
    monkeypatch.setattr(fast_path, "resolve", lambda path: calls.append(path) or real(path))
    first = fast_path._resolved("/tournaments/1/standings/")
    assert first is not None and first.kwargs == {"tournament_id": 1}
    assert fast_path._resolved("/tournaments/1/standings/") is first
    assert fast_path._resolved("/no/such/page/") is None
    assert fast_path._resolved("/no/such/page/") is None
    assert calls == ["/tournaments/1/standings/", "/no/such/page/"]
    settings.ROOT_URLCONF = "tests.error_urls"
    fast_path._resolved("/tournaments/1/standings/")
    assert len(calls) == 3
