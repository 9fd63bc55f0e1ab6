"""Fixtures of the tournaments page tests."""

from __future__ import annotations

import pytest

from tests.pages.tournaments.role_world import World, build_world


@pytest.fixture
def world() -> World:
    return build_world()
