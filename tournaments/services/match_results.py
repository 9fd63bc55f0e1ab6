"""Match-level results from a result slip: "2–0", "2–1", "1–1", a drawn match or a no-show,
entered in one step and recorded as the games they stand for, each with the right holder the
tournament's first-player policy gives (docs/rules.md §6 (HKK first-player rights), §11 (WoW
TCG matches and first player), §15 (Match points and tiebreakers), §16 (Deck checks, penalties
and result reporting)).

A slip says only the score, so its games are stored with ``details_reported=False``: their
winners make the score, standings and tiebreakers exact; the right holder, who went first and
the chooser are stored empty (``NULL``, shown as "not reported"), since nobody reported them (a
match entered this way is complete, so no later game takes its right from them). The per-game
page corrects a game into a detailed one. To check the score against the rules in memory the
games are laid out with assumptions that are not stored:

* the order of the games: the loser's wins first, then the drawn games, then the winner's
  wins (so a best-of match is never decided before its last recorded game; the numbers are
  stored, the order is not a fact);
* who went first: the right holder (no waiver);
* the game-1 die roll (and an agreed HKK game-3 re-roll): when the policy needs a roll that is
  not recorded, the entry must name its winner (``die_roll_winner``), else
  ``ValidationFailed("roll_not_recorded")``; a no-show records the present entry as the roll
  winner, since no game was played;
* fewer games than the format has (a "1–1" when time is called, "0–0"): the match is marked
  ``ended_at_time`` and counts as complete with the games recorded.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from hkk_tournament.errors import Conflict, ValidationFailed
from tournaments import selectors
from tournaments.domain import first_player as fp
from tournaments.domain.match_structure import MatchStructure
from tournaments.domain.types import GameRecord
from tournaments.models import Entry, Game, Match, Tournament
from tournaments.permissions import acting_user, require_judge_of_match
from tournaments.services._common import wins_needed
from tournaments.services.jobs import enqueue_standings
from tournaments.services.match_rules import (
    game_fields,
    inconsistent,
    locked_match,
    require_playable,
    structure_of,
)
from tournaments.services.push import push_result
from tournaments.services.report_closing import supersede_open_reports

NO_SHOW_A = "no_show_a"
NO_SHOW_B = "no_show_b"


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """A match result seen from seat A: game wins of A and B and drawn games; ``code`` is the
    form/API value (``"2-1-0"``, ``"no_show_b"``), ``label`` the button text ("2–1")."""

    code: str
    label: str
    a_wins: int
    b_wins: int
    draws: int

    @property
    def spoken(self) -> str:
        """The result in words, the button's accessible name: "A won 2, lost 0, 1 draw"."""
        return ngettext(
            "A won %(won)s, lost %(lost)s, %(draws)s draw",
            "A won %(won)s, lost %(lost)s, %(draws)s draws",
            self.draws,
        ) % {"won": self.a_wins, "lost": self.b_wins, "draws": self.draws}


def _label(a: int, b: int, d: int) -> str:
    return f"{a}–{b}" + (f"–{d}" if d else "")


def outcome_valid(tournament: Tournament, a: int, b: int, d: int) -> bool:
    """Whether ``a``–``b`` with ``d`` draws can be a match result under the tournament's games
    per match and stop-at-majority setting."""
    total, n = a + b + d, tournament.structure.games_per_match
    if min(a, b, d) < 0 or total < 1 or total > n:
        return False
    need = wins_needed(n)
    if tournament.structure.ends_when_decided:
        return max(a, b) <= need and not (a >= need and b >= need)
    return True


def match_outcomes(*, tournament: Tournament) -> list[MatchOutcome]:
    """The result buttons of the fast entry for ``tournament``, A's best result first.

    Best-of matches (stop at a majority): every decided result (2–0, 2–1, 1–2, 0–2 for three
    games) and the usual results when time is called (1–1, 1–0, 0–1, a drawn 0–0–1). Matches
    that play all their games (HKK by default): every result of that many games with at most
    one draw, and the drawn 0–0–1. The API takes any valid result.
    """
    n = tournament.structure.games_per_match
    need = wins_needed(n)
    triples: list[tuple[int, int, int]] = []
    for a in range(n, -1, -1):
        for b in range(n + 1):
            for d in (0, 1):
                if tournament.structure.ends_when_decided:
                    decided = max(a, b) == need and min(a, b) < need and d == 0
                    timed = max(a, b) < need and a + b + d <= n and (a + b == 2 or a + b + d == 1)
                    keep = decided or (timed and d == 0 and a + b >= 1)
                else:
                    keep = a + b + d == n
                if keep and outcome_valid(tournament, a, b, d):
                    triples.append((a, b, d))
    if (0, 0, 1) not in triples and outcome_valid(tournament, 0, 0, 1):
        triples.append((0, 0, 1))
    triples.sort(key=lambda t: (-(t[0] - t[1]), -t[0], t[2]))
    return [MatchOutcome(f"{a}-{b}-{d}", _label(a, b, d), a, b, d) for a, b, d in triples]


