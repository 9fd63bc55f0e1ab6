"""Players' own result reports: a player may report their own match result; it counts once
both players agree or a judge confirms it, and a disagreement is flagged to the judges
(docs/rules.md §16 (Deck checks, penalties and result reporting)).

A report lists the games of a match as ``[{"number", "winner" (entry id or ``None`` for a
draw), "first" (entry id), "waived" (bool)}]``. The right holder of each game follows from
``first`` and ``waived`` (the holder went first unless they waived). The shape is checked by
the report form and ``ReportGameSerializer``; the rules by the pure domain
(``first_player.replay_reported``, the checks ``game_record`` applies), in memory, so a report
that breaks them is refused at submission with that error (``first_player_mismatch`` …) and
nothing is stored or written.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from hkk_tournament.errors import InvalidState, NotFound, ValidationFailed
from tournaments import selectors
from tournaments.domain import first_player as fp
from tournaments.domain.types import GameRecord
from tournaments.models import EntryMember, Game, Match, ResultReport, Round, Tournament
from tournaments.permissions import (
    acting_user,
    on_behalf_of,
    require_judge_of_match,
    require_reporter,
)
from tournaments.services.match_rules import inconsistent, locked_match, structure_of
from tournaments.services.results import game_correct, game_record

RS = ResultReport.Status
#: The fields of a game a one-choice report does not report (stored empty).
UNREPORTED_FIELDS: dict[str, Any] = {
    "right_holder": None,
    "first": None,
    "chosen_by": None,
    "waived": False,
}
OPEN = (RS.PENDING, RS.DISPUTED)


def reported_games(games: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The reported games as stored: sorted by number, each ``{"number", "winner", "first",
    "waived"}`` plus ``"score"`` when one is given and ``"details_reported": False`` for the
    games of a one-choice report (only their winners were reported). ``games`` has the shape
    the report form and ``ReportGameSerializer`` check (numbers and entry ids as integers); the
    rules are checked by :func:`_check_rules`."""
    out = []
    for g in sorted(games, key=lambda g: g["number"]):
        game = {
            "number": g["number"],
            "winner": g.get("winner"),
            "first": g.get("first"),
            "waived": bool(g.get("waived", False)),
        }
        if g.get("score") is not None:
            game["score"] = g["score"]
        if g.get("details_reported") is False:  # a one-choice report: the score only
            game["details_reported"] = False
        out.append(game)
    return out


def _holder(match: Match, game: dict[str, Any]) -> int | None:
    """The right holder implied by a reported game: the entry that went first, or the other
    one when the holder waived."""
    if not game["waived"]:
        return game["first"]
    return match.entry_b_id if game["first"] == match.entry_a_id else match.entry_a_id


def _same(recorded: Game, game: dict[str, Any], holder: int | None) -> bool:
    if not recorded.details_reported and game.get("details_reported") is False:
        return recorded.winner_id == game["winner"] and recorded.score == game.get("score")
    return (
        recorded.winner_id == game["winner"]
        and recorded.first_id == game["first"]
        and recorded.waived == game["waived"]
        and recorded.score == game.get("score")
        and recorded.right_holder_id == holder
    )


def _differing_recorded(match: Match, games: list[dict[str, Any]]) -> list[int]:
    """Numbers of already recorded games that the report contradicts."""
    recorded = {g.number: g for g in match.games.all()}
    return [
        g["number"]
        for g in games
        if g["number"] in recorded and not _same(recorded[g["number"]], g, _holder(match, g))
    ]


def _apply(
    match: Match, games: list[dict[str, Any]], *, by: Any, correct: bool, reason: str
) -> None:
    """Record the reported games (``game_record``): identical recorded games are left alone; a
    differing one is corrected (``game_correct``, history kept with ``reason``) when
    ``correct``."""
    recorded = {g.number: g for g in Game.objects.filter(match=match)}
    undetailed = []
    for g in games:
        holder = _holder(match, g)
        existing = recorded.get(g["number"])
        written = existing is None or (correct and not _same(existing, g, holder))
        if existing is None:
            existing = game_record(
                match=match,
                number=g["number"],
                winner_entry=g["winner"],
                first_entry=g["first"],
                waived=g["waived"],
                right_holder_entry=holder,
                score=g.get("score"),
                actor=on_behalf_of(by),
            )
        elif correct and not _same(existing, g, holder):
            existing = game_correct(
                game=existing,
                winner_entry=g["winner"],
                first_entry=g["first"],
                waived=g["waived"],
                score=g.get("score"),
                reason=reason,
                actor=on_behalf_of(by),
            )
        if written and g.get("details_reported") is False:
            undetailed.append(existing.pk)
    # A one-choice report gave the winners only: the holders and first players the games were
    # checked with are assumptions, stored empty (after every game is in, as each game's
    # right is checked against the ones before it).
    Game.objects.filter(pk__in=undetailed).update(details_reported=False, **UNREPORTED_FIELDS)


