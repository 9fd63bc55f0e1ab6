"""Tournament set-up, registration, deck lists, start and finish (issue: "Registration and
deck lists"; RULES.md §1.5 for pair teams, TOURNAMENT-PRACTICE.md §8.6–8.7).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from decks.models import Format
from decks.services import DeckInputError, UnknownFormat, deck_validate, validation_result_dict
from tournaments.domain import first_player as first_player_domain
from tournaments.domain import standings as standings_domain
from tournaments.errors import Conflict, InvalidState, NotFound, ValidationFailed
from tournaments.models import DeckSubmission, Entry, EntryMember, Player, Tournament
from tournaments.services._common import (
    GAME_DEFAULTS,
    last_round,
    lock_tournament,
    require_status,
)

PAIR_RULE_CARD_MISMATCH = "pair_rule_card_mismatch"

S = Tournament.Status


# --- tournament ---------------------------------------------------------------------------


def _game_slug(fmt: Format) -> str:
    game = getattr(fmt, "game", "")
    return str(getattr(game, "slug", game) or "")


def _format_default(fmt: Format, names: Sequence[str], fallback: Any) -> Any:
    for name in names:
        value = getattr(fmt, name, None)
        if value not in (None, "", [], ()):
            return value
    return fallback


def _check_tiebreakers(codes: Sequence[str]) -> list[str]:
    known = set(standings_domain.TIEBREAKERS)
    codes = [str(c) for c in codes]
    unknown = [c for c in codes if c not in known]
    if unknown or len(set(codes)) != len(codes):
        raise ValidationFailed(
            "unknown_tiebreaker",
            _("Unknown or repeated tiebreaker: %(codes)s.")
            % {"codes": ", ".join(unknown or codes)},
            {"codes": unknown or codes, "known": sorted(known)},
        )
    return codes


def _check_policy(code: str) -> str:
    try:
        first_player_domain.get_policy(code)
    except (KeyError, LookupError, ValueError):
        raise ValidationFailed(
            "unknown_first_player_policy",
            _("Unknown first-player policy: %(code)s.") % {"code": code},
            {"code": code},
        ) from None
    return code


@transaction.atomic
def tournament_create(
    *,
    owner: Any,
    name: str,
    format_slug: str,
    kind: str = Tournament.Kind.INDIVIDUAL,
    games_per_match: int | None = None,
    stop_at_two_wins: bool = False,
    planned_rounds: int | None = None,
    tiebreakers: Sequence[str] | None = None,
    first_player_policy: str | None = None,
    late_entry_cutoff_round: int | None = None,
    deck_deadline: Any = None,
    scoring: Mapping[str, int] | None = None,
) -> Tournament:
    """Create a tournament in ``draft``.

    Defaults come from the ``decks.Format`` row (its default policy, games per match and
    tiebreakers when it has them), else from the game: HKK → policy ``hkk``, 3 games, tiebreakers
    ``["buchholz", "game_points"]`` (RULES.md §1.7); WoW → ``loser_chooses``,
    ``["omw", "gw", "ogw"]`` (MTR, TOURNAMENT-PRACTICE.md §4.1).

    ``scoring`` may override any of ``match_win_points, match_draw_points, match_loss_points,
    game_win_points, game_draw_points, game_loss_points, bye_games_won`` (HKK 3/1/0 and 2/1/0).

    Raises:
        NotFound: ``unknown_format``.
        ValidationFailed: ``unknown_tiebreaker``, ``unknown_first_player_policy``,
            ``invalid_value`` (bad kind, games per match, rounds or scoring key).
    """
    fmt = Format.objects.filter(slug=format_slug).first()
    if fmt is None:
        raise NotFound(
            "unknown_format",
            _("Unknown format: %(slug)s.") % {"slug": format_slug},
            {"slug": format_slug},
        )
    if kind not in Tournament.Kind.values:
        raise ValidationFailed(
            "invalid_value",
            _("Unknown tournament kind: %(kind)s.") % {"kind": kind},
            {"kind": kind},
        )
    if not str(name).strip():
        raise ValidationFailed(
            "invalid_value", _("The tournament needs a name."), {"field": "name"}
        )
    game_defaults = GAME_DEFAULTS.get(_game_slug(fmt), GAME_DEFAULTS["hkk"])
    policy = first_player_policy or _format_default(
        fmt, ("default_first_player_policy", "first_player_policy"), game_defaults["policy"]
    )
    games = games_per_match or _format_default(
        fmt, ("default_games_per_match", "games_per_match"), game_defaults["games"]
    )
    if tiebreakers is not None:
        tbs = list(tiebreakers)
    else:
        tbs = list(_format_default(fmt, ("default_tiebreakers",), game_defaults["tiebreakers"]))
        if not set(tbs) <= set(standings_domain.TIEBREAKERS):
            # A format row naming codes the standings registry does not know: use the game's.
            tbs = list(game_defaults["tiebreakers"])
    for field, value in (("games_per_match", games), ("planned_rounds", planned_rounds)):
        if value is not None and (not isinstance(value, int) or value < 1):
            raise ValidationFailed(
                "invalid_value",
                _("%(field)s must be a positive whole number.") % {"field": field},
                {"field": field},
            )
    max_games = first_player_domain.get_policy(_check_policy(str(policy))).max_games
    if max_games is not None and int(games) > max_games:
        raise ValidationFailed(
            "invalid_value",
            _("The first-player policy %(policy)s allows at most %(max)s games per match.")
            % {"policy": policy, "max": max_games},
            {"field": "games_per_match", "max": max_games},
        )
    tournament = Tournament(
        owner=owner,
        name=str(name).strip(),
        format=fmt,
        kind=kind,
        games_per_match=int(games),
        stop_at_two_wins=bool(stop_at_two_wins),
        planned_rounds=planned_rounds,
        tiebreakers=_check_tiebreakers(tbs),
        first_player_policy=_check_policy(str(policy)),
        late_entry_cutoff_round=late_entry_cutoff_round,
        deck_deadline=deck_deadline,
    )
    allowed = {
        "match_win_points",
        "match_draw_points",
        "match_loss_points",
        "game_win_points",
        "game_draw_points",
        "game_loss_points",
        "bye_games_won",
    }
    for key, value in (scoring or {}).items():
        if key not in allowed or not isinstance(value, int) or value < 0:
            raise ValidationFailed(
                "invalid_value",
                _("Invalid scoring setting: %(key)s.") % {"key": key},
                {"field": key},
            )
        setattr(tournament, key, value)
    tournament.save()
    return tournament


@transaction.atomic
def tournament_open_registration(*, tournament: Tournament) -> Tournament:
    """draft → registration. Raises ``InvalidState("tournament_status")`` otherwise."""
    tournament = lock_tournament(tournament)
    require_status(tournament, S.DRAFT)
    tournament.status = S.REGISTRATION
    tournament.save(update_fields=["status"])
    return tournament


@transaction.atomic
def tournament_set_planned_rounds(*, tournament: Tournament, planned_rounds: int) -> Tournament:
    """Change the number of planned rounds (not below the rounds already paired).

    Raises ``ValidationFailed("invalid_value")``, ``InvalidState("tournament_status")``.
    """
    tournament = lock_tournament(tournament)
    require_status(tournament, S.DRAFT, S.REGISTRATION, S.RUNNING)
    last = last_round(tournament)
    if not isinstance(planned_rounds, int) or planned_rounds < max(1, last.number if last else 1):
        raise ValidationFailed(
            "invalid_value",
            _("The number of rounds cannot be less than the rounds already paired."),
            {"field": "planned_rounds"},
        )
    tournament.planned_rounds = planned_rounds
    tournament.save(update_fields=["planned_rounds"])
    return tournament


# --- entries ------------------------------------------------------------------------------


def _player(value: Player | str | None, *, email: str = "") -> Player:
    if isinstance(value, Player):
        return value
    if value is None or not str(value).strip():
        raise ValidationFailed(
            "invalid_value", _("A player needs a name."), {"field": "player_name"}
        )
    return Player.objects.create(display_name=str(value).strip(), email=email)


def _add_entry(
    tournament: Tournament, name: str, players: Sequence[Player], registered_round: int
) -> Entry:
    entry = Entry.objects.create(
        tournament=tournament, name=name, registered_round=registered_round
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


def _require_kind(tournament: Tournament, kind: str) -> None:
    if tournament.kind != kind:
        raise ValidationFailed(
            "wrong_entry_kind",
            _("This tournament takes pair teams.")
            if tournament.is_pair
            else _("This tournament takes single players."),
            {"kind": tournament.kind},
        )


def _next_round_number(tournament: Tournament) -> int:
    last = last_round(tournament)
    return (last.number if last else 0) + 1


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
        return _add_entry(tournament, team_name, [a, b], registered_round)
    p = _player(player, email=email)
    return _add_entry(tournament, (name or "").strip() or p.display_name, [p], registered_round)


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
    _require_kind(tournament, Tournament.Kind.INDIVIDUAL)
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
    player_a: Player | str,
    player_b: Player | str,
) -> Entry:
    """Register a pair team: ``player_a`` sits in seat A, ``player_b`` in seat B (RULES.md §1.5).

    Players are :class:`Player` rows or display names (a new player is created for a name).
    ``name`` defaults to "A & B".

    Raises:
        InvalidState: ``tournament_status``.
        ValidationFailed: ``wrong_entry_kind``, ``pair_needs_two_players``, ``invalid_value``.
        Conflict: ``player_already_registered`` (also when A and B are the same player).
    """
    tournament = lock_tournament(tournament)
    require_status(tournament, S.DRAFT, S.REGISTRATION)
    _require_kind(tournament, Tournament.Kind.PAIR)
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
) -> Entry:
    """Register an entry while the tournament is running; it joins the next round to be paired
    with zero points (``registered_round``), as long as that round is not after
    ``late_entry_cutoff_round``. Single players via ``player``; pair teams via ``player_a``,
    ``player_b`` (and ``name``). Its deck list locks when it is first paired.

    Raises:
        InvalidState: ``tournament_status``, ``late_entry_closed``.
        ValidationFailed / Conflict: as for the normal registrations.
    """
    tournament = lock_tournament(tournament)
    require_status(tournament, S.RUNNING)
    number = _next_round_number(tournament)
    cutoff = tournament.late_entry_cutoff_round
    if cutoff is None or number > cutoff:
        raise InvalidState(
            "late_entry_closed",
            _("Late entries are closed (the cut-off round has passed)."),
            {"next_round": number, "cutoff": cutoff},
        )
    return _register(
        tournament,
        player=player,
        name=name,
        player_a=player_a,
        player_b=player_b,
        email=email,
        registered_round=number,
    )


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
            _("%(name)s has already dropped.") % {"name": entry.name},
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
    return entry


@transaction.atomic
def entry_override_deck(*, entry: Entry, reason: str, by: Any = None) -> Entry:
    """Let an entry be paired without a legal list; the reason and organiser are recorded.

    Raises ``ValidationFailed("reason_required")`` for an empty reason,
    ``InvalidState("tournament_status")`` once the event is finished.
    """
    tournament = lock_tournament(entry.tournament_id)
    require_status(tournament, S.DRAFT, S.REGISTRATION, S.RUNNING)
    if not (reason or "").strip():
        raise ValidationFailed(
            "reason_required", _("Give a reason for the override."), {"field": "reason"}
        )
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    entry.pairing_override_reason = reason.strip()
    entry.pairing_override_by = by
    entry.pairing_override_at = timezone.now()
    entry.save(
        update_fields=["pairing_override_reason", "pairing_override_by", "pairing_override_at"]
    )
    return entry


# --- deck lists ---------------------------------------------------------------------------


def _resolved_sections(result: Any) -> dict[str, list[dict[str, Any]]]:
    sections: dict[str, list[dict[str, Any]]] = {}
    for section, lines in (getattr(result, "lines", None) or {}).items():
        if lines:
            sections[section] = [
                {"id": line.card.id, "name": line.card.name, "count": line.count} for line in lines
            ]
    return sections


def _mismatch_error(mine: str, theirs: str, partner_seat: str) -> dict[str, Any]:
    return {
        "code": PAIR_RULE_CARD_MISMATCH,
        "message": gettext(
            "Both members of a pair team must use the same rule card (or both none): "
            "%(mine)s here, %(theirs)s in seat %(seat)s."
        )
        % {
            "mine": mine or gettext("none"),
            "theirs": theirs or gettext("none"),
            "seat": partner_seat,
        },
        "card": mine or None,
        "line": None,
        "params": {
            "rule_card": mine or None,
            "partner_rule_card": theirs or None,
            "partner_seat": partner_seat,
        },
    }


def _set_extra_errors(sub: DeckSubmission, extras: list[dict[str, Any]]) -> None:
    extra_codes = {PAIR_RULE_CARD_MISMATCH}
    result = dict(sub.result or {})
    errors = [e for e in result.get("errors", []) if e.get("code") not in extra_codes]
    result["errors"] = errors + extras
    sub.extra_errors = extras
    sub.legal = sub.validator_legal and not extras
    result["legal"] = sub.legal
    sub.result = result


def _reconcile_pair(member: EntryMember, sub: DeckSubmission) -> None:
    """Flag (or clear) ``pair_rule_card_mismatch`` on both members' current lists."""
    partner = EntryMember.objects.filter(entry_id=member.entry_id).exclude(pk=member.pk).first()
    other = (
        DeckSubmission.objects.select_for_update().filter(member=partner, is_current=True).first()
        if partner is not None
        else None
    )
    if other is None:
        _set_extra_errors(sub, [])
        return
    if (sub.rule_card or "") != (other.rule_card or ""):
        _set_extra_errors(sub, [_mismatch_error(sub.rule_card, other.rule_card, partner.seat)])
        if not other.locked:
            _set_extra_errors(other, [_mismatch_error(other.rule_card, sub.rule_card, member.seat)])
    else:
        _set_extra_errors(sub, [])
        if not other.locked:
            _set_extra_errors(other, [])
    if not other.locked:
        other.save(update_fields=["extra_errors", "legal", "result"])