def parse_outcome(tournament: Tournament, code: str) -> tuple[int, int, int] | str:
    """``"a-b-d"`` (or ``"a-b"``) as three counts, or a no-show code unchanged.
    Raises ``ValidationFailed("invalid_result")`` for anything else."""
    if code in (NO_SHOW_A, NO_SHOW_B):
        return code
    parts = str(code).split("-")
    try:
        nums = [int(p) for p in parts]
    except ValueError:
        nums = []
    if len(nums) == 2:
        nums.append(0)
    if len(nums) != 3 or not outcome_valid(tournament, *nums):
        raise ValidationFailed(
            "invalid_result",
            _("%(result)s is not a possible match result in this event.") % {"result": code},
            {"result": code},
            fields={"result": [str(_("Not a possible result."))]},
        )
    return nums[0], nums[1], nums[2]


def _winners(match: Match, a: int, b: int, d: int) -> list[int | None]:
    """Game winners in the recorded order: the loser's wins, the draws, the winner's wins."""
    a_games: list[int | None] = [match.entry_a_id] * a
    b_games: list[int | None] = [match.entry_b_id] * b
    draws: list[int | None] = [None] * d
    return (b_games + draws + a_games) if a >= b else (a_games + draws + b_games)


@transaction.atomic
def match_result_record(
    *,
    match: Match,
    result: str,
    actor: Any,
    die_roll_winner: Entry | int | None = None,
) -> Match:
    """Record a whole match from its slip: ``result`` is ``"a-b-d"`` (game wins of seat A and B
    and drawn games, e.g. ``"2-1-0"``; ``"2-1"`` also works) or ``"no_show_a"`` /
    ``"no_show_b"`` (a match loss for the absent side: the present side wins the majority of
    games). See the module docstring for what is assumed.

    Holds the round ``FOR SHARE`` and locks the match row (``locked_match``: two tables never
    wait for each other; an unpublish, discard or finish in progress is waited for and then
    seen, so no result lands in a draft round or a finished event), derives
    every game's right holder and first player in memory (``first_player.result_games``, the
    checks ``game_record`` applies to one game), stores the games with one ``INSERT``, closes
    the open player reports once and asks for one standings recompute: a bounded number of
    queries whatever the result (about eight: the round's lock, the locked match, the check for
    games, the die roll and time called, the games, the reports, the match's
    ``result_version``, the push), one more for a user's own-match check
    (``require_judge_of_match``; ``match`` may be the narrow ``selectors.match_to_lock``).

    ``recorded_by`` (the judge; ``None`` for a system call) must not play in ``match``. Returns
    the match as locked and written, its games known (``selectors.match_games_known``).

    Raises:
        PermissionDenied: ``own_match`` (the judge plays at this table).
        Conflict: ``games_already_recorded`` (use the per-game page to correct).
        ValidationFailed: ``invalid_result``, ``roll_not_recorded``, ``not_in_match``, and
            ``game_record``'s rule errors (``draw_not_allowed``, ``score_missing`` …).
        InvalidState: ``round_not_published``, ``round_finished``, ``bye_match``,
            ``tournament_finished``, ``invalid_match_structure``.
    """
    require_judge_of_match(actor, match)
    match = locked_match(match)
    require_playable(match)
    tournament = match.round.tournament
    structure = structure_of(match)
    # A statement of its own after the lock: it sees games committed by a writer it waited for.
    if match.games.exists():
        raise Conflict(
            "games_already_recorded",
            _("Games of table %(table)s are already recorded; correct them game by game.")
            % {"table": match.table},
            {"table": match.table},
        )
    parsed = parse_outcome(tournament, result)
    roll = die_roll_winner.pk if isinstance(die_roll_winner, Entry) else die_roll_winner
    if isinstance(parsed, str):
        present = match.entry_b_id if parsed == NO_SHOW_A else match.entry_a_id
        wins = wins_needed(structure.games_per_match)
        a, b, d = (wins, 0, 0) if present == match.entry_a_id else (0, wins, 0)
        roll = match.die_roll_winner_id or present
    else:
        a, b, d = parsed
    if roll is not None and roll not in (match.entry_a_id, match.entry_b_id):
        raise ValidationFailed(
            "not_in_match",
            _("That entry does not play at table %(table)s.") % {"table": match.table},
            {"field": "die_roll_winner", "table": match.table},
        )
    changed: list[str] = []
    if match.die_roll_winner_id is None and roll is not None:
        match.die_roll_winner_id = roll
        changed.append("die_roll_winner")
    games = _slip_games(match, structure, _winners(match, a, b, d), acting_user(actor))
    if len(games) < structure.games_per_match and not _decided(tournament, a, b):
        match.ended_at_time = True
        changed.append("ended_at_time")
    if changed:
        match.save(update_fields=changed)
    Game.objects.bulk_create(games)
    selectors.match_games_known(match, games)  # the answer reads no game again
    supersede_open_reports(match, by=acting_user(actor), games=games)
    enqueue_standings(tournament.pk, match_id=match.pk)
    push_result(match, games)
    return match


