"""Season standings, points tables, tiers and league gates (tournaments/domain/circuits.py),
checked against counts made by hand; no database."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tournaments.domain.circuits import (
    CircuitConfigError,
    EventResult,
    LeagueGate,
    SeasonRules,
    gate_check,
    hkk_preset,
    parse_points_table,
    parse_tiers,
    season_standings,
    tiers_text,
)
from tournaments.domain.ratings import RatedMatch, rate_matches

TABLE = parse_points_table("1: 5 3 1 | 1\n8: 10 6 4 2 | 1")


def test_points_by_placement_and_field_size() -> None:
    assert TABLE.points_for(1, 4) == 5
    assert TABLE.points_for(4, 4) == 1  # participation
    assert TABLE.points_for(1, 8) == 10
    assert TABLE.points_for(4, 12) == 2
    assert TABLE.points_for(9, 12) == 1
    assert parse_points_table(TABLE.to_text()) == TABLE
    assert type(TABLE).from_json(TABLE.to_json()) == TABLE


def test_decimal_comma_and_bad_lines() -> None:
    assert parse_points_table("4: 2,5 1").points_for(1, 4) == Fraction(5, 2)
    with pytest.raises(CircuitConfigError) as err:
        parse_points_table("four: 1 2")
    assert err.value.code == "points_line"
    with pytest.raises(CircuitConfigError) as err:
        parse_points_table("4: 1 x")
    assert err.value.code == "invalid_number"
    with pytest.raises(CircuitConfigError) as err:
        parse_points_table("4: 1\n4: 2")
    assert err.value.code == "points_duplicate_band"
    with pytest.raises(CircuitConfigError):
        parse_points_table("  \n")


def test_tiers_round_trip() -> None:
    tiers = parse_tiers("local 1 Helyi\nnational 2 Országos\nregional 1,5 Regionális")
    assert [t.multiplier for t in tiers] == [1, 2, Fraction(3, 2)]
    assert parse_tiers(tiers_text(tiers)) == tiers
    with pytest.raises(CircuitConfigError) as err:
        parse_tiers("local")
    assert err.value.code == "tier_line"


def _three_events() -> list[EventResult]:
    """Three events: E1 (4 players, local), E2 (8 players, tier ×2), E3 (4 players)."""
    e1 = ["ann", "bob", "cid", "dan"]
    e2 = ["bob", "ann", "eve", "cid", "fay", "gus", "hal", "ivy"]
    e3 = ["cid", "ann", "bob", "eve"]
    out = [EventResult(1, p, i + 1, 4, Fraction(1), (1,)) for i, p in enumerate(e1)]
    out += [EventResult(2, p, i + 1, 8, Fraction(2), (2,)) for i, p in enumerate(e2)]
    out += [EventResult(3, p, i + 1, 4, Fraction(1), (3,)) for i, p in enumerate(e3)]
    return out


def test_season_of_three_events_equals_the_hand_count() -> None:
    # By hand, table "1: 5 3 1 | 1", "8: 10 6 4 2 | 1"; E2 doubled, best 2 counted:
    # ann: E1 1st 5, E2 2nd 6×2=12, E3 2nd 3 -> best two 12+5 = 17 (all 20)
    # bob: E1 2nd 3, E2 1st 10×2=20, E3 3rd 1 -> 20+3 = 23 (all 24)
    # cid: E1 3rd 1, E2 4th 2×2=4, E3 1st 5 -> 5+4 = 9 (all 10)
    # eve: E2 3rd 4×2=8, E3 4th 1 -> 9 (all 9)
    # dan: E1 4th 1 -> 1, events 1 < 2: unranked; fay..ivy: E2 5th-8th 1×2 = 2, unranked
    rules = SeasonRules(TABLE, best_n=2, min_events=2, tiebreaks=("wins", "all_points"))
    rows = season_standings(rules, _three_events())
    ranked = [(r.rank, r.person, int(r.points)) for r in rows if r.qualified]
    assert ranked == [(1, "bob", 23), (2, "ann", 17), (3, "cid", 9), (4, "eve", 9)]
    # cid and eve tie on 9 points; cid has an event win
    assert rows[2].tiebreaks == {"wins": 1, "all_points": 10}
    unranked = {r.person: r.points for r in rows if not r.qualified}
    assert unranked == {"dan": 1, "fay": 2, "gus": 2, "hal": 2, "ivy": 2}
    ann = rows[1]
    assert [(s.result.event, int(s.points), s.counted) for s in ann.results] == [
        (2, 12, True),
        (1, 5, True),
        (3, 3, False),
    ]


def test_equal_keys_share_a_rank() -> None:
    results = [EventResult(1, "a", 1, 2), EventResult(2, "b", 1, 2)]
    rows = season_standings(SeasonRules(TABLE, tiebreaks=("wins",)), results)
    assert [(r.rank, r.person) for r in rows] == [(1, "a"), (1, "b")]
    with pytest.raises(CircuitConfigError):
        season_standings(SeasonRules(TABLE, tiebreaks=("nope",)), results)


def test_gate_refuses_the_over_qualified() -> None:
    beginners = LeagueGate(max_points=Fraction(30), max_events=5)
    assert gate_check(beginners, points=Fraction(30), events=5, listed=False) is None
    refusal = gate_check(beginners, points=Fraction(31), events=1, listed=False)
    assert refusal is not None and refusal.code == "league_points_above"
    assert refusal.params == {"limit": "30", "value": "31"}
    refusal = gate_check(beginners, points=Fraction(0), events=6, listed=False)
    assert refusal is not None and refusal.code == "league_events_above"
    pro = LeagueGate(min_points=Fraction(10))
    refusal = gate_check(pro, points=Fraction(9), events=3, listed=False)
    assert refusal is not None and refusal.code == "league_points_below"
    assert gate_check(pro, points=Fraction(0), events=0, listed=True) is None
    closed = LeagueGate(listed_only=True)
    refusal = gate_check(closed, points=Fraction(99), events=9, listed=False)
    assert refusal is not None and refusal.code == "league_list_only"


def test_hkk_preset_structure() -> None:
    preset = hkk_preset()
    assert len(preset.circuits) == 2 and len(preset.leagues) == 3
    assert preset.leagues[0].measured_on == 0 and preset.leagues[2].measured_on == 1
    assert preset.circuits[0].rules.table.points_for(1, 16) == 15


def test_ratings_follow_the_results() -> None:
    matches = [RatedMatch(["a"], ["b"], 2, 0), RatedMatch(["a"], ["c"], 2, 1)]
    matches += [RatedMatch(["b"], ["c"], 1, 1), RatedMatch(["a"], [], 2, 0)]
    ratings = rate_matches(matches)
    assert ratings["a"].ordinal > ratings["b"].ordinal
    assert ratings["a"].matches == 2 and ratings["c"].matches == 2
    assert rate_matches(matches) == ratings  # deterministic
    pair = rate_matches([RatedMatch(["a", "b"], ["c", "d"], 2, 1)])
    assert pair["a"].mu == pair["b"].mu > pair["c"].mu
