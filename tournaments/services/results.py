"""Match results: die rolls, game records (with corrections kept in history) and the
first-player right for the next game (docs/rules.md §6 (HKK first-player rights), §11 (WoW
TCG matches and first player)).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from django.db import IntegrityError, transaction
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
from tournaments.domain.types import GameRecord, StartChoice
from tournaments.models import Entry, Game, GameCorrection, Match, Round
from tournaments.services._common import lock_tournament
from tournaments.services.jobs import enqueue_standings

R = Round.Status

#: ``InconsistentGame`` codes that are conflicts with the match's state (409), not bad input.
_CONFLICT_CODES = frozenset({"reroll_agreement_too_late"})
_STATE_CODES = frozenset({"match_already_decided", "too_many_games"})


def _entry_id(value: Entry | int | None) -> int | None:
    if value is None:
        return None
    return value.pk if isinstance(value, Entry) else int(value)


def _locked_match(match: Match) -> Match:
    lock_tournament(match.round.tournament_id)
    return (
        Match.objects.select_for_update(of=("self",))
        .select_related("round__tournament")
        .get(pk=match.pk)
    )


def _require_playable(match: Match, *, correction: bool = False) -> None:
    rnd = match.round
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


def _require_in_match(match: Match, entry_id: int | None, field: str) -> None:
    if entry_id is not None and entry_id not in (match.entry_a_id, match.entry_b_id):
        raise ValidationFailed(
            "not_in_match",
            _("That entry does not play at table %(table)s.") % {"table": match.table},
            {"field": field, "entry": entry_id, "table": match.table},
        )


def _inconsistent(exc: fp.InconsistentGame) -> ApplicationError:
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


def _structure(match: Match) -> MatchStructure:
    """The match structure of ``match``'s tournament (``invalid_match_structure`` if broken)."""
    try:
        return match.round.tournament.structure
    except InvalidStructure as exc:
        raise InvalidState(
            "invalid_match_structure",
            selectors.structure_error_message(exc),
            {"reason": exc.code, **exc.params},
        ) from None


@transaction.atomic
def match_set_die_roll(
    *, match: Match, winner_entry: Entry | int, reroll_game3_agreed: bool | None = None
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
    match = _locked_match(match)
    _require_playable(match)
    winner = _entry_id(winner_entry)
    _require_in_match(match, winner, "winner_entry")
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
            _structure(match),
            winner,
            reroll_game3_agreed=reroll_game3_agreed,
        )
    except fp.InconsistentGame as exc:
        raise _inconsistent(exc) from None
    match.die_roll_winner_id = state.roll_winner
    match.reroll_game3_agreed = state.reroll_game3
    match.save(update_fields=["die_roll_winner", "reroll_game3_agreed"])
    return match


@transaction.atomic
def match_set_reroll_agreement(*, match: Match, agreed: bool = True) -> Match:
    """Record (or withdraw) the players' agreement to decide HKK game 3 by a new die roll.

    Accepted only before the game-1 die roll is recorded (docs/rules.md §6 (HKK first-player
    rights); HKK FAQ on rule cards, followers, pair tournaments and first-player rights: "Ha
    még az első játék kezdésekor a kockadobás előtt mindkét játékos beleegyezik…").

    Raises:
        Conflict: ``reroll_agreement_too_late`` (the game-1 roll or a game is recorded).
        ValidationFailed: ``reroll_not_available`` (not HKK with three games).
        InvalidState: ``round_not_published``, ``round_finished``, ``bye_match``.
    """
    match = _locked_match(match)
    _require_playable(match)
    structure = _structure(match)
    state = selectors.match_state(match, selectors.match_games(match))
    try:
        if agreed:
            state = fp.agree_reroll_game3(state, structure)
        elif state.reroll_game3:
            if state.roll_winner is not None or state.games:
                raise fp.InconsistentGame("reroll_agreement_too_late", {"game": 1})
            state = replace(state, reroll_game3=False)
    except fp.InconsistentGame as exc:
        raise _inconsistent(exc) from None
    match.reroll_game3_agreed = state.reroll_game3
    match.save(update_fields=["reroll_game3_agreed"])
    return match


@transaction.atomic
def match_set_game3_roll(*, match: Match, winner_entry: Entry | int) -> Match:
    """Record the winner of the agreed game-3 re-roll (docs/rules.md §6 (HKK first-player
    rights)); a recorded one may be corrected until game 3 is recorded.

    Raises ``InvalidState("no_reroll_agreed" | "not_game_3" | …)``, ``ValidationFailed``.
    """
    match = _locked_match(match)
    _require_playable(match)
    winner = _entry_id(winner_entry)
    _require_in_match(match, winner, "winner_entry")
    if not match.reroll_game3_agreed:
        raise InvalidState("no_reroll_agreed", _("No game-3 re-roll was agreed."), {})
    games = selectors.match_games(match)
    if len(games) != 2:
        raise InvalidState("not_game_3", _("The re-roll happens before game 3."), {})
    assert winner is not None
    try:
        state = fp.record_die_roll(selectors.match_state(match, games), _structure(match), winner)
    except fp.InconsistentGame as exc:
        raise _inconsistent(exc) from None
    match.game3_roll_winner_id = state.game3_roll_winner
    match.save(update_fields=["game3_roll_winner"])
    return match


