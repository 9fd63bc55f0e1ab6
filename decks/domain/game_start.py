"""HKK game start: opening hand size, starting and maximum life points (ÉP) per player.

Pure Python (no Django). The effects of rule cards (szabálylap) and followers (követő) are
data (:class:`Effect`), shipped in ``decks/data/game_start_effects.csv`` and editable by the
organiser; this module only applies the rules of docs/rules.md §5 (HKK game start: opening
hand and life points) and §7 (HKK pair tournaments). "HKK FAQ" is the *HKK FAQ on rule cards,
followers, pair tournaments and first-player rights*; "Kódex" is the HKK Kódex:

Hand (cards):
    * base 5 (Kódex part II §3.6);
    * −1 for a rule card (HKK FAQ) and −1 for a normal follower (Kódex §44.5), cumulative
      (the sum is inferred);
    * an epic follower that works at start draws 5, no −1 (Kódex §48.2); a horde commander
      that works at start draws exactly its printed number ``horde_hand`` (Kódex §48.2); one
      that does not work at start falls back to the normal follower rule (Kódex §48.3, §48.5);
    * then every applicable ``hand_change`` is added, plus the start-rule (kezdőszabály)
      adjustment, whose content is unknown (a parameter).

ÉP:
    * base 20 (Kódex part II §3.12); among the applicable *fixed* maximum values the larger
      wins, then all relative changes are added (HKK FAQ "Kétféle szabálylap/követő van…"):
      Életenergia (új) at the opponent + Terrgath mine → 28; Életenergia (új) + Sokszínűség
      → 30;
    * an epic follower working at start: −2 max ÉP (Kódex §48.4); a horde commander's ÉP change
      applies to both ÉP and max ÉP (Kódex §48.4), which is how every ``ep_change`` is applied;
    * the starting ÉP follows the same rule (HKK FAQ "Ugyanezt a szabályt alkalmazzuk a kezdő
      ÉP-nél is"); the only exception is Arochos, which starts at 1 ÉP and does not change the
      maximum (``start_ep``).

Which effects apply to whom:
    * ``scope="everyone"`` effects apply to every player at the table, once (HKK FAQ pair
      paragraphs: "mindenkire hatnak … csak egyszer fejtik ki a hatásukat");
    * ``scope="user"`` effects apply to their user; in a pair the rule card is shared
      ("Páros versenyen közös a szabálylap"), so a user-scope rule card applies to both
      members (Sokszínűség: both start at 27, 54 in total); a follower stays personal;
    * identical effects (same normalised name) of different players do not stack (HKK FAQ AK36,
      Kódex §43.7: two A bőség zavara → 7 cards each, 5 + 3 − 1). One player's several
      identical cards would stack (Kódex §43.7.1); with one rule card per player that cannot
      happen here, so every distinct name counts once per player.
    * Scope decisions in the shipped data: Életenergia (új) is "everyone" (HKK FAQ: at the
      opponent it sets my ÉP), Sokszínűség and Terrgath are "user" (HKK FAQ pair example;
      "nálam"); these readings are inferred.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from enum import StrEnum

DEFAULT_BASE_HAND = 5  # Kódex part II §3.6
DEFAULT_BASE_EP = 20  # Kódex part II §3.12
EPIC_FOLLOWER_MAX_EP = -2  # Kódex §48.4


class EffectKind(StrEnum):
    """What kind of card carries the effect (Kódex ch. 43, 44, 48; docs/rules.md §2)."""

    RULE_CARD = "rule_card"
    FOLLOWER = "follower"
    EPIC_FOLLOWER = "epic_follower"
    HORDE_COMMANDER = "horde_commander"


class Scope(StrEnum):
    """Whom an effect reaches: every player at the table, or only its user.

    Source: HKK FAQ pair paragraphs; docs/rules.md §5 (HKK game start: opening hand and life
    points).
    """

    EVERYONE = "everyone"
    USER = "user"


def normalise_name(name: str) -> str:
    """Key for effect names: NFC, case-folded, inner whitespace collapsed."""
    return " ".join(unicodedata.normalize("NFC", name).casefold().split())


@dataclass(frozen=True, slots=True)
class Effect:
    """The game-start effect of one rule card or follower (organiser-editable data).

    Attributes:
        name: printed name, e.g. ``"Életenergia (új)"``.
        fixed_max_ep: sets the maximum (and starting) ÉP to this value; None = does not.
        ep_change: signed change of max and starting ÉP, e.g. Terrgath −2; None = none.
        hand_change: signed change of the opening hand, e.g. A bőség zavara +3; None = none.
        start_ep: the player starts at exactly this ÉP, max unchanged (Arochos 1); None = no.
        scope: :class:`Scope` (``"everyone"`` or ``"user"``).
        kind: :class:`EffectKind`.
        horde_hand: for a horde commander, the opening hand it prints; None = unknown/none.
        works_at_start: False when an epic follower or horde commander does not work at game
            start (Kódex §48.3, §48.5); its values are then ignored and it is a normal follower.
    """

    name: str
    fixed_max_ep: int | None = None
    ep_change: int | None = None
    hand_change: int | None = None
    start_ep: int | None = None
    scope: Scope = Scope.USER
    kind: EffectKind = EffectKind.RULE_CARD
    horde_hand: int | None = None
    works_at_start: bool = True

    def __post_init__(self) -> None:
        # accept plain strings ("everyone", "follower"); ValueError for anything else
        object.__setattr__(self, "scope", Scope(self.scope))
        object.__setattr__(self, "kind", EffectKind(self.kind))

    @property
    def key(self) -> str:
        """Normalised name: identical cards share it and do not stack across players."""
        return normalise_name(self.name)


@dataclass(frozen=True, slots=True)
class PlayerSetup:
    """One player's declared rule card and follower (either may be None)."""

    name: str
    rule_card: Effect | None = None
    follower: Effect | None = None