def _check_rules(match: Match, games: list[dict[str, Any]]) -> None:
    """The reported games checked in memory against the match structure and the recorded die
    rolls (``first_player.replay_reported``), nothing stored. Raises the rule errors of
    ``game_record`` (``first_player_mismatch``, ``too_many_games``, ``wrong_game_number`` …)."""
    if not games:
        raise ValidationFailed("invalid_report", _("Report at least one game."), {"field": "games"})
    records = [
        GameRecord(
            g["number"], _holder(match, g), g["waived"], g["first"], g["winner"], g.get("score")
        )
        for g in games
    ]
    try:
        fp.replay_reported(selectors.match_state(match, []), structure_of(match), records)
    except fp.InconsistentGame as exc:
        raise inconsistent(exc) from None


def _require_reportable(match: Match) -> None:
    rnd = match.round
    if match.entry_b_id is None:
        raise InvalidState("bye_match", _("A bye has no result to report."), {"table": match.table})
    if rnd.status == Round.Status.DRAFT:
        raise InvalidState(
            "round_not_published",
            _("Round %(round)s is not published yet.") % {"round": rnd.number},
            {"round": rnd.number},
        )
    if rnd.status == Round.Status.FINISHED:
        raise InvalidState(
            "round_finished",
            _("Round %(round)s is finished; ask a judge to correct a result.")
            % {"round": rnd.number},
            {"round": rnd.number},
        )


def _resolve(reports: list[ResultReport], status: str, by: Any) -> None:
    now = timezone.now()
    for r in reports:
        r.status = status
        if status in (RS.ACCEPTED, RS.SUPERSEDED):
            r.resolved_by = by
            r.resolved_at = now
        r.save(update_fields=["status", "resolved_by", "resolved_at"])


def _checked_games(match: Match, entry_id: Any, user: Any, games: Any) -> list[dict[str, Any]]:
    """The reported games, normalised, once the entry, the reporter, the state of the match
    and the rules allow them (errors: see :func:`result_report_submit`)."""
    if entry_id not in (match.entry_a_id, match.entry_b_id):
        raise ValidationFailed(
            "not_in_match",
            _("That entry does not play at table %(table)s.") % {"table": match.table},
            {"entry": entry_id, "table": match.table},
        )
    _require_reportable(match)
    if (
        not getattr(user, "is_authenticated", False)
        or not EntryMember.objects.filter(entry_id=entry_id, player__user_id=user.pk).exists()
    ):
        raise ValidationFailed(
            "not_your_entry",
            _("You can report only the results of your own matches."),
            {"entry": entry_id},
        )
    normalised = reported_games(games)
    if selectors.match_score(match, selectors.match_games(match)).complete:
        raise InvalidState(
            "match_complete",
            _("The result of this match is already recorded; ask a judge for any correction."),
            {"table": match.table},
        )
    _check_rules(match, normalised)
    return normalised


def _file_report(
    match: Match, entry_id: Any, user: Any, games: list[dict[str, Any]]
) -> ResultReport:
    """Store the report (superseding the side's open one) and compare it with the opponent's
    open report: agreement records the games, a difference disputes both."""
    own = list(
        ResultReport.objects.select_for_update(of=("self",)).filter(
            match=match, entry_id=entry_id, status__in=OPEN
        )
    )
    _resolve(own, RS.SUPERSEDED, user)
    report = ResultReport.objects.create(
        match=match, entry_id=entry_id, reported_by=user, games=games
    )
    other = (
        ResultReport.objects.select_for_update(of=("self",))
        .filter(match=match, status__in=OPEN)
        .exclude(entry_id=entry_id)
        .first()
    )
    if other is None:
        if _differing_recorded(match, games):
            _resolve([report], RS.DISPUTED, None)
        return report
    if other.games == games and not _differing_recorded(match, games):
        _apply(match, games, by=user, correct=False, reason="")
        _resolve([report, other], RS.ACCEPTED, user)
    else:
        _resolve([report, other], RS.DISPUTED, None)
    return report


