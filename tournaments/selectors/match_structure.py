"""Texts of match structures: the policy name, its one-line rule and its source for the judge
screen and the result slips, the messages of invalid structures (admin) and of games that break
the first-player or match rules (services, API, pages). No writes.

Rules: docs/rules.md §6 (HKK first-player rights), §11 (WoW TCG matches and first player),
§13 (Blue Moon matches).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.domain.first_player_policies import LATER_GAMES_RULES, POLICIES
from tournaments.domain.match_structure import InvalidStructure, MatchStructure


@dataclass(frozen=True, slots=True)
class PolicySummary:
    """What the judge screen and the slips show about a match structure: ``code`` (policy
    code), ``name`` (translated policy name), ``rule`` (one translated line: games, who starts,
    later games, score), ``source`` (the translated name of the public document it follows,
    e.g. "HKK FAQ") and ``section`` (the number of the docs/rules.md section, linked as
    ``/rules/#sN``)."""

    code: str
    name: str
    rule: str
    source: str
    section: int


def _games_text(structure: MatchStructure) -> str:
    n = structure.games_per_match
    if n == 1:
        return gettext("One game.")
    if structure.ends_when_decided:
        return gettext("Best of %(n)s.") % {"n": n}
    return gettext("%(n)s games, all played.") % {"n": n}


def policy_summary(structure: MatchStructure) -> PolicySummary:
    """The name, one-line rule and source of ``structure`` in the active language, from its
    policy's registry entry (``first_player_policies.POLICIES``) and later-games setting."""
    rules = structure.rules
    parts = [_games_text(structure)]
    single = structure.games_per_match == 1
    parts.append(
        gettext(rules.rule_single_game if single and rules.rule_single_game else rules.rule)
    )
    later = structure.effective_later_games
    if later is not None and not single:
        parts.append(gettext(LATER_GAMES_RULES[later]))
    if structure.scored:
        parts.append(
            gettext("The winner scores 1–%(max)s %(unit)s.")
            % {"max": structure.game_score_max, "unit": unit_label(structure.game_score_unit)}
        )
    if not structure.game_draws:
        parts.append(gettext("No drawn games."))
    return PolicySummary(
        code=str(structure.policy),
        name=gettext(rules.label),
        rule=" ".join(parts),
        source=gettext(rules.source),
        section=rules.section,
    )


def policy_choices() -> list[tuple[str, str]]:
    """``(code, translated label)`` of every registered first-player policy, in registry
    order: the choices of the models' and forms' policy fields."""
    return [(code, gettext(policy.label)) for code, policy in POLICIES.items()]


def policy_source_text(summary: PolicySummary) -> str:
    """The translated source line of ``summary`` for slips ("HKK FAQ, rules section 6")."""
    return gettext("%(source)s, rules section %(section)s") % {
        "source": summary.source,
        "section": summary.section,
    }


def unit_label(unit: str | None) -> str:
    """The translated name of a game-score unit (``crystals`` → "crystals" / "kristály")."""
    if unit == "crystals":
        return gettext("crystals")
    return unit or ""


_STRUCTURE_MESSAGES: Mapping[str, Any] = {
    "unknown_field": _("Unknown keys in the match structure: %(fields)s."),
    "invalid_value": _("Missing or invalid value for %(field)s."),
    "unknown_policy": _("Unknown first-player policy: %(value)s."),
    "invalid_games_per_match": _("Games per match must be between 1 and %(max)s."),
    "too_many_games_for_policy": _("The policy %(policy)s allows at most %(max)s games."),
    "unknown_later_games": _("Unknown rule for later games: %(value)s."),
    "later_games_not_configurable": _(
        "The policy %(policy)s fixes who starts later games; leave later_games empty."
    ),
    "invalid_game_score": _("Give both the score unit and a maximum score of at least 1."),
    "invalid_target_score": _("A target score needs a score unit and must be at least 1."),
    "unknown_preset": _("Unknown match structure preset: %(value)s."),
}


def structure_error_message(exc: InvalidStructure) -> str:
    """The translated message of an invalid match structure (codes of ``InvalidStructure``)."""
    template = _STRUCTURE_MESSAGES.get(exc.code, _("Invalid match structure."))
    params = {
        k: ", ".join(map(str, v)) if isinstance(v, list) else v for k, v in exc.params.items()
    }
    try:
        return str(template) % params
    except (KeyError, TypeError, ValueError):
        return str(template)


#: Messages of ``InconsistentGame`` codes (a game, roll or agreement against the rules).
GAME_MESSAGES: Mapping[str, Any] = {
    "unknown_entry": _("That entry does not play at this table."),
    "wrong_game_number": _("Record the games in order: game %(expected)s is next."),
    "roll_not_recorded": _("A die roll decides who holds the right: record its winner first."),
    "roll_not_expected": _("No die roll decides the next game."),
    "wrong_right_holder": _("The right to go first in this game is not held by that entry."),
    "wrong_first_player": _(
        "The entry that went first does not match the right holder and the waiver."
    ),
    "wrong_winner": _("The winner must be one of the two entries (or a draw)."),
    "too_many_games": _("This match has no more games under its first-player rule."),
    "match_already_decided": _("The match is already decided; no further game is played."),
    "reroll_agreement_too_late": _(
        "A new roll for game 3 must be agreed before the game-1 die roll."
    ),
    "reroll_not_available": _("This format has no new roll for game 3."),
    "draw_not_allowed": _("This format has no drawn games."),
    "score_missing": _("Give the winner's score for game %(game)s."),
    "score_out_of_range": _("The score of game %(game)s must be between %(min)s and %(max)s."),
    "score_not_allowed": _("This game keeps no score (none for a draw or in this format)."),
}


def game_error_message(code: str, params: Mapping[str, object]) -> str:
    """The translated message of an ``InconsistentGame`` code with its params."""
    template = GAME_MESSAGES.get(code, _("The game contradicts the rules."))
    try:
        return str(template) % dict(params)
    except (KeyError, TypeError, ValueError):
        return str(template)