@dataclass(frozen=True, slots=True)
class Side:
    """One side of the table: a single player or a pair team of two.

    Source: docs/rules.md §7 (HKK pair tournaments).
    """

    players: tuple[PlayerSetup, ...] | list[PlayerSetup]


Step = tuple[str, dict[str, object]]


@dataclass(frozen=True, slots=True)
class PlayerStart:
    """Result for one player.

    Attributes:
        name: the player's name as given.
        side: ``"a"`` or ``"b"``.
        hand: opening hand size in cards (never below 0).
        max_ep: maximum life points (ÉP).
        start_ep: life points at game start (never above ``max_ep``).
        steps: explanation, in order, as ``(code, params)``; codes: ``base_hand``,
            ``rule_card_minus_one``, ``follower_minus_one``, ``epic_follower_hand``,
            ``horde_commander_hand``, ``horde_hand_unknown``, ``not_working_at_start``,
            ``hand_change``, ``start_rule_hand_change``, ``base_ep``, ``fixed_max_ep``,
            ``fixed_max_ep_ignored``, ``ep_change``, ``epic_follower_max_ep``, ``start_ep``,
            ``pair_rule_cards_differ``.
    """

    name: str
    side: str
    hand: int
    max_ep: int
    start_ep: int
    steps: list[Step] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class GameStart:
    """Results for all players, side A first, in the order given."""

    players: list[PlayerStart]

    def player(self, name: str) -> PlayerStart:
        """The result for the player called ``name``; KeyError if there is none."""
        for result in self.players:
            if result.name == name:
                return result
        raise KeyError(name)


def _active(effect: Effect | None) -> Effect | None:
    """The effect if its values count at game start, else None."""
    if effect is None or not effect.works_at_start:
        return None
    return effect


def _applicable(player: PlayerSetup, team: Side, sides: tuple[Side, Side]) -> dict[str, Effect]:
    """Distinct applicable effects for ``player`` keyed by normalised name (no stacking)."""
    found: dict[str, Effect] = {}
    for side in sides:
        for other in side.players:
            for effect in (other.rule_card, other.follower):
                effect = _active(effect)
                if effect is None:
                    continue
                if effect.scope is Scope.EVERYONE or other is player:
                    applies = True
                else:
                    # a pair shares its rule card (HKK FAQ "Páros versenyen közös a szabálylap")
                    applies = effect is other.rule_card and side is team
                if applies:
                    found.setdefault(effect.key, effect)
    return found


