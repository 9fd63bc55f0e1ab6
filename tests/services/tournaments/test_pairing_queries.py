"""Pairing the next round reads and writes with a bounded number of SQL queries: the legal-list
check is one query, the history is read as projections and the round is written in bulk, so the
count does not grow with the field (docs/rules.md §14 (Swiss pairing and byes))."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import (
    hkk_catalogue,  # noqa: F401 (fixture)
    make_tournament,
    submit_decks,
)
from tournaments import selectors, services
from tournaments.management.commands.simulate_tournament import _play_match
from tournaments.models import Match
from tournaments.permissions import SYSTEM

#: Queries of one ``round_pair_next`` call, whatever the number of entries.
MAX_PAIRING_QUERIES = 20


@pytest.mark.django_db
@pytest.mark.usefixtures("hkk_catalogue")
@pytest.mark.parametrize("size", [6, 40])
def test_pairing_queries_do_not_grow_with_the_field(django_assert_max_num_queries, size):
    t, entries = make_tournament(entries=size, decks=False)
    for entry in entries[:4]:  # some entries with a list, the others with an override
        entry.pairing_override_reason = ""
        entry.save(update_fields=["pairing_override_reason"])
        submit_decks(t, entry, seed=entry.pk)
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t, seed=1)
    )
    rng = random.Random(size)
    for match in Match.objects.filter(round=rnd, entry_b__isnull=False):
        _play_match(match, rng)
    services.round_finish(actor=SYSTEM, round=rnd)
    with django_assert_max_num_queries(MAX_PAIRING_QUERIES):
        second = services.round_pair_next(actor=SYSTEM, tournament=t, seed=2)
    assert second.number == 2
    assert second.seats.count() == size


@pytest.mark.django_db
@pytest.mark.usefixtures("hkk_catalogue")
def test_the_games_of_a_round_are_read_without_joining_every_match_of_the_event():
    """A game's default order is its match's id, then its number: reading the games of a round's
    tables (round page, live page, finishing a round) touches the game table alone."""
    t, _entries = make_tournament(entries=8, decks=False)
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t, seed=1)
    )
    rng = random.Random(8)
    for match in Match.objects.filter(round=rnd, entry_b__isnull=False):
        _play_match(match, rng)
    with CaptureQueriesContext(connection) as ctx:
        views = selectors.round_match_views(round=rnd)
        services.round_finish(actor=SYSTEM, round=rnd)
    assert all(v.score.complete for v in views)
    game_reads = [
        q["sql"] for q in ctx.captured_queries if q["sql"].startswith('SELECT "tournaments_game"')
    ]
    assert len(game_reads) == 2
    assert all(" JOIN " not in sql for sql in game_reads), game_reads
