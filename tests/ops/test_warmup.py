"""Warming a new Gunicorn worker (``hkk_tournament.web.warmup`` from gunicorn.conf.py's
``post_worker_init``): URL patterns, languages and every project template are loaded before the
worker takes requests, with no database access, and a failure never stops the worker."""

from __future__ import annotations

import logging
import runpy
from pathlib import Path

import pytest
from django.conf import settings
from django.template import TemplateSyntaxError

from hkk_tournament.web import warmup


def test_warm_compiles_every_project_template_without_the_database(caplog):
    """No ``django_db`` mark: pytest-django refuses any query, so a step that touched the
    database would fail (and be logged)."""
    names = warmup.project_templates()
    assert "base.html" in names and "tournaments/public/standings.html" in names
    assert len(names) > 20
    with caplog.at_level(logging.WARNING, logger="hkk_tournament.web.warmup"):
        assert warmup.warm() == len(names)
    assert caplog.records == []


def test_a_failing_template_is_logged_and_the_rest_compiled(monkeypatch, caplog):
    real = warmup.get_template

    def broken(name):
        if name == "base.html":
            raise TemplateSyntaxError("broken")
        return real(name)

    monkeypatch.setattr(warmup, "get_template", broken)
    with caplog.at_level(logging.WARNING, logger="hkk_tournament.web.warmup"):
        assert warmup.warm() == len(warmup.project_templates()) - 1
    assert "base.html" in caplog.text


def test_a_failing_url_warm_up_is_logged(monkeypatch, caplog):
    def fails():
        raise RuntimeError("no urls")

    monkeypatch.setattr(warmup, "get_resolver", fails)
    with caplog.at_level(logging.WARNING, logger="hkk_tournament.web.warmup"):
        assert warmup.warm() > 0
    assert "warm-up of URLs and languages failed" in caplog.text


def test_gunicorn_warms_each_worker_after_loading_the_app(monkeypatch):
    config = runpy.run_path(str(Path(settings.BASE_DIR) / "gunicorn.conf.py"))
    calls = []
    monkeypatch.setattr(warmup, "warm", lambda: calls.append("warm") or 7)

    class Log:
        def info(self, message, *args):
            calls.append(message % args)

    class Worker:
        pid = 42
        log = Log()

    config["post_worker_init"](Worker())
    assert calls == ["warm", "worker 42 warmed: 7 templates"]


@pytest.mark.parametrize("code", [code for code, _ in settings.LANGUAGES])
def test_every_language_is_warmed(code, monkeypatch):
    seen = []
    real = warmup.translation.override

    def override(language):
        seen.append(language)
        return real(language)

    monkeypatch.setattr(warmup.translation, "override", override)
    warmup.warm()
    assert code in seen


def test_page_warm_up_loads_the_middleware_once_per_thread(monkeypatch, settings):
    """``warm_pages`` keeps its page client: the middleware chain (WhiteNoise scans every
    static file when it is built, ~40 % of a worker's CPU when rebuilt per task) is loaded by
    the first page only, and a change of the middleware builds a new client."""
    from django.core.handlers.base import BaseHandler

    loads: list[int] = []
    original = BaseHandler.load_middleware

    def counting(self, is_async=False):
        loads.append(1)
        return original(self, is_async)

    monkeypatch.setattr(warmup._CLIENTS, "key", None, raising=False)
    monkeypatch.setattr(BaseHandler, "load_middleware", counting)
    client = warmup._page_client()
    assert warmup._page_client() is client
    client.get("/healthz/")
    client.get("/healthz/")
    assert len(loads) == 1
    settings.MIDDLEWARE = [*settings.MIDDLEWARE[:-1]]
    assert warmup._page_client() is not client


def test_a_paced_warm_up_sleeps_as_long_as_each_page_took(monkeypatch):
    """``pause``: after each page the warm-up sleeps ``pause`` times the CPU the page took (the
    later pages after a publish: at most half a core while the field looks for its table)."""
    ticks = iter([1.0, 1.25, 2.0, 2.5])  # thread CPU before and after each of the two pages
    slept: list[float] = []
    monkeypatch.setattr(warmup.time, "thread_time", lambda: next(ticks))
    monkeypatch.setattr(warmup.time, "sleep", slept.append)
    assert warmup.warm_pages(["/healthz/"], languages=["hu", "en"], pause=2.0) == 2
    assert slept == [0.5, 1.0]
    monkeypatch.setattr(warmup.time, "thread_time", lambda: 0.0)
    warmup.warm_pages(["/healthz/"], languages=["hu"])  # no pause: no sleep
    assert slept == [0.5, 1.0]