@transaction.atomic
def deck_submit(
    *,
    tournament: Tournament,
    entry: Entry,
    player: Player,
    text: str | None = None,
    data: Mapping[str, Any] | None = None,
    by: Any = None,
) -> DeckSubmission:
    """Submit (or replace) one member's deck list; every version is kept with its result.

    The list is validated on its own under the tournament's format
    (``decks.services.deck_validate``); in a pair tournament the member's rule card must equal
    the partner's current one, or both none (RULES.md §1.5): otherwise both current lists get
    the extra error ``pair_rule_card_mismatch`` and are not legal until one is replaced.
    Rejected lists are stored too (``legal=False``, errors in ``result``).

    Raises:
        NotFound: ``not_a_member`` (player not in this entry / entry not in this tournament).
        InvalidState: ``tournament_status``, ``lists_locked``, ``deck_deadline_passed``.
        ValidationFailed: ``deck_input`` (empty list, both or neither of text/data).
    """
    tournament = lock_tournament(tournament)
    require_status(tournament, S.DRAFT, S.REGISTRATION, S.RUNNING)
    member = (
        EntryMember.objects.select_related("entry")
        .filter(entry=entry, player=player, entry__tournament=tournament)
        .first()
    )
    if member is None:
        raise NotFound(
            "not_a_member",
            _("%(player)s is not a member of this entry.") % {"player": player.display_name},
            {"entry": entry.pk, "player": player.pk},
        )
    if DeckSubmission.objects.filter(member=member, locked=True).exists() or (
        tournament.status == S.RUNNING and member.entry.registered_round == 1
    ):
        raise InvalidState(
            "lists_locked", _("Deck lists are locked for this event."), {"entry": entry.pk}
        )
    if (
        tournament.deck_deadline is not None
        and timezone.now() > tournament.deck_deadline
        and member.entry.registered_round == 1
    ):
        raise InvalidState(
            "deck_deadline_passed",
            _("The deck list deadline has passed."),
            {"deadline": tournament.deck_deadline.isoformat()},
        )
    try:
        result = deck_validate(format_slug=tournament.format.slug, text=text, data=data)
    except DeckInputError as exc:
        raise ValidationFailed("deck_input", exc.message, {}) from None
    except UnknownFormat:
        raise InvalidState(
            "unknown_format",
            _("The tournament's format is not available."),
            {"slug": tournament.format.slug},
        ) from None
    previous = (
        DeckSubmission.objects.select_for_update()
        .filter(member=member)
        .order_by("-version")
        .first()
    )
    DeckSubmission.objects.filter(member=member, is_current=True).update(is_current=False)
    sub = DeckSubmission(
        member=member,
        version=(previous.version + 1) if previous else 1,
        text=text or "",
        data=_resolved_sections(result) if text is not None else dict(data or {}),
        format_slug=tournament.format.slug,
        submitted_by=by,
        validated_at=timezone.now(),
        validator_legal=bool(result.legal),
        legal=bool(result.legal),
        result=validation_result_dict(result),
        rule_card=result.rule_card or "",
        follower=result.follower or "",
        hero=result.hero or "",
        is_current=True,
    )
    if text is None:
        sub.data = {"input": dict(data or {}), "resolved": _resolved_sections(result)}
    if tournament.is_pair:
        _reconcile_pair(member, sub)
    sub.save()
    return sub


