"""The registration desk: check-in before round 1 and dropping those not checked in, adding a
dropped entry back at any time before the end (the missed rounds as a loss, a bye or a seat
against the bye), importing a list of players (CSV: name, e-mail, optional deck list) or, in a
pair event, of teams (team name, then each player's name and e-mail, then the two optional
deck lists). Claim codes and invitations are in ``people``.

Sources: docs/rules.md §14 (Swiss pairing and byes: drops), §16 (Deck checks, penalties and
result reporting: deck lists).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from decks.domain.types import Verdict
from decks.domain.validate import ValidationResult
from hkk_tournament.errors import ApplicationError, InvalidState, ValidationFailed
from tournaments.domain.names import PersonName
from tournaments.models import (
    DeckSubmission,
    Entry,
    EntryMember,
    Player,
    Tournament,
    TournamentAction,
)
from tournaments.models.entries import name_from_text, name_key, person_name
from tournaments.permissions import acting_user, require_manage
from tournaments.services import round_fixes
from tournaments.services._common import last_round, lock_tournament, require_status
from tournaments.services.circuits import league_gate_check
from tournaments.services.csv_files import decode_csv_bytes, read_csv_rows
from tournaments.services.deck_lists import (
    deck_check_text,
    deck_first_version_drafts,
    pair_drafts_reconcile,
)
from tournaments.services.jobs import enqueue_standings
from tournaments.services.registration import require_kind
from tournaments.services.standings import standings_inputs_changed

S = Tournament.Status
A = TournamentAction.Kind

#: Most rows one import takes (a bound on hostile input).
IMPORT_MAX_ROWS = 512

#: Largest uploaded player list (bytes); the pages and the API refuse a bigger one unread.
IMPORT_MAX_BYTES = 2_000_000

#: Longest player name (``Player.display_name``) and e-mail address (``Player.email``).
NAME_MAX_LENGTH = Player._meta.get_field("display_name").max_length or 120
EMAIL_MAX_LENGTH = Player._meta.get_field("email").max_length or 254

#: Longest team name (``Entry.name``).
TEAM_MAX_LENGTH = Entry._meta.get_field("name").max_length or 200

#: First cells that mark a header row (individual list; pair list).
HEADER_CELLS = ("name", "név", "nev")
#: A header whose first two cells are these gives the name in two columns (family, given).
FAMILY_HEADER_CELLS = ("family name", "surname", "last name", "vezetéknév", "vezeteknev")
GIVEN_HEADER_CELLS = ("given name", "first name", "keresztnév", "keresztnev", "utónév", "utonev")
PAIR_HEADER_CELLS = ("team", "csapat", "csapatnév", "csapatnev", *HEADER_CELLS)


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
def entry_check_in(*, actor: Any, entry: Entry, checked_in: bool = True) -> Entry:
    """Mark an entry present (``checked_in_at`` = now) or not, before round 1 is paired.

    Raises ``InvalidState("tournament_status" | "rounds_started")``.
    """
    require_manage(actor, entry.tournament)
    tournament = lock_tournament(entry.tournament_id)
    _before_round_one(tournament)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    entry.checked_in_at = timezone.now() if checked_in else None
    entry.save(update_fields=["checked_in_at"])
    return entry


@transaction.atomic
def entries_drop_not_checked_in(*, tournament: Tournament, actor: Any) -> list[Entry]:
    """Drop (before round 1) every entry not checked in and not dropped; recorded as
    ``not_checked_in_dropped`` with the entries' ids. Returns the dropped entries.

    Raises ``InvalidState("tournament_status" | "rounds_started")``.
    """
    require_manage(actor, tournament)
    tournament = lock_tournament(tournament)
    _before_round_one(tournament)
    entries = list(
        tournament.entries.select_for_update().filter(checked_in_at=None, dropped_after_round=None)
    )
    for e in entries:
        e.dropped_after_round = 0
        e.save(update_fields=["dropped_after_round"])
    if entries:
        standings_inputs_changed(tournament_id=tournament.pk)  # no longer listed
        TournamentAction.objects.create(
            tournament=tournament,
            kind=A.NOT_CHECKED_IN_DROPPED,
            by=_by(acting_user(actor)),
            params={"entries": [e.pk for e in entries], "names": [e.name for e in entries]},
        )
    return entries


@transaction.atomic
def entry_readd(*, entry: Entry, actor: Any, reason: str = "", missed: str = "") -> Entry:
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
    require_manage(actor, entry.tournament)
    tournament = lock_tournament(entry.tournament_id)
    require_status(tournament, S.DRAFT, S.REGISTRATION, S.RUNNING)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.dropped_after_round is None:
        raise InvalidState(
            "not_dropped", _("%(name)s has not dropped.") % {"name": entry.shown_name}, {}
        )
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
            round_fixes.MissedChoice(outcome=missed, reason=reason, by=acting_user(actor))
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
        by=_by(acting_user(actor)),
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


def registered_names(
    tournament: Tournament, names: Iterable[str], *, exclude: int | None = None
) -> dict[str, list[str]]:
    """The event's entry and player names equal to any of ``names`` once normalised
    (``tournaments.models.entries.name_key``): ``{key: [name as registered, …]}``, each name
    once. One indexed query (the stored ``name_key`` of entries and players), whatever the
    field size; ``exclude`` leaves one entry (and its players) out. A name with a NUL character
    (which PostgreSQL cannot hold) matches nothing."""
    keys = {k for k in (name_key(n) for n in names) if k and "\x00" not in k}
    if not keys:
        return {}
    entries = Entry.objects.filter(tournament=tournament, name_key__in=keys)
    members = EntryMember.objects.filter(tournament=tournament, player__name_key__in=keys)
    if exclude is not None:
        entries = entries.exclude(pk=exclude)
        members = members.exclude(entry_id=exclude)
    found: dict[str, list[str]] = {}
    rows = (
        entries.order_by()
        .values_list("name_key", "name")
        .union(members.order_by().values_list("player__name_key", "player__display_name"))
    )
    for key, name in sorted(rows, key=lambda r: (r[0], r[1])):
        found.setdefault(key, []).append(name)
    return found


def same_name_entries(
    tournament: Tournament, name: str, *, exclude: int | None = None
) -> list[str]:
    """Names of the event's entries and players equal to ``name`` once normalised
    (:func:`registered_names`): the desk's duplicate warning. ``name`` is read in the active
    language's order (as the desk stores it: "Anna Kovács" on an English page finds the stored
    "Kovács Anna") and also as written (a team's name)."""
    stored = name_from_text(name).stored
    found = registered_names(tournament, [name, stored], exclude=exclude)
    return list(dict.fromkeys(found.get(name_key(stored), []) + found.get(name_key(name), [])))


def registered_emails(tournament: Tournament, emails: Iterable[str]) -> dict[str, list[str]]:
    """Players of the event whose e-mail equals one of ``emails`` (case ignored):
    ``{e-mail in lower case: [player name, …]}``. One query."""
    keys = {e.strip().lower() for e in emails if e.strip() and "\x00" not in e}
    if not keys:
        return {}
    rows = (
        EntryMember.objects.filter(tournament=tournament)
        .annotate(email_key=Lower("player__email"))
        .filter(email_key__in=keys)
        .order_by("player__display_name")
        .values_list("email_key", "player__display_name")
    )
    found: dict[str, list[str]] = {}
    for key, name in rows:
        found.setdefault(key, []).append(name)
    return found


# --- import --------------------------------------------------------------------------------


@dataclass
class ImportPartner:
    """The seat-B player of a pair list's row: name, e-mail, deck list and its verdict (as the
    seat-A fields of :class:`ImportRow`)."""

    name: str
    email: str
    deck: str
    deck_legal: bool | None = None
    deck_status: str | None = None
    deck_unknown_cards: list[str] = field(default_factory=list)
    family: str = ""
    given: str = ""

    @property
    def shown_name(self) -> str:
        """The name in the active language's order."""
        return person_name(self.family, self.given, self.name)


@dataclass
class ImportRow:
    """One row of a player list: ``line`` (1-based), the values, and what was found. In a pair
    list ``name``/``email``/``deck`` are seat A's, ``partner`` seat B's and ``team`` the team
    name (empty: "A & B"); in a player list ``partner`` is ``None``."""

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
    team: str = ""
    partner: ImportPartner | None = None
    #: Seat A's name parts (``name`` is their stored form, family name first).
    family: str = ""
    given: str = ""

    @property
    def shown_name(self) -> str:
        """Seat A's name in the active language's order."""
        return person_name(self.family, self.given, self.name)

    def people(self) -> list[tuple[str, Any]]:
        """``[(seat, player)]``: ``("A", self)`` and, in a pair list, ``("B", partner)``; each
        player has ``name``, ``email``, ``deck`` and the ``deck_*`` fields."""
        return [("A", self)] + ([("B", self.partner)] if self.partner is not None else [])

    @property
    def entry_name(self) -> str:
        """The entry's name: the team name, else "A & B" (as a team registered at the desk),
        or the player's name."""
        if self.partner is None:
            return self.name
        return self.team or f"{self.name} & {self.partner.name}"


@dataclass
class ImportResult:
    """``rows`` with their errors and warnings; ``saved`` is ``True`` only when every row was
    valid and ``dry_run`` was off (all or nothing: one bad row saves nothing). ``encoding``:
    how an uploaded file was read (``csv_files.ENCODING_LABELS``; empty for pasted text);
    ``text``: the list as read, for the form to send again; ``pair``: a list of pair teams."""

    rows: list[ImportRow]
    saved: bool
    encoding: str = ""
    text: str = ""
    pair: bool = False

    @property
    def ok(self) -> bool:
        return bool(self.rows) and not any(r.errors for r in self.rows)

    @property
    def bad_rows(self) -> int:
        """How many rows have an error (the preview's summary)."""
        return sum(1 for r in self.rows if r.errors)


def _pair_row(line: int, cells: list[str]) -> ImportRow:
    cells = cells + [""] * (7 - len(cells))
    row = ImportRow(
        line=line,
        team=cells[0],
        name=cells[1],
        email=cells[2],
        deck=cells[5],
        partner=ImportPartner(name=cells[3], email=cells[4], deck=cells[6]),
    )
    _named(row, row.name)
    _named(row.partner, cells[3])
    if any(cells[7:]):
        row.errors.append(
            gettext(
                "Too many columns: give team name, player A's name and e-mail, player B's name "
                "and e-mail, A's deck list and B's deck list."
            )
        )
    return row


def _named(person: Any, text: str, given: str | None = None) -> None:
    """Set ``person``'s name from one cell split in the active language's order
    (``models.entries.name_from_text``: "Kovács Anna" in Hungarian), or from two cells
    (``given`` not ``None``: family name, given name); ``name`` becomes the stored form,
    family name first."""
    parts = (
        name_from_text(text)
        if given is None
        else PersonName(" ".join(text.split()), " ".join(given.split()))
    )
    person.family, person.given = parts.family, parts.given
    person.name = parts.stored


def _two_name_columns(header: list[str]) -> bool:
    return len(header) == 2 and header[0] in FAMILY_HEADER_CELLS and header[1] in GIVEN_HEADER_CELLS


def _split_row(line: int, cells: list[str]) -> ImportRow:
    """A row of a list whose header names family and given name columns: ``family name,
    given name, e-mail, deck list``."""
    cells = cells + [""] * (4 - len(cells))
    row = ImportRow(line=line, name="", email=cells[2], deck=cells[3])
    _named(row, cells[0], cells[1])
    if any(cells[4:]):
        row.errors.append(
            gettext("Too many columns: give family name, given name, e-mail and deck list.")
        )
    return row


def _row(line: int, cells: list[str]) -> ImportRow:
    row = ImportRow(
        line=line,
        name=cells[0],
        email=cells[1] if len(cells) > 1 else "",
        deck=cells[2] if len(cells) > 2 else "",
    )
    _named(row, row.name)
    if len(cells) > 3 and any(cells[3:]):
        row.errors.append(gettext("Too many columns: give name, e-mail and deck list."))
    return row


def parse_player_list(text: str, *, pair: bool = False) -> list[ImportRow]:
    """CSV rows ``name, e-mail, deck list`` (comma, semicolon or tab separated, sniffed; any
    line ending; the e-mail and the deck list optional; a deck list spanning lines is quoted;
    ``csv_files.read_csv_rows``). A first row whose first cell is ``name``/``név`` is a header.
    A name in one cell is split in the active language's order (Hungarian: family name first,
    "Kovács Anna"); a header ``family name, given name, …`` (``vezetéknév, keresztnév, …``)
    gives the two parts in their own columns (then ``family, given, e-mail, deck list``).
    Blank rows are skipped. A row that cannot be read (bad quoting, an oversize cell) is kept
    with its error, and the rows after it are read on.

    With ``pair`` each row is a team: ``team name, A's name, A's e-mail, B's name, B's e-mail,
    A's deck list, B's deck list`` (the team name, e-mails and deck lists optional; a header's
    first cell is ``team``/``csapat``/``csapatnév`` or ``name``/``név``).

    Raises ``ValidationFailed("import_too_long")`` past :data:`IMPORT_MAX_ROWS` rows.
    """
    rows: list[ImportRow] = []
    make = _pair_row if pair else _row
    for csv_row in read_csv_rows(text):
        cells = [c.strip() for c in csv_row.cells]
        if not csv_row.error and not any(cells):
            continue
        header = [c.casefold() for c in cells[:2]] if not rows and make is not _split_row else []
        if not pair and _two_name_columns(header):
            make = _split_row
            continue
        if header and header[0] in (PAIR_HEADER_CELLS if pair else HEADER_CELLS):
            continue
        if len(rows) >= IMPORT_MAX_ROWS:
            raise ValidationFailed(
                "import_too_long",
                _("At most %(max)s players can be imported at once.") % {"max": IMPORT_MAX_ROWS},
                {"max": IMPORT_MAX_ROWS},
            )
        if csv_row.error:
            rows.append(ImportRow(csv_row.line, "", "", "", errors=[csv_row.error]))
        else:
            rows.append(make(csv_row.line, cells))
    return rows


def _seat_said(seat: str, pair: bool, message: str) -> str:
    """``message`` about one player of a row; in a pair list prefixed with the seat."""
    if not pair:
        return message
    return gettext("Seat %(seat)s: %(problem)s") % {"seat": seat, "problem": message}


def _check_person(row: ImportRow, seat: str, person: Any) -> None:
    pair = row.partner is not None
    problems: list[str] = []
    if not person.name:
        problems.append(gettext("The name is missing."))
    elif len(person.name) > NAME_MAX_LENGTH:
        problems.append(
            gettext("The name is too long (at most %(max)s characters).") % {"max": NAME_MAX_LENGTH}
        )
    if "\n" in person.name or "\n" in person.email:
        problems.append(
            gettext("A name or e-mail address cannot span lines: check the quotation marks.")
        )
    if person.email:
        try:
            if len(person.email) > EMAIL_MAX_LENGTH:
                raise ValidationError("too long")
            validate_email(person.email)
        except ValidationError:
            problems.append(gettext("This is not a valid e-mail address."))
    row.errors.extend(_seat_said(seat, pair, p) for p in problems)


def _check_cells(row: ImportRow) -> None:
    values = [row.team] + [p.name + p.email + p.deck for _, p in row.people()]
    if "\x00" in "".join(values):
        row.errors.append(gettext("This row contains a character that cannot be stored."))
    for seat, person in row.people():
        _check_person(row, seat, person)
    if len(row.team) > TEAM_MAX_LENGTH:
        row.errors.append(
            gettext("The team name is too long (at most %(max)s characters).")
            % {"max": TEAM_MAX_LENGTH}
        )
    elif row.partner is not None and len(row.entry_name) > TEAM_MAX_LENGTH:
        row.errors.append(gettext("The players' names are too long: give a team name."))


def _flag_duplicates(tournament: Tournament, rows: list[ImportRow]) -> None:
    """Warnings for names and e-mails (players' and teams') repeated in the list or already in
    the event (two queries in all: :func:`registered_names`, :func:`registered_emails`)."""
    people = [(row, seat, p) for row in rows for seat, p in row.people()]
    names = registered_names(
        tournament, [p.name for _, _, p in people if p.name] + [r.team for r in rows if r.team]
    )
    emails = registered_emails(tournament, [p.email for _, _, p in people if p.email])
    seen_names: dict[str, int] = {}
    seen_emails: dict[str, int] = {}
    for row, seat, person in [(r, "", r.team) for r in rows] + people:
        name = person if isinstance(person, str) else person.name
        mail = "" if isinstance(person, str) else person.email.strip().lower()
        key = name_key(name)
        said: list[str] = []
        if key in seen_names:
            said.append(gettext("Same name as line %(line)s.") % {"line": seen_names[key]})
        elif key:
            seen_names[key] = row.line
            if key in names:
                said.append(
                    gettext("Already registered with this name: %(names)s.")
                    % {"names": ", ".join(names[key])}
                )
        if mail in seen_emails:
            said.append(
                gettext("Same e-mail address as line %(line)s.") % {"line": seen_emails[mail]}
            )
        elif mail:
            seen_emails[mail] = row.line
            if mail in emails:
                said.append(
                    gettext("This e-mail address is already registered: %(names)s.")
                    % {"names": ", ".join(emails[mail])}
                )
        row.warnings.extend(
            _seat_said(seat, row.partner is not None and bool(seat), w) for w in said
        )


def _check_room(tournament: Tournament, rows: list[ImportRow]) -> None:
    cap = tournament.max_entries
    if not cap:
        return
    room = cap - tournament.entries.filter(dropped_after_round=None).count()
    for row in rows:
        if row.errors:
            continue
        if room <= 0:
            row.errors.append(
                gettext("The event is full: at most %(cap)s entries may register.") % {"cap": cap}
            )
        room -= 1


def _check_decks(
    tournament: Tournament, rows: list[ImportRow]
) -> dict[tuple[int, str], ValidationResult]:
    """Validate each row's deck lists (nothing stored); the results by (row line, seat). The
    two lists of a pair team must name the same rule card, or none (docs/rules.md §7 (HKK
    pair tournaments)): a warning, and neither is legal."""
    results: dict[tuple[int, str], ValidationResult] = {}
    late = tournament.deck_deadline is not None and timezone.now() > tournament.deck_deadline
    for row in rows:
        if row.errors or not any(p.deck for _, p in row.people()):
            continue
        if late:
            row.errors.append(gettext("The deck list deadline has passed."))
            continue
        for seat, person in row.people():
            if not person.deck:
                continue
            try:
                result = deck_check_text(tournament=tournament, text=person.deck)
            except ApplicationError as exc:
                row.errors.append(_seat_said(seat, row.partner is not None, str(exc.message)))
                continue
            results[(row.line, seat)] = result
            person.deck_legal = result.status == Verdict.LEGAL
            person.deck_status = str(result.status)
            person.deck_unknown_cards = list(result.unknown_cards)
        a, b = results.get((row.line, "A")), results.get((row.line, "B"))
        if a is not None and b is not None and (a.rule_card or "") != (b.rule_card or ""):
            row.warnings.append(
                gettext("The two players' lists name different rule cards: neither is legal.")
            )
            row.deck_legal = False
            if row.partner is not None:
                row.partner.deck_legal = False
    return results


def _open_for_import(tournament: Tournament, *, pair: bool) -> None:
    require_status(tournament, S.DRAFT, S.REGISTRATION)
    require_kind(tournament, Tournament.Kind.PAIR if pair else Tournament.Kind.INDIVIDUAL)


def _new_player(person: Any) -> Player:
    """The unsaved player of an import row's seat (``bulk_create`` skips ``save``: the name's
    parts, stored form and key are set here)."""
    return Player(
        display_name=person.name,
        family_name=person.family,
        given_name=person.given,
        email=person.email,
        name_key=name_key(person.name),
    )


def _new_entry(tournament: Tournament, row: ImportRow) -> Entry:
    """The unsaved entry of an import row: a player's entry takes the name's parts, a team
    none."""
    return Entry(
        tournament=tournament,
        name=row.entry_name,
        family_name="" if row.partner else row.family,
        given_name="" if row.partner else row.given,
        name_key=name_key(row.entry_name),
    )


@transaction.atomic
def _save_rows(
    tournament: Tournament,
    rows: list[ImportRow],
    decks: dict[tuple[int, str], ValidationResult],
    by: Any,
) -> None:
    """Register every row (a player, or a pair team's two players in seats A and B) in one
    transaction; the event's lock is held only for the part that depends on its state (status,
    kind and player cap checked again, then one ``INSERT`` each for entries, members and deck
    lists). The players and the deck lists' rows are built and the players inserted before the
    lock: nobody sees them before the commit."""
    people = [(row, seat, p) for row in rows for seat, p in row.people()]
    players = Player.objects.bulk_create([_new_player(p) for _, _, p in people])
    with_deck = [(row, seat, p) for row, seat, p in people if p.deck]
    drafts = deck_first_version_drafts(
        tournament=tournament,
        lists=[(p.deck, decks[(row.line, seat)]) for row, seat, p in with_deck],
        by=_by(by),
    )
    draft_of = {(row.line, seat): d for (row, seat, _), d in zip(with_deck, drafts, strict=True)}
    for row in rows:
        if (row.line, "A") in draft_of and (row.line, "B") in draft_of:
            pair_drafts_reconcile(draft_of[(row.line, "A")], draft_of[(row.line, "B")])
    locked = lock_tournament(tournament)
    _open_for_import(locked, pair=tournament.is_pair)
    league_gate_check(tournament=locked, players=players)  # docs/rules.md §19
    cap = locked.max_entries
    if cap and locked.entries.filter(dropped_after_round=None).count() + len(rows) > cap:
        raise InvalidState(
            "event_full",
            _("The event is full: at most %(cap)s entries may register.") % {"cap": cap},
            {"max_entries": cap},
        )
    entries = Entry.objects.bulk_create([_new_entry(locked, r) for r in rows])
    entry_of = {r.line: e for r, e in zip(rows, entries, strict=True)}
    members = EntryMember.objects.bulk_create(
        [
            EntryMember(entry=entry_of[row.line], tournament=locked, player=player, seat=seat)
            for (row, seat, _), player in zip(people, players, strict=True)
        ]
    )
    member_of = {(row.line, seat): m for (row, seat, _), m in zip(people, members, strict=True)}
    for key, draft in draft_of.items():
        draft.member = member_of[key]
    DeckSubmission.objects.bulk_create(drafts)
    for row in rows:
        row.entry = entry_of[row.line].pk


def entries_import(
    *,
    tournament: Tournament,
    text: str | None = None,
    data: bytes | None = None,
    dry_run: bool = True,
    actor: Any,
) -> ImportResult:
    """Register the players of a list (:func:`parse_player_list`) in a single-player event, or
    the teams of a pair list in a pair event (two players a row, seats A and B; docs/rules.md
    §7 (HKK pair tournaments)), each player with a deck list when given (stored even when not
    legal, as a submission is; a team's two lists naming different rule cards are both not
    legal, as ``deck_lists.deck_submit`` marks them).
    ``text`` is pasted CSV; ``data`` an uploaded file's bytes, decoded by
    ``csv_files.decode_csv_bytes`` (UTF-8, UTF-16, Windows-1250, ISO-8859-2).

    Every row is checked first without any lock (names, e-mails, the player cap, each deck
    list; names, team names and e-mails repeated in the list or already in the event as
    warnings, by two indexed queries). The preview (``dry_run``) stops there and writes
    nothing. Otherwise, when no row has an error, all rows are registered in one short
    transaction under the event's lock (:func:`_save_rows`); all or nothing.

    Raises:
        InvalidState: ``tournament_status``, ``event_full`` (filled up since the check).
        ValidationFailed: ``wrong_entry_kind`` (the event changed kind since the check),
            ``import_empty``,
            ``import_too_long``, ``csv_encoding`` (an upload in no supported encoding).
    """
    require_manage(actor, tournament)
    encoding = ""
    if data is not None:
        text, encoding = decode_csv_bytes(data)
    text = text or ""
    current = Tournament.objects.select_related("format").get(pk=tournament.pk)
    _open_for_import(current, pair=current.is_pair)
    rows = parse_player_list(text, pair=current.is_pair)
    if not rows:
        raise ValidationFailed("import_empty", _("The list has no players."), {})
    for row in rows:
        if not row.errors:
            _check_cells(row)
    _flag_duplicates(current, rows)
    _check_room(current, rows)
    decks = _check_decks(current, rows)
    result = ImportResult(
        rows=rows, saved=False, encoding=encoding, text=text, pair=current.is_pair
    )
    if dry_run or not result.ok:
        return result
    _save_rows(current, rows, decks, acting_user(actor))
    result.saved = True
    return result