#: The ``Game`` fields a match-level result does not report (stored empty).
UNREPORTED: dict[str, Any] = {
    "right_holder_id": None,
    "first_id": None,
    "chosen_by_id": None,
    "waived": False,
}


def _slip_games(
    match: Match, structure: MatchStructure, winners: list[int | None], recorded_by: Any
) -> list[Game]:
    """The unsaved games of a slip: the winners only, marked as details not reported, with no
    right holder, first player or chooser (see the module docstring); the order of the games
    is checked in memory with assumed holders, which are not stored."""
    planned = _planned_games(
        selectors.match_state(match, []), structure, winners, _slip_roll_missing
    )
    return [
        Game(
            match=match,
            number=rec.number,
            recorded_by=recorded_by,
            details_reported=False,
            **{**game_fields(rec, decision), **UNREPORTED},
        )
        for rec, decision in planned
    ]


def _decided(tournament: Tournament, a: int, b: int) -> bool:
    return tournament.structure.ends_when_decided and max(a, b) >= wins_needed(
        tournament.structure.games_per_match
    )


def _planned_games(
    state: fp.MatchState,
    structure: MatchStructure,
    winners: list[int | None],
    roll_error: Callable[[int], ValidationFailed],
) -> tuple[tuple[GameRecord, fp.RightDecision], ...]:
    """The games of ``winners`` after ``state``, checked in memory
    (``first_player.result_games``); ``roll_error(game)`` when a die roll decides a game and
    none is recorded, else the errors ``game_record`` gives (``inconsistent``)."""
    try:
        return fp.result_games(state, structure, winners)
    except fp.InconsistentGame as exc:
        game = exc.params.get("game")
        if exc.code == "roll_not_recorded" and isinstance(game, int):
            raise roll_error(game) from None
        raise inconsistent(exc) from None


def _slip_roll_missing(game: int) -> ValidationFailed:
    return ValidationFailed(
        "roll_not_recorded",
        _(
            "A die roll decides who starts game %(game)s: choose its winner (the slip's "
            "player 1) and enter the result again."
        )
        % {"game": game},
        {"game": game},
        fields={"die_roll_winner": [str(_("Who won the die roll?"))]},
    )


def _report_roll_missing(game: int) -> ValidationFailed:
    return ValidationFailed(
        "roll_not_recorded",
        _("Tell who won the die roll."),
        {"game": game},
        fields={"die_roll": [str(_("Who won the die roll?"))]},
    )


def report_outcomes(*, tournament: Tournament) -> list[MatchOutcome]:
    """The outcomes a player may report in one choice: those that complete the match by
    themselves (a best-of decided, or every game of the match played). A match ended at time
    with fewer games goes through a judge."""
    n = tournament.structure.games_per_match
    return [
        o
        for o in match_outcomes(tournament=tournament)
        if o.a_wins + o.b_wins + o.draws == n or _decided(tournament, o.a_wins, o.b_wins)
    ]


def outcome_games(
    *, match: Match, result: str, die_roll_winner: int | None = None
) -> list[dict[str, Any]]:
    """The games ``result`` (``"a-b-d"`` from seat A) stands for, as a player's report lists
    them (``[{"number", "winner", "first", "waived", "details_reported": False}]``), in the
    order and with the placeholder holders :func:`match_result_record` uses, without storing
    anything: the games are recorded as "details not reported". ``die_roll_winner`` is used
    when the match has none recorded.

    Raises ``ValidationFailed`` (``invalid_result``, ``roll_not_recorded``, and the rule
    errors of ``game_record``, e.g. ``draw_not_allowed``).
    """
    tournament = match.round.tournament
    parsed = parse_outcome(tournament, result)
    if isinstance(parsed, str):
        raise ValidationFailed("invalid_result", _("Choose a result."), {"result": result})
    a, b, d = parsed
    if match.entry_b_id is None:
        raise ValidationFailed("invalid_result", _("A bye has no result to report."), {})
    state = replace(
        selectors.match_state(match, []), roll_winner=match.die_roll_winner_id or die_roll_winner
    )
    planned = _planned_games(
        state, structure_of(match), _winners(match, a, b, d), _report_roll_missing
    )
    return [
        {
            "number": rec.number,
            "winner": rec.winner,
            "first": rec.first,
            "waived": False,
            "details_reported": False,
        }
        for rec, _decision in planned
    ]