def entry_has_legal_lists(entry: Entry) -> bool:
    """Every member of the entry has a current legal list (pair rule cards agree)."""
    members = list(entry.members.all())
    if not members:
        return False
    current = {
        s.member_id: s for s in DeckSubmission.objects.filter(member__entry=entry, is_current=True)
    }
    if any(m.pk not in current or not current[m.pk].legal for m in members):
        return False
    return len({current[m.pk].rule_card for m in members}) == 1


def entry_is_pairable(entry: Entry) -> bool:
    """A legal list for every member, or an organiser override with a reason."""
    return bool(entry.pairing_override_reason) or entry_has_legal_lists(entry)


def require_pairable(entries: Sequence[Entry]) -> None:
    """Raise ``ValidationFailed("entries_without_legal_list")`` naming entries that cannot
    be paired (no legal list and no override)."""
    bad = [e for e in entries if not entry_is_pairable(e)]
    if bad:
        raise ValidationFailed(
            "entries_without_legal_list",
            _(
                "These entries have no legal deck list (fix, override with a reason, or drop): "
                "%(names)s."
            )
            % {"names": ", ".join(e.name for e in bad)},
            {"entries": [e.pk for e in bad], "names": [e.name for e in bad]},
        )


def lock_lists(entries: Sequence[Entry]) -> None:
    """Lock the current list of every member of ``entries`` (the accepted snapshot)."""
    now = timezone.now()
    DeckSubmission.objects.filter(member__entry__in=entries, is_current=True, locked=False).exclude(
        member__decks__locked=True
    ).update(locked=True, locked_at=now)


