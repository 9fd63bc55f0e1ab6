"""Top cut brackets: seeding, the next round, errors (pure, no database)."""

from __future__ import annotations

import pytest

from tournaments.domain.top_cut import (
    TopCutError,
    bracket_order,
    first_bracket_round,
    next_bracket_round,
)


def test_bracket_order_keeps_the_top_seeds_apart() -> None:
    assert bracket_order(4) == [(1, 4), (2, 3)]
    assert bracket_order(8) == [(1, 8), (4, 5), (2, 7), (3, 6)]
    top16 = bracket_order(16)
    assert top16[0] == (1, 16) and top16[1] == (8, 9)
    assert sorted(s for pair in top16 for s in pair) == list(range(1, 17))


def test_first_round_seeds_from_the_standings() -> None:
    ranked = [101, 102, 103, 104, 105, 106, 107, 108, 109]
    matches = first_bracket_round(ranked, 8)
    assert [(m.high, m.low) for m in matches] == [(101, 108), (104, 105), (102, 107), (103, 106)]
    assert [m.position for m in matches] == [1, 2, 3, 4]


def test_winners_meet_in_bracket_order_and_the_better_seed_is_high() -> None:
    r1 = first_bracket_round([1, 2, 3, 4, 5, 6, 7, 8], 8)
    r2 = next_bracket_round(r1, [1, 5, 7, 3])
    assert [(m.high, m.low, m.high_seed, m.low_seed) for m in r2] == [
        (1, 5, 1, 5),
        (3, 7, 3, 7),
    ]
    final = next_bracket_round(r2, [5, 3])
    assert [(m.high, m.low) for m in final] == [(3, 5)]
    assert next_bracket_round(final, [5]) == ()


@pytest.mark.parametrize(
    ("ranked", "size", "code"),
    [([1, 2, 3], 4, "too_few_entries"), ([1, 2, 3, 4, 5, 6], 6, "bad_size")],
)
def test_errors(ranked: list[int], size: int, code: str) -> None:
    with pytest.raises(TopCutError) as exc:
        first_bracket_round(ranked, size)
    assert exc.value.code == code


def test_a_match_needs_a_winner() -> None:
    r1 = first_bracket_round([1, 2, 3, 4], 4)
    with pytest.raises(TopCutError) as exc:
        next_bracket_round(r1, [1, None])
    assert exc.value.code == "no_winner"
    with pytest.raises(TopCutError):
        bracket_order(6)