def _game_values(game: Game) -> dict[str, Any]:
    return {
        "right_holder": game.right_holder_id,
        "waived": game.waived,
        "first": game.first_id,
        "winner": game.winner_id,
        "is_draw": game.is_draw,
        "chosen_by": game.chosen_by_id,
        "score": game.score,
        "recorded_by": game.recorded_by_id,
        "version": game.version,
    }


def _ids_in_match(match: Match, **entries: Entry | int | None) -> list[int | None]:
    """The ids of the given entries (in argument order), each ``None`` or playing in ``match``
    (else ``ValidationFailed("not_in_match")`` naming the argument)."""
    ids = {field: _entry_id(value) for field, value in entries.items()}
    for field, entry_id in ids.items():
        _require_in_match(match, entry_id, field)
    return list(ids.values())


def _match_at(match: Match | None, round: Round | None, table: int | None) -> Match:
    if match is not None:
        return match
    if round is None or table is None:
        raise ValidationFailed("invalid_value", _("Give the match, or the round and table."), {})
    return selectors.match_for_table(round=round, table=table)


def _require_correctable(existing: Game | None, number: int, expected_version: int | None) -> Game:
    if existing is None:
        raise NotFound(
            "game_not_recorded",
            _("Game %(game)s has not been recorded; there is nothing to correct.")
            % {"game": number},
            {"game": number},
        )
    if expected_version is not None and expected_version != existing.version:
        raise Conflict(
            "stale_version",
            _("Someone changed this game meanwhile; reload and try again."),
            {"game": number, "version": existing.version},
        )
    return existing


def _require_next_game(match: Match, games: list[Game], existing: Game | None, number: int) -> None:
    if existing is not None:
        raise Conflict(
            "game_already_recorded",
            _("Game %(game)s at table %(table)s is already recorded.")
            % {"game": number, "table": match.table},
            {"game": number, "table": match.table, "version": existing.version},
        )
    if selectors.match_score(match, games).complete:
        structure = _structure(match)
        if len(games) < structure.games_per_match:
            a_wins = sum(1 for g in games if g.winner_id == match.entry_a_id)
            b_wins = sum(1 for g in games if g.winner_id == match.entry_b_id)
            raise _inconsistent(
                fp.InconsistentGame(
                    "match_already_decided",
                    {"games": len(games), "a_wins": a_wins, "b_wins": b_wins},
                )
            )
        raise InvalidState(
            "match_complete",
            _("The match at table %(table)s is already complete.") % {"table": match.table},
            {"table": match.table},
        )
    if number != len(games) + 1:
        raise ValidationFailed(
            "wrong_game_number",
            _("Record the games in order: game %(expected)s is next.")
            % {"expected": len(games) + 1},
            {"expected": len(games) + 1, "got": number},
        )


def _checked_right_holder(
    match: Match,
    earlier: list[Game],
    *,
    number: int,
    holder_given: int | None,
    waived: bool,
    first: int | None,
    winner: int | None,
    score: int | None = None,
) -> fp.RightDecision:
    """The first-player decision for game ``number`` under the tournament's match structure,
    after checking the game (``waived``, ``first``, ``winner``, ``score``) against it. When a
    die roll decides and none is recorded, ``holder_given`` is stored as the roll winner first
    (docs/rules.md §6 (HKK first-player rights), §11 (WoW TCG matches and first player), §13
    (Blue Moon matches)). Raises the errors of :func:`game_record`."""
    structure = _structure(match)
    state = selectors.match_state(match, earlier)
    try:
        decision = fp.next_right(state, structure)
        if decision.needs_roll and holder_given is not None:
            state = fp.record_die_roll(state, structure, holder_given)
            match.die_roll_winner_id = state.roll_winner
            match.game3_roll_winner_id = state.game3_roll_winner
            match.save(update_fields=["die_roll_winner", "game3_roll_winner"])
            decision = fp.next_right(state, structure)
        if decision.needs_roll:
            raise fp.InconsistentGame("roll_not_recorded", {"game": decision.game_number})
        holder = decision.holder
        if holder_given is not None and holder_given != holder:
            raise fp.InconsistentGame(
                "wrong_right_holder",
                {"game": number, "expected": holder, "got": holder_given},
            )
        record = GameRecord(
            number=number,
            right_holder=holder,
            waived=waived,
            first=first,
            winner=winner,
            score=score,
        )
        fp.validate_game(decision, record, state, structure)
    except fp.InconsistentGame as exc:
        raise _inconsistent(exc) from None
    return decision


def _correct_game(game: Game, values: dict[str, Any], *, recorded_by: Any, reason: str) -> Game:
    """Overwrite ``game`` with ``values`` (version + 1), keeping the old values in history."""
    old = _game_values(game)
    for key, value in values.items():
        setattr(game, key, value)
    game.version += 1
    game.recorded_by = recorded_by
    game.save()
    GameCorrection.objects.create(
        game=game, old=old, new=_game_values(game), reason=reason, changed_by=recorded_by
    )
    return game