def _hand(
    player: PlayerSetup, effects: dict[str, Effect], base: int, start_rule: int, steps: list[Step]
) -> int:
    follower = player.follower
    steps.append(("base_hand", {"value": base}))
    hand = base
    special = (
        follower
        if follower is not None
        and follower.kind in (EffectKind.EPIC_FOLLOWER, EffectKind.HORDE_COMMANDER)
        else None
    )
    if special is not None and not special.works_at_start:
        steps.append(("not_working_at_start", {"card": special.name}))
    if special is not None and special.works_at_start and special.kind is EffectKind.EPIC_FOLLOWER:
        steps.append(("epic_follower_hand", {"card": special.name, "value": base}))
    elif special is not None and special.works_at_start:
        if special.horde_hand is None:
            steps.append(("horde_hand_unknown", {"card": special.name}))
        else:
            hand = special.horde_hand
            steps.append(("horde_commander_hand", {"card": special.name, "value": hand}))
    else:
        if player.rule_card is not None:
            hand -= 1
            steps.append(("rule_card_minus_one", {"card": player.rule_card.name}))
        if follower is not None:
            hand -= 1
            steps.append(("follower_minus_one", {"card": follower.name}))
    for effect in effects.values():
        if effect.hand_change:
            hand += effect.hand_change
            steps.append(("hand_change", {"card": effect.name, "value": effect.hand_change}))
    if start_rule:
        hand += start_rule
        steps.append(("start_rule_hand_change", {"value": start_rule}))
    return max(hand, 0)


def _ep(
    player: PlayerSetup, effects: dict[str, Effect], base: int, steps: list[Step]
) -> tuple[int, int]:
    steps.append(("base_ep", {"value": base}))
    fixed = [
        (effect, effect.fixed_max_ep)
        for effect in effects.values()
        if effect.fixed_max_ep is not None
    ]
    max_ep = base
    if fixed:
        winner, max_ep = max(fixed, key=lambda pair: pair[1])
        steps.append(("fixed_max_ep", {"card": winner.name, "value": max_ep}))
        for effect, value in fixed:
            if effect is not winner:
                steps.append(("fixed_max_ep_ignored", {"card": effect.name, "value": value}))
    for effect in effects.values():
        if effect.ep_change:
            max_ep += effect.ep_change
            steps.append(("ep_change", {"card": effect.name, "value": effect.ep_change}))
    follower = _active(player.follower)
    if follower is not None and follower.kind is EffectKind.EPIC_FOLLOWER:
        max_ep += EPIC_FOLLOWER_MAX_EP
        steps.append(
            ("epic_follower_max_ep", {"card": follower.name, "value": EPIC_FOLLOWER_MAX_EP})
        )
    start_ep = max_ep
    overrides = [
        (effect, effect.start_ep) for effect in effects.values() if effect.start_ep is not None
    ]
    if overrides:
        chosen, lowest = min(overrides, key=lambda pair: pair[1])
        start_ep = min(lowest, max_ep)
        steps.append(("start_ep", {"card": chosen.name, "value": start_ep}))
    return max_ep, start_ep


def compute_game_start(
    side_a: Side,
    side_b: Side,
    *,
    base_hand: int = DEFAULT_BASE_HAND,
    base_ep: int = DEFAULT_BASE_EP,
    start_rule_hand_change: int = 0,
) -> GameStart:
    """Opening hand, maximum and starting ÉP for every player of a two-sided HKK game.

    Args:
        side_a, side_b: each one player or a pair team of two (docs/rules.md §7).
        base_hand: cards drawn without modifiers (Kódex part II §3.6: 5).
        base_ep: life points without modifiers (Kódex part II §3.12: 20).
        start_rule_hand_change: the kezdőszabály hand adjustment, added for every player
            (content unknown → configurable, docs/rules.md §5; organiser parameter).

    Returns:
        :class:`GameStart` with one :class:`PlayerStart` per player (side A first) and the
        steps that explain each figure. The rules are in the module docstring.

    Raises:
        ValueError: a side with no player or more than two players, or a duplicate player name.
    """
    sides = (side_a, side_b)
    names: set[str] = set()
    for side in sides:
        if not 1 <= len(side.players) <= 2:
            raise ValueError("a side has one player or a pair of two players")
        for player in side.players:
            if player.name in names:
                raise ValueError(f"player name {player.name!r} is used twice")
            names.add(player.name)
    results: list[PlayerStart] = []
    for label, side in zip(("a", "b"), sides, strict=True):
        rule_keys = {p.rule_card.key if p.rule_card else None for p in side.players}
        for player in side.players:
            steps: list[Step] = []
            if len(side.players) == 2 and len(rule_keys) > 1:
                steps.append(("pair_rule_cards_differ", {}))
            effects = _applicable(player, side, sides)
            hand = _hand(player, effects, base_hand, start_rule_hand_change, steps)
            max_ep, start_ep = _ep(player, effects, base_ep, steps)
            results.append(PlayerStart(player.name, label, hand, max_ep, start_ep, steps))
    return GameStart(results)
