"""Test-wide settings overrides and fixtures.

The real bundled card catalogue is loaded once per test session into the test database
(``django_db_setup`` below). Tests that use ``transactional_db`` run after the others (pytest-django
orders them last) and leave the tables empty when they finish, so they ask for ``catalogue``
explicitly, which reloads it when needed.
"""

from __future__ import annotations

import pytest
from django.conf import settings as django_settings
from django.core.cache import cache
from django.core.management import call_command
from django.utils import translation


@pytest.fixture(autouse=True)
def _fast_test_settings(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    cache.clear()  # throttle counters and cached reads never leak from one test into the next


@pytest.fixture(autouse=True)
def _default_language():
    """Every test starts in the default language (hu). The locale middleware activates a
    request's language in the thread and leaves it there, so a test client request in English
    would otherwise leak English into the next test's messages."""
    translation.activate(django_settings.LANGUAGE_CODE)
    yield
    translation.activate(django_settings.LANGUAGE_CODE)


def _ensure_catalogue() -> None:
    from decks.models import Card

    if not Card.objects.exists():
        call_command("load_catalogue", verbosity=0)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """Create the test database once and load the real card catalogue into it."""
    with django_db_blocker.unblock():
        _ensure_catalogue()


@pytest.fixture
def catalogue(db):
    """The real bundled catalogue, present in the database for this test."""
    _ensure_catalogue()


#: A Redis URL nothing listens on (port 1 of the loopback refuses every connection).
UNREACHABLE_REDIS_URL = "redis://127.0.0.1:1/0"


@pytest.fixture
def unreachable_broker(settings):
    """Celery publishing to a broker that refuses connections (not eager), as in production
    with the broker down; the app's configuration and connections are restored afterwards."""
    from hkk_tournament.celery import app

    keys = ("task_always_eager", "broker_url", "result_backend")
    saved = {key: app.conf.get(key) for key in keys}
    settings.CELERY_BROKER_URL = UNREACHABLE_REDIS_URL
    settings.CELERY_TASK_ALWAYS_EAGER = False
    app.conf.update(
        task_always_eager=False,
        broker_url=UNREACHABLE_REDIS_URL,
        result_backend=UNREACHABLE_REDIS_URL,
    )
    app._pool = None
    app.amqp._producer_pool = None
    try:
        yield UNREACHABLE_REDIS_URL
    finally:
        app.conf.update(saved)
        app._pool = None
        app.amqp._producer_pool = None
