"""Match structures as stored data: presets, round trip and refusals (docs/rules.md §8, §11,
§13)."""

from __future__ import annotations

import json

import pytest

from tournaments.domain.first_player import POLICIES, get_policy
from tournaments.domain.games import GAMES
from tournaments.domain.match_structure import (
    PRESETS,
    InvalidStructure,
    LaterGames,
    MatchStructure,
    PolicyCode,
    get_preset,
)


def test_every_policy_code_has_an_implementation():
    assert set(POLICIES) == {code.value for code in PolicyCode}
    assert get_policy("hkk").max_games == 3 and get_policy("wow").max_games is None


@pytest.mark.parametrize("code", sorted(PRESETS))
def test_presets_round_trip_through_json(code):
    preset = get_preset(code)
    assert MatchStructure.from_dict(json.loads(json.dumps(preset.to_dict()))) == preset


def test_presets_say_what_the_sources_say():
    hkk, bo3, bo1 = (
        get_preset("hkk"),
        get_preset("wow_best_of_three"),
        get_preset("wow_best_of_one"),
    )
    assert (hkk.games_per_match, hkk.ends_when_decided, hkk.game_draws) == (3, False, True)
    assert hkk.reroll_game3_available and not bo3.reroll_game3_available
    assert (bo3.games_per_match, bo3.ends_when_decided) == (3, True)
    assert bo3.effective_later_games == LaterGames.LOSER_CHOOSES
    assert bo1.games_per_match == 1
    moon = get_preset("blue_moon")
    assert (moon.games_per_match, moon.game_draws, moon.game_score_unit, moon.game_score_max) == (
        1,
        False,
        "crystals",
        4,
    )
    assert get_preset("blue_moon_emissaries_inquisitors").game_score_max == 7
    assert {game.structure for game in GAMES.values()} <= set(PRESETS.values())
    assert GAMES["wow"].structure.policy == PolicyCode.WOW  # one source: no loser_chooses copy


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (
            {"policy": "hkk", "games_per_match": 3, "ends_when_decided": False, "x": 1},
            "unknown_field",
        ),
        ({"policy": "hkk", "games_per_match": 3}, "invalid_value"),
        ({"policy": "hkk", "games_per_match": "3", "ends_when_decided": False}, "invalid_value"),
        ({"policy": "hkk", "games_per_match": True, "ends_when_decided": False}, "invalid_value"),
        ({"policy": "hkk", "games_per_match": 3, "ends_when_decided": "no"}, "invalid_value"),
        ({"policy": 3, "games_per_match": 3, "ends_when_decided": False}, "invalid_value"),
        ({"policy": "chess", "games_per_match": 3, "ends_when_decided": False}, "unknown_policy"),
        (
            {"policy": "wow", "games_per_match": 0, "ends_when_decided": True},
            "invalid_games_per_match",
        ),
        (
            {"policy": "wow", "games_per_match": 10, "ends_when_decided": True},
            "invalid_games_per_match",
        ),
        (
            {"policy": "hkk", "games_per_match": 4, "ends_when_decided": False},
            "too_many_games_for_policy",
        ),
        (
            {
                "policy": "hkk",
                "games_per_match": 3,
                "ends_when_decided": False,
                "later_games": "alternate",
            },
            "later_games_not_configurable",
        ),
        (
            {
                "policy": "wow",
                "games_per_match": 3,
                "ends_when_decided": True,
                "later_games": "coin",
            },
            "unknown_later_games",
        ),
        (
            {
                "policy": "blue_moon",
                "games_per_match": 1,
                "ends_when_decided": True,
                "game_score_unit": "crystals",
            },
            "invalid_game_score",
        ),
        (
            {
                "policy": "blue_moon",
                "games_per_match": 1,
                "ends_when_decided": True,
                "game_score_max": 4,
            },
            "invalid_game_score",
        ),
        (
            {
                "policy": "blue_moon",
                "games_per_match": 1,
                "ends_when_decided": True,
                "game_score_unit": "crystals",
                "game_score_max": 0,
            },
            "invalid_game_score",
        ),
        (
            {"policy": "wow", "games_per_match": 3, "ends_when_decided": True, "target_score": 5},
            "invalid_target_score",
        ),
    ],
)
def test_invalid_stored_structures_are_refused(data, code):
    with pytest.raises(InvalidStructure) as err:
        MatchStructure.from_dict(data)
    assert err.value.code == code


def test_unknown_preset_and_policy():
    with pytest.raises(InvalidStructure) as err:
        get_preset("chess")
    assert err.value.code == "unknown_preset" and "hkk" in err.value.params["known"]
    with pytest.raises(InvalidStructure) as err:
        MatchStructure("coin", games_per_match=1, ends_when_decided=True)
    assert err.value.code == "unknown_policy"
