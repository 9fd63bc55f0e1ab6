"""``first_player.slip_lines`` derives each game's slip line from the policy's own ``decide``:
checked against ``next_right`` after every sequence of earlier results, for every registered
policy and the presets (docs/rules.md §6, §11, §13)."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from tournaments.domain import first_player as fp
from tournaments.domain.match import MatchState
from tournaments.domain.match_structure import PRESETS, MatchStructure
from tournaments.domain.types import GameRecord

A, B = 10, 20


def _holders(structure: MatchStructure, game: int, reroll: bool) -> list[int | None]:
    """``next_right(...).holder`` of ``game`` (as player 1 / 2, ``None`` for a roll) after every
    playable sequence of earlier results, A having won the game-1 roll."""
    state = MatchState(A, B, roll_winner=A, reroll_game3=reroll)
    outcomes = (A, B, None) if structure.game_draws else (A, B)
    found = []
    for winners in itertools.product(outcomes, repeat=game - 1):
        st = state
        try:
            for winner in winners:
                decision = fp.next_right(st, structure)
                if decision.needs_roll:
                    st = fp.record_die_roll(st, structure, A)
                    decision = fp.next_right(st, structure)
                holder = decision.holder
                score = 1 if structure.scored and winner is not None else None
                record = GameRecord(len(st.games) + 1, holder, False, holder, winner, score)
                st = replace(st, games=(*st.games, record))
            decision = fp.next_right(st, structure)
        except fp.InconsistentGame:
            continue
        found.append(None if decision.needs_roll else (1 if decision.holder == A else 2))
    return found


STRUCTURES = [
    *PRESETS.values(),
    *(
        MatchStructure.from_dict({"policy": code, "games_per_match": 3, "ends_when_decided": False})
        for code in fp.POLICIES
    ),
    MatchStructure.from_dict(
        {
            "policy": "wow",
            "games_per_match": 4,
            "ends_when_decided": False,
            "later_games": "alternate",
        }
    ),
]


@pytest.mark.parametrize("structure", STRUCTURES, ids=lambda s: f"{s.policy}-{s.games_per_match}")
@pytest.mark.parametrize("reroll", [False, True])
def test_each_line_is_what_next_right_gives_after_every_earlier_result(structure, reroll):
    if reroll and not structure.reroll_game3_available:
        reroll = False
    lines = fp.slip_lines(structure, reroll_game3=reroll)
    assert [line.game for line in lines] == list(range(1, len(lines) + 1))
    assert len(lines) == structure.games_per_match
    for line in lines:
        holders = set(_holders(structure, line.game, reroll))
        if line.needs_roll:
            assert holders == {None}
        elif line.player is not None:
            assert holders == {line.player}
        else:
            assert holders == {1, 2}
            assert structure.rules.slip_text  # the policy says what to print then


def test_the_rules_give_the_known_lines():
    hkk = fp.slip_lines(PRESETS["hkk"])
    assert [(line.player, line.needs_roll) for line in hkk] == [(1, False), (2, False), (1, False)]
    agreed = fp.slip_lines(PRESETS["hkk"], reroll_game3=True)
    assert (agreed[2].player, agreed[2].needs_roll) == (None, True)
    bo3 = fp.slip_lines(PRESETS["wow_best_of_three"])
    assert [line.player for line in bo3] == [1, None, None]
    assert bo3[1].reasons == ("loser_of_previous", "same_after_draw")
