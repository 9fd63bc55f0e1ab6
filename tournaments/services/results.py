"""Match results: game records checked against the match structure, with corrections kept in
history (docs/rules.md §6 (HKK first-player rights), §11 (WoW TCG matches and first player),
§13 (Blue Moon matches)). Die rolls and the next first-player right are in
``tournaments.services.match_rules``.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from hkk_tournament.errors import Conflict, InvalidState, NotFound, ValidationFailed
from tournaments import selectors
from tournaments.domain import first_player as fp
from tournaments.domain.types import GameRecord
from tournaments.models import Entry, Game, GameCorrection, Match
from tournaments.permissions import acting_user, require_judge_of_match
from tournaments.services.jobs import enqueue_standings
from tournaments.services.match_rules import (
    entry_id,
    game_fields,
    inconsistent,
    locked_match,
    require_in_match,
    require_playable,
    structure_of,
)
from tournaments.services.push import push_result
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
        "details_reported": game.details_reported,
    }


def _ids_in_match(match: Match, **entries: Entry | int | None) -> list[int | None]:
    """The ids of the given entries (in argument order), each ``None`` or playing in ``match``
    (else ``ValidationFailed("not_in_match")`` naming the argument)."""
    ids = {field: entry_id(value) for field, value in entries.items()}
    for field, value in ids.items():
        require_in_match(match, value, field)
    return list(ids.values())


def _require_current(games: list[Game], game: Game, expected_version: int | None) -> Game:
    """``game`` as re-read after the match row lock (among ``games``), at ``expected_version``
    when one is given."""
    current = next((g for g in games if g.pk == game.pk), None)
    if current is None:
        raise NotFound(
            "game_not_recorded",
            _("Game %(game)s has not been recorded; there is nothing to correct.")
            % {"game": game.number},
            {"game": game.number},
        )
    if expected_version is not None and expected_version != current.version:
        raise Conflict(
            "stale_version",
            _("Someone changed this game meanwhile; reload and try again."),
            {"game": current.number, "version": current.version},
        )
    return current


def _require_known_order(games: list[Game], number: int) -> None:
    """Refuse to derive game ``number``'s right from earlier games whose details were not
    reported (a slip's or a one-choice report's placeholders): no rule says who holds the right
    when the order is unknown, so those games are corrected first, in order."""
    unknown = [g.number for g in games if g.number < number and not g.details_reported]
    if unknown:
        raise ValidationFailed(
            "earlier_details_not_reported",
            _(
                "Who holds the right in game %(game)s follows from the games before it, whose "
                "details were not reported: correct game %(first)s first."
            )
            % {"game": number, "first": unknown[0]},
            {"game": number, "earlier": unknown},
        )


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
    (Blue Moon matches)). Raises the rule errors of :func:`game_record`."""
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


def _written(match: Match, games: list[Game], recorded_by: Any) -> None:
    """After a game write: close the match's open player reports, recompute the standings,
    push the table's score to the open pages."""
    supersede_open_reports(match, by=recorded_by, games=games)
    enqueue_standings(match.round.tournament.pk, match_id=match.pk)
    push_result(match, games)


@transaction.atomic
def game_record(
    *,
    match: Match,
    number: int,
    winner_entry: Entry | int | None,
    first_entry: Entry | int | None,
    waived: bool = False,
    right_holder_entry: Entry | int | None = None,
    score: int | None = None,
    actor: Any,
) -> Game:
    """Record the next game, ``number``, of ``match``: the winner (``None`` = draw), who went
    first, whether the right holder waived (where the format gives a choice: the chooser let
    the opponent start) and ``score``, the winner's score where the format keeps one (Blue Moon
    crystals, 1 … max; none for a draw). The game stores ``recorded_by``.

    The right holder follows from the tournament's match structure (``match_next_right``);
    when a die roll decides (game 1, or game 3 after an agreed re-roll) and none is recorded,
    ``right_holder_entry`` is taken as the roll winner. A given ``right_holder_entry`` must
    agree with the policy, and ``first_entry`` must be the holder, or the other entry when
    ``waived``. The rules are the pure domain's (``first_player.validate_game``): docs/rules.md
    §6 (HKK first-player rights), §11 (WoW TCG matches and first player), §13 (Blue Moon
    matches), §16 (Deck checks, penalties and result reporting). Writes under
    ``locked_match`` (round ``FOR SHARE``, match ``FOR UPDATE``).

    Raises:
        Conflict: ``game_already_recorded`` (also for two judges at once).
        InvalidState: ``round_not_published``, ``round_finished``, ``bye_match``,
            ``match_complete``, ``match_already_decided``, ``too_many_games``.
        ValidationFailed: ``not_in_match``, ``wrong_game_number``, ``roll_not_recorded``,
            ``first_player_mismatch`` (params ``reason``: ``wrong_right_holder`` /
            ``wrong_first_player``), ``draw_not_allowed``, ``score_missing``,
            ``score_out_of_range``, ``score_not_allowed``.
    """
    require_judge_of_match(actor, match)
    match = locked_match(match)
    require_playable(match)
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
    _require_next_game(match, games, next((g for g in games if g.number == number), None), number)
    decision, record = _checked_right_holder(
        match,
        games,
        number=number,
        holder_given=holder_given,
        waived=bool(waived),
        first=first,
        winner=winner,
        score=score,
    )
    game = _create_game(
        match, number, game_fields(record, decision), recorded_by=acting_user(actor)
    )
    _written(match, [*games, game], acting_user(actor))
    return game


@transaction.atomic
def game_correct(
    *,
    game: Game,
    winner_entry: Entry | int | None,
    first_entry: Entry | int | None,
    waived: bool = False,
    score: int | None = None,
    reason: str,
    expected_version: int | None = None,
    actor: Any,
) -> Game:
    """Replace the recorded ``game`` (also in a finished round) with a new winner, first player,
    waiver and score, checked like :func:`game_record` against the games before it. The earlier
    values are kept in a :class:`GameCorrection` with ``reason``; ``expected_version`` guards
    against overwriting someone else's correction. Games after it are left as they are. The
    corrected game has its details reported (``details_reported``).
    Writes under ``locked_match``.

    Raises:
        NotFound: ``game_not_recorded`` (deleted meanwhile with its round's results).
        Conflict: ``stale_version``.
        InvalidState: ``round_not_published``, ``bye_match``, ``tournament_finished``.
        ValidationFailed: ``not_in_match``, ``earlier_details_not_reported`` (an earlier game
            of the match has no reported details: correct it first), and the rule errors of
            :func:`game_record`.
    """
    require_judge_of_match(actor, game.match)
    match = locked_match(game.match)
    require_playable(match, correction=True)
    winner, first = _ids_in_match(match, winner_entry=winner_entry, first_entry=first_entry)
    games = list(match.games.order_by("number"))
    game = _require_current(games, game, expected_version)
    _require_known_order(games, game.number)
    decision, record = _checked_right_holder(
        match,
        [g for g in games if g.number < game.number],
        number=game.number,
        holder_given=None,
        waived=bool(waived),
        first=first,
        winner=winner,
        score=score,
    )
    values = {**game_fields(record, decision), "details_reported": True}
    game = _correct_game(game, values, recorded_by=acting_user(actor), reason=reason)
    _written(match, games, acting_user(actor))
    return game
