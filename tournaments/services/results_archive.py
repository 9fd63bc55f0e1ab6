"""Results of a round that an organiser deletes on purpose (unpublishing or discarding a round
that has results, after confirming it) are kept in the action log and can be restored.

What is kept, per table (``TournamentAction.params["deleted_results"]``)::

    [{"table": int, "a": entry id, "b": entry id,
      "match": {"die_roll_winner", "game3_roll_winner", "reroll_game3_agreed", "ended_at_time"},
      "games": [Game fields], "corrections": [GameCorrection fields + "game_number"],
      "reports": [ResultReport fields]}]

Field values are Django's serialisation of the rows (``django.core.serializers``, JSON-safe),
so a restore writes back exactly what was recorded, with who and when.
Sources: docs/rules.md §16 (Deck checks, penalties and result reporting: audited changes).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any, TypeVar

from django.core import serializers
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.db.models import Model
from django.utils.translation import gettext_lazy as _

from hkk_tournament.errors import Conflict, InvalidState, NotFound
from tournaments.models import (
    Game,
    GameCorrection,
    Match,
    ResultReport,
    Round,
    TournamentAction,
)
from tournaments.models import Tournament as TournamentModel
from tournaments.permissions import acting_user, require_manage
from tournaments.services._common import lock_tournament, require_status
from tournaments.services.jobs import enqueue_standings

A = TournamentAction.Kind
#: The match fields a result sets besides its games (restored with them).
MATCH_FIELDS = (
    "die_roll_winner_id",
    "game3_roll_winner_id",
    "reroll_game3_agreed",
    "ended_at_time",
)


def round_result_counts(rnd: Round) -> dict[str, int]:
    """What would be lost by deleting ``rnd``'s results: ``{"games", "reports", "rolls"}``
    (recorded games, player reports of any status, tables with a die roll recorded). Read
    under the round's ``FOR UPDATE`` lock, it counts every result committed in the round:
    result writers hold the round ``FOR SHARE``."""
    return {
        "games": Game.objects.filter(match__round=rnd).count(),
        "reports": ResultReport.objects.filter(match__round=rnd).count(),
        "rolls": rnd.matches.exclude(die_roll_winner=None, game3_roll_winner=None).count(),
    }


def refuse_deleting_results(rnd: Round, counts: dict[str, int]) -> Conflict:
    """``Conflict("round_has_results")``: how many results an unpublish or discard of ``rnd``
    would delete; params ``round``, ``games``, ``reports``, ``rolls``."""
    return Conflict(
        "round_has_results",
        _(
            "Round %(round)s has results: %(games)s recorded games, %(reports)s player reports "
            "and %(rolls)s die rolls. Confirm deleting them to go on; they are kept in the "
            "action log and can be restored."
        )
        % {"round": rnd.number, **counts},
        {"round": rnd.number, **counts},
        fields={"delete_results": [str(_("Confirm deleting the results."))]},
    )


class _ExactEncoder(DjangoJSONEncoder):
    """Django's encoder keeps milliseconds only; datetimes are stored to the microsecond."""

    def default(self, o: Any) -> Any:
        if isinstance(o, datetime):
            return o.isoformat()
        return super().default(o)


def _fields(rows: Sequence[Model]) -> list[dict[str, Any]]:
    data = json.loads(serializers.serialize("json", rows, cls=_ExactEncoder))
    return [item["fields"] for item in data]


def archive_round_results(rnd: Round) -> list[dict[str, Any]]:
    """Delete every result of ``rnd`` (games with their corrections, player reports, die rolls
    and the re-roll agreement) and return them as the action log keeps them (module
    docstring). The caller holds the tournament and round locks (``FOR UPDATE``)."""
    kept: list[dict[str, Any]] = []
    matches = list(rnd.matches.select_for_update().order_by("table"))
    for m in matches:
        games = list(Game.objects.filter(match=m).order_by("number"))
        corrections = list(
            GameCorrection.objects.filter(game__match=m).select_related("game").order_by("id")
        )
        reports = list(ResultReport.objects.filter(match=m).order_by("id"))
        flags = {f: getattr(m, f) for f in MATCH_FIELDS}
        if not (games or reports or m.die_roll_winner_id or m.game3_roll_winner_id):
            continue
        kept.append(
            {
                "table": m.table,
                "a": m.entry_a_id,
                "b": m.entry_b_id,
                "match": flags,
                "games": _fields(games),
                "corrections": [
                    {**f, "game_number": c.game.number}
                    for f, c in zip(_fields(corrections), corrections, strict=True)
                ],
                "reports": _fields(reports),
            }
        )
    Game.objects.filter(match__round=rnd).delete()
    ResultReport.objects.filter(match__round=rnd).delete()
    rnd.matches.update(
        die_roll_winner=None, game3_roll_winner=None, reroll_game3_agreed=False, ended_at_time=False
    )
    return kept


M = TypeVar("M", bound=Model)


