"""Top cut: after the Swiss rounds, single elimination of the top 4, 8 or 16 of the standings
(``tournaments.domain.top_cut``), one round per bracket round, published at once (nothing to
swap). When the event uses it, the higher seed holds the game-1 choice of who starts: it is
recorded as the die-roll winner, so the first-player policy gives it the right (docs/rules.md
§6 (HKK first-player rights), §11 (WoW TCG matches and first player), §14 (Swiss pairing and
byes), §15 (Match points and tiebreakers)). Top-cut matches do not count in the Swiss
standings.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from hkk_tournament.errors import Conflict, InvalidState, ValidationFailed
from tournaments import selectors
from tournaments.domain.games import get_game
from tournaments.domain.top_cut import (
    BracketMatch,
    TopCutError,
    first_bracket_round,
    next_bracket_round,
)
from tournaments.models import Match, Round, RoundSeat, Tournament
from tournaments.permissions import require_manage
from tournaments.services._common import last_round, lock_tournament, require_status
from tournaments.services.standings import standings_compute

R = Round.Status


def top_cut_default_size(tournament: Tournament) -> int:
    """The suggested bracket size for ``tournament``'s game (0 = Swiss only): its entry in
    ``tournaments.domain.games.GAMES`` (HKK events keep Swiss only; WoW TCG and Blue Moon
    follow the Magic Tournament Rules practice of a top 8).

    Raises:
        UnknownGame: a game with no entry (the start-up system check reports such formats).
    """
    return get_game(tournament.format.game.slug).top_cut


def _require_last_finished(tournament: Tournament) -> Round:
    last = last_round(tournament)
    if last is None:
        raise InvalidState("no_rounds", _("Play the Swiss rounds first."), {})
    if last.status != R.FINISHED:
        raise Conflict(
            "round_in_progress",
            _("Round %(round)s is not finished yet.") % {"round": last.number},
            {"round": last.number, "status": last.status},
        )
    return last


def _store(
    tournament: Tournament, number: int, matches: tuple[BracketMatch, ...], bracket: dict[str, Any]
) -> Round:
    now = timezone.now()
    rnd = Round.objects.create(
        tournament=tournament,
        number=number,
        seed=0,
        engine_version="top-cut-1",
        stage=Round.Stage.TOP_CUT,
        status=R.PUBLISHED,
        published_at=now,
        bracket=bracket,
    )
    for m in matches:
        match = Match.objects.create(
            round=rnd,
            table=m.position,
            entry_a_id=m.high,
            entry_b_id=m.low,
            die_roll_winner_id=m.high if bracket["higher_seed_chooses"] else None,
        )
        RoundSeat.objects.create(round=rnd, entry_id=m.high, match=match)
        RoundSeat.objects.create(round=rnd, entry_id=m.low, match=match)
    return rnd


def _error(exc: TopCutError) -> ValidationFailed | InvalidState:
    if exc.code == "too_few_entries":
        return ValidationFailed(
            "top_cut_too_few_entries",
            _("A top %(size)s needs at least %(size)s entries.") % {"size": exc.params["size"]},
            dict(exc.params),
        )
    if exc.code == "no_winner":
        return InvalidState(
            "top_cut_needs_winner",
            _("Every top-cut match needs a winner: correct the drawn match first."),
            dict(exc.params),
        )
    return ValidationFailed(
        "invalid_value", _("The top cut is 4, 8 or 16 entries."), dict(exc.params)
    )


@transaction.atomic
def top_cut_start(
    *, tournament: Tournament, size: int, higher_seed_chooses: bool = True, actor: Any
) -> Round:
    """Start the top cut: the first bracket round of the top ``size`` (4, 8 or 16) active
    entries of the standings, seeded 1 v 8, 4 v 5, 2 v 7, 3 v 6 (for eight), published.

    Raises:
        InvalidState: ``tournament_status``, ``no_rounds``, ``top_cut_started``.
        Conflict: ``round_in_progress``.
        ValidationFailed: ``invalid_value`` (size), ``top_cut_too_few_entries``.
    """
    require_manage(actor, tournament)
    tournament = lock_tournament(tournament)
    require_status(tournament, Tournament.Status.RUNNING)
    last = _require_last_finished(tournament)
    if last.stage == Round.Stage.TOP_CUT:
        raise InvalidState("top_cut_started", _("The top cut has already started."), {})
    ranked = [row.entry for row in standings_compute(tournament=tournament) if not row.dropped]
    try:
        matches = first_bracket_round(ranked, size)
    except TopCutError as exc:
        raise _error(exc) from None
    seeds = {str(e): i for i, e in enumerate(ranked[:size], start=1)}
    bracket = {"size": size, "seeds": seeds, "higher_seed_chooses": bool(higher_seed_chooses)}
    return _store(tournament, last.number + 1, matches, bracket)


def _bracket_matches(rnd: Round) -> tuple[tuple[BracketMatch, ...], list[int | None]]:
    seeds = {int(k): v for k, v in rnd.bracket.get("seeds", {}).items()}
    matches, winners = [], []
    for m in rnd.matches.prefetch_related("games").order_by("table"):
        m.round = rnd
        assert m.entry_b_id is not None
        matches.append(
            BracketMatch(
                m.table, m.entry_a_id, m.entry_b_id, seeds[m.entry_a_id], seeds[m.entry_b_id]
            )
        )
        score = selectors.match_score(m)
        winner = None
        if score.complete and score.a_wins != score.b_wins:
            winner = m.entry_a_id if score.a_wins > score.b_wins else m.entry_b_id
        winners.append(winner)
    return tuple(matches), winners


@transaction.atomic
def top_cut_next(*, tournament: Tournament, actor: Any) -> Round | None:
    """Pair the next bracket round from the winners of the last one (finished); ``None`` after
    the final (the champion is in :func:`top_cut_champion`).

    Raises ``InvalidState`` (``top_cut_not_started``, ``top_cut_needs_winner``),
    ``Conflict("round_in_progress")``.
    """
    require_manage(actor, tournament)
    tournament = lock_tournament(tournament)
    require_status(tournament, Tournament.Status.RUNNING)
    last = _require_last_finished(tournament)
    if last.stage != Round.Stage.TOP_CUT:
        raise InvalidState("top_cut_not_started", _("The top cut has not started."), {})
    previous, winners = _bracket_matches(last)
    try:
        matches = next_bracket_round(previous, winners)
    except TopCutError as exc:
        raise _error(exc) from None
    if not matches:
        return None
    bracket = {**last.bracket}
    return _store(tournament, last.number + 1, matches, bracket)


def top_cut_champion(*, tournament: Tournament) -> int | None:
    """The winner of the final (entry id), once the last bracket round with one match is
    finished with a winner; else ``None``."""
    last = last_round(tournament)
    if last is None or last.stage != Round.Stage.TOP_CUT or last.status != R.FINISHED:
        return None
    matches, winners = _bracket_matches(last)
    return winners[0] if len(matches) == 1 else None
