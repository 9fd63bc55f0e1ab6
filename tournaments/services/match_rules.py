"""The rules of a match as the services apply them: the locked match, the checks that a match
may be played, the translation of the domain's ``InconsistentGame`` into the one error model,
and the die rolls and first-player right: the game-1 die roll, the HKK agreement to decide game
3 by a new roll (only before the game-1 roll), the game-3 re-roll, and who holds the right or
chooses who starts in the next game (docs/rules.md §6 (HKK first-player rights), §11 (WoW TCG
matches and first player), §13 (Blue Moon matches)). The results services
(``results``, ``match_results``, ``reports``) use the helpers.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from django.db import transaction
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from hkk_tournament.errors import (
    ApplicationError,
    Conflict,
    InvalidState,
    NotFound,
    ValidationFailed,
)
from tournaments import selectors
from tournaments.domain import first_player as fp
from tournaments.domain.match_structure import InvalidStructure, MatchStructure
from tournaments.domain.types import GameRecord
from tournaments.models import Entry, Match, Round
from tournaments.permissions import require_judge_of_match
from tournaments.services._common import require_not_finished, share_round

R = Round.Status

#: ``InconsistentGame`` codes that are conflicts with the match's state (409), not bad input.
_CONFLICT_CODES = frozenset({"reroll_agreement_too_late"})
_STATE_CODES = frozenset({"match_already_decided", "too_many_games"})


def entry_id(value: Entry | int | None) -> int | None:
    if value is None:
        return None
    return value.pk if isinstance(value, Entry) else int(value)


def locked_match(match: Match) -> Match:
    """Re-read ``match`` locked: its round's row ``FOR SHARE`` first (``share_round``), then
    the match row ``FOR UPDATE``, then the match with its round and tournament in the same
    statement, read after both locks, so the round's and the event's status are the ones
    committed by any state change the call waited for.

    Two judges recording two different tables share the round lock and never wait for each
    other; two writes to the same match are serialised; a write waits for an unpublish,
    discard, round finish or event finish in progress and then sees the new state
    (``require_playable``), while those wait for the writes already holding the round.

    Raises ``NotFound("match_not_found")`` when the round (or the table) no longer exists,
    e.g. a draft round discarded meanwhile."""
    if not share_round(match.round_id):
        raise _match_gone(match)
    try:
        return (
            Match.objects.select_for_update(of=("self",))
            .select_related("round__tournament")
            .get(pk=match.pk)
        )
    except Match.DoesNotExist:
        raise _match_gone(match) from None


def _match_gone(match: Match) -> NotFound:
    return NotFound(
        "match_not_found",
        _("This table no longer exists: its round was paired again or discarded. Reload."),
        {"table": match.table},
    )


def require_playable(match: Match, *, correction: bool = False) -> None:
    rnd = match.round
    require_not_finished(rnd.tournament, rnd.number)
    if rnd.status == R.DRAFT:
        raise InvalidState(
            "round_not_published",
            _("Round %(round)s is not published yet.") % {"round": rnd.number},
            {"round": rnd.number},
        )
    if rnd.status == R.FINISHED and not correction:
        raise InvalidState(
            "round_finished",
            _("Round %(round)s is finished; only an explicit correction can change it.")
            % {"round": rnd.number},
            {"round": rnd.number},
        )
    if match.entry_b_id is None:
        raise InvalidState("bye_match", _("A bye has no games to record."), {"table": match.table})


def require_in_match(match: Match, entry_id: int | None, field: str) -> None:
    if entry_id is not None and entry_id not in (match.entry_a_id, match.entry_b_id):
        raise ValidationFailed(
            "not_in_match",
            _("That entry does not play at table %(table)s.") % {"table": match.table},
            {"field": field, "entry": entry_id, "table": match.table},
        )


def inconsistent(exc: fp.InconsistentGame) -> ApplicationError:
    """The application error of a domain ``InconsistentGame``: 409 ``Conflict`` for a late
    re-roll agreement, 409 ``InvalidState`` for a match that is over, else 400
    ``ValidationFailed`` (``wrong_right_holder`` / ``wrong_first_player`` as
    ``first_player_mismatch``); params carry ``reason`` (the domain code)."""
    message = selectors.game_error_message(exc.code, exc.params)
    params = {"reason": exc.code, **exc.params}
    if exc.code in _CONFLICT_CODES:
        return Conflict(exc.code, message, params)
    if exc.code in _STATE_CODES:
        return InvalidState(exc.code, message, params)
    code = (
        "first_player_mismatch"
        if exc.code in ("wrong_right_holder", "wrong_first_player")
        else exc.code
    )
    return ValidationFailed(code, message, params)


def structure_of(match: Match) -> MatchStructure:
    """The match structure of ``match``'s tournament (``invalid_match_structure`` if broken)."""
    try:
        return match.round.tournament.structure
    except InvalidStructure as exc:
        raise InvalidState(
            "invalid_match_structure",
            selectors.structure_error_message(exc),
            {"reason": exc.code, **exc.params},
        ) from None


