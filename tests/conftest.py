"""Test-wide settings overrides and fixtures.

The real bundled card catalogue is loaded once per test session into the test database
(``django_db_setup`` below). Tests that use ``transactional_db`` run after the others (pytest-django
orders them last) and leave the tables empty when they finish, so they ask for ``catalogue``
explicitly, which reloads it when needed.
"""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.core.management import call_command


@pytest.fixture(autouse=True)
def _fast_test_settings(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    cache.clear()  # throttle counters and cached reads never leak from one test into the next


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
