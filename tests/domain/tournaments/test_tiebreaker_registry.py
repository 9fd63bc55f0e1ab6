"""The tiebreaker registry carries its entries whole: a registered within-ties function is the
one called (not head-to-head), labels and columns come from the entry (docs/rules.md §15
(Match points and tiebreakers))."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from fractions import Fraction

import pytest

from tournaments.domain import standings
from tournaments.domain.standings import (
    TIEBREAKERS,
    Stats,
    Tiebreaker,
    compute_standings,
    register_tiebreaker,
)
from tournaments.domain.types import EntryId, GameRecord, MatchRecord, Scoring

HKK = Scoring()


@pytest.fixture
def registry() -> Iterator[dict[str, Tiebreaker]]:
    """The live registry, restored after the test."""
    saved = dict(TIEBREAKERS)
    yield TIEBREAKERS
    TIEBREAKERS.clear()
    TIEBREAKERS.update(saved)


def _matches() -> list[MatchRecord]:
    # 1 beats 2, 3 beats 4: 1 and 3 tie on 3 points without having met.
    return [
        MatchRecord(1, 1, 2, games=(GameRecord(1, 1, False, 1, 1), GameRecord(2, 2, False, 2, 1))),
        MatchRecord(1, 3, 4, games=(GameRecord(1, 3, False, 3, 3), GameRecord(2, 4, False, 4, 3))),
    ]


def test_a_registered_within_ties_function_is_the_one_called(registry):
    seen: list[tuple[EntryId, ...]] = []

    def ninety_nine(
        members: Sequence[EntryId], stats: Stats, scoring: Scoring
    ) -> dict[EntryId, Fraction]:
        seen.append(tuple(members))
        return {e: Fraction(99) for e in members}

    register_tiebreaker(Tiebreaker("toy", "Toy", "Toy", within_ties=ninety_nine))
    rows = compute_standings([1, 2, 3, 4], _matches(), scoring=HKK, tiebreakers=["toy"])
    assert {r.entry: r.tiebreakers["toy"] for r in rows} == {e: Fraction(99) for e in (1, 2, 3, 4)}
    assert sorted(seen) == [(1, 3), (2, 4)]  # once per group tied on match points


def test_head_to_head_is_still_head_to_head(registry):
    rows = compute_standings([1, 2, 3, 4], _matches(), scoring=HKK, tiebreakers=["head_to_head"])
    assert {r.entry: r.tiebreakers["head_to_head"] for r in rows} == dict.fromkeys((1, 2, 3, 4), 0)
    beaten = [*_matches(), MatchRecord(2, 1, 3, games=(GameRecord(1, 1, False, 1, 1),))]
    rows = compute_standings([1, 3], beaten, scoring=HKK, tiebreakers=["buchholz", "head_to_head"])
    assert rows[0].entry == 1


def test_every_entry_carries_its_label_column_and_function():
    for code, tb in TIEBREAKERS.items():
        assert tb.code == code and tb.label and tb.column
        assert (tb.compute is None) != (tb.within_ties is None)
    assert {c for c, tb in TIEBREAKERS.items() if tb.percent} == {"omw", "gw", "ogw"}
    assert {c for c, tb in TIEBREAKERS.items() if tb.base_column} == {"game_points"}


def test_an_entry_needs_exactly_one_function_and_a_fresh_code(registry):
    with pytest.raises(ValueError):
        Tiebreaker("bad", "Bad", "Bad")
    with pytest.raises(ValueError):
        register_tiebreaker(Tiebreaker("buchholz", "B", "B", compute=standings._buchholz))
