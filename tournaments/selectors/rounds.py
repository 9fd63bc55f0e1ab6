"""Read model of rounds: lookups that raise typed errors, the rounds a user may see, the current
and the last round of events, and the entries paired in a round. No writes here.

A draft round (its pairings may still change) is visible to the organisers only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext_lazy as _

from hkk_tournament.errors import NotFound
from tournaments.models import Entry, Round, Tournament
from tournaments.permissions import can_manage


def round_get(*, tournament: Tournament, number: int) -> Round:
    """Round ``number`` of ``tournament`` or ``NotFound("round_not_found")``."""
    r = tournament.rounds.filter(number=number).first()
    if r is None:
        raise NotFound("round_not_found", _("No such round."), {"round": number})
    return r


def round_table_count(*, round: Round) -> int:
    """The number of tables of ``round`` (byes included). One query."""
    return round.matches.count()


def round_get_visible(*, tournament: Tournament, number: int, user: Any) -> Round:
    """Round ``number``; a draft round is ``NotFound`` for everyone but the organisers."""
    rnd = round_get(tournament=tournament, number=number)
    if rnd.status == Round.Status.DRAFT and not can_manage(user, tournament):
        raise NotFound("round_not_found", _("No such round."), {"round": number})
    rnd.tournament = tournament
    return rnd


def rounds_visible(*, tournament: Tournament, user: Any) -> list[Round]:
    """The rounds ``user`` may see: all for the organisers (owner and co-organisers), published
    and finished ones for everyone else (judges included)."""
    qs = tournament.rounds.order_by("number")
    if not can_manage(user, tournament):
        qs = qs.exclude(status=Round.Status.DRAFT)
    return list(qs)


def current_round(*, tournament: Tournament) -> Round | None:
    """The latest published or finished round (draft rounds are never shown to players)."""
    return tournament.rounds.exclude(status=Round.Status.DRAFT).order_by("-number").first()


def last_rounds(tournaments: Sequence[Tournament]) -> dict[int, Round]:
    """Tournament id → its highest-numbered round, drafts included (one query)."""
    result: dict[int, Round] = {}
    for r in Round.objects.filter(tournament__in=list(tournaments)).order_by("number"):
        result[r.tournament_id] = r
    return result


def round_entries(*, round: Round) -> list[Entry]:
    """The entries paired in ``round`` (byes included), by family name, then given name."""
    ids = set()
    for a, b in round.matches.values_list("entry_a_id", "entry_b_id"):
        ids.add(a)
        if b is not None:
            ids.add(b)
    return sorted(Entry.objects.filter(pk__in=ids), key=lambda e: (e.name_sort_key, e.pk))


def next_open_table(*, round: Round, after: int) -> int | None:
    """The first table after ``after`` (wrapping to the first) of ``round`` with two entries
    and no game recorded: where the fast result entry goes next; ``None`` when every table
    has a result. One query."""
    open_tables = list(
        round.matches.exclude(entry_b=None)
        .filter(games__isnull=True)
        .order_by("table")
        .values_list("table", flat=True)
        .distinct()
    )
    later = [t for t in open_tables if t > after]
    choices = later or open_tables
    return choices[0] if choices else None
