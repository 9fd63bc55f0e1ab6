"""Reads for the organiser's event-day tools: the round an entry is paired in, the history of a
round (recorded actions and swaps) and of a match's games (corrections), and the players of an
event with their claim codes (docs/rules.md §16 (Deck checks, penalties and result
reporting))."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from hkk_tournament.errors import NotFound
from tournaments.models import (
    Entry,
    EntryMember,
    GameCorrection,
    Match,
    PairingChange,
    Round,
    RoundSeat,
    Tournament,
    TournamentAction,
)
from tournaments.models.entries import person_name


def _who(user: Any) -> str:
    if user is None:
        return ""
    return person_name(user.last_name, user.first_name, user.get_username())


def entry_paired_round(*, entry: Entry) -> Round | None:
    """The tournament's last round when it is unfinished and ``entry`` has a table in it."""
    rnd = Round.objects.filter(tournament_id=entry.tournament_id).order_by("-number").first()
    if rnd is None or rnd.status == Round.Status.FINISHED:
        return None
    return rnd if RoundSeat.objects.filter(round=rnd, entry=entry).exists() else None


def round_history(*, tournament: Tournament, number: int) -> list[dict[str, Any]]:
    """Everything recorded about round ``number``, oldest first: ``[{"at", "who", "what",
    "reason", "entry", "action", "restorable"}]`` from the action log and the swaps of its
    pairings. ``action`` is the action's id (``None`` for a swap); ``restorable`` says the
    action deleted results that have not been restored yet (``round_results_restore``)."""
    actions = list(
        TournamentAction.objects.filter(tournament=tournament, round_number=number).select_related(
            "by", "entry"
        )
    )
    restored = {
        a.params.get("action") for a in actions if a.kind == TournamentAction.Kind.RESULTS_RESTORED
    }
    rows: list[dict[str, Any]] = [
        {
            "at": a.at,
            "who": _who(a.by),
            "what": a.get_kind_display(),
            "reason": a.reason,
            "entry": a.entry.shown_name if a.entry else "",
            "action": a.pk,
            "restorable": bool(a.params.get("deleted_results")) and a.pk not in restored,
        }
        for a in actions
    ]
    rows += [
        {
            "at": c.changed_at,
            "who": _who(c.changed_by),
            "what": f"⇄ {c.table_x} / {c.table_y} ({c.swap.upper()})",
            "reason": c.reason,
            "entry": "",
            "action": None,
            "restorable": False,
        }
        for c in PairingChange.objects.filter(
            round__tournament=tournament, round__number=number
        ).select_related("changed_by")
    ]
    return sorted(rows, key=lambda r: r["at"])


def action_round_number(*, tournament: Tournament, action_id: int) -> int:
    """The round number of action ``action_id`` of ``tournament``; ``NotFound("action_not_found")``
    when the event has no such action about a round."""
    number = (
        TournamentAction.objects.filter(tournament=tournament, pk=action_id)
        .values_list("round_number", flat=True)
        .first()
    )
    if number is None:
        raise NotFound("action_not_found", _("No such action is recorded in this event."), {})
    return number


def tournament_actions(*, tournament: Tournament) -> list[TournamentAction]:
    """The event's action log, newest first."""
    return list(
        TournamentAction.objects.filter(tournament=tournament)
        .select_related("by", "entry")
        .order_by("-at", "-id")
    )


def event_history(*, tournament: Tournament) -> list[dict[str, Any]]:
    """Every recorded organiser and judge step on the event, newest first: ``[{"at", "who",
    "what", "reason", "round", "entry", "kind"}]`` from the action log (discards, unpublishes,
    drops fixed, re-adds, check-in drops, reopenings), the swaps of pairings and the corrections
    of recorded games; ``round`` is the round number or ``None``, ``kind`` the action code
    (``"swap"`` and ``"correction"`` for the other two)."""
    rows: list[dict[str, Any]] = [
        {
            "at": a.at,
            "who": _who(a.by),
            "what": a.get_kind_display(),
            "reason": a.reason,
            "round": a.round_number,
            "entry": a.entry.shown_name if a.entry else "",
            "kind": a.kind,
        }
        for a in tournament_actions(tournament=tournament)
    ]
    rows += [
        {
            "at": c.changed_at,
            "who": _who(c.changed_by),
            "what": _("tables %(x)s and %(y)s swapped") % {"x": c.table_x, "y": c.table_y},
            "reason": c.reason,
            "round": c.round.number,
            "entry": "",
            "kind": "swap",
        }
        for c in PairingChange.objects.filter(round__tournament=tournament).select_related(
            "changed_by", "round"
        )
    ]
    rows += [
        {
            "at": c.changed_at,
            "who": _who(c.changed_by),
            "what": _("table %(table)s, game %(game)s corrected")
            % {"table": c.game.match.table, "game": c.game.number},
            "reason": c.reason,
            "round": c.game.match.round.number,
            "entry": "",
            "kind": "correction",
        }
        for c in GameCorrection.objects.filter(
            game__match__round__tournament=tournament
        ).select_related("changed_by", "game__match__round")
    ]
    return sorted(rows, key=lambda r: r["at"], reverse=True)


def _result_text(values: dict[str, Any], names: dict[int, str]) -> str:
    if values.get("is_draw"):
        return "="
    winner = values.get("winner")
    return names.get(winner, str(winner)) if winner is not None else "–"


def match_corrections(*, match: Match) -> list[dict[str, Any]]:
    """The corrections of the match's games, oldest first: ``[{"game", "at", "who", "before",
    "after", "reason"}]`` with the winners by name (``=`` for a draw)."""
    names = {
        e.pk: e.shown_name
        for e in Entry.objects.filter(pk__in=[match.entry_a_id, match.entry_b_id])
    }
    return [
        {
            "game": c.game.number,
            "at": c.changed_at,
            "who": _who(c.changed_by),
            "before": _result_text(c.old, names),
            "after": _result_text(c.new, names),
            "reason": c.reason,
        }
        for c in GameCorrection.objects.filter(game__match=match)
        .select_related("game", "changed_by")
        .order_by("changed_at", "id")
    ]


def claim_codes(*, tournament: Tournament) -> list[dict[str, Any]]:
    """The event's players without an account: ``[{"entry", "player", "code", "expired",
    "table", "bye"}]`` by family name, then given name (``code`` empty when none was made
    yet; ``expired`` true for a code past its ``claim_code_expires_at``, which the claim
    refuses; ``table`` the entry's table number in round 1, ``None`` while there is no round
    1; ``bye`` true for a round-1 bye)."""
    now = timezone.now()
    members = (
        EntryMember.objects.filter(tournament=tournament, player__user=None)
        .select_related("entry", "player")
        .order_by("player__family_name", "player__given_name", "player__display_name", "seat")
    )
    tables: dict[int, tuple[int, bool]] = {}
    for match in Match.objects.filter(round__tournament=tournament, round__number=1):
        tables[match.entry_a_id] = (match.table, match.entry_b_id is None)
        if match.entry_b_id is not None:
            tables[match.entry_b_id] = (match.table, False)
    return [
        {
            "entry": m.entry,
            "player": m.player,
            "code": m.player.claim_code,
            "expired": bool(m.player.claim_code)
            and (m.player.claim_code_expires_at is None or m.player.claim_code_expires_at <= now),
            "table": tables.get(m.entry_id, (None, False))[0],
            "bye": tables.get(m.entry_id, (None, False))[1],
        }
        for m in members
    ]
