"""Player histories and profiles: the events a person played, their placements, match record
and published lists; who a *person* is across events (the person key of the circuits); names
in the order of the language (family name first in Hungarian).

A person is the user account when the player is linked to one (``u:<user id>``), else the
player's name (``n:<name key>``: the same name without case and accents is the same person,
as the community's hand-kept tables count them). docs/rules.md §19 (Circuits, season
standings and league gates).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet
from django.utils.translation import get_language

from tournaments.models import EntryMember, Player, PlayerProfile, StandingsSnapshot, Tournament
from tournaments.selectors.matches import match_records
from tournaments.selectors.meta import published_submissions
from tournaments.selectors.standings import snapshot_rows

FINISHED = Tournament.Status.FINISHED

#: The standings rows of an event (the snapshot's JSON shape).
RowsOf = Callable[[Tournament], list[dict[str, Any]]]


def person_key(*, user_id: int | None, name_key: str) -> str:
    """The person key of a player: ``u:<user id>`` when linked to an account, else
    ``n:<name key>``."""
    return f"u:{user_id}" if user_id is not None else f"n:{name_key}"


def person_keys_of(player: Player) -> set[str]:
    """Every key a player may have results under: the account's and the name's (a person's
    results from before they had an account count under the name)."""
    keys = {person_key(user_id=None, name_key=player.name_key)}
    if player.user_id is not None:
        keys.add(person_key(user_id=player.user_id, name_key=player.name_key))
    return keys


def user_display_name(user: Any) -> str:
    """A user's real name in the order of the active language: family name first in
    Hungarian ("Kovács Péter"), given name first otherwise; the username when none is set."""
    first = (getattr(user, "first_name", "") or "").strip()
    last = (getattr(user, "last_name", "") or "").strip()
    parts = [last, first] if (get_language() or "hu").startswith("hu") else [first, last]
    return " ".join(p for p in parts if p) or user.get_username()


def list_is_public(*, tournament: Tournament, entry_id: int, player_id: int) -> bool:
    """THE decision whether an entry's submitted list is shown on a profile: the player's list
    is among the public lists of the meta statistics (``selectors.meta.published_submissions``:
    a public event that publishes its lists, finished or past its cut as the event says, and
    the player has not opted out; docs/rules.md §20 (Meta statistics))."""
    return (
        published_submissions(tournament=tournament)
        .filter(member__entry_id=entry_id, member__player_id=player_id)
        .exists()
    )


@dataclass(frozen=True, slots=True)
class HistoryRow:
    """One event of a person's history: the ``tournament``, the ``entry_id`` and its name,
    ``placement`` of ``field_size`` (``None`` before standings exist), the match record
    (``wins``, ``losses``, ``draws``; byes count as wins) and ``lists_public``."""

    tournament: Tournament
    entry_id: int
    entry_name: str
    placement: int | None
    field_size: int
    wins: int
    losses: int
    draws: int
    lists_public: bool

    @property
    def record(self) -> str:
        """``W–L–D``."""
        return f"{self.wins}–{self.losses}–{self.draws}"


def _record(tournament: Tournament, entry_id: int) -> tuple[int, int, int]:
    wins = losses = draws = 0
    for m in match_records(tournament):
        if entry_id not in (m.a, m.b):
            continue
        if m.b is None:
            wins, losses = (wins, losses + 1) if m.forfeit else (wins + 1, losses)
            continue
        own, other = (m.a_wins, m.b_wins) if m.a == entry_id else (m.b_wins, m.a_wins)
        if own > other:
            wins += 1
        elif own < other:
            losses += 1
        else:
            draws += 1
    return wins, losses, draws


def _placement(
    tournament: Tournament, entry_id: int, rows_of: RowsOf | None
) -> tuple[int | None, int]:
    snapshot = StandingsSnapshot.objects.filter(tournament=tournament).first()
    if rows_of is not None:
        rows = rows_of(tournament)
    elif snapshot is not None:
        rows = snapshot_rows(snapshot)
    else:
        return None, 0
    rank = next((r["rank"] for r in rows if r["entry"] == entry_id), None)
    return rank, len(rows)


def memberships_of_players(players: Iterable[Player]) -> QuerySet[EntryMember]:
    """The entry memberships of ``players`` in events that are not drafts, newest first."""
    return (
        EntryMember.objects.filter(player__in=list(players))
        .exclude(tournament__status=Tournament.Status.DRAFT)
        .select_related("entry", "tournament__format")
        .order_by("-tournament__starts_at", "-tournament__created_at", "-id")
    )


def player_history(
    players: Iterable[Player], *, public_only: bool = False, rows_of: RowsOf | None = None
) -> list[HistoryRow]:
    """The history of a person (their ``players``): every non-draft event they entered,
    newest first, with placement, field size, match record and whether the lists are public.
    ``public_only``: only public events (what a stranger may see); ``rows_of``: the standings
    rows of an event (default: its stored snapshot; the services pass one that computes them
    when none is stored yet)."""
    rows = []
    for member in memberships_of_players(players):
        t = member.tournament
        if public_only and not t.is_public:
            continue
        placement, field_size = _placement(t, member.entry_id, rows_of)
        wins, losses, draws = _record(t, member.entry_id)
        public = list_is_public(tournament=t, entry_id=member.entry_id, player_id=member.player_id)
        rows.append(
            HistoryRow(
                t,
                member.entry_id,
                member.entry.name,
                placement,
                field_size,
                wins,
                losses,
                draws,
                public,
            )
        )
    return rows


def players_of_user(user: Any) -> QuerySet[Player]:
    """The players linked to ``user``."""
    return Player.objects.filter(user=user)


def players_of_person(player: Player) -> QuerySet[Player]:
    """The players that are the same person as ``player``: the same account, or (unlinked) the
    same name key; used by the organisers' view of who registers."""
    if player.user_id is not None:
        return Player.objects.filter(Q(user_id=player.user_id) | Q(pk=player.pk))
    return Player.objects.filter(name_key=player.name_key, user__isnull=True)


def profile_is_public(user: Any) -> bool:
    """Whether ``user`` made their profile public (private by default)."""
    return PlayerProfile.objects.filter(user=user, is_public=True).exists()


def can_view_profile(viewer: Any, user: Any) -> bool:
    """The profile of ``user`` is visible to ``viewer``: public by choice, or their own, or a
    site admin."""
    if getattr(viewer, "is_authenticated", False) and (
        viewer.pk == user.pk or getattr(viewer, "is_superuser", False)
    ):
        return True
    return profile_is_public(user)
