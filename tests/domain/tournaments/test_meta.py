"""Meta statistics (tournaments.domain.meta): tallies, shares, HKKmeta's columns worked out by
hand, deck features and win rates."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tournaments.domain.games import GAMES
from tournaments.domain.meta import (
    DIMENSIONS,
    CardFacts,
    ListLine,
    MetaList,
    Tally,
    hkkmeta_percent,
    hkkmeta_rows,
    report,
    round_half_up,
    tally_event,
    top_size,
)

X = CardFacts("Tűzlabda")
Y = CardFacts("Eltörlés (2024)")
Z = CardFacts("Alvó termik")
RULE = CardFacts("Ősi rúna", kind="rule_card")
FOLLOWER = CardFacts("Kaci", kind="follower", colours=("Ilyra",))


def deck(entry: int, top: bool, *lines: tuple[str, CardFacts, int]) -> MetaList:
    return MetaList(entry, top, tuple(ListLine(s, c, n) for s, c, n in lines))


def test_top_size() -> None:
    assert top_size(100, count=8, percent=25) == 8
    assert top_size(10, count=8, percent=25) == 3
    assert top_size(16, count=8, percent=25) == 4
    assert top_size(3, count=8, percent=25) == 1
    assert top_size(10, count=0, percent=20) == 2
    assert top_size(0, count=8, percent=25) == 0


def test_hkkmeta_percent_rounds_half_up_and_drops_zeros() -> None:
    assert hkkmeta_percent(Fraction(9, 38)) == "23.68%"
    assert hkkmeta_percent(Fraction(1, 6)) == "16.67%"
    assert hkkmeta_percent(Fraction(1, 2)) == "50%"
    assert hkkmeta_percent(Fraction(1, 5)) == "20%"
    assert hkkmeta_percent(Fraction(1, 8)) == "12.5%"
    assert hkkmeta_percent(Fraction(0)) == "0%"
    assert hkkmeta_percent(Fraction(1)) == "100%"
    assert hkkmeta_percent(Fraction(1, 80000)) == "0%"
    assert hkkmeta_percent(Fraction(1, 40000)) == "0%"  # 0.0025 % → 0.00
    assert hkkmeta_percent(Fraction(1, 20000)) == "0.01%"  # 0.005 % rounds half up
    assert round_half_up(Fraction(-5, 1000), 2) == Fraction(-1, 100)


def hand_event() -> list[MetaList]:
    # Five lists; entries 1 and 2 finished in the top.
    return [
        deck(1, True, ("main", X, 3), ("sideboard", Z, 2), ("rule_card", RULE, 1)),
        deck(2, True, ("main", Y, 1), ("sideboard", X, 1)),
        deck(3, False, ("main", X, 2), ("main", Y, 2), ("sideboard", Z, 1)),
        deck(4, False, ("main", X, 1), ("sideboard", Y, 3)),
        deck(5, False, ("main", Y, 3), ("sideboard", X, 2)),
    ]


def test_hkkmeta_columns_match_a_hand_computed_example() -> None:
    """By hand: X main in lists 1, 3, 4 (top: 1) → 3, 1/3 = 33.33 %; X sideboard in 2, 5
    (top: 2) → 2, 50 %. Y main in 2, 3, 5 (top: 2) → 3, 33.33 %; sideboard in 4 → 1, 0 %.
    Z main none → 0, 0 %; sideboard in 1, 3 (top: 1) → 2, 50 %. The rule card: main 1, 100 %.
    Order: lists playing it (main + sideboard) descending (X 5, Y 4, Z 2, rule card 1)."""
    rows = report(tally_event(hand_event(), dimensions=()), min_matches=1).cards
    assert hkkmeta_rows(rows) == [
        ["", "Lap", "Alap összesen", "Alap top%", "Side összesen", "Side top%"],
        ["1.", "Tűzlabda", "3", "33.33%", "2", "50%"],
        ["2.", "Eltörlés (2024)", "3", "33.33%", "1", "0%"],
        ["3.", "Alvó termik", "0", "0%", "2", "50%"],
        ["4.", "Ősi rúna", "1", "100%", "0", "0%"],
    ]


def test_card_shares_and_averages_are_exact() -> None:
    rows = {
        r.name: r for r in report(tally_event(hand_event(), dimensions=()), min_matches=1).cards
    }
    x = rows["Tűzlabda"]
    assert x.counts == (3, 6, 1, 3, 2, 3, 1, 1)
    assert x.main_share == Fraction(3, 5)
    assert x.main_average == Fraction(2)
    assert x.main_top_share == Fraction(1, 2)
    assert x.side_average == Fraction(3, 2)
    assert rows["Alvó termik"].main_average == 0


def test_two_lines_of_one_card_count_one_list() -> None:
    lists = [deck(1, False, ("main", X, 1), ("main", X, 2))]
    row = report(tally_event(lists, dimensions=()), min_matches=1).cards[0]
    assert row.counts[:2] == (1, 3)


def test_tallies_add_up_to_the_tally_of_all_lists() -> None:
    lists = hand_event()
    whole = tally_event(lists, dimensions=("rule_card", "colours"))
    parts = Tally()
    parts.merge(tally_event(lists[:2], dimensions=("rule_card", "colours")))
    parts.merge(tally_event(lists[2:], dimensions=("rule_card", "colours")))
    assert parts.cards == whole.cards and parts.groups == whole.groups
    assert (parts.lists, parts.top_lists, parts.events) == (5, 2, 2)
    assert Tally.from_json(parts.to_json()) == parts
    from_json = Tally().merge_json(whole.to_json()).merge_json(whole.to_json())
    doubled = Tally().merge(whole).merge(whole)
    back = Tally().merge_json(whole.to_json()).merge_json(parts.to_json(), sign=-1)
    assert (back.cards, back.lists) == ({}, 0)
    assert (from_json.cards, from_json.groups, from_json.lists) == (
        doubled.cards,
        doubled.groups,
        doubled.lists,
    )


def test_hkk_features_and_win_rates_without_mirrors() -> None:
    lists = [
        deck(1, True, ("rule_card", RULE, 1), ("follower", FOLLOWER, 1)),
        deck(2, False, ("rule_card", RULE, 1)),
        deck(3, False, ("main", X, 1)),
    ]
    results = {1: [(2, 1), (3, 1)], 2: [(1, -1), (3, 0)], 3: [(1, -1), (2, 0)]}
    hkk = GAMES["hkk"]
    tally = tally_event(
        lists, dimensions=hkk.meta_features, win_dimension=hkk.meta_win_feature, results=results
    )
    out = report(tally, min_matches=2)
    (rule,) = out.groups["rule_card"]
    # 1 v 2 is a mirror (not counted); 1 beat 3, 2 drew with 3.
    assert (rule.key, rule.lists, rule.top_lists, rule.wins, rule.draws, rule.losses) == (
        "Ősi rúna",
        2,
        1,
        1,
        1,
        0,
    )
    assert rule.win_rate == Fraction(1, 2)
    assert [r.key for r in out.groups["rule_follower"]] == ["Ősi rúna + Kaci", "Ősi rúna + –"]
    assert [r.key for r in out.groups["colours"]] == ["Ilyra"]
    assert report(tally, min_matches=3).groups["rule_card"][0].win_rate is None


def test_wow_and_blue_moon_features() -> None:
    hero = CardFacts(
        "Thrall",
        kind="hero",
        traits={"class": ("Shaman",), "race": ("Orc",), "faction": ("Horde",)},
    )
    wow = tally_event([deck(1, False, ("hero", hero, 1))], dimensions=GAMES["wow"].meta_features)
    assert {code: list(v) for code, v in wow.groups.items()} == {
        "hero": ["Thrall"],
        "class": ["Shaman"],
        "faction": ["Horde"],
        "race": ["Orc"],
    }
    hoax = CardFacts("Hoax 15", people="Hoax")
    bm = tally_event(
        [deck(1, False, ("main", hoax, 1))], dimensions=GAMES["bluemoon"].meta_features
    )
    assert list(bm.groups["people"]) == ["Hoax"]


def test_every_game_names_registered_features() -> None:
    for game in GAMES.values():
        assert set(game.meta_features) <= set(DIMENSIONS)
        assert game.meta_win_feature is None or game.meta_win_feature in game.meta_features


def test_unknown_feature_is_an_error() -> None:
    with pytest.raises(KeyError):
        tally_event([], dimensions=("nope",))