def game_fields(record: GameRecord, decision: fp.RightDecision) -> dict[str, Any]:
    """The ``Game`` field values (keyword arguments, ``*_id`` for entries) of ``record``, a
    game already checked against ``decision``: where the format gives a choice (``mode``
    ``CHOOSES``: WoW TCG, Blue Moon) the right holder is stored as ``chosen_by``
    (docs/rules.md §11 (WoW TCG matches and first player), §13 (Blue Moon matches))."""
    chooses = decision.mode == fp.RightMode.CHOOSES
    return {
        "right_holder_id": record.right_holder,
        "waived": record.waived,
        "first_id": record.first,
        "winner_id": record.winner,
        "is_draw": record.winner is None,
        "chosen_by_id": record.right_holder if chooses else None,
        "score": record.score,
    }


# --- die rolls and the right for the next game ---------------------------------------------


@transaction.atomic
def match_set_die_roll(
    *, actor: Any, match: Match, winner_entry: Entry | int, reroll_game3_agreed: bool | None = None
) -> Match:
    """Record the game-1 die roll winner: HKK "player 1", who holds the right in game 1
    (docs/rules.md §6 (HKK first-player rights)); WoW TCG and Blue Moon the entry that chooses
    who starts game 1 (§11 (WoW TCG matches and first player), §13 (Blue Moon matches)).

    ``reroll_game3_agreed`` (HKK with three games) is the players' agreement, made before this
    roll, to decide game 3 by a new roll; ``None`` keeps the agreement already recorded. A roll
    already recorded may be corrected until game 1 is recorded, but the agreement can no longer
    change then (``tournaments.domain.first_player.record_die_roll``).

    Raises:
        InvalidState: ``round_not_published``, ``round_finished``, ``bye_match``,
            ``games_already_recorded``.
        Conflict: ``reroll_agreement_too_late`` (the agreement changed after the roll).
        ValidationFailed: ``not_in_match``, ``reroll_not_available`` (not HKK with 3 games).
    """
    require_judge_of_match(actor, match)
    match = locked_match(match)
    require_playable(match)
    winner = entry_id(winner_entry)
    require_in_match(match, winner, "winner_entry")
    if match.games.exists():
        raise InvalidState(
            "games_already_recorded",
            _("The die roll cannot change once games are recorded."),
            {"table": match.table},
        )
    assert winner is not None
    try:
        state = fp.record_die_roll(
            selectors.match_state(match, []),
            structure_of(match),
            winner,
            reroll_game3_agreed=reroll_game3_agreed,
        )
    except fp.InconsistentGame as exc:
        raise inconsistent(exc) from None
    match.die_roll_winner_id = state.roll_winner
    match.reroll_game3_agreed = state.reroll_game3
    match.save(update_fields=["die_roll_winner", "reroll_game3_agreed"])
    return match


