"""Deck lists of an event: submit (validate and keep every version), the pair-team rule-card
check, whether an entry may be paired, and locking the lists when the event starts.

Sources: docs/rules.md §3 (HKK deck construction (Hagyományos)), §7 (HKK pair tournaments) and
§16 (Deck checks, penalties and result reporting).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from django.db import transaction
from django.db.models import FilteredRelation, Q
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from decks.domain.types import Verdict
from decks.domain.validate import ValidationResult
from decks.errors import DeckInputError, UnknownFormat
from decks.services.validation import deck_validate, validation_result_dict
from hkk_tournament.errors import InvalidState, NotFound, ValidationFailed
from tournaments.models import DeckSubmission, Entry, EntryMember, Player, Tournament
from tournaments.permissions import acting_user, require_deck_submitter, require_manage
from tournaments.services._common import lock_tournament, require_status

PAIR_RULE_CARD_MISMATCH = "pair_rule_card_mismatch"

S = Tournament.Status


# --- pair teams: one rule card --------------------------------------------------------------


def _resolved_sections(result: ValidationResult) -> dict[str, list[dict[str, Any]]]:
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


def _accepted(sub: DeckSubmission) -> bool:
    """Legal by the validator, or unverified and approved by the organiser with a reason."""
    return sub.validator_legal or (sub.status == Verdict.UNVERIFIED and bool(sub.approval_reason))


def _set_extra_errors(sub: DeckSubmission, extras: list[dict[str, Any]]) -> None:
    extra_codes = {PAIR_RULE_CARD_MISMATCH}
    result = dict(sub.result or {})
    errors = [e for e in result.get("errors", []) if e.get("code") not in extra_codes]
    result["errors"] = errors + extras
    sub.extra_errors = extras
    sub.legal = _accepted(sub) and not extras
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
    if partner is None or other is None:
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


def pair_drafts_reconcile(a: DeckSubmission, b: DeckSubmission) -> None:
    """Mark two unsaved first lists of one pair team (seat A's ``a``, seat B's ``b``) as
    :func:`_reconcile_pair` marks stored ones: when their rule cards differ, both get
    ``pair_rule_card_mismatch`` and are not legal (docs/rules.md §7 (HKK pair tournaments))."""
    if (a.rule_card or "") != (b.rule_card or ""):
        _set_extra_errors(a, [_mismatch_error(a.rule_card, b.rule_card, "B")])
        _set_extra_errors(b, [_mismatch_error(b.rule_card, a.rule_card, "A")])
    else:
        _set_extra_errors(a, [])
        _set_extra_errors(b, [])


# --- submit ---------------------------------------------------------------------------------


def _member_or_not_found(tournament: Tournament, entry: Entry, player: Player) -> EntryMember:
    member = (
        EntryMember.objects.select_related("entry")
        .filter(entry=entry, player=player, entry__tournament=tournament)
        .first()
    )
    if member is None:
        raise NotFound(
            "not_a_member",
            _("%(player)s is not a member of this entry.") % {"player": player.shown_name},
            {"entry": entry.pk, "player": player.pk},
        )
    return member


def _require_open_list(tournament: Tournament, member: EntryMember) -> None:
    """Raise unless the member may still change the list: not locked (an entry of round 1 is
    locked once the event runs) and, for round-1 entries, before the deck deadline."""
    entry = member.entry
    if DeckSubmission.objects.filter(member=member, locked=True).exists() or (
        tournament.status == S.RUNNING and entry.registered_round == 1
    ):
        raise InvalidState(
            "lists_locked", _("Deck lists are locked for this event."), {"entry": entry.pk}
        )
    if (
        tournament.deck_deadline is not None
        and timezone.now() > tournament.deck_deadline
        and entry.registered_round == 1
    ):
        raise InvalidState(
            "deck_deadline_passed",
            _("The deck list deadline has passed."),
            {"deadline": tournament.deck_deadline.isoformat()},
        )


def event_date(tournament: Tournament) -> date | None:
    """The day a tournament's lists are validated as of: the event's day in the project time
    zone (``starts_at``), ``None`` (today) when the event has no date yet. Ban lists and
    date-dependent formats (WoW TCG Core: the Core of the event's year) use it
    (docs/rules.md §10 (WoW TCG formats and ban lists))."""
    if tournament.starts_at is None:
        return None
    return timezone.localdate(tournament.starts_at)


def _validate(
    tournament: Tournament, text: str | None, data: Mapping[str, Any] | None
) -> ValidationResult:
    try:
        return deck_validate(
            format_slug=tournament.format.slug, text=text, data=data, on=event_date(tournament)
        )
    except DeckInputError as exc:
        raise ValidationFailed("deck_input", exc.message, {}) from None
    except UnknownFormat:
        raise InvalidState(
            "unknown_format",
            _("The tournament's format is not available."),
            {"slug": tournament.format.slug},
        ) from None


def _submission(
    tournament: Tournament,
    member: EntryMember | None,
    result: ValidationResult,
    *,
    version: int,
    text: str | None,
    data: Mapping[str, Any] | None,
    by: Any,
) -> DeckSubmission:
    """Version ``version`` of the member's list (unsaved, current) from its ``result``
    (``member`` ``None``: set by the caller before saving)."""
    sub = DeckSubmission(
        member=member,
        version=version,
        text=text or "",
        data=_resolved_sections(result) if text is not None else dict(data or {}),
        format_slug=tournament.format.slug,
        submitted_by=by,
        validated_at=timezone.now(),
        validator_legal=result.status == Verdict.LEGAL,
        status=str(result.status),
        legal=result.status == Verdict.LEGAL,
        result=validation_result_dict(result),
        rule_card=result.rule_card or "",
        follower=result.follower or "",
        hero=result.hero or "",
        is_current=True,
    )
    if text is None:
        sub.data = {"input": dict(data or {}), "resolved": _resolved_sections(result)}
    return sub


def _new_version(
    tournament: Tournament,
    member: EntryMember,
    result: ValidationResult,
    *,
    text: str | None,
    data: Mapping[str, Any] | None,
    by: Any,
) -> DeckSubmission:
    """The member's next version (unsaved), made current; the older versions stop being."""
    previous = (
        DeckSubmission.objects.select_for_update()
        .filter(member=member)
        .order_by("-version")
        .first()
    )
    DeckSubmission.objects.filter(member=member, is_current=True).update(is_current=False)
    version = (previous.version + 1) if previous else 1
    return _submission(tournament, member, result, version=version, text=text, data=data, by=by)


def deck_check_text(*, tournament: Tournament, text: str) -> ValidationResult:
    """Validate a deck list under the tournament's format without storing anything (the
    import preview; ``decks.services.validation.deck_validate``).

    Raises ``ValidationFailed("deck_input")`` (an empty or unreadable list) and
    ``InvalidState("unknown_format")``.
    """
    return _validate(tournament, text, None)


def deck_first_version_drafts(
    *,
    tournament: Tournament,
    lists: Sequence[tuple[str, ValidationResult]],
    by: Any = None,
) -> list[DeckSubmission]:
    """Version 1 of each ``(text, result)`` list (``result`` from :func:`deck_check_text`),
    unsaved and without its member: for members registered in the same transaction (no
    partner, no older version). The caller sets ``member``, stores them all with one
    ``bulk_create`` while it holds the tournament's lock, and has checked that lists may still
    be submitted. Building them before taking the lock keeps the locked part short."""
    return [
        _submission(tournament, None, result, version=1, text=text, data=None, by=by)
        for text, result in lists
    ]


@transaction.atomic
def deck_submit(
    *,
    tournament: Tournament,
    entry: Entry,
    player: Player,
    text: str | None = None,
    data: Mapping[str, Any] | None = None,
    actor: Any,
) -> DeckSubmission:
    """Submit (or replace) one member's deck list; every version is kept with its result.

    The list is validated on its own under the tournament's format
    (``decks.services.validation.deck_validate``); in a pair tournament the member's rule card
    must equal the partner's current one, or both none (docs/rules.md §7 (HKK pair
    tournaments)): otherwise both current lists get the extra error
    ``pair_rule_card_mismatch`` and are not legal until one is replaced. Rejected lists are
    stored too (``legal=False``, errors in ``result``), and so are unverified ones (a card the
    partial catalogue lacks …): they are not legal until the organiser approves them with a
    reason (:func:`deck_approve_unverified`; docs/rules.md §17 (Card data sources and
    coverage)).

    Raises:
        NotFound: ``not_a_member`` (player not in this entry / entry not in this tournament).
        InvalidState: ``tournament_status``, ``lists_locked``, ``deck_deadline_passed``.
        ValidationFailed: ``deck_input`` (empty list, both or neither of text/data).
    """
    require_deck_submitter(actor, entry, player)
    tournament = lock_tournament(tournament)
    require_status(tournament, S.DRAFT, S.REGISTRATION, S.RUNNING)
    member = _member_or_not_found(tournament, entry, player)
    _require_open_list(tournament, member)
    result = _validate(tournament, text, data)
    sub = _new_version(tournament, member, result, text=text, data=data, by=acting_user(actor))
    if tournament.is_pair:
        _reconcile_pair(member, sub)
    sub.save()
    return sub


@transaction.atomic
def deck_approve_unverified(
    *, tournament: Tournament, entry: Entry, submission_id: int, reason: str, actor: Any
) -> DeckSubmission:
    """Accept an unverified deck list (nothing checked is broken, but some rule could not be
    checked, e.g. a card the partial catalogue lacks) as legal for this event; the reason,
    organiser and time are recorded, as for an override. docs/rules.md §17 (Card data sources
    and coverage), §16 (Deck checks, penalties and result reporting).

    Raises:
        NotFound: ``deck_not_found`` (no such list of this entry).
        InvalidState: ``tournament_status`` (finished), ``deck_not_unverified`` (the list is
            legal or illegal), ``deck_not_current`` (a newer version exists).
        ValidationFailed: ``reason_required`` (blank reason).
    """
    require_manage(actor, tournament)
    tournament = lock_tournament(tournament)
    require_status(tournament, S.DRAFT, S.REGISTRATION, S.RUNNING)
    sub = (
        DeckSubmission.objects.select_for_update()
        .filter(pk=submission_id, member__entry=entry, member__entry__tournament=tournament)
        .first()
    )
    if sub is None:
        raise NotFound(
            "deck_not_found",
            _("No such deck list in this entry."),
            {"entry": entry.pk, "deck": submission_id},
        )
    if sub.status != Verdict.UNVERIFIED:
        raise InvalidState(
            "deck_not_unverified",
            _("Only an unverified list can be approved."),
            {"deck": sub.pk, "status": sub.status},
        )
    if not sub.is_current:
        raise InvalidState(
            "deck_not_current",
            _("A newer version of this list exists."),
            {"deck": sub.pk},
        )
    if not (reason or "").strip():
        raise ValidationFailed(
            "reason_required", _("Give a reason for the approval."), {"field": "reason"}
        )
    sub.approval_reason = reason.strip()
    sub.approved_by = acting_user(actor)
    sub.approved_at = timezone.now()
    sub.legal = _accepted(sub) and not sub.extra_errors
    result = dict(sub.result or {})
    result["legal"] = sub.legal
    sub.result = result
    sub.save(update_fields=["approval_reason", "approved_by", "approved_at", "legal", "result"])
    return sub


# --- pairable entries and locking -----------------------------------------------------------


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


def unpairable_entries(entries: Sequence[Entry]) -> list[Entry]:
    """The entries among ``entries`` (all of one tournament) that cannot be paired: no
    organiser override and not every member with a current legal list under one rule card
    (the rule of :func:`entry_is_pairable`). One query, whatever the field size."""
    pending = {e.pk: e for e in entries if not e.pairing_override_reason}
    if not pending:
        return []
    lists: dict[int, list[tuple[bool | None, str | None]]] = {pk: [] for pk in pending}
    rows = (
        EntryMember.objects.filter(tournament_id=entries[0].tournament_id)
        .annotate(current=FilteredRelation("decks", condition=Q(decks__is_current=True)))
        .values_list("entry_id", "current__legal", "current__rule_card")
    )
    for entry_id, legal, rule_card in rows:
        if entry_id in lists:
            lists[entry_id].append((legal, rule_card))
    return [
        pending[pk]
        for pk, member_lists in lists.items()
        if not member_lists
        or not all(legal for legal, _card in member_lists)
        or len({card for _legal, card in member_lists}) != 1
    ]


def require_pairable(entries: Sequence[Entry]) -> None:
    """Raise ``ValidationFailed("entries_without_legal_list")`` naming entries that cannot
    be paired (no legal list and no override; :func:`unpairable_entries`, one query)."""
    bad = unpairable_entries(entries) if entries else []
    if bad:
        raise ValidationFailed(
            "entries_without_legal_list",
            _(
                "These entries have no legal deck list (fix, override with a reason, or drop): "
                "%(names)s."
            )
            % {"names": ", ".join(e.shown_name for e in bad)},
            {"entries": [e.pk for e in bad], "names": [e.name for e in bad]},
        )


def lock_lists(entries: Sequence[Entry]) -> None:
    """Lock the current list of every member of ``entries`` (all of one tournament: the
    accepted snapshot). The lists still to lock are looked up by tournament (few once the
    event runs, and no statement with one parameter per entry of a 4,096 field), then locked
    by id under the same conditions."""
    if not entries:
        return
    wanted = {e.pk for e in entries}
    pending = (
        DeckSubmission.objects.filter(
            member__tournament_id=entries[0].tournament_id, is_current=True, locked=False
        )
        .exclude(member__decks__locked=True)
        .values_list("pk", "member__entry_id")
    )
    ids = [pk for pk, entry in pending if entry in wanted]
    if ids:
        DeckSubmission.objects.filter(pk__in=ids, is_current=True, locked=False).exclude(
            member__decks__locked=True
        ).update(locked=True, locked_at=timezone.now())
