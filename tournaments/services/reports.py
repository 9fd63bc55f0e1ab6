"""Players' own result reports: a player may report their own match result; it counts once
both players agree or a judge confirms it, and a disagreement is flagged to the judges
(docs/rules.md §16 (Deck checks, penalties and result reporting)).

A report lists the games of a match as ``[{"number", "winner" (entry id or ``None`` for a
draw), "first" (entry id), "waived" (bool)}]``. The right holder of each game follows from
``first`` and ``waived`` (the holder went first unless they waived); ``game_record`` checks it
against the tournament's first-player policy, so a report that breaks the rules is refused at
submission with that error (``first_player_mismatch`` …) and nothing is stored.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from hkk_tournament.errors import InvalidState, NotFound, ValidationFailed
from tournaments import selectors
from tournaments.models import EntryMember, Game, Match, ResultReport, Round, Tournament
from tournaments.permissions import refuse_own_match
from tournaments.services._match_rules import locked_match
from tournaments.services.results import game_record

RS = ResultReport.Status
OPEN = (RS.PENDING, RS.DISPUTED)


class _DryRun(Exception):  # noqa: N818
    """Raised inside a savepoint to roll a validation-only recording back."""


def _invalid(message: Any, **params: Any) -> ValidationFailed:
    return ValidationFailed("invalid_report", message, params)


def normalise_games(match: Match, games: Any) -> list[dict[str, Any]]:
    """The reported games checked for shape and sorted by number:
    ``[{"number", "winner", "first", "waived"}]``.

    Numbers run 1, 2, … without gaps up to ``games_per_match``; ``winner`` (or ``None``) and
    ``first`` are the two entries of ``match``. Optional per game: ``choice`` (``self`` /
    ``opponent``, where the format gives a choice; same as ``waived``) and ``score`` (the
    winner's Blue Moon crystals); the rules for them are checked by ``game_record``.

    Raises ``ValidationFailed("invalid_report")`` (params name the game and field).
    """
    limit = match.round.tournament.structure.games_per_match
    entries = {match.entry_a_id, match.entry_b_id}
    if not isinstance(games, Sequence) or isinstance(games, str | bytes) or not games:
        raise _invalid(_("Report at least one game."), field="games")
    if len(games) > limit:
        raise _invalid(
            _("A match has at most %(max)s games.") % {"max": limit}, field="games", max=limit
        )
    out: list[dict[str, Any]] = []
    for item in games:
        if not isinstance(item, dict):
            raise _invalid(_("Each game needs a number, a winner and who went first."))
        number, winner, first = item.get("number"), item.get("winner"), item.get("first")
        waived = item.get("waived", False)
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= limit:
            raise _invalid(
                _("Game numbers run from 1 to %(max)s.") % {"max": limit},
                field="number",
                game=number,
                max=limit,
            )
        if winner is not None and (isinstance(winner, bool) or winner not in entries):
            raise _invalid(
                _("The winner of game %(game)s must be one of the two entries (or a draw).")
                % {"game": number},
                field="winner",
                game=number,
            )
        if isinstance(first, bool) or first not in entries:
            raise _invalid(
                _("The entry that went first in game %(game)s must play at this table.")
                % {"game": number},
                field="first",
                game=number,
            )
        if not isinstance(waived, bool):
            raise _invalid(
                _("'waived' must be true or false (game %(game)s).") % {"game": number},
                field="waived",
                game=number,
            )
        if "choice" in item:
            if item["choice"] not in ("self", "opponent"):
                raise _invalid(
                    _("'choice' must be self or opponent (game %(game)s).") % {"game": number},
                    field="choice",
                    game=number,
                )
            waived = item["choice"] == "opponent"
        score = item.get("score")
        if score is not None and (isinstance(score, bool) or not isinstance(score, int)):
            raise _invalid(
                _("The score of game %(game)s must be a whole number.") % {"game": number},
                field="score",
                game=number,
            )
        game = {"number": number, "winner": winner, "first": first, "waived": waived}
        if score is not None:
            game["score"] = score
        out.append(game)
    out.sort(key=lambda g: g["number"])
    if [g["number"] for g in out] != list(range(1, len(out) + 1)):
        raise _invalid(_("Report the games in order: 1, 2, 3 …, each once."), field="number")
    return out


def _holder(match: Match, game: dict[str, Any]) -> int | None:
    """The right holder implied by a reported game: the entry that went first, or the other
    one when the holder waived."""
    if not game["waived"]:
        return game["first"]
    return match.entry_b_id if game["first"] == match.entry_a_id else match.entry_a_id


def _same(recorded: Game, game: dict[str, Any], holder: int | None) -> bool:
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
    """Record the reported games through ``game_record``: identical recorded games are left
    alone; a differing one is corrected when ``correct`` (history kept with ``reason``)."""
    recorded = {g.number: g for g in Game.objects.filter(match=match)}
    for g in games:
        holder = _holder(match, g)
        existing = recorded.get(g["number"])
        if existing is not None and _same(existing, g, holder):
            continue
        game_record(
            match=match,
            number=g["number"],
            winner_entry=g["winner"],
            first_entry=g["first"],
            waived=g["waived"],
            score=g.get("score"),
            right_holder_entry=holder,
            recorded_by=by,
            correction=existing is not None and correct,
            reason=reason if existing is not None else "",
        )


def _validate_against_rules(match: Match, games: list[dict[str, Any]], *, by: Any) -> None:
    """Record the games in a savepoint and roll it back: ``game_record``'s errors (the
    first-player rule, too many games …) surface before anything is stored."""
    try:
        with transaction.atomic():
            _apply(match, games, by=by, correct=True, reason="validation")
            raise _DryRun
    except _DryRun:
        pass


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
    normalised = normalise_games(match, games)
    if selectors.match_score(match, selectors.match_games(match)).complete:
        raise InvalidState(
            "match_complete",
            _("The result of this match is already recorded; ask a judge for any correction."),
            {"table": match.table},
        )
    if not _confirms_open_report(match, entry_id, normalised):
        # A confirming report is recorded at once (same checks, same rollback on an error), so
        # only a report that waits is dry-run here: its games are never recorded twice.
        _validate_against_rules(match, normalised, by=user)
    return normalised


def _confirms_open_report(match: Match, entry_id: Any, games: list[dict[str, Any]]) -> bool:
    """Whether the opponent's open report lists exactly ``games`` and no recorded game
    contradicts them (then :func:`_file_report` records them)."""
    other = (
        ResultReport.objects.filter(match=match, status__in=OPEN)
        .exclude(entry_id=entry_id)
        .only("games")
        .first()
    )
    return other is not None and other.games == games and not _differing_recorded(match, games)


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
def result_report_submit(*, match: Match, entry: Any, user: Any, games: Any) -> ResultReport:
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
    match = locked_match(match)
    entry_id = getattr(entry, "pk", entry)
    normalised = _checked_games(match, entry_id, user, games)
    return _file_report(match, entry_id, user, normalised)


@transaction.atomic
def result_report_confirm(*, report: ResultReport, by: Any) -> ResultReport:
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
    report_id = report.pk
    match = locked_match(report.match)
    refuse_own_match(by, match)
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
    games = normalise_games(match, report.games)
    _apply(
        match,
        games,
        by=by,
        correct=True,
        reason=str(_("Confirmed result report #%(id)s") % {"id": report.pk}),
    )
    _resolve([report], RS.ACCEPTED, by)
    others = list(
        ResultReport.objects.select_for_update(of=("self",))
        .filter(match=match, status__in=OPEN)
        .exclude(pk=report.pk)
    )
    _resolve(others, RS.SUPERSEDED, by)
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
