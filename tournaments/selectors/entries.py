"""Read model of entries, their members and deck lists: lookups that raise typed errors, entries
with their deck status for display, a user's own seats, and the lists an event holds. No writes.

Deck-list visibility follows ``tournaments.permissions`` (docs/rules.md §16 (Deck checks,
penalties and result reporting)).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch, Q, QuerySet
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from hkk_tournament.errors import NotFound
from tournaments.domain.names import PersonName, normalise_name
from tournaments.models import DeckSubmission, Entry, EntryMember, Player, Tournament
from tournaments.models.entries import person_name
from tournaments.permissions import deck_lists_visible

# --- lookups ------------------------------------------------------------------------------


def entry_get(*, tournament: Tournament, entry_id: int) -> Entry:
    """An entry of ``tournament`` or ``NotFound("entry_not_found")``."""
    e = tournament.entries.filter(pk=entry_id).first()
    if e is None:
        raise NotFound(
            "entry_not_found", _("No such entry in this tournament."), {"entry": entry_id}
        )
    return e


def entries_with_members(tournament: Tournament) -> QuerySet[Entry]:
    """Entries of the tournament with their members and players prefetched, by id."""
    return tournament.entries.prefetch_related(
        Prefetch("members", queryset=EntryMember.objects.select_related("player").order_by("seat"))
    ).order_by("id")


def names_by_entry(tournament: Tournament) -> dict[int, str]:
    """Entry id → name as shown in the active language (a player's family name first in
    Hungarian, given name first in English: ``models.entries.person_name``; a team's name as
    given). One query."""
    rows = tournament.entries.values_list("id", "name", "family_name", "given_name")
    return {pk: person_name(family, given, name) for pk, name, family, given in rows}


def names_of_entries(ids: Iterable[int | None]) -> dict[int, str]:
    """Entry id → name as shown in the active language (as :func:`names_by_entry`), for the
    entries ``ids`` only (``None`` ignored: a bye's missing seat B); one query, none when
    ``ids`` is empty. A page or answer about one table reads its two names, not the event's
    thousands."""
    wanted = {pk for pk in ids if pk is not None}
    if not wanted:
        return {}
    # No ordering: the model's default one joins the tournament for nothing here.
    rows = (
        Entry.objects.filter(pk__in=wanted)
        .order_by()
        .values_list("id", "name", "family_name", "given_name")
    )
    return {pk: person_name(family, given, name) for pk, name, family, given in rows}


def name_order_by_entry(tournament: Tournament) -> dict[int, tuple[str, str, int]]:
    """Entry id → its sort key by name: family name, then given name (case- and
    accent-insensitive; a team or an entry with a name of its own by that name), then id.
    One query."""
    rows = tournament.entries.values_list("id", "name", "family_name", "given_name")
    return {pk: (*name_sort_key(name, family, given), pk) for pk, name, family, given in rows}


def name_sort_key(name: str, family: str, given: str) -> tuple[str, str]:
    """The sort key of a stored name (``name``, ``family``, ``given``): family name, then
    given name, case- and accent-insensitive; without parts (a team) the name itself."""
    if family or given:
        return PersonName(family, given).sort_key()
    return (normalise_name(name), "")


def member_player(*, entry: Entry, player_id: int | None = None, seat: str | None = None) -> Player:
    """The player of ``entry`` chosen by ``player_id`` or ``seat`` (seat A when neither is
    given); ``NotFound("not_a_member")`` if there is none."""
    qs = EntryMember.objects.select_related("player").filter(entry=entry)
    if player_id is not None:
        qs = qs.filter(player_id=player_id)
    else:
        qs = qs.filter(seat=(seat or "A").upper())
    member = qs.first()
    if member is None:
        raise NotFound(
            "not_a_member",
            _("That player is not a member of this entry."),
            {"entry": entry.pk, "player": player_id, "seat": seat},
        )
    return member.player


def member_player_for(
    *, entry: Entry, user: Any, player_id: int | None = None, seat: str | None = None
) -> Player:
    """The member whose list a submission changes: the one chosen by ``player_id`` or
    ``seat``; else the member who is ``user``; else seat A. ``NotFound("not_a_member")``."""
    if player_id is None and seat is None and user is not None and user.is_authenticated:
        own = (
            EntryMember.objects.select_related("player")
            .filter(entry=entry, player__user_id=user.pk)
            .order_by("seat")
            .first()
        )
        if own is not None:
            return own.player
    return member_player(entry=entry, player_id=player_id, seat=seat)


# --- a user's own seats -------------------------------------------------------------------


def own_membership(*, tournament: Tournament, user: Any) -> EntryMember | None:
    """The user's seat in ``tournament`` (``None`` when the user does not play in it)."""
    if user is None or not user.is_authenticated:
        return None
    return (
        EntryMember.objects.select_related("entry", "player")
        .filter(tournament=tournament, player__user=user)
        .first()
    )


def memberships_of(*, user: Any) -> list[EntryMember]:
    """The user's seats in entries of every event (entry and tournament loaded), newest event
    first."""
    return list(
        EntryMember.objects.select_related("entry__tournament__format", "player")
        .filter(player__user=user)
        .order_by("-entry__tournament__created_at", "-entry__tournament_id")
    )


# --- entries for display ------------------------------------------------------------------


@dataclass
class MemberView:
    """One seat of an entry with its current deck submission (``None`` = no list yet)."""

    seat: str
    player_id: int
    player_name: str
    deck: DeckSubmission | None
    #: May the viewer see the list itself (its rule card)? ``entry_views(user=…)`` sets it.
    deck_visible: bool = True
    #: Is the player linked to an account (else the organiser may invite or print a code)?
    has_account: bool = False


@dataclass
class EntryView:
    """An entry for display: members, deck status and drop state.

    ``deck_status``: ``"legal"`` (every member has a current legal list), ``"override"``
    (paired by organiser override), ``"unverified"`` (a list could not be fully checked and
    waits for the organiser's approval, docs/rules.md §17), ``"illegal"`` (some list's
    ``DeckSubmission.verdict`` is illegal) or ``"missing"``.
    """

    entry: Entry
    members: list[MemberView] = field(default_factory=list)

    @property
    def id(self) -> int:
        return self.entry.pk

    @property
    def name(self) -> str:
        """The entry's name in the active language's order."""
        return self.entry.shown_name

    @property
    def dropped(self) -> bool:
        return self.entry.dropped_after_round is not None

    @property
    def deck_status(self) -> str:
        decks = [m.deck for m in self.members]
        legal = bool(decks) and all(d is not None and d.legal for d in decks)
        if legal and len({d.rule_card for d in decks if d is not None}) == 1:
            return "legal"
        if self.entry.pairing_override_reason:
            return "override"
        if any(d is None for d in decks) or not decks:
            return "missing"
        if all(d is not None and d.verdict != "illegal" for d in decks):
            return "unverified"
        return "illegal"

    @property
    def unknown_cards(self) -> list[str]:
        """Names the partial card catalogue lacks in the members' current lists (list order,
        each once); shown to the organiser beside an unverified status."""
        names = (name for m in self.members if m.deck is not None for name in m.deck.unknown_cards)
        return list(dict.fromkeys(names))

    @property
    def deck_status_label(self) -> str:
        labels = {
            "legal": gettext("legal"),
            "override": gettext("override"),
            "illegal": gettext("not legal"),
            "missing": gettext("missing"),
            "unverified": gettext("unverified: the organiser must approve"),
        }
        return labels[self.deck_status]


def entry_views(*, tournament: Tournament, user: Any = None) -> list[EntryView]:
    """Every entry of ``tournament`` (by family name, then given name; a team by its name)
    with members and current lists: three queries
    (a few more with ``user``).

    With ``user``, ``MemberView.deck_visible`` says whether that user may see the list
    (``permissions.can_view_deck_lists_of``); without, every list counts as visible.
    """
    current = {
        s.member_id: s
        for s in DeckSubmission.objects.filter(
            member__tournament=tournament, is_current=True
        ).defer("text", "data")
    }
    visible = deck_lists_visible(user, tournament) if user is not None else (lambda _id: True)
    return [
        EntryView(
            entry=e,
            members=[
                MemberView(
                    m.seat,
                    m.player_id,
                    m.player.shown_name,
                    current.get(m.pk),
                    visible(e.pk),
                    m.player.user_id is not None,
                )
                for m in e.members.all()
            ],
        )
        for e in sorted(entries_with_members(tournament), key=lambda e: (e.name_sort_key, e.pk))
    ]


# --- deck lists ---------------------------------------------------------------------------


def deck_submissions(*, entry: Entry) -> QuerySet[DeckSubmission]:
    """Every version of every member's list of ``entry`` (oldest first per seat)."""
    return (
        DeckSubmission.objects.filter(member__entry=entry)
        .select_related("member__player")
        .order_by("member__seat", "version")
    )


def entry_deck_lists(*, entry: Entry, history: bool) -> list[DeckSubmission]:
    """The members' deck lists of ``entry`` by seat: every version with ``history`` (staff and
    the entry's own players), else the current ones only."""
    qs = deck_submissions(entry=entry)
    if not history:
        qs = qs.filter(is_current=True)
    return list(qs)


def entry_lists(*, entry: Entry) -> list[tuple[EntryMember, DeckSubmission | None]]:
    """Every member of ``entry`` with the list the event holds: the locked snapshot once lists
    are locked, else the current version (``None`` = no list)."""
    members = list(entry.members.select_related("player").order_by("seat"))
    subs = DeckSubmission.objects.filter(member__in=members).filter(
        Q(locked=True) | Q(is_current=True)
    )
    best: dict[int, DeckSubmission] = {}
    for s in subs:
        if s.locked or s.member_id not in best:
            best[s.member_id] = s
    return [(m, best.get(m.pk)) for m in members]
