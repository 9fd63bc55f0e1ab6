"""The registration desk: check-in before round 1 and dropping those not checked in, adding a
dropped entry back at any time before the end (the missed rounds as a loss, a bye or a seat
against the bye), importing a list of players (CSV: name, e-mail,
optional deck list). Claim codes and invitations are in ``people``.

Sources: docs/rules.md §14 (Swiss pairing and byes: drops), §16 (Deck checks, penalties and
result reporting: deck lists).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from hkk_tournament.errors import (
    ApplicationError,
    InvalidState,
    ValidationFailed,
)
from tournaments.domain.names import normalise_name
from tournaments.models import Entry, EntryMember, Tournament, TournamentAction
from tournaments.services import round_fixes
from tournaments.services._common import last_round, lock_tournament, require_status
from tournaments.services.deck_lists import deck_submit
from tournaments.services.jobs import enqueue_standings
from tournaments.services.registration import entry_register_player, require_kind

S = Tournament.Status
A = TournamentAction.Kind

#: Most rows one import takes (a bound on hostile input).
IMPORT_MAX_ROWS = 512


def _by(user: Any) -> Any:
    return user if getattr(user, "pk", None) else None


# --- check-in ------------------------------------------------------------------------------


def _before_round_one(tournament: Tournament) -> None:
    require_status(tournament, S.DRAFT, S.REGISTRATION, S.RUNNING)
    if last_round(tournament) is not None:
        raise InvalidState(
            "rounds_started",
            _("Check-in is over: round 1 has been paired."),
            {},
        )


@transaction.atomic
def entry_check_in(*, entry: Entry, checked_in: bool = True) -> Entry:
    """Mark an entry present (``checked_in_at`` = now) or not, before round 1 is paired.

    Raises ``InvalidState("tournament_status" | "rounds_started")``.
    """
    tournament = lock_tournament(entry.tournament_id)
    _before_round_one(tournament)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    entry.checked_in_at = timezone.now() if checked_in else None
    entry.save(update_fields=["checked_in_at"])
    return entry


@transaction.atomic
def entries_drop_not_checked_in(*, tournament: Tournament, by: Any = None) -> list[Entry]:
    """Drop (before round 1) every entry not checked in and not dropped; recorded as
    ``not_checked_in_dropped`` with the entries' ids. Returns the dropped entries.

    Raises ``InvalidState("tournament_status" | "rounds_started")``.
    """
    tournament = lock_tournament(tournament)
    _before_round_one(tournament)
    entries = list(
        tournament.entries.select_for_update().filter(checked_in_at=None, dropped_after_round=None)
    )
    for e in entries:
        e.dropped_after_round = 0
        e.save(update_fields=["dropped_after_round"])
    if entries:
        TournamentAction.objects.create(
            tournament=tournament,
            kind=A.NOT_CHECKED_IN_DROPPED,
            by=_by(by),
            params={"entries": [e.pk for e in entries], "names": [e.name for e in entries]},
        )
    return entries


@transaction.atomic
def entry_readd(*, entry: Entry, by: Any = None, reason: str = "", missed: str = "") -> Entry:
    """Add a dropped entry (or a no-show dropped from its round) back at any time before the
    event ends; it is paired again from the next round. When rounds were paired without it,
    the desk chooses what they count as (``missed``: ``loss``, ``bye`` or ``pair`` — a seat
    against the bye of the round in progress; :func:`round_fixes.missed_rounds_give`) and
    gives a reason. Recorded as ``entry_readded`` with the rounds scored. Source:
    docs/rules.md §14 (Swiss pairing and byes), after Melee and MTR §2.10.

    Raises:
        InvalidState: ``tournament_status``, ``not_dropped``, ``event_full``,
            ``top_cut_started``, ``no_bye_to_pair``.
        ValidationFailed: ``missed_choice_required``, ``reason_required`` (only when rounds
            were missed), ``entries_without_legal_list`` (``pair``).
    """
    tournament = lock_tournament(entry.tournament_id)
    require_status(tournament, S.DRAFT, S.REGISTRATION, S.RUNNING)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.dropped_after_round is None:
        raise InvalidState("not_dropped", _("%(name)s has not dropped.") % {"name": entry.name}, {})
    last = last_round(tournament)
    cap = tournament.max_entries
    if cap and tournament.entries.filter(dropped_after_round=None).count() >= cap:
        raise InvalidState(
            "event_full",
            _("The event is full: at most %(cap)s entries may register.") % {"cap": cap},
            {"max_entries": cap},
        )
    params: dict[str, Any] = {"dropped_after_round": entry.dropped_after_round}
    if last is not None and entry.dropped_after_round < last.number:
        choice = round_fixes.require_missed_choice(
            round_fixes.MissedChoice(outcome=missed, reason=reason, by=by)
        )
        params |= round_fixes.missed_rounds_give(
            tournament, entry, after_round=entry.dropped_after_round, outcome=choice.outcome
        )
    TournamentAction.objects.create(
        tournament=tournament,
        kind=A.ENTRY_READDED,
        entry=entry,
        round_number=last.number if last else None,
        reason=(reason or "").strip(),
        by=_by(by),
        params=params,
    )
    entry.dropped_after_round = None
    entry.save(update_fields=["dropped_after_round"])
    if tournament.status == S.RUNNING:
        enqueue_standings(tournament.pk)
    return entry


def readd_needs_choice(entry: Entry, last_number: int | None) -> bool:
    """Whether re-adding ``entry`` needs the desk's choice for missed rounds (a round was
    paired after its drop took effect)."""
    after = entry.dropped_after_round
    return after is not None and last_number is not None and after < last_number


# --- duplicate names ---------------------------------------------------------------------


def same_name_entries(
    tournament: Tournament, name: str, *, exclude: int | None = None
) -> list[str]:
    """Names of the event's entries and players equal to ``name`` once normalised
    (``tournaments.domain.names.normalise_name``): the desk's duplicate warning."""
    key = normalise_name(name)
    if not key:
        return []
    found: list[str] = []
    members = EntryMember.objects.filter(tournament=tournament).select_related("player", "entry")
    for m in members:
        if exclude is not None and m.entry_id == exclude:
            continue
        for candidate in (m.player.display_name, m.entry.name):
            if normalise_name(candidate) == key and candidate not in found:
                found.append(candidate)
    return found