@transaction.atomic
def tournament_start(*, tournament: Tournament) -> Tournament:
    """registration → running: lock every active entry's current list (rule cards are fixed
    for the event), check that each has a legal list or an override, and set
    ``planned_rounds`` to the suggestion for the entry count when it is empty.

    Raises:
        InvalidState: ``tournament_status``, ``not_enough_entries`` (fewer than 2 active).
        ValidationFailed: ``entries_without_legal_list`` (nothing is locked then).
    """
    tournament = lock_tournament(tournament)
    require_status(tournament, S.REGISTRATION)
    entries = [
        e for e in tournament.entries.prefetch_related("members") if e.dropped_after_round is None
    ]
    if len(entries) < 2:
        raise InvalidState(
            "not_enough_entries",
            _("At least two entries are needed to start."),
            {"entries": len(entries)},
        )
    require_pairable(entries)
    lock_lists(entries)
    now = timezone.now()
    tournament.status = S.RUNNING
    tournament.started_at = now
    tournament.lists_locked_at = now
    if not tournament.planned_rounds:
        tournament.planned_rounds = standings_domain.suggested_rounds(len(entries))
    tournament.save(update_fields=["status", "started_at", "lists_locked_at", "planned_rounds"])
    return tournament


@transaction.atomic
def tournament_finish(*, tournament: Tournament) -> Tournament:
    """running → finished, once every round is finished and at least one was played.

    Raises ``InvalidState("tournament_status" | "round_not_finished" | "no_rounds")``.
    """
    tournament = lock_tournament(tournament)
    require_status(tournament, S.RUNNING)
    last = last_round(tournament)
    if last is None:
        raise InvalidState("no_rounds", _("No round has been played yet."), {})
    if tournament.rounds.exclude(status="finished").exists():
        raise InvalidState(
            "round_not_finished",
            _("Round %(round)s is not finished yet.") % {"round": last.number},
            {"round": last.number},
        )
    tournament.status = S.FINISHED
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
    return tournament
