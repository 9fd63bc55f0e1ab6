"""HKK game start: opening hand, starting and maximum ÉP of every player of one game.

Service over the pure calculator :mod:`decks.domain.game_start`: it cleans the input, resolves
the declared rule cards and followers against the organiser's effects table
(:mod:`decks.selectors.game_start_effects`) and explains every figure. Read-only: no database
writes, so no transaction. Rules: docs/rules.md §5 (HKK game start: opening hand and life
points), §2 (HKK rule cards, followers and guilds) and §7 (HKK pair tournaments).

Used by ``POST /api/game-start/`` (:mod:`decks.api.game_start`) and by the match page
(``tournaments.services.game_start.match_game_start``). Every explanation line and warning is
a translated, parameterised message, evaluated in the active language when
:func:`game_start_compute` runs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext_lazy as _

from decks.domain.game_start import (
    Effect,
    EffectKind,
    PlayerSetup,
    PlayerStart,
    Side,
    compute_game_start,
    normalise_name,
)
from decks.errors import GameStartInputError
from decks.selectors.game_start_effects import (
    catalogue_follower_kind,
    effect_from_row,
    effect_rows,
    unknown_values,
)

__all__ = [
    "MAX_NAME_LENGTH",
    "MAX_START_RULE_HAND_CHANGE",
    "STEP_MESSAGES",
    "WARNING_MESSAGES",
    "game_start_compute",
]

#: Largest start-rule (kezdőszabály) hand adjustment accepted either way, in cards.
MAX_START_RULE_HAND_CHANGE = 10
#: Longest player or card name accepted.
MAX_NAME_LENGTH = 200

#: One message per calculator step code (``PlayerStart.steps``); ``%(signed)s`` is the
#: value with its sign (``+3``, ``-2``).
STEP_MESSAGES: dict[str, Any] = {
    "base_hand": _("Opening hand: %(value)s cards."),
    "rule_card_minus_one": _("Rule card “%(card)s”: 1 card fewer."),
    "follower_minus_one": _("Follower “%(card)s”: 1 card fewer."),
    "epic_follower_hand": _(
        "The epic follower “%(card)s” works at game start: %(value)s cards, no card fewer."
    ),
    "horde_commander_hand": _("The horde commander “%(card)s” draws %(value)s cards."),
    "horde_hand_unknown": _(
        "The opening hand printed on the horde commander “%(card)s” is not known; the base "
        "hand was kept."
    ),
    "not_working_at_start": _(
        "“%(card)s” does not work at game start, so it counts as a normal follower."
    ),
    "hand_change": _("“%(card)s”: %(signed)s cards."),
    "start_rule_hand_change": _("Start rule: %(signed)s cards."),
    "base_ep": _("Life points: %(value)s ÉP."),
    "fixed_max_ep": _("“%(card)s” sets the maximum ÉP to %(value)s."),
    "fixed_max_ep_ignored": _(
        "“%(card)s” would set the maximum ÉP to %(value)s, but the larger fixed value counts."
    ),
    "ep_change": _("“%(card)s”: %(signed)s ÉP (maximum and starting)."),
    "epic_follower_max_ep": _("Epic follower “%(card)s”: %(signed)s maximum ÉP."),
    "start_ep": _("“%(card)s”: the player starts with %(value)s ÉP; the maximum does not change."),
    "pair_rule_cards_differ": _(
        "The members of this pair declared different rule cards, but a pair shares one rule card."
    ),
}

#: Message for a step code this module does not know (a newer calculator).
GENERIC_STEP_MESSAGE = _("Game-start step %(code)s.")

#: Warnings: nothing is ever silently assumed.
WARNING_MESSAGES: dict[str, Any] = {
    "rule_card_not_in_effects": _(
        "The rule card “%(card)s” is not in the game-start effects table; it was counted only "
        "as 1 card fewer, with no other effect."
    ),
    "follower_not_in_effects": _(
        "The follower “%(card)s” is not in the game-start effects table; it was counted as "
        "a %(kind_text)s with no other effect."
    ),
    "values_unknown": _(
        "The game-start values of “%(card)s” are not known (%(values_text)s), so the figures "
        "may be incomplete."
    ),
    "kind_mismatch": _(
        "“%(card)s” is a %(kind_text)s in the game-start effects table, but it was declared "
        "as the %(slot_text)s."
    ),
}

KIND_TEXT: dict[str, Any] = {
    EffectKind.RULE_CARD.value: _("rule card"),
    EffectKind.FOLLOWER.value: _("follower"),
    EffectKind.EPIC_FOLLOWER.value: _("epic follower"),
    EffectKind.HORDE_COMMANDER.value: _("horde commander"),
}

VALUE_TEXT: dict[str, Any] = {
    "fixed_max_ep": _("fixed maximum ÉP"),
    "ep_change": _("ÉP change"),
    "hand_change": _("hand change"),
    "start_ep": _("starting ÉP"),
    "horde_hand": _("horde commander's opening hand"),
}

_FOLLOWER_KINDS = frozenset(
    {EffectKind.FOLLOWER, EffectKind.EPIC_FOLLOWER, EffectKind.HORDE_COMMANDER}
)


class _Warnings:
    """Ordered, de-duplicated warnings ``(code, params)``."""

    def __init__(self) -> None:
        self.items: dict[tuple[str, str], dict[str, Any]] = {}

    def add(self, code: str, **params: Any) -> None:
        self.items.setdefault((code, str(params.get("card", ""))), params)

    def as_list(self) -> list[dict[str, Any]]:
        result = []
        for (code, _card), params in self.items.items():
            text_params = dict(params)
            if "kind" in params:
                text_params["kind_text"] = KIND_TEXT.get(params["kind"], params["kind"])
            if "slot" in params:
                text_params["slot_text"] = KIND_TEXT[params["slot"]]
            if "values" in params:
                text_params["values_text"] = ", ".join(
                    str(VALUE_TEXT[value]) for value in params["values"]
                )
            result.append(
                {"code": code, "params": params, "text": str(WARNING_MESSAGES[code]) % text_params}
            )
        return result


def _clean_name(value: Any, field: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise GameStartInputError(
            _("%(field)s must be text.") % {"field": field}, code="invalid_game_start"
        )
    value = " ".join(value.split())
    if len(value) > MAX_NAME_LENGTH:
        raise GameStartInputError(
            _("%(field)s is longer than %(limit)s characters.")
            % {"field": field, "limit": MAX_NAME_LENGTH}
        )
    return value or None


def _resolve(
    name: str | None,
    slot: EffectKind,
    rows: Mapping[str, Any],
    warnings: _Warnings,
) -> Effect | None:
    """The effect declared in ``slot`` (rule card or follower), warning about any gap."""
    if name is None:
        return None
    row = rows.get(normalise_name(name))
    if row is None:
        if slot is EffectKind.RULE_CARD:
            warnings.add("rule_card_not_in_effects", card=name)
            return Effect(name=name, kind=EffectKind.RULE_CARD)
        kind = catalogue_follower_kind(name)
        warnings.add("follower_not_in_effects", card=name, kind=kind.value)
        return Effect(name=name, kind=kind)
    is_follower = row.kind in _FOLLOWER_KINDS
    if is_follower != (slot is EffectKind.FOLLOWER):
        warnings.add("kind_mismatch", card=row.name, kind=row.kind, slot=slot.value)
    unknown = unknown_values(row)
    if unknown:
        warnings.add("values_unknown", card=row.name, values=unknown)
    return effect_from_row(row)


def _side(
    players: Any, label: str, rows: Mapping[str, Any], warnings: _Warnings
) -> tuple[Side, list[dict[str, Any]]]:
    if not isinstance(players, Sequence) or isinstance(players, str | bytes):
        raise GameStartInputError(_("Side %(side)s must be a list of players.") % {"side": label})
    if not 1 <= len(players) <= 2:
        raise GameStartInputError(
            _("Side %(side)s has %(count)s players; a side is one player or a pair of two.")
            % {"side": label, "count": len(players)},
            code="bad_side_size",
            params={"side": label, "count": len(players)},
        )
    setups: list[PlayerSetup] = []
    declared: list[dict[str, Any]] = []
    for index, player in enumerate(players, start=1):
        if not isinstance(player, Mapping):
            raise GameStartInputError(
                _("Player %(index)s of side %(side)s is not an object.")
                % {"index": index, "side": label}
            )
        name = _clean_name(player.get("name"), str(_("Player name")))
        if name is None:
            raise GameStartInputError(
                _("Player %(index)s of side %(side)s has no name.")
                % {"index": index, "side": label},
                code="missing_player_name",
            )
        rule_card = _clean_name(player.get("rule_card"), str(_("Rule card")))
        follower = _clean_name(player.get("follower"), str(_("Follower")))
        setups.append(
            PlayerSetup(
                name=name,
                rule_card=_resolve(rule_card, EffectKind.RULE_CARD, rows, warnings),
                follower=_resolve(follower, EffectKind.FOLLOWER, rows, warnings),
            )
        )
        declared.append({"rule_card": rule_card, "follower": follower})
    return Side(tuple(setups)), declared


def _step_text(code: str, params: Mapping[str, Any]) -> str:
    values = dict(params)
    if isinstance(params.get("value"), int):
        values["signed"] = f"{params['value']:+d}"
    template = STEP_MESSAGES.get(code)
    if template is None:
        return str(GENERIC_STEP_MESSAGE) % {"code": code}
    return str(template) % values


def game_start_compute(
    *,
    side_a: Sequence[Mapping[str, Any]],
    side_b: Sequence[Mapping[str, Any]],
    start_rule_hand_change: int = 0,
) -> dict[str, Any]:
    """Opening hand, maximum and starting ÉP of every player of one HKK game.

    Args:
        side_a, side_b: one or two players each (a pair team is two), as
            ``[{"name": str, "rule_card": str | None, "follower": str | None}]``; names are
            matched against the effects table case- and whitespace-insensitively.
        start_rule_hand_change: the start rule's (kezdőszabály) hand adjustment for every
            player, −10…10 (the start rule's content is not known, so it is an input:
            docs/rules.md §5).

    Returns:
        ``{"players": [{"name", "side": "a"|"b", "rule_card", "follower", "hand", "max_ep",
        "start_ep", "explanation": [{"code", "params", "text"}]}], "warnings": [{"code",
        "params", "text"}], "complete": bool}``, side A first. ``complete`` is False when a
        warning says a card or value is unknown. Warning codes: ``rule_card_not_in_effects``,
        ``follower_not_in_effects`` (``params["kind"]``: the catalogue's follower kind),
        ``values_unknown`` (``params["values"]``: the unknown value columns),
        ``kind_mismatch``. Rules: :func:`decks.domain.game_start.compute_game_start`
        (docs/rules.md §5 (HKK game start: opening hand and life points)).

    Raises:
        GameStartInputError: a side without players or with more than two, a player without
            a name, a name used twice, a non-text name, a start-rule change out of range.
    """
    _check_start_rule_change(start_rule_hand_change)
    rows = effect_rows()
    warnings = _Warnings()
    a, declared_a = _side(side_a, "A", rows, warnings)
    b, declared_b = _side(side_b, "B", rows, warnings)
    names = [player.name for player in (*a.players, *b.players)]
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        raise GameStartInputError(
            _("Player name used twice: %(names)s.") % {"names": ", ".join(duplicates)},
            code="duplicate_player_name",
            params={"names": duplicates},
        )
    result = compute_game_start(a, b, start_rule_hand_change=start_rule_hand_change)
    players = [
        _player_dict(start, declared)
        for start, declared in zip(result.players, (*declared_a, *declared_b), strict=True)
    ]
    warning_list = warnings.as_list()
    return {"players": players, "warnings": warning_list, "complete": not warning_list}


def _check_start_rule_change(value: Any) -> None:
    """Raise :class:`GameStartInputError` unless ``value`` is a whole number within the limit."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise GameStartInputError(_("The start-rule hand change must be a whole number."))
    if abs(value) > MAX_START_RULE_HAND_CHANGE:
        raise GameStartInputError(
            _("The start-rule hand change must be between -%(limit)s and %(limit)s cards.")
            % {"limit": MAX_START_RULE_HAND_CHANGE},
            params={"limit": MAX_START_RULE_HAND_CHANGE},
        )


def _player_dict(start: PlayerStart, declared: Mapping[str, str | None]) -> dict[str, Any]:
    """One player of the result: the calculator's figures, the declared cards, the steps."""
    return {
        "name": start.name,
        "side": start.side,
        "rule_card": declared["rule_card"],
        "follower": declared["follower"],
        "hand": start.hand,
        "max_ep": start.max_ep,
        "start_ep": start.start_ep,
        "explanation": [
            {"code": code, "params": dict(params), "text": _step_text(code, params)}
            for code, params in start.steps
        ],
    }
