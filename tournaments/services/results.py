"""Match results: game records checked against the match structure, with corrections kept in
history (docs/rules.md §6 (HKK first-player rights), §11 (WoW TCG matches and first player),
§13 (Blue Moon matches)). Die rolls and the next first-player right are in
``tournaments.services.rolls``.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from hkk_tournament.errors import Conflict, InvalidState, NotFound, ValidationFailed
from tournaments import selectors
from tournaments.domain import first_player as fp
from tournaments.domain.types import GameRecord, StartChoice
from tournaments.models import Entry, Game, GameCorrection, Match, Round
from tournaments.services._match_rules import (
    entry_id,
    game_fields,
    inconsistent,
    locked_match,
    require_in_match,
    require_playable,
    structure_of,
)
from tournaments.services.jobs import enqueue_standings
from tournaments.services.report_closing import supersede_open_reports


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
    ids = {field: entry_id(value) for field, value in entries.items()}
    for field, value in ids.items():
        require_in_match(match, value, field)
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
        structure = structure_of(match)
        if len(games) < structure.games_per_match:
            a_wins = sum(1 for g in games if g.winner_id == match.entry_a_id)
            b_wins = sum(1 for g in games if g.winner_id == match.entry_b_id)
            raise inconsistent(
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
) -> tuple[fp.RightDecision, GameRecord]:
    """The first-player decision for game ``number`` under the tournament's match structure and
    the game's record, once checked (``waived``, ``first``, ``winner``, ``score``) against it.
    When a die roll decides and none is recorded, ``holder_given`` is stored as the roll winner
    first (docs/rules.md §6 (HKK first-player rights), §11 (WoW TCG matches and first player), §13
    (Blue Moon matches)). Raises the errors of :func:`game_record`."""
    structure = structure_of(match)
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
        raise inconsistent(exc) from None
    return decision, record


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
    """Insert the game. The match row lock makes a duplicate impossible for writers that lock
    it (all of them); the unique constraint still answers ``game_already_recorded``. No
    savepoint: the ``Conflict`` leaves ``game_record``'s atomic block, which rolls back."""
    try:
        return Game.objects.create(match=match, number=number, recorded_by=recorded_by, **values)
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
    match = locked_match(_match_at(match, round, table))
    require_playable(match, correction=correction)
    winner, first, holder_given = _ids_in_match(
        match,
        winner_entry=winner_entry,
        first_entry=first_entry,
        right_holder_entry=right_holder_entry,
    )
    # Read after the match row lock (a statement of its own, so it sees what a writer it waited
    # for committed); the games need no row locks of their own: every writer of a match's games
    # holds the match row.
    games = list(match.games.order_by("number"))
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
    decision, record = _checked_right_holder(
        match,
        earlier,
        number=number,
        holder_given=holder_given,
        waived=bool(waived),
        first=first,
        winner=winner,
        score=score,
    )
    values = game_fields(record, decision)
    if existing is not None:
        game = _correct_game(existing, values, recorded_by=recorded_by, reason=reason)
    else:
        game = _create_game(match, number, values, recorded_by=recorded_by)
        games.append(game)
    supersede_open_reports(match, by=recorded_by, games=games)
    enqueue_standings(match.round.tournament.pk)
    return game
