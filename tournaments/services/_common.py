"""Helpers shared by the tournament services (not part of the public API)."""

from __future__ import annotations

from django.db import connection, transaction
from django.utils.translation import gettext_lazy as _

from hkk_tournament.errors import InvalidState
from tournaments.domain.types import Scoring
from tournaments.models import Round, Tournament


def scoring_for(tournament: Tournament) -> Scoring:
    """The tournament's scoring as the domain value type."""
    return Scoring(
        match_win=tournament.match_win_points,
        match_draw=tournament.match_draw_points,
        match_loss=tournament.match_loss_points,
        game_win=tournament.game_win_points,
        game_draw=tournament.game_draw_points,
        game_loss=tournament.game_loss_points,
        bye_games_won=tournament.bye_games_won,
    )


def lock_tournament(tournament: Tournament | int) -> Tournament:
    """Re-read the tournament row ``SELECT … FOR UPDATE`` (needs an open transaction).

    Every service that changes rounds, entries or lists of a tournament takes this lock first,
    so concurrent organisers/judges are serialised per tournament.
    """
    assert transaction.get_connection().in_atomic_block, "lock_tournament needs a transaction"
    pk = tournament if isinstance(tournament, int) else tournament.pk
    return Tournament.objects.select_for_update().select_related("format").get(pk=pk)


def share_round(round_id: int) -> bool:
    """Take round ``round_id``'s row ``FOR SHARE`` (needs an open transaction); ``False`` when
    the round no longer exists (discarded).

    A round's status (draft, published, finished) lives under its row: every service that
    changes it takes the row ``FOR UPDATE`` (after the tournament row), and finishing the event
    locks every round of it the same way (:func:`lock_rounds`). A write that depends on that
    state (a result, a report, a die roll, a correction) takes the row ``FOR SHARE`` *before*
    its match row and reads the state in a later statement: it waits for a state change in
    progress and then sees it, while writes of different tables share the lock and never wait
    for each other. Lock order everywhere: tournament → round → match.

    SQLite has no row locks (it serialises writers); there it only checks that the row exists.
    """
    assert transaction.get_connection().in_atomic_block, "share_round needs a transaction"
    suffix = " FOR SHARE" if connection.vendor == "postgresql" else ""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT 1 FROM {Round._meta.db_table} WHERE id = %s{suffix}", [round_id])
        return cursor.fetchone() is not None


def lock_rounds(tournament: Tournament | int) -> None:
    """Lock every round row of ``tournament`` ``FOR UPDATE`` in id order (after
    :func:`lock_tournament`): a change of the event's status waits for the results being
    written in any of its rounds, which hold their round ``FOR SHARE`` (:func:`share_round`)."""
    pk = tournament if isinstance(tournament, int) else tournament.pk
    list(Round.objects.select_for_update().filter(tournament_id=pk).order_by("id").values("id"))


def require_status(tournament: Tournament, *allowed: str) -> None:
    """Raise ``InvalidState("tournament_status")`` unless the status is one of ``allowed``."""
    if tournament.status not in allowed:
        raise InvalidState(
            "tournament_status",
            _("This is not possible while the tournament is %(status)s.")
            % {"status": tournament.get_status_display()},
            {"status": tournament.status, "allowed": list(allowed)},
        )


def require_not_finished(tournament: Tournament, round_number: int | None = None) -> None:
    """Raise ``InvalidState("tournament_finished")`` for a finished event: its results are
    locked until an organiser reopens it with a reason (docs/rules.md §16 (Deck checks,
    penalties and result reporting))."""
    if tournament.status == Tournament.Status.FINISHED:
        raise InvalidState(
            "tournament_finished",
            _("The tournament is finished; an organiser must reopen it (with a reason) first."),
            {"round": round_number},
        )


def last_round(tournament: Tournament) -> Round | None:
    """The highest-numbered round of the tournament, or ``None``."""
    return tournament.rounds.order_by("-number").first()


def wins_needed(games_per_match: int) -> int:
    """Games needed to win a match outright (2 of 3): ``games_per_match // 2 + 1``."""
    return games_per_match // 2 + 1
