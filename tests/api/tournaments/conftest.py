"""Fixtures of the tournaments REST API tests: the organiser, an outsider and a signed-in
client of the organiser."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import UserFactory


@pytest.fixture
def owner():
    return UserFactory(username="organiser")


@pytest.fixture
def outsider():
    return UserFactory(username="outsider")


@pytest.fixture
def api(owner) -> Client:
    client = Client()
    client.force_login(owner)
    return client
