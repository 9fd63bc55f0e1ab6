"""Entries of an event: register single players and pair teams (before the start, or late
while it runs up to the cut-off round), drop them, and let one be paired without a legal list.

Sources: docs/rules.md §7 (HKK pair tournaments), §14 (Swiss pairing and byes: late entries
and drops) and §16 (Deck checks, penalties and result reporting).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from hkk_tournament.errors import Conflict, InvalidState, ValidationFailed
from tournaments.models import Entry, EntryMember, Player, Tournament, TournamentAction
from tournaments.models.entries import name_from_text
from tournaments.permissions import acting_user, require_manage
from tournaments.services._common import last_round, lock_tournament, require_status
from tournaments.services.circuits import league_gate_check
from tournaments.services.jobs import enqueue_standings
from tournaments.services.round_fixes import (
    MissedChoice,
    missed_rounds_give,
    require_missed_choice,
)

S = Tournament.Status


def _player(value: Player | str | None, *, email: str = "") -> Player:
    if isinstance(value, Player):
        return value
    if value is None or not str(value).strip():
        raise ValidationFailed(
            "invalid_value", _("A player needs a name."), {"field": "player_name"}
        )
    parts = name_from_text(str(value))  # typed in the page's language's order
    return Player.objects.create(family_name=parts.family, given_name=parts.given, email=email)


def add_entry(
    tournament: Tournament, name: str, players: Sequence[Player], registered_round: int
) -> Entry:
    """Create the entry with ``players`` in seats A, B (in that order); an entry named after
    its one player (``name`` is the player's ``display_name``) takes the player's name parts.

    Raises ``Conflict("player_already_registered")`` when a player is in another entry of the
    tournament already or is given twice (the caller's transaction is then rolled back), and
    ``InvalidState("event_full")`` when the event's player cap (``max_entries``) is reached,
    ``InvalidState("league_gate_refused")`` when the event belongs to a league whose gate a
    player does not pass (docs/rules.md §19 (Circuits, season standings and league gates)).
    """
    require_room(tournament)
    league_gate_check(tournament=tournament, players=players)
    named_after = players[0] if len(players) == 1 and name == players[0].display_name else None
    entry = Entry.objects.create(
        tournament=tournament,
        name=name,
        family_name=named_after.family_name if named_after else "",
        given_name=named_after.given_name if named_after else "",
        registered_round=registered_round,
    )
    taken = set(
        EntryMember.objects.filter(tournament=tournament, player__in=players).values_list(
            "player_id", flat=True
        )
    )
    if taken or len({p.pk for p in players}) != len(players):
        raise Conflict(
            "player_already_registered",
            _("A player can be in only one entry of a tournament."),
            {"players": sorted(taken) or [p.pk for p in players]},
        )
    try:
        with transaction.atomic():
            for seat, player in zip(EntryMember.Seat.values, players, strict=False):
                EntryMember.objects.create(
                    entry=entry, tournament=tournament, player=player, seat=seat
                )
    except IntegrityError:
        raise Conflict(
            "player_already_registered",
            _("A player can be in only one entry of a tournament."),
            {"players": [p.pk for p in players]},
        ) from None
    return entry


def require_room(tournament: Tournament) -> None:
    """Raise ``InvalidState("event_full")`` when ``max_entries`` entries (not dropped) exist."""
    cap = tournament.max_entries
    if cap and tournament.entries.filter(dropped_after_round=None).count() >= cap:
        raise InvalidState(
            "event_full",
            _("The event is full: at most %(cap)s entries may register.") % {"cap": cap},
            {"max_entries": cap},
        )


def require_kind(tournament: Tournament, kind: str) -> None:
    """Raise ``ValidationFailed("wrong_entry_kind")`` unless the tournament is of ``kind``."""
    if tournament.kind != kind:
        raise ValidationFailed(
            "wrong_entry_kind",
            _("This tournament takes pair teams.")
            if tournament.is_pair
            else _("This tournament takes single players."),
            {"kind": tournament.kind},
        )


def late_entry_round(tournament: Tournament) -> int:
    """The round a late entry joins: the next one to be paired, as long as it is not after
    ``late_entry_cutoff_round``. Raises ``InvalidState("late_entry_closed")`` otherwise (also
    when the event sets no cut-off)."""
    last = last_round(tournament)
    number = (last.number if last else 0) + 1
    cutoff = tournament.late_entry_cutoff_round
    if cutoff is None or number > cutoff:
        raise InvalidState(
            "late_entry_closed",
            _("Late entries are closed (the cut-off round has passed)."),
            {"next_round": number, "cutoff": cutoff},
        )
    return number


def _register(
    tournament: Tournament,
    *,
    player: Player | str | None,
    name: str | None,
    player_a: Player | str | None,
    player_b: Player | str | None,
    email: str,
    registered_round: int,
) -> Entry:
    if tournament.is_pair:
        if player_a is None or player_b is None:
            raise ValidationFailed(
                "pair_needs_two_players",
                _("A pair team has exactly two players, in seats A and B."),
                {},
            )
        a, b = _player(player_a), _player(player_b)
        team_name = (name or "").strip() or f"{a.display_name} & {b.display_name}"
        return add_entry(tournament, team_name, [a, b], registered_round)
    p = _player(player, email=email)
    return add_entry(tournament, (name or "").strip() or p.display_name, [p], registered_round)


@transaction.atomic
def entry_register_player(
    *,
    tournament: Tournament,
    player: Player | None = None,
    player_name: str | None = None,
    email: str = "",
) -> Entry:
    """Register one player (an existing :class:`Player`, or a new one by ``player_name``).

    Allowed in draft and registration; once running use :func:`entry_register_late`.

    Raises:
        InvalidState: ``tournament_status``.
        ValidationFailed: ``wrong_entry_kind`` (pair tournament), ``invalid_value`` (no name).
        Conflict: ``player_already_registered``.
    """
    tournament = lock_tournament(tournament)
    require_status(tournament, S.DRAFT, S.REGISTRATION)
    require_kind(tournament, Tournament.Kind.INDIVIDUAL)
    return _register(
        tournament,
        player=player if player is not None else player_name,
        name=None,
        player_a=None,
        player_b=None,
        email=email,
        registered_round=1,
    )


@transaction.atomic
def entry_register_pair(
    *,
    tournament: Tournament,
    name: str = "",
    player_a: Player | str | None,
    player_b: Player | str | None,
) -> Entry:
    """Register a pair team: ``player_a`` sits in seat A, ``player_b`` in seat B (docs/rules.md
    §7 (HKK pair tournaments)).

    Players are :class:`Player` rows or display names (a new player is created for a name);
    a missing one (``None``) is the error ``pair_needs_two_players``. ``name`` defaults to
    "A & B".

    Raises:
        InvalidState: ``tournament_status``.
        ValidationFailed: ``wrong_entry_kind``, ``pair_needs_two_players``, ``invalid_value``.
        Conflict: ``player_already_registered`` (also when A and B are the same player).
    """
    tournament = lock_tournament(tournament)
    require_status(tournament, S.DRAFT, S.REGISTRATION)
    require_kind(tournament, Tournament.Kind.PAIR)
    return _register(
        tournament,
        player=None,
        name=name,
        player_a=player_a,
        player_b=player_b,
        email="",
        registered_round=1,
    )


@transaction.atomic
def entry_register_late(
    *,
    tournament: Tournament,
    player: Player | str | None = None,
    name: str = "",
    player_a: Player | str | None = None,
    player_b: Player | str | None = None,
    email: str = "",
    missed: MissedChoice | None = None,
) -> Entry:
    """Register an entry while the tournament is running. Without ``missed`` it joins the
    next round to be paired with zero points (``registered_round``), as long as that round is
    not after ``late_entry_cutoff_round``. With ``missed`` (the desk's choice for the rounds
    already paired: a loss or a bye for each, or ``pair`` — a seat against the bye of the round
    in progress, earlier rounds lost; with a reason) it may join at any time before the top
    cut, recorded as ``late_entry`` (docs/rules.md §14 (Swiss pairing and byes), after Melee).
    Single players via ``player``; pair teams via ``player_a``, ``player_b`` (and ``name``).
    Its deck list locks when it is first paired.

    Raises:
        InvalidState: ``tournament_status``, ``late_entry_closed``, ``top_cut_started``,
            ``no_bye_to_pair``.
        ValidationFailed: ``missed_choice_required``, ``reason_required``; as for the normal
            registrations. Conflict: as for the normal registrations.
    """
    tournament = lock_tournament(tournament)
    require_status(tournament, S.RUNNING)
    if missed is None:
        number = late_entry_round(tournament)
    else:
        missed = require_missed_choice(missed)
        last = last_round(tournament)
        number = (last.number if last else 0) + 1
        if missed.outcome == "pair":
            number -= 1
    entry = _register(
        tournament,
        player=player,
        name=name,
        player_a=player_a,
        player_b=player_b,
        email=email,
        registered_round=max(number, 1),
    )
    if missed is not None:
        params = missed_rounds_give(tournament, entry, after_round=0, outcome=missed.outcome)
        TournamentAction.objects.create(
            tournament=tournament,
            kind=TournamentAction.Kind.LATE_ENTRY,
            entry=entry,
            round_number=number,
            reason=missed.reason.strip(),
            by=missed.by if getattr(missed.by, "pk", None) else None,
            params=params,
        )
    enqueue_standings(tournament.pk)  # the stored standings list every entry
    return entry


def entry_register(
    *,
    tournament: Tournament,
    players: Sequence[str],
    name: str = "",
    email: str = "",
    missed: MissedChoice | None = None,
) -> Entry:
    """Register an entry by the organiser with the service that fits the tournament: a late
    entry (:func:`entry_register_late`) while it is running, else a pair team
    (:func:`entry_register_pair`, two ``players``: seat A, seat B) or a single player
    (:func:`entry_register_player`); ``missed`` is the late entry's choice for the rounds
    already paired (ignored before the start). Used by the API and the organiser's entry page.

    Raises: as the chosen service (a wrong team size: ``ValidationFailed``
    ``wrong_entry_kind`` or ``pair_needs_two_players``; docs/rules.md §7 (HKK pair tournaments)).
    """
    first = players[0]
    second = players[1] if len(players) > 1 else None
    pair = tournament.is_pair or second is not None
    if tournament.status == S.RUNNING:
        if pair:
            return entry_register_late(
                tournament=tournament, name=name, player_a=first, player_b=second, missed=missed
            )
        return entry_register_late(
            tournament=tournament, player=first, name=name, email=email, missed=missed
        )
    if pair:
        return entry_register_pair(
            tournament=tournament, name=name, player_a=first, player_b=second
        )
    return entry_register_player(tournament=tournament, player_name=first, email=email)


@transaction.atomic
def entry_drop(*, entry: Entry, after_round: int | None = None) -> Entry:
    """Drop an entry (a pair team drops as one), effective from the next round.

    ``after_round`` defaults to the last round already paired (0 before the event begins: the
    entry then leaves the standings too). A given value may not be before that round.

    Raises:
        InvalidState: ``already_dropped``, ``tournament_status`` (finished).
        ValidationFailed: ``drop_in_past``.
    """
    tournament = lock_tournament(entry.tournament_id)
    require_status(tournament, S.DRAFT, S.REGISTRATION, S.RUNNING)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.dropped_after_round is not None:
        raise InvalidState(
            "already_dropped",
            _("%(name)s has already dropped.") % {"name": entry.shown_name},
            {"entry": entry.pk, "after_round": entry.dropped_after_round},
        )
    last = last_round(tournament)
    current = last.number if last else 0
    if after_round is None:
        after_round = current
    if after_round < current:
        raise ValidationFailed(
            "drop_in_past",
            _("A drop takes effect from the next round; round %(round)s is already paired.")
            % {"round": current},
            {"after_round": after_round, "current_round": current},
        )
    entry.dropped_after_round = after_round
    entry.save(update_fields=["dropped_after_round"])
    if tournament.status == S.RUNNING:
        enqueue_standings(tournament.pk)  # the stored standings mark drops
    return entry


@transaction.atomic
def entry_override_deck(*, entry: Entry, reason: str, actor: Any) -> Entry:
    """Let an entry be paired without a legal list; the reason and organiser are recorded.

    Raises ``ValidationFailed("reason_required")`` for an empty reason,
    ``InvalidState("tournament_status")`` once the event is finished.
    """
    require_manage(actor, entry.tournament)
    tournament = lock_tournament(entry.tournament_id)
    require_status(tournament, S.DRAFT, S.REGISTRATION, S.RUNNING)
    if not (reason or "").strip():
        raise ValidationFailed(
            "reason_required", _("Give a reason for the override."), {"field": "reason"}
        )
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    entry.pairing_override_reason = reason.strip()
    entry.pairing_override_by = acting_user(actor)
    entry.pairing_override_at = timezone.now()
    entry.save(
        update_fields=["pairing_override_reason", "pairing_override_by", "pairing_override_at"]
    )
    return entry
