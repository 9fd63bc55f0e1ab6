"""The first-player policies and their registry (``POLICIES``, ``get_policy``).

A policy decides who holds the right to go first, or chooses who starts, in the next game of a
match; the rules of each policy, the reason codes and the explanation parameters are described
in :mod:`tournaments.domain.first_player`, which re-exports every name of this module. Each
registry entry carries everything the rest of the app needs about its policy: its code, its
``decide`` function, its mode (holds a right / chooses), the most games its rule names, whether
a structure may set the later-games rule, the HKK game-3 re-roll, and the texts (English
msgids, translated by the Django layer): label, one-line rule, slip text and source.

* ``hkk``: docs/rules.md §6 (HKK first-player rights); HKK FAQ on rule cards, followers, pair
  tournaments and first-player rights; HKK Kódex part II §3.6–3.7.
* ``wow`` and ``loser_chooses``: docs/rules.md §11 (WoW TCG matches and first player); WoW TCG
  starter rulebook; Magic Tournament Rules 2.2 (inferred for WoW TCG).
* ``blue_moon``: docs/rules.md §13 (Blue Moon matches); as ``wow`` (inferred).

Pure Python (stdlib only).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from tournaments.domain.match import InconsistentGame, MatchState
from tournaments.domain.types import EntryId, gettext_noop

if TYPE_CHECKING:
    from tournaments.domain.match_structure import MatchStructure

__all__ = [
    "HKK_GAMES_PER_MATCH",
    "LATER_GAMES_RULES",
    "POLICIES",
    "FirstPlayerPolicy",
    "LaterGames",
    "PolicyCode",
    "RightDecision",
    "RightMode",
    "UnknownPolicy",
    "get_policy",
    "register_policy",
]

#: The HKK first-player rule names games 1–3 only (docs/rules.md §6 HKK first-player rights).
HKK_GAMES_PER_MATCH = 3


class PolicyCode(StrEnum):
    """The codes of the built-in first-player policies (each registered in ``POLICIES``; a
    policy added by ``register_policy`` needs no member here).

    * ``hkk``: docs/rules.md §6 HKK first-player rights. Die roll for game 1; its winner is
      player 1 and holds the right (may waive); game 2 belongs to player 2, game 3 to player 1,
      or to a new die roll when both agreed before the game-1 roll.
    * ``wow``: docs/rules.md §11 WoW TCG matches and first player. The die roll winner chooses
      who starts game 1; later games follow ``MatchStructure.later_games``.
    * ``blue_moon``: docs/rules.md §13 Blue Moon matches. As ``wow`` (who starts is unknown in
      the sources; inferred).
    * ``loser_chooses``: generic Magic Tournament Rules 2.2 policy, kept for stored tournaments:
      the die roll winner chooses for game 1, then always the loser of the previous game (after a
      drawn game, whoever chose for it).
    """

    HKK = "hkk"
    WOW = "wow"
    BLUE_MOON = "blue_moon"
    LOSER_CHOOSES = "loser_chooses"


class LaterGames(StrEnum):
    """Who holds the right / chooses in games after the first (``wow`` and ``blue_moon``).

    * ``loser_chooses``: the loser of the previous game chooses; after a drawn game the player
      who chose for the drawn game chooses again (Magic Tournament Rules 2.2; the default).
    * ``alternate``: the player who did not hold the right in the previous game (inferred
      option, the way HKK passes the right from game 1 to game 2).
    """

    LOSER_CHOOSES = "loser_chooses"
    ALTERNATE = "alternate"


#: The one-line rule of each later-games setting (English msgids), shown after the policy's own
#: rule when a match has more than one game.
LATER_GAMES_RULES: Mapping[LaterGames, str] = {
    LaterGames.LOSER_CHOOSES: gettext_noop(
        "Later games: the loser of the previous game chooses (after a draw, the same player)."
    ),
    LaterGames.ALTERNATE: gettext_noop("Later games: the other player chooses in turn."),
}


class UnknownPolicy(LookupError):  # noqa: N818 (public name kept)
    """Raised by ``get_policy`` for a code that is not in ``POLICIES``."""


class RightMode(StrEnum):
    """How the decided entry uses its right.

    ``holds_right``: HKK wording: the entry holds the right to start and may waive it.
    ``chooses``: WoW TCG / Magic Tournament Rules wording: the entry chooses who starts.
    Both are recorded the same way (``GameRecord.right_holder`` and ``waived`` / ``choice``).
    """

    HOLDS_RIGHT = "holds_right"
    CHOOSES = "chooses"


@dataclass(frozen=True, slots=True)
class RightDecision:
    """Who holds the right to go first (or chooses who starts) in game ``game_number``, and why.

    ``holder is None`` together with ``needs_roll=True`` means "a die roll decides".
    ``reason`` and ``params`` are described in the module docstring; ``mode`` tells whether the
    holder holds a waivable right (HKK) or chooses (WoW TCG, Blue Moon).
    """

    game_number: int
    holder: EntryId | None
    needs_roll: bool
    reason: str
    params: Mapping[str, object] = field(default_factory=dict)
    mode: RightMode = RightMode.HOLDS_RIGHT

    @property
    def chooser(self) -> EntryId | None:
        """The entry that decides who starts (same as ``holder``)."""
        return self.holder


@dataclass(frozen=True, slots=True)
class FirstPlayerPolicy:
    """A registered first-player policy, whole.

    Attributes:
        code: stable code (stored on formats and tournaments).
        decide: pure ``decide(state, structure) -> RightDecision`` for the next game.
        label: the policy's name (English msgid; the Django layer translates it).
        rule: one line on who starts (English msgid).
        source: the public document the policy follows, by its short readable name (English
            msgid, e.g. "HKK FAQ"); pages link it to the rules page.
        section: the docs/rules.md section (``§N``) that cites the document.
        slip_text: what a result slip prints for a game whose holder depends on the results
            before it (English msgid with ``%(previous)s``, the previous game's number); games
            with a fixed holder print the player instead (``first_player.slip_lines``).
        rule_single_game: the rule line for a one-game match, when it differs from ``rule``.
        max_games: the most games its own rule names (``None`` = no limit).
        mode: ``holds_right`` (HKK wording, may waive) or ``chooses`` (who starts).
        later_games_setting: a structure may set ``later_games`` for it.
        default_later_games: the later-games rule when the structure sets none (``None``: the
            policy's own rule decides, as HKK's games 2 and 3).
        reroll_game3: both players may agree before the game-1 roll to roll again for game 3
            (HKK; only with ``max_games`` games).
    """

    code: str
    decide: Callable[[MatchState, MatchStructure], RightDecision]
    label: str
    rule: str
    source: str
    section: int
    slip_text: str = ""
    rule_single_game: str | None = None
    max_games: int | None = None
    mode: RightMode = RightMode.HOLDS_RIGHT
    later_games_setting: bool = False
    default_later_games: LaterGames | None = None
    reroll_game3: bool = False


def _player_one(state: MatchState) -> EntryId | None:
    if state.roll_winner is not None:
        state.other(state.roll_winner)  # validates membership
        return state.roll_winner
    if state.games:
        return state.games[0].right_holder
    return None


def _roll(game: int, reason: str, mode: RightMode) -> RightDecision:
    return RightDecision(game, None, True, reason, {"game": game}, mode)


def _decide_hkk(state: MatchState, structure: MatchStructure) -> RightDecision:
    mode = RightMode.HOLDS_RIGHT
    game = len(state.games) + 1
    if game > HKK_GAMES_PER_MATCH:
        raise InconsistentGame("too_many_games", {"max_games": HKK_GAMES_PER_MATCH})
    p1 = _player_one(state)
    if p1 is None:
        return _roll(1, "die_roll", mode)
    if game == 1:
        return RightDecision(1, p1, False, "die_roll", {"game": 1, "player": 1}, mode)
    if game == 2:
        return RightDecision(
            2, state.other(p1), False, "player_2_game_2", {"game": 2, "player": 2}, mode
        )
    if state.reroll_game3:
        if state.game3_roll_winner is None:
            return _roll(3, "reroll_game_3", mode)
        state.other(state.game3_roll_winner)
        player = 1 if state.game3_roll_winner == p1 else 2
        return RightDecision(
            3, state.game3_roll_winner, False, "reroll_game_3", {"game": 3, "player": player}, mode
        )
    return RightDecision(3, p1, False, "player_1_game_3", {"game": 3, "player": 1}, mode)


def _decide_chooser(state: MatchState, structure: MatchStructure) -> RightDecision:
    mode = RightMode.CHOOSES
    game = len(state.games) + 1
    p1 = _player_one(state)
    if p1 is None:
        return _roll(1, "die_roll", mode)
    if game == 1:
        return RightDecision(1, p1, False, "die_roll", {"game": 1, "player": 1}, mode)
    previous = state.games[-1]
    if previous.right_holder is None:
        raise InconsistentGame("wrong_right_holder", {"game": previous.number})
    if structure.effective_later_games == LaterGames.ALTERNATE:
        holder = state.other(previous.right_holder)
        reason = "alternate"
    elif previous.winner is None:
        holder = previous.right_holder
        reason = "same_after_draw"
    else:
        holder = state.other(previous.winner)
        reason = "loser_of_previous"
    player = 1 if holder == p1 else 2
    return RightDecision(
        game, holder, False, reason, {"game": game, "player": player, "previous": game - 1}, mode
    )


_CHOOSER_RULE = gettext_noop("The die roll winner chooses who starts game 1.")
_LOSER_CHOOSES_SLIP = gettext_noop(
    "the loser of game %(previous)s chooses (after a draw: the same player)"
)

POLICIES: dict[str, FirstPlayerPolicy] = {
    PolicyCode.HKK.value: FirstPlayerPolicy(
        "hkk",
        _decide_hkk,
        label=gettext_noop("HKK first-player right"),
        rule=gettext_noop(
            "Game 1: the die roll winner (player 1) holds the right to go first; game 2: "
            "player 2; game 3: player 1, or a new roll if agreed before the game-1 roll. "
            "The holder may waive."
        ),
        rule_single_game=gettext_noop(
            "The die roll winner holds the right to go first (may waive)."
        ),
        source=gettext_noop("HKK FAQ"),
        section=6,
        max_games=HKK_GAMES_PER_MATCH,
        mode=RightMode.HOLDS_RIGHT,
        reroll_game3=True,
    ),
    PolicyCode.WOW.value: FirstPlayerPolicy(
        "wow",
        _decide_chooser,
        label=gettext_noop("WoW TCG: the die roll winner chooses"),
        rule=_CHOOSER_RULE,
        source=gettext_noop("WoW TCG starter rulebook"),
        section=11,
        slip_text=_LOSER_CHOOSES_SLIP,
        mode=RightMode.CHOOSES,
        later_games_setting=True,
        default_later_games=LaterGames.LOSER_CHOOSES,
    ),
    PolicyCode.BLUE_MOON.value: FirstPlayerPolicy(
        "blue_moon",
        _decide_chooser,
        label=gettext_noop("Blue Moon: the die roll winner chooses"),
        rule=_CHOOSER_RULE,
        source=gettext_noop("app convention, as WoW TCG"),
        section=13,
        slip_text=_LOSER_CHOOSES_SLIP,
        mode=RightMode.CHOOSES,
        later_games_setting=True,
        default_later_games=LaterGames.LOSER_CHOOSES,
    ),
    PolicyCode.LOSER_CHOOSES.value: FirstPlayerPolicy(
        "loser_chooses",
        _decide_chooser,
        label=gettext_noop("The loser of the previous game chooses"),
        rule=_CHOOSER_RULE,
        source=gettext_noop("Magic tournament rules (MTR)"),
        section=11,
        slip_text=_LOSER_CHOOSES_SLIP,
        mode=RightMode.CHOOSES,
        default_later_games=LaterGames.LOSER_CHOOSES,
    ),
}


def get_policy(code: str) -> FirstPlayerPolicy:
    """The policy registered under ``code``; raises ``UnknownPolicy``."""
    try:
        return POLICIES[code]
    except KeyError:
        raise UnknownPolicy(code) from None


def register_policy(policy: FirstPlayerPolicy) -> FirstPlayerPolicy:
    """Add ``policy`` to ``POLICIES`` (the one step of adding a first-player policy; the
    Django system check ``tournaments.E001``–``E003`` then checks stored codes against the
    registry). Returns ``policy``.

    Raises:
        ValueError: ``code`` already registered, or an entry without its label, rule or source.
    """
    if policy.code in POLICIES:
        raise ValueError(f"first-player policy {policy.code!r} is already registered")
    if not (policy.label and policy.rule and policy.source and policy.section > 0):
        raise ValueError(f"first-player policy {policy.code!r} needs a label, rule and source")
    POLICIES[policy.code] = policy
    return policy