# --- import --------------------------------------------------------------------------------


@dataclass
class ImportRow:
    """One row of a player list: ``line`` (1-based), the values, and what was found."""

    line: int
    name: str
    email: str
    deck: str
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    entry: int | None = None
    deck_legal: bool | None = None
    #: The stored list's verdict (``DeckSubmission.verdict``: legal / illegal / unverified),
    #: ``None`` without a list, and the names the partial catalogue lacks.
    deck_status: str | None = None
    deck_unknown_cards: list[str] = field(default_factory=list)


@dataclass
class ImportResult:
    """``rows`` with their errors and warnings; ``saved`` is ``True`` only when every row was
    valid and ``dry_run`` was off (all or nothing: one bad row saves nothing)."""

    rows: list[ImportRow]
    saved: bool

    @property
    def ok(self) -> bool:
        return bool(self.rows) and not any(r.errors for r in self.rows)


def parse_player_list(text: str) -> list[ImportRow]:
    """CSV rows ``name, e-mail, deck list`` (comma or semicolon separated, the e-mail and the
    deck list optional; a deck list spanning lines is quoted). A first row whose first cell is
    ``name``/``név`` is a header. Blank rows are skipped.

    Raises ``ValidationFailed("import_too_long")`` past :data:`IMPORT_MAX_ROWS` rows.
    """
    sample = text[:2048]
    delimiter = ";" if sample.count(";") > sample.count(",") else ","
    rows: list[ImportRow] = []
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    end = 0
    for cells in reader:
        start, end = end + 1, reader.line_num
        cells = [c.strip() for c in cells]
        if not any(cells):
            continue
        if not rows and cells[0].casefold() in ("name", "név", "nev"):
            continue
        if len(rows) >= IMPORT_MAX_ROWS:
            raise ValidationFailed(
                "import_too_long",
                _("At most %(max)s players can be imported at once.") % {"max": IMPORT_MAX_ROWS},
                {"max": IMPORT_MAX_ROWS},
            )
        row = ImportRow(
            line=start,
            name=cells[0],
            email=cells[1] if len(cells) > 1 else "",
            deck=cells[2] if len(cells) > 2 else "",
        )
        if len(cells) > 3 and any(cells[3:]):
            row.errors.append(gettext("Too many columns: give name, e-mail and deck list."))
        rows.append(row)
    return rows


class _RollbackError(Exception):
    pass


def _check_row(tournament: Tournament, row: ImportRow, seen: dict[str, int]) -> None:
    if not row.name:
        row.errors.append(gettext("The name is missing."))
    if row.email:
        try:
            validate_email(row.email)
        except ValidationError:
            row.errors.append(gettext("This is not a valid e-mail address."))
    key = normalise_name(row.name)
    if key in seen:
        row.warnings.append(gettext("Same name as line %(line)s.") % {"line": seen[key]})
    elif key:
        seen[key] = row.line
        same = same_name_entries(tournament, row.name)
        if same:
            row.warnings.append(
                gettext("Already registered with this name: %(names)s.")
                % {"names": ", ".join(same)}
            )


def entries_import(
    *, tournament: Tournament, text: str, dry_run: bool = True, by: Any = None
) -> ImportResult:
    """Register the players of a list (:func:`parse_player_list`) in a single-player event,
    each with its deck list when given (stored even when not legal, as a submission is).

    All or nothing: every row is checked (name, e-mail, the player cap, duplicates as a
    warning) and registered inside one transaction; when any row has an error, or with
    ``dry_run`` (the preview), the transaction is rolled back and nothing is saved. The rows
    carry their errors, warnings and whether the deck list is legal.

    Raises:
        InvalidState: ``tournament_status``.
        ValidationFailed: ``wrong_entry_kind`` (pair events take teams), ``import_empty``,
            ``import_too_long``.
    """
    rows = parse_player_list(text or "")
    if not rows:
        raise ValidationFailed("import_empty", _("The list has no players."), {})
    result = ImportResult(rows=rows, saved=False)
    try:
        with transaction.atomic():
            locked = lock_tournament(tournament)
            require_status(locked, S.DRAFT, S.REGISTRATION)
            require_kind(locked, Tournament.Kind.INDIVIDUAL)
            seen: dict[str, int] = {}
            for row in rows:
                _check_row(locked, row, seen)
                if row.errors:
                    continue
                try:
                    with transaction.atomic():
                        entry = entry_register_player(
                            tournament=locked, player_name=row.name, email=row.email
                        )
                        row.entry = entry.pk
                        if row.deck:
                            player = entry.members.get().player
                            sub = deck_submit(
                                tournament=locked,
                                entry=entry,
                                player=player,
                                text=row.deck,
                                by=by,
                            )
                            row.deck_legal = bool(sub.legal)
                            row.deck_status = sub.verdict
                            row.deck_unknown_cards = sub.unknown_cards
                except ApplicationError as exc:
                    row.errors.append(str(exc.message))
            if dry_run or not result.ok:
                raise _RollbackError
            result.saved = True
    except _RollbackError:
        if not result.saved:
            for row in rows:
                row.entry = None
    return result
