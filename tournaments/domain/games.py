"""The games the app runs tournaments for, one registry entry each (``GAMES``): everything a
new tournament of the game defaults to when its format names nothing itself.

An entry carries the game's code (the slug of ``decks.Game``, as in the card catalogue), its
name (an English msgid, translated by the Django layer), the match structure a format of the
game starts from, the tiebreakers after match points and the suggested top-cut size. A game
with no entry is an error (``UnknownGame``), never another game's defaults; the Django system
check of ``tournaments`` reports formats whose game has no entry at start-up.

Sources: docs/rules.md §6 (HKK first-player rights), §8 (HKK tournament structure and scoring),
§11 (WoW TCG matches and first player), §13 (Blue Moon matches) and §15 (Match points and
tiebreakers; Magic Tournament Rules §3.1 and Appendix C, top 8 as in MTR practice).

Pure Python (stdlib only).
"""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.domain.match_structure import PRESETS, MatchStructure
from tournaments.domain.meta import DIMENSIONS
from tournaments.domain.standings import HKK_TIEBREAKERS, MTR_TIEBREAKERS, TIEBREAKERS
from tournaments.domain.types import gettext_noop

__all__ = ["GAMES", "GameRules", "UnknownGame", "get_game", "register_game"]


class UnknownGame(LookupError):  # noqa: N818 (matches UnknownPolicy)
    """Raised by ``get_game`` for a game code with no entry in ``GAMES``."""


@dataclass(frozen=True, slots=True)
class GameRules:
    """One game's defaults.

    Attributes:
        code: the game's slug (``decks.Game.slug``).
        label: the game's name (English msgid).
        structure: the match structure of a format that stores none (first-player policy,
            games per match, best-of ending, draws, score).
        tiebreakers: tiebreaker codes after match points (``standings.TIEBREAKERS``).
        top_cut: suggested single-elimination bracket size after the Swiss rounds (0: none).
        meta_features: deck features the meta statistics count (codes of
            ``tournaments.domain.meta.DIMENSIONS``; docs/rules.md §20 (Meta statistics)).
        meta_win_feature: the feature match win rates are kept by (``None``: none).
        meta_signature_kinds: card kinds of the game's separate card table (HKK
            "narancslapok": rule cards, followers, epic followers).
    """

    code: str
    label: str
    structure: MatchStructure
    tiebreakers: tuple[str, ...]
    top_cut: int = 0
    meta_features: tuple[str, ...] = ()
    meta_win_feature: str | None = None
    meta_signature_kinds: frozenset[str] = frozenset()


GAMES: dict[str, GameRules] = {
    # HKK: three games per opponent, all played; Buchholz then game points (§6, §8); Swiss only.
    "hkk": GameRules(
        "hkk",
        gettext_noop("Hatalom Kártyái"),
        PRESETS["hkk"],
        HKK_TIEBREAKERS,
        top_cut=0,
        meta_features=("rule_card", "follower", "epic", "rule_follower", "colours"),
        meta_win_feature="rule_card",
        meta_signature_kinds=frozenset({"rule_card", "follower", "epic_follower"}),
    ),
    # WoW TCG: best of three, the die roll winner chooses (§11); MTR tiebreakers and top 8.
    "wow": GameRules(
        "wow",
        gettext_noop("World of Warcraft TCG"),
        PRESETS["wow_best_of_three"],
        MTR_TIEBREAKERS,
        top_cut=8,
        meta_features=("hero", "class", "faction", "race"),
        meta_win_feature="hero",
    ),
    # Blue Moon: one game scored in crystals (§13); MTR tiebreakers and top 8.
    "bluemoon": GameRules(
        "bluemoon",
        gettext_noop("Blue Moon"),
        PRESETS["blue_moon"],
        MTR_TIEBREAKERS,
        top_cut=8,
        meta_features=("people",),
        meta_win_feature="people",
    ),
}


def get_game(code: str) -> GameRules:
    """The entry of game ``code``; raises ``UnknownGame``."""
    try:
        return GAMES[code]
    except KeyError:
        raise UnknownGame(code) from None


def register_game(game: GameRules) -> GameRules:
    """Add ``game`` to ``GAMES`` (the one step of adding a game to the tournament side).

    Raises:
        ValueError: the code is already registered, or a tiebreaker code is not registered.
    """
    if game.code in GAMES:
        raise ValueError(f"game {game.code!r} is already registered")
    unknown = [code for code in game.tiebreakers if code not in TIEBREAKERS]
    unknown += [code for code in game.meta_features if code not in DIMENSIONS]
    if unknown:
        raise ValueError(f"game {game.code!r} names unknown tiebreakers or meta features {unknown}")
    GAMES[game.code] = game
    return game