@transaction.atomic
def result_report_submit(*, match: Match, entry: Any, actor: Any, games: Any) -> ResultReport:
    """``user`` (a player of ``entry``) reports the games of ``match``.

    The side's earlier open report (pending or disputed) is superseded by this one. When the
    opponent's open report lists the same games, the games are recorded
    (``services.results.game_record``, by ``user``) and both reports become ``accepted``; when
    it differs, or the report contradicts a game a judge already recorded, both reports become
    ``disputed`` and appear in :func:`match_disputes` for the judges. Otherwise the report
    waits (``pending``).

    Raises:
        InvalidState: ``bye_match``, ``round_not_published``, ``round_finished``,
            ``match_complete`` (the result is recorded already: ask a judge).
        ValidationFailed: ``not_in_match`` (the entry does not play here), ``not_your_entry``
            (``user`` is not a player of ``entry``), ``invalid_report`` (shape of ``games``),
            and ``game_record``'s rule errors (``first_player_mismatch``, ``roll_not_recorded``
            …, ``too_many_games``).
    """
    require_reporter(actor, match, getattr(entry, "pk", entry))
    match = locked_match(match)
    entry_id = getattr(entry, "pk", entry)
    normalised = _checked_games(match, entry_id, acting_user(actor), games)
    return _file_report(match, entry_id, acting_user(actor), normalised)


@transaction.atomic
def result_report_confirm(*, report: ResultReport, actor: Any) -> ResultReport:
    """A judge accepts ``report``: its games are recorded, already recorded games that differ
    are corrected (``GameCorrection`` history, reason "Confirmed result report #id"), the report
    becomes ``accepted`` and every other open report of the match ``superseded``.

    Games recorded beyond the report's last game are left as they are. ``by`` (the judge) must
    not play in the match.

    Raises:
        NotFound: ``report_not_found`` (deleted meanwhile with its round's results).
        PermissionDenied: ``own_match`` (the judge plays in this match).
        InvalidState: ``report_closed`` (accepted or superseded already), ``round_not_published``,
            and ``game_record``'s state errors (e.g. ``round_finished`` for a new game).
        ValidationFailed: ``game_record``'s rule errors.
    """
    require_judge_of_match(actor, report.match)
    report_id = report.pk
    match = locked_match(report.match)
    # ``of=self`` and no ordering: the default ordering would join (and lock) match and round.
    locked = (
        ResultReport.objects.select_for_update(of=("self",)).filter(pk=report_id).order_by().first()
    )
    if locked is None:  # deleted with its round's results (unpublish or discard, confirmed)
        raise NotFound("report_not_found", _("No such result report."), {"report": report_id})
    report = locked
    if report.status not in OPEN:
        raise InvalidState(
            "report_closed",
            _("This report is already %(status)s.") % {"status": report.get_status_display()},
            {"report": report.pk, "status": report.status},
        )
    games = reported_games(report.games)
    _check_rules(match, games)
    _apply(
        match,
        games,
        by=acting_user(actor),
        correct=True,
        reason=str(_("Confirmed result report #%(id)s") % {"id": report.pk}),
    )
    _resolve([report], RS.ACCEPTED, acting_user(actor))
    others = list(
        ResultReport.objects.select_for_update(of=("self",))
        .filter(match=match, status__in=OPEN)
        .exclude(pk=report.pk)
    )
    _resolve(others, RS.SUPERSEDED, acting_user(actor))
    return report


def match_disputes(*, tournament: Tournament) -> list[Match]:
    """Matches of ``tournament`` with a disputed report (round and table order), for the
    judges; each with ``round`` loaded."""
    return list(
        Match.objects.filter(round__tournament=tournament, reports__status=RS.DISPUTED)
        .select_related("round__tournament")
        .distinct()
        .order_by("round__number", "table")
    )
