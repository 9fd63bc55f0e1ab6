"""Match structure per format: how many games a match has, when it ends, how games are scored
and which first-player policy decides who starts each game.

A :class:`MatchStructure` is plain data (``to_dict`` / ``from_dict`` round-trip through JSON),
so it can be stored per format or per tournament and edited by an organiser. The pure functions
that use it live in ``tournaments.domain.match`` (is the match decided, how many games remain,
the match result) and ``tournaments.domain.first_player`` (who holds the right or chooses for the
next game).

What the sources say, and what is a setting (marks as in docs/rules.md: confirmed / secondary /
inferred / unknown):

* HKK (docs/rules.md §6 HKK first-player rights, §8 HKK tournament structure and scoring; HKK FAQ
  on rule cards, followers, pair tournaments and first-player rights): three games against each
  opponent (confirmed; "Pörgős" plays one). Whether game 3 is played at 2–0 is not stated
  (unknown): by default all three are played, because game points count per game (inferred);
  ``ends_when_decided=True`` skips it. Games may be drawn (a drawn game is worth 1 game point,
  confirmed).
* WoW TCG (docs/rules.md §11 WoW TCG matches and first player; WoW TCG starter rulebook): the die
  roll winner decides who starts (confirmed). Classic and Block are best of three, Core best of
  one (secondary). Later games: the loser of the previous game chooses, and after a drawn game the
  player who chose for it chooses again (Magic Tournament Rules 2.2; inferred for WoW TCG, so it is
  the ``later_games`` setting).
* Blue Moon (docs/rules.md §13 Blue Moon matches; Blue Moon FAQ by C. Dearlove): one game per
  match, scored in crystals (confirmed / secondary). Only the winner scores: at most 4 crystals
  in the base game, up to 7 with Emissaries and Inquisitors (so ``game_score_max`` is a
  setting). The FAQ's end-of-game rules always name a winner (running out of cards decides when
  no dragon is attracted), so drawn games are off by default (``game_draws``). An irregularity
  (Special Rule 11, e.g. an invalid deck) loses the game with the opponent scoring the maximum.
  Who starts is not in the stored sources (unknown): by default a die roll whose winner chooses
  (inferred, as in WoW TCG); the organiser may pick another policy. One community event played
  games until a player reached 5 crystals (secondary): ``target_score``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass

from tournaments.domain.first_player_policies import (
    HKK_GAMES_PER_MATCH,
    POLICIES,
    FirstPlayerPolicy,
    LaterGames,
    PolicyCode,
)

__all__ = [
    "MAX_GAMES_PER_MATCH",
    "PRESETS",
    "HKK_GAMES_PER_MATCH",
    "InvalidStructure",
    "LaterGames",
    "MatchStructure",
    "PolicyCode",
    "get_preset",
]

#: Hard upper bound on games per match accepted from stored data.
MAX_GAMES_PER_MATCH = 9


class InvalidStructure(ValueError):  # noqa: N818 (matches InconsistentGame)
    """A match structure that cannot be used; ``code`` is stable for messages.

    Codes: ``unknown_field``, ``invalid_value`` (wrong type), ``unknown_policy``,
    ``invalid_games_per_match``, ``too_many_games_for_policy``, ``unknown_later_games``,
    ``later_games_not_configurable``, ``invalid_game_score``, ``invalid_target_score``,
    ``unknown_preset``. ``params`` holds the values for the message (``field``, ``value``,
    ``max`` …).
    """

    def __init__(self, code: str, params: Mapping[str, object] | None = None) -> None:
        super().__init__(code)
        self.code = code
        self.params = dict(params or {})


@dataclass(frozen=True, slots=True)
class MatchStructure:
    """How the games of one match are played and counted.

    Attributes:
        policy: first-player policy code, registered in ``first_player_policies.POLICIES``
            (a :class:`PolicyCode` for the built-in ones).
        games_per_match: the most games a match can have (1–9; at most the policy's
            ``max_games``: 3 for ``hkk``).
        ends_when_decided: ``True`` = the match stops once its winner can no longer change
            (best of N: a Bo3 ends at 2–0); ``False`` = all ``games_per_match`` games are played
            (HKK default: three games per opponent).
        later_games: rule for games 2+ under ``wow`` / ``blue_moon`` (:class:`LaterGames`);
            ``None`` = the policy's default (``loser_chooses``). Must be ``None`` for policies
            whose rule is fixed (``hkk``, ``loser_chooses``: no ``later_games_setting``).
        game_draws: whether a single game may end drawn (HKK and WoW TCG yes; Blue Moon no).
        game_score_unit: unit of the per-game score the winner earns (``"crystals"`` for Blue
            Moon), or ``None`` when games carry no score.
        game_score_max: the largest score one game can give (Blue Moon: 4 in the base game, 7
            with Emissaries and Inquisitors); required with ``game_score_unit``. A won game
            scores 1 … ``game_score_max``; a game lost to a penalty gives the opponent the max.
        target_score: with a score unit, the match ends once an entry's total reaches this
            (e.g. "play to 5 crystals"), and the higher total wins the match; ``None`` = the
            match is won on games.

    Raises:
        InvalidStructure: on construction, with the codes listed on the class.
    """

    policy: str
    games_per_match: int
    ends_when_decided: bool
    later_games: LaterGames | None = None
    game_draws: bool = True
    game_score_unit: str | None = None
    game_score_max: int | None = None
    target_score: int | None = None

    def __post_init__(self) -> None:
        rules = POLICIES.get(self.policy) if isinstance(self.policy, str) else None
        if rules is None:
            raise InvalidStructure("unknown_policy", {"value": self.policy})
        known = PolicyCode._value2member_map_.get(self.policy)
        object.__setattr__(self, "policy", known if known is not None else str(self.policy))
        if self.later_games is not None:
            try:
                object.__setattr__(self, "later_games", LaterGames(self.later_games))
            except ValueError:
                raise InvalidStructure("unknown_later_games", {"value": self.later_games}) from None
        for name in ("games_per_match", "game_score_max", "target_score"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise InvalidStructure("invalid_value", {"field": name, "value": value})
        for name in ("ends_when_decided", "game_draws"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidStructure(
                    "invalid_value", {"field": name, "value": getattr(self, name)}
                )
        if not 1 <= self.games_per_match <= MAX_GAMES_PER_MATCH:
            raise InvalidStructure(
                "invalid_games_per_match",
                {"value": self.games_per_match, "max": MAX_GAMES_PER_MATCH},
            )
        if rules.max_games is not None and self.games_per_match > rules.max_games:
            raise InvalidStructure(
                "too_many_games_for_policy",
                {"policy": str(self.policy), "max": rules.max_games},
            )
        if self.later_games is not None and not rules.later_games_setting:
            raise InvalidStructure("later_games_not_configurable", {"policy": str(self.policy)})
        unit, top = self.game_score_unit, self.game_score_max
        if unit is not None and (not isinstance(unit, str) or not unit.strip()):
            raise InvalidStructure("invalid_game_score", {"field": "game_score_unit"})
        if (unit is None) != (top is None) or (top is not None and top < 1):
            raise InvalidStructure("invalid_game_score", {"field": "game_score_max", "value": top})
        if self.target_score is not None and (unit is None or self.target_score < 1):
            raise InvalidStructure("invalid_target_score", {"value": self.target_score})

    @property
    def scored(self) -> bool:
        """Games carry a score (``game_score_unit`` is set)."""
        return self.game_score_unit is not None

    @property
    def rules(self) -> FirstPlayerPolicy:
        """The registry entry of :attr:`policy` (``first_player_policies.POLICIES``)."""
        return POLICIES[self.policy]

    @property
    def effective_later_games(self) -> LaterGames | None:
        """The later-games rule in force: ``later_games`` or the policy's default (``None`` for
        ``hkk``, whose games 2 and 3 follow its own rule)."""
        rules = self.rules
        if rules.later_games_setting and self.later_games is not None:
            return self.later_games
        return rules.default_later_games

    @property
    def reroll_game3_available(self) -> bool:
        """Both players may agree, before the game-1 roll, to roll again for game 3 (a policy
        with ``reroll_game3``, ``hkk``, with all its games; docs/rules.md §6 HKK first-player
        rights)."""
        rules = self.rules
        return rules.reroll_game3 and self.games_per_match == rules.max_games

    def to_dict(self) -> dict[str, object]:
        """JSON-ready mapping (enum values as plain strings); ``from_dict`` reads it back."""
        data = asdict(self)
        data["policy"] = str(self.policy)
        data["later_games"] = None if self.later_games is None else str(self.later_games)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> MatchStructure:
        """Build a structure from stored data (e.g. a JSON field edited in the admin).

        ``policy``, ``games_per_match`` and ``ends_when_decided`` are required; the other keys
        default as on the class.

        Raises:
            InvalidStructure: ``unknown_field`` (params ``fields``), ``invalid_value`` (params
                ``field``: a missing required key or a wrong type) and the construction codes.
        """
        known = set(cls.__dataclass_fields__)
        unknown = sorted(str(k) for k in data if k not in known)
        if unknown:
            raise InvalidStructure("unknown_field", {"fields": unknown})
        for name in ("policy", "games_per_match", "ends_when_decided"):
            if name not in data:
                raise InvalidStructure("invalid_value", {"field": name, "value": None})
        for name in ("policy", "later_games", "game_score_unit"):
            value = data.get(name)
            if value is not None and not isinstance(value, str):
                raise InvalidStructure("invalid_value", {"field": name, "value": value})
        return cls(**data)  # type: ignore[arg-type]  # types checked in __post_init__


def _preset(**values: object) -> MatchStructure:
    return MatchStructure.from_dict(values)


#: Ready-made structures by preset code (docs/rules.md §8, §11, §13). Formats store a copy
#: (``to_dict``) and may change any setting.
PRESETS: Mapping[str, MatchStructure] = {
    # HKK: three games per opponent, all played (whether game 3 is played at 2–0: unknown).
    "hkk": _preset(policy="hkk", games_per_match=3, ends_when_decided=False),
    # HKK "Pörgős": one game per round.
    "hkk_one_game": _preset(policy="hkk", games_per_match=1, ends_when_decided=True),
    # WoW TCG Classic / Block: best of three (secondary), later games per MTR 2.2 (inferred).
    "wow_best_of_three": _preset(
        policy="wow", games_per_match=3, ends_when_decided=True, later_games="loser_chooses"
    ),
    # WoW TCG Core: best of one (secondary).
    "wow_best_of_one": _preset(policy="wow", games_per_match=1, ends_when_decided=True),
    # Blue Moon: one game, scored in crystals (max 4 in the base game), no drawn games.
    "blue_moon": _preset(
        policy="blue_moon",
        games_per_match=1,
        ends_when_decided=True,
        game_draws=False,
        game_score_unit="crystals",
        game_score_max=4,
    ),
    # Blue Moon with Emissaries and Inquisitors: up to 7 crystals a game.
    "blue_moon_emissaries_inquisitors": _preset(
        policy="blue_moon",
        games_per_match=1,
        ends_when_decided=True,
        game_draws=False,
        game_score_unit="crystals",
        game_score_max=7,
    ),
}


def get_preset(code: str) -> MatchStructure:
    """The preset structure ``code`` (a key of ``PRESETS``).

    Raises:
        InvalidStructure: ``unknown_preset`` (params ``value``, ``known``).
    """
    try:
        return PRESETS[code]
    except KeyError:
        raise InvalidStructure(
            "unknown_preset", {"value": code, "known": sorted(PRESETS)}
        ) from None