def _create_game(match: Match, number: int, values: dict[str, Any], *, recorded_by: Any) -> Game:
    try:
        with transaction.atomic():
            return Game.objects.create(
                match=match, number=number, recorded_by=recorded_by, **values
            )
    except IntegrityError:
        raise Conflict(
            "game_already_recorded",
            _("Game %(game)s at table %(table)s is already recorded.")
            % {"game": number, "table": match.table},
            {"game": number, "table": match.table},
        ) from None


@transaction.atomic
def game_record(
    *,
    number: int,
    winner_entry: Entry | int | None,
    first_entry: Entry | int | None,
    waived: bool = False,
    recorded_by: Any = None,
    match: Match | None = None,
    round: Round | None = None,
    table: int | None = None,
    right_holder_entry: Entry | int | None = None,
    correction: bool = False,
    reason: str = "",
    expected_version: int | None = None,
    choice: str | None = None,
    score: int | None = None,
) -> Game:
    """Record game ``number`` of a match: the winner (``None`` = draw), who went first and
    whether the right holder waived.

    The match is given directly or as ``round`` + ``table``. The right holder follows from the
    tournament's first-player policy (``match_next_right``); when a die roll decides (game 1,
    or game 3 after an agreed re-roll) and none is recorded, ``right_holder_entry`` is taken
    as the roll winner. A given ``right_holder_entry`` must agree with the policy, and
    ``first_entry`` must be the holder, or the other entry when ``waived`` (a missing
    ``first_entry`` is a ``first_player_mismatch``). Rules: docs/rules.md §6 (HKK first-player
    rights), §11 (WoW TCG matches and first player) and §16 (Deck checks, penalties and result
    reporting).

    Where the format gives a choice (WoW TCG, Blue Moon) the decided entry *chooses* who starts:
    ``choice`` ``"self"`` / ``"opponent"`` (same as ``waived`` false / true; when given it
    wins over ``waived``) and the game stores that entry as ``chosen_by``. ``score`` is the
    winner's score where the format keeps one (Blue Moon crystals, 1 … max; none for a draw).
    No game is recorded once a best-of match is decided (``match_already_decided``).

    ``correction=True`` replaces an already recorded game (also in a finished round); the
    earlier values are kept in a :class:`GameCorrection` with ``reason``; ``expected_version``
    guards against overwriting someone else's correction.

    Raises:
        NotFound: ``table_not_in_round``, ``game_not_recorded`` (correction of a missing game).
        Conflict: ``game_already_recorded`` (also for two judges at once), ``stale_version``.
        InvalidState: ``round_not_published``, ``round_finished``, ``bye_match``,
            ``match_complete``.
        ValidationFailed: ``not_in_match``, ``wrong_game_number``, ``roll_not_recorded``,
            ``first_player_mismatch`` (params ``reason``: ``wrong_right_holder`` /
            ``wrong_first_player``), ``draw_not_allowed``, ``score_missing``,
            ``score_out_of_range``, ``score_not_allowed``, ``invalid_value`` (a bad choice).
        InvalidState: also ``match_already_decided``, ``too_many_games``.
    """
    match = _locked_match(_match_at(match, round, table))
    _require_playable(match, correction=correction)
    winner, first, holder_given = _ids_in_match(
        match,
        winner_entry=winner_entry,
        first_entry=first_entry,
        right_holder_entry=right_holder_entry,
    )
    games = list(match.games.select_for_update().order_by("number"))
    existing = next((g for g in games if g.number == number), None)
    if correction:
        existing = _require_correctable(existing, number, expected_version)
    else:
        _require_next_game(match, games, existing, number)
    if choice is not None:
        if choice not in StartChoice._value2member_map_:
            raise ValidationFailed(
                "invalid_value",
                _("Choose who starts: self or opponent."),
                {"field": "choice", "value": choice},
            )
        waived = StartChoice(choice) == StartChoice.OPPONENT
    earlier = [g for g in games if g.number < number]
    decision = _checked_right_holder(
        match,
        earlier,
        number=number,
        holder_given=holder_given,
        waived=bool(waived),
        first=first,
        winner=winner,
        score=score,
    )
    chooses = decision.mode == fp.RightMode.CHOOSES
    values = {
        "right_holder_id": decision.holder,
        "waived": bool(waived),
        "first_id": first,
        "winner_id": winner,
        "is_draw": winner is None,
        "chosen_by_id": decision.holder if chooses else None,
        "score": score,
    }
    if existing is not None:
        game = _correct_game(existing, values, recorded_by=recorded_by, reason=reason)
    else:
        game = _create_game(match, number, values, recorded_by=recorded_by)
    enqueue_standings(match.round.tournament.pk)
    return game


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
        decision = fp.next_right(state, _structure(match))
    except fp.InconsistentGame:
        return NextRight(None, None, None, gettext("the match is complete"))
    seat = None
    if decision.holder is not None:
        seat = "A" if decision.holder == match.entry_a_id else "B"
    return NextRight(
        decision, decision.holder, seat, selectors.right_explanation(decision, seat=seat)
    )
