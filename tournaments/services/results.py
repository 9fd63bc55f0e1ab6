"""Match results: die rolls, game records (with corrections kept in history) and the
first-player right for the next game (docs/rules.md §6 (HKK first-player rights), §11 (WoW
TCG matches and first player)).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from hkk_tournament.errors import Conflict, InvalidState, NotFound, ValidationFailed
from tournaments import selectors
from tournaments.domain import first_player as fp
from tournaments.domain.types import GameRecord
from tournaments.models import Entry, Game, GameCorrection, Match, Round
from tournaments.services._common import lock_tournament
from tournaments.services.jobs import enqueue_standings

R = Round.Status

_INCONSISTENT_MESSAGES = {
    "unknown_entry": _("That entry does not play at this table."),
    "wrong_game_number": _("Record the games in order: game %(expected)s is next."),
    "roll_not_recorded": _("A die roll decides who holds the right: record its winner first."),
    "wrong_right_holder": _("The right to go first in this game is not held by that entry."),
    "wrong_first_player": _(
        "The entry that went first does not match the right holder and the waiver."
    ),
    "wrong_winner": _("The winner must be one of the two entries (or a draw)."),
    "too_many_games": _("This match has no more games under its first-player rule."),
}


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


def _inconsistent(exc: fp.InconsistentGame) -> ValidationFailed:
    template = _INCONSISTENT_MESSAGES.get(exc.code, _("The game contradicts the rules."))
    try:
        message = str(template) % exc.params
    except (KeyError, TypeError, ValueError):
        message = str(template)
    code = (
        "first_player_mismatch"
        if exc.code in ("wrong_right_holder", "wrong_first_player")
        else exc.code
    )
    return ValidationFailed(code, message, {"reason": exc.code, **exc.params})


@transaction.atomic
def match_set_die_roll(
    *, match: Match, winner_entry: Entry | int, reroll_game3_agreed: bool = False
) -> Match:
    """Record the game-1 die roll winner ("player 1", docs/rules.md §6 (HKK first-player
    rights)) and whether both agreed, before the roll, to roll again for game 3.

    Raises:
        InvalidState: ``round_not_published``, ``round_finished``, ``bye_match``,
            ``games_already_recorded``.
        ValidationFailed: ``not_in_match``.
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
    match.die_roll_winner_id = winner
    match.reroll_game3_agreed = bool(reroll_game3_agreed)
    match.save(update_fields=["die_roll_winner", "reroll_game3_agreed"])
    return match


@transaction.atomic
def match_set_game3_roll(*, match: Match, winner_entry: Entry | int) -> Match:
    """Record the winner of the agreed game-3 re-roll (docs/rules.md §6 (HKK first-player
    rights)).

    Raises ``InvalidState("no_reroll_agreed" | "not_game_3" | …)``, ``ValidationFailed``.
    """
    match = _locked_match(match)
    _require_playable(match)
    winner = _entry_id(winner_entry)
    _require_in_match(match, winner, "winner_entry")
    if not match.reroll_game3_agreed:
        raise InvalidState("no_reroll_agreed", _("No game-3 re-roll was agreed."), {})
    if match.games.count() != 2:
        raise InvalidState("not_game_3", _("The re-roll happens before game 3."), {})
    match.game3_roll_winner_id = winner
    match.save(update_fields=["game3_roll_winner"])
    return match


def _game_values(game: Game) -> dict[str, Any]:
    return {
        "right_holder": game.right_holder_id,
        "waived": game.waived,
        "first": game.first_id,
        "winner": game.winner_id,
        "is_draw": game.is_draw,
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
) -> int | None:
    """The right holder of game ``number`` under the tournament's policy, after checking the
    game (``waived``, ``first``, ``winner``) against it. When a die roll decides and none is
    recorded, ``holder_given`` is stored as the roll winner first (docs/rules.md §6 (HKK
    first-player rights)). Raises ``ValidationFailed`` (see :func:`game_record`)."""
    policy = match.round.tournament.first_player_policy
    state = selectors.match_state(match, earlier)
    try:
        decision = fp.next_right(state, policy=policy)
        if decision.needs_roll and holder_given is not None:
            if decision.game_number == 1:
                match.die_roll_winner_id = holder_given
            else:
                match.game3_roll_winner_id = holder_given
            match.save(update_fields=["die_roll_winner", "game3_roll_winner"])
            state = selectors.match_state(match, earlier)
            decision = fp.next_right(state, policy=policy)
        if decision.needs_roll:
            raise fp.InconsistentGame("roll_not_recorded", {"game": decision.game_number})
        holder = decision.holder
        if holder_given is not None and holder_given != holder:
            raise fp.InconsistentGame(
                "wrong_right_holder",
                {"game": number, "expected": holder, "got": holder_given},
            )
        record = GameRecord(
            number=number, right_holder=holder, waived=waived, first=first, winner=winner
        )
        fp.validate_game(decision, record, state)
    except fp.InconsistentGame as exc:
        raise _inconsistent(exc) from None
    return holder


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
            ``wrong_first_player``), ``too_many_games``.
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
    earlier = [g for g in games if g.number < number]
    holder = _checked_right_holder(
        match,
        earlier,
        number=number,
        holder_given=holder_given,
        waived=bool(waived),
        first=first,
        winner=winner,
    )
    values = {
        "right_holder_id": holder,
        "waived": bool(waived),
        "first_id": first,
        "winner_id": winner,
        "is_draw": winner is None,
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
    """The first-player decision for the next game of ``match`` under its tournament's policy
    (read-only; docs/rules.md §6 (HKK first-player rights))."""
    match = Match.objects.select_related("round__tournament").get(pk=match.pk)
    if match.entry_b_id is None:
        return NextRight(None, None, None, gettext("bye: no games are played"))
    games = selectors.match_games(match)
    if selectors.match_score(match, games).complete:
        return NextRight(None, None, None, gettext("the match is complete"))
    state = selectors.match_state(match, games)
    decision = fp.next_right(state, policy=match.round.tournament.first_player_policy)
    seat = None
    if decision.holder is not None:
        seat = "A" if decision.holder == match.entry_a_id else "B"
    return NextRight(
        decision, decision.holder, seat, selectors.right_explanation(decision, seat=seat)
    )
