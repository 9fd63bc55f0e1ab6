"""Reads of the stored standings that a busy event repeats: the snapshot's rows are loaded once
per version and process (``selectors.snapshot_rows``), and a tournament's match structure is
read once per instance until its fields change (``Tournament.structure``)."""

from __future__ import annotations

import pytest

from tests.factories import make_tournament, store_standings
from tournaments import selectors
from tournaments.domain.match_structure import MatchStructure
from tournaments.models import StandingsSnapshot

pytestmark = pytest.mark.django_db


def _snapshot(tournament):
    return selectors.standings_snapshot(tournament)


def test_a_snapshot_version_is_loaded_once_then_a_new_version_afresh(
    django_assert_num_queries,
):
    t, _entries = make_tournament(decks=False)
    store_standings(t, [f"Player {i}" for i in range(300)])
    first = _snapshot(t)
    with django_assert_num_queries(1):  # the deferred rows
        rows = selectors.snapshot_rows(first)
    with django_assert_num_queries(0):  # another page of the same version, another request
        assert selectors.snapshot_rows(_snapshot_no_query(first)) is rows
    assert len(rows) == 300 and rows[0]["name"] == "Player 0"
    store_standings(t, ["Renamed"] + [f"Player {i}" for i in range(1, 300)])
    newer = _snapshot(t)
    assert newer.version == first.version + 1
    assert selectors.snapshot_rows(newer)[0]["name"] == "Renamed"


def _snapshot_no_query(snapshot: StandingsSnapshot) -> StandingsSnapshot:
    """The same snapshot row as a fresh instance (as the next request reads it), rows deferred."""
    other = StandingsSnapshot(
        pk=snapshot.pk,
        tournament_id=snapshot.tournament_id,
        version=snapshot.version,
        computed_at=snapshot.computed_at,
    )
    del other.__dict__["rows"]  # deferred: reading it would query
    return other


def test_only_the_newest_versions_are_kept():
    t, _entries = make_tournament(decks=False)
    seen = []
    for version in range(selectors.standings.ROWS_KEPT + 2):
        store_standings(t, [f"v{version}"])
        snapshot = _snapshot(t)
        seen.append(snapshot)
        assert selectors.snapshot_rows(snapshot)[0]["name"] == f"v{version}"
    kept = selectors.standings._ROWS
    assert len(kept) <= selectors.standings.ROWS_KEPT
    newest = seen[-1]
    assert (newest.pk, newest.version, newest.computed_at.timestamp()) in kept


def test_the_structure_is_read_again_when_its_fields_change():
    t, _entries = make_tournament(decks=False)
    first = t.structure
    assert t.structure is first  # kept on the instance
    changed = MatchStructure.from_dict({**first.to_dict(), "games_per_match": 1})
    t.match_structure = changed.to_dict()
    assert t.structure == changed and t.structure is not first