@transaction.atomic
def match_set_reroll_agreement(*, actor: Any, match: Match, agreed: bool = True) -> Match:
    """Record (or withdraw) the players' agreement to decide HKK game 3 by a new die roll.

    Accepted only before the game-1 die roll is recorded (docs/rules.md §6 (HKK first-player
    rights); HKK FAQ on rule cards, followers, pair tournaments and first-player rights: "Ha
    még az első játék kezdésekor a kockadobás előtt mindkét játékos beleegyezik…").

    Raises:
        Conflict: ``reroll_agreement_too_late`` (the game-1 roll or a game is recorded).
        ValidationFailed: ``reroll_not_available`` (not HKK with three games).
        InvalidState: ``round_not_published``, ``round_finished``, ``bye_match``.
    """
    require_judge_of_match(actor, match)
    match = locked_match(match)
    require_playable(match)
    structure = structure_of(match)
    state = selectors.match_state(match, selectors.match_games(match))
    try:
        if agreed:
            state = fp.agree_reroll_game3(state, structure)
        elif state.reroll_game3:
            if state.roll_winner is not None or state.games:
                raise fp.InconsistentGame("reroll_agreement_too_late", {"game": 1})
            state = replace(state, reroll_game3=False)
    except fp.InconsistentGame as exc:
        raise inconsistent(exc) from None
    match.reroll_game3_agreed = state.reroll_game3
    match.save(update_fields=["reroll_game3_agreed"])
    return match


@transaction.atomic
def match_set_game3_roll(*, actor: Any, match: Match, winner_entry: Entry | int) -> Match:
    """Record the winner of the agreed game-3 re-roll (docs/rules.md §6 (HKK first-player
    rights)); a recorded one may be corrected until game 3 is recorded.

    Raises ``InvalidState("no_reroll_agreed" | "not_game_3" | …)``, ``ValidationFailed``.
    """
    require_judge_of_match(actor, match)
    match = locked_match(match)
    require_playable(match)
    winner = entry_id(winner_entry)
    require_in_match(match, winner, "winner_entry")
    if not match.reroll_game3_agreed:
        raise InvalidState("no_reroll_agreed", _("No game-3 re-roll was agreed."), {})
    games = selectors.match_games(match)
    if len(games) != 2:
        raise InvalidState("not_game_3", _("The re-roll happens before game 3."), {})
    assert winner is not None
    try:
        state = fp.record_die_roll(selectors.match_state(match, games), structure_of(match), winner)
    except fp.InconsistentGame as exc:
        raise inconsistent(exc) from None
    match.game3_roll_winner_id = state.game3_roll_winner
    match.save(update_fields=["game3_roll_winner"])
    return match


@dataclass(frozen=True, slots=True)
class NextRight:
    """Who holds the right to go first in the next game of a match, and why.

    ``decision`` is ``None`` when the match is complete (or a bye); ``holder`` is the entry id
    (``None`` while a die roll must decide); ``seat`` is ``"A"``/``"B"`` at the table;
    ``text`` the translated explanation, e.g. "game 2: player 2 (B) per rule".
    """

    decision: fp.RightDecision | None
    holder: int | None
    seat: str | None
    text: str


def match_next_right(*, match: Match) -> NextRight:
    """The first-player decision for the next game of ``match`` under its tournament's match
    structure (read-only; docs/rules.md §6 (HKK first-player rights), §11 (WoW TCG matches and
    first player), §13 (Blue Moon matches)); ``decision`` is ``None`` once the match is over."""
    match = Match.objects.select_related("round__tournament").get(pk=match.pk)
    if match.entry_b_id is None:
        return NextRight(None, None, None, gettext("bye: no games are played"))
    games = selectors.match_games(match)
    if selectors.match_score(match, games).complete:
        return NextRight(None, None, None, gettext("the match is complete"))
    state = selectors.match_state(match, games)
    try:
        decision = fp.next_right(state, structure_of(match))
    except fp.InconsistentGame:
        return NextRight(None, None, None, gettext("the match is complete"))
    seat = None
    if decision.holder is not None:
        seat = "A" if decision.holder == match.entry_a_id else "B"
    return NextRight(
        decision, decision.holder, seat, selectors.right_explanation(decision, seat=seat)
    )