def _deserialised(model: type[M], fields: dict[str, Any], **overrides: Any) -> M:
    label = f"{model._meta.app_label}.{model._meta.model_name}"
    item = {"model": label, "pk": None, "fields": fields}
    obj = next(serializers.deserialize("python", [item], ignorenonexistent=True)).object
    assert isinstance(obj, model)
    for name, value in overrides.items():
        setattr(obj, name, value)
    return obj


def _target_matches(rnd: Round, kept: list[dict[str, Any]]) -> dict[int, Match]:
    """The match of ``rnd`` each kept table (by its table number before) goes back to: the
    one where the same two entries play (either seat, any table), with no result recorded
    since; else ``Conflict("results_not_restorable")`` naming the tables."""
    by_pair = {
        frozenset((m.entry_a_id, m.entry_b_id)): m
        for m in rnd.matches.select_for_update().order_by("table")
    }
    targets: dict[int, Match] = {}
    blocked = []
    for t in kept:
        m = by_pair.get(frozenset((t["a"], t["b"])))
        if m is None or m.die_roll_winner_id or m.games.exists() or m.reports.exists():
            blocked.append(t["table"])
        else:
            targets[t["table"]] = m
    if blocked:
        raise Conflict(
            "results_not_restorable",
            _(
                "At tables %(tables)s of round %(round)s the same players no longer meet, or "
                "new results are recorded; the deleted results cannot be restored."
            )
            % {"tables": ", ".join(str(t) for t in blocked), "round": rnd.number},
            {"tables": blocked, "round": rnd.number},
        )
    return targets


def _restore_table(match: Match, kept: dict[str, Any]) -> int:
    for name, value in kept["match"].items():
        setattr(match, name, value)
    match.save(update_fields=[f.removesuffix("_id") for f in MATCH_FIELDS])
    games = {}
    for fields in kept["games"]:
        game = _deserialised(Game, fields, match_id=match.pk)
        game.save_base(raw=True)
        games[game.number] = game
    for fields in kept["corrections"]:
        rest = {k: v for k, v in fields.items() if k != "game_number"}
        correction = _deserialised(GameCorrection, rest, game_id=games[fields["game_number"]].pk)
        correction.save_base(raw=True)
    for fields in kept["reports"]:
        _deserialised(ResultReport, fields, match_id=match.pk).save_base(raw=True)
    return len(games)


def _restorable_action(tournament: TournamentModel, action_id: int) -> TournamentAction:
    action = TournamentAction.objects.filter(
        pk=action_id, tournament=tournament, kind__in=(A.ROUND_UNPUBLISHED, A.ROUND_DISCARDED)
    ).first()
    if action is None or not action.params.get("deleted_results"):
        raise NotFound(
            "action_not_found", _("No deleted results are recorded under this action."), {}
        )
    if TournamentAction.objects.filter(
        tournament=tournament, kind=A.RESULTS_RESTORED, params__action=action.pk
    ).exists():
        raise Conflict(
            "results_already_restored",
            _("These results have already been restored."),
            {"action": action.pk},
        )
    return action


@transaction.atomic
def round_results_restore(
    *, tournament: TournamentModel, action_id: int, actor: Any
) -> TournamentAction:
    """Put back the results an unpublish or discard deleted (action ``action_id`` of
    ``tournament``) into the round of the same number, which must be published again: each
    table's results go to the match where the same two entries play (any table, either seat)
    and nothing has been recorded since. All or nothing;
    recorded as ``results_restored`` (params ``action``, ``tables``, ``games``), which is
    returned; standings are recomputed on commit.

    Locks: tournament → round (``FOR UPDATE``) → its matches.

    Raises:
        NotFound: ``action_not_found``.
        Conflict: ``results_already_restored``, ``results_not_restorable`` (params ``tables``).
        InvalidState: ``tournament_status``, ``round_not_published`` (publish the round first).
    """
    require_manage(actor, tournament)
    tournament = lock_tournament(tournament)
    require_status(tournament, TournamentModel.Status.RUNNING)
    action = _restorable_action(tournament, action_id)
    number = action.round_number or 0
    rnd = (
        Round.objects.select_for_update()
        .filter(tournament=tournament, number=number)
        .order_by()
        .first()
    )
    if rnd is None or rnd.status != Round.Status.PUBLISHED:
        raise InvalidState(
            "round_not_published",
            _("Publish round %(round)s first; its results go back into the published round.")
            % {"round": number},
            {"round": number},
        )
    kept = action.params["deleted_results"]
    targets = _target_matches(rnd, kept)
    games = sum(_restore_table(targets[t["table"]], t) for t in kept)
    restored = TournamentAction.objects.create(
        tournament=tournament,
        kind=A.RESULTS_RESTORED,
        round_number=number,
        params={"action": action.pk, "tables": [t["table"] for t in kept], "games": games},
        by=acting_user(actor) if getattr(acting_user(actor), "pk", None) else None,
    )
    enqueue_standings(tournament.pk)
    return restored
