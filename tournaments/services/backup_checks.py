"""Checks of an event backup document before anything of it is written (``services.backup``).

A backup file is input from outside: it may be damaged or altered by hand. :func:`check_backup`
reads the whole document and refuses it, listing every problem by row and key, unless

- the envelope holds ``format`` (text), ``users`` (list) and ``objects`` (list) and every row
  holds ``model`` (a model of an event), ``pk`` (a positive whole number, once per model) and
  ``fields`` (an object with exactly the model's keys: none unknown, none missing that has
  no default);
- every value has its field's type (text, whole number, true/false, a date and time with its
  time zone …), passes the field's own checks (length, choices, the database's number range,
  e-mail address) and the event's rules (games per match 1–9, deck checks 0–100 %, round,
  table and game numbers from 1, the first-player policy, tiebreakers and match structure of
  the ``tournaments.domain`` registries, deck-list formats of the catalogue);
- every reference stays inside the file's own event: a row's tournament is the file's one
  event, any other foreign key names a row of the same file, a user is named by the user name
  of one of the file's ``users`` (never a numeric id, which would be someone else's account
  in another database), the format is the file's ``format``; games, seats and reports name
  only the two entries of their table (so do the games of a report and the before/after of a
  correction), and the entry ids held in JSON (standings rows, relaxations, bracket seeds)
  are entries of the file.

Nothing here writes; the caller writes the checked document in one transaction.
"""

from __future__ import annotations

import datetime
import functools
from collections.abc import Callable, Collection, Hashable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from decks.models import Format
from hkk_tournament.errors import ValidationFailed
from tournaments.domain import standings as standings_domain
from tournaments.domain.match_structure import MAX_GAMES_PER_MATCH, InvalidStructure, MatchStructure
from tournaments.models import (
    DeckSubmission,
    Entry,
    Game,
    GameCorrection,
    Match,
    PairingChange,
    ResultReport,
    Round,
    RoundSeat,
    StandingsSnapshot,
    Tournament,
)
from tournaments.selectors import structure_error_message

#: Problems listed in the error's ``params`` (the message names the first one).
MAX_LISTED_PROBLEMS = 20

#: The keys each entry of ``users`` holds (all written by the export).
USER_KEYS = ("username", "first_name", "last_name", "email", "is_active")

#: (model, field) → (lowest, highest) beyond the field's own range (``None`` = no bound).
RANGES: dict[tuple[type[models.Model], str], tuple[int, int | None]] = {
    (Tournament, "deck_check_percent"): (0, 100),
    (Tournament, "planned_rounds"): (1, None),
    (Tournament, "late_entry_cutoff_round"): (1, None),
    (Tournament, "max_entries"): (1, None),
    (Entry, "registered_round"): (1, None),
    (Round, "number"): (1, None),
    (Match, "table"): (1, None),
    (Game, "number"): (1, MAX_GAMES_PER_MATCH),
}

#: Internal type of a field → (Python types accepted, name of the expected type).
_TYPES: dict[str, tuple[tuple[type, ...], Any]] = {
    "CharField": ((str,), _("text")),
    "TextField": ((str,), _("text")),
    "EmailField": ((str,), _("text")),
    "SlugField": ((str,), _("text")),
    "BooleanField": ((bool,), _("true or false")),
    "DateTimeField": ((str,), _("a date and time with its time zone")),
    "DateField": ((str,), _("a date")),
    "PositiveSmallIntegerField": ((int,), _("a whole number")),
    "PositiveIntegerField": ((int,), _("a whole number")),
    "SmallIntegerField": ((int,), _("a whole number")),
    "IntegerField": ((int,), _("a whole number")),
    "BigIntegerField": ((int,), _("a whole number")),
}


@dataclass(frozen=True)
class Problem:
    """One refused value: ``where`` names the row (translated), ``key`` the key in the file."""

    where: str
    key: str
    message: str

    def text(self) -> str:
        """The problem as one translated line: where, which key, what is wrong."""
        return str(
            _("%(where)s, key “%(key)s”: %(problem)s")
            % {"where": self.where, "key": self.key, "problem": self.message}
        )


@dataclass
class CheckedBackup:
    """A document :func:`check_backup` accepted: the event's id, the format's slug, the users
    (``USER_KEYS`` each) and the rows (``{"model", "pk", "fields"}``) in the file's order."""

    tournament_pk: int
    format_slug: str
    users: list[dict[str, Any]]
    objects: list[dict[str, Any]]


@dataclass
class _Rows:
    """What the reference checks look up: the rows of the file by model and id."""

    event: int | None = None
    usernames: set[str] = field(default_factory=set)
    format_slug: str = ""
    by_model: dict[type[models.Model], dict[int, dict[str, Any]]] = field(default_factory=dict)
    formats: set[str] = field(default_factory=set)

    def fields_of(self, model: type[models.Model], pk: Any) -> dict[str, Any] | None:
        return self.by_model.get(model, {}).get(pk) if _is_int(pk) else None


class _Report:
    """Collects the problems of one document."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def add(self, where: Any, key: str, message: Any) -> None:
        self.problems.append(Problem(str(where), key, str(message)))

    def raise_if_any(self) -> None:
        if not self.problems:
            return
        first = self.problems[0]
        raise ValidationFailed(
            "backup_refused",
            _(
                "The backup was refused and nothing was written; problems found: %(count)s. "
                "The first: %(first)s"
            )
            % {"count": len(self.problems), "first": first.text()},
            {
                "count": len(self.problems),
                "problems": [p.text() for p in self.problems[:MAX_LISTED_PROBLEMS]],
            },
        )


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class _At:
    """Where a row is, put into words (translated) only when a problem is reported."""

    position: int
    model: type[models.Model] | None
    pk: Any
    user: bool = False

    def __str__(self) -> str:
        if self.user:
            return str(_("user %(row)s") % {"row": self.position})
        if self.model is None:
            return str(_("row %(row)s") % {"row": self.position})
        return str(
            _("row %(row)s (%(model)s, id %(pk)s)")
            % {"row": self.position, "model": self.model._meta.verbose_name, "pk": self.pk}
        )


def _where_row(position: int, model: type[models.Model] | None, pk: Any) -> _At:
    return _At(position, model, pk)


def check_backup(
    document: dict[str, Any], *, labels: dict[str, type[models.Model]]
) -> CheckedBackup:
    """Check a backup ``document`` whose kind and version are already known to be right.

    ``labels`` maps ``"app.model"`` to the event's models (``services.backup.EVENT_MODELS``).

    Returns:
        The :class:`CheckedBackup` to write (the caller still refuses ids already taken).

    Raises:
        ValidationFailed: ``backup_refused``, every problem listed in ``params["problems"]``
            (translated lines naming the row and key; at most ``MAX_LISTED_PROBLEMS``), their
            number in ``params["count"]``; the message names the first.
    """
    report = _Report()
    rows = _Rows(formats=set(Format.objects.values_list("slug", flat=True)))
    format_slug, users, objects = _check_envelope(document, report)
    report.raise_if_any()
    rows.format_slug = format_slug
    rows.usernames = _check_users(users, report)
    indexed = _index_rows(objects, labels, rows, report)
    report.raise_if_any()
    for position, model, row in indexed:
        where = _where_row(position, model, row["pk"])
        _check_fields(model, row["fields"], where, rows, report)
    report.raise_if_any()
    report.problems.extend(_unique_problems(rows.by_model))
    for position, model, row in indexed:
        check = _EVENT_RULES.get(model)
        if check is not None:
            check(row["fields"], _where_row(position, model, row["pk"]), rows, report)
    report.raise_if_any()
    assert rows.event is not None  # _index_rows refuses a file without exactly one event
    return CheckedBackup(rows.event, format_slug, users, [row for _p, _m, row in indexed])


def _check_envelope(document: dict[str, Any], report: _Report) -> tuple[str, list[Any], list[Any]]:
    where = _("the backup")
    expected = {
        "format": (str, _("text")),
        "users": (list, _("a list")),
        "objects": (list, _("a list")),
    }
    for key, (kind, name) in expected.items():
        if key not in document:
            report.add(where, key, _("the key is missing"))
        elif not isinstance(document[key], kind):
            report.add(where, key, _("expected %(type)s") % {"type": name})
    if not isinstance(document.get("emails_and_codes", True), bool):
        report.add(where, "emails_and_codes", _("expected %(type)s") % {"type": _("true or false")})
    if report.problems:
        return "", [], []
    return document["format"], document["users"], document["objects"]


def _check_users(users: list[Any], report: _Report) -> set[str]:
    user_model = get_user_model()
    names: set[str] = set()
    for position, user in enumerate(users, start=1):
        where = _At(position, None, None, user=True)
        if not isinstance(user, dict):
            report.add(where, "", _("expected %(type)s") % {"type": _("an object")})
            continue
        _check_keys(user, USER_KEYS, set(USER_KEYS), where, report)
        for key in USER_KEYS:
            if key not in user:
                continue
            try:
                field_ = user_model._meta.get_field(key)
            except FieldDoesNotExist:
                continue
            _check_value(field_, user[key], where, key, report)
        name = user.get("username")
        if isinstance(name, str):
            if name in names:
                report.add(where, "username", _("the user name appears twice"))
            names.add(name)
    return names


def _check_keys(
    given: dict[str, Any],
    known: Collection[str],
    required: Collection[str],
    where: Any,
    report: _Report,
) -> None:
    for key in sorted(k for k in given if k not in known):
        report.add(where, key, _("unknown key"))
    for key in sorted(k for k in required if k not in given):
        report.add(where, key, _("the key is missing"))


def _index_rows(
    objects: list[Any], labels: dict[str, type[models.Model]], rows: _Rows, report: _Report
) -> list[tuple[int, type[models.Model], dict[str, Any]]]:
    indexed = []
    for position, row in enumerate(objects, start=1):
        model = _row_model(position, row, labels, report)
        if model is None:
            continue
        known = rows.by_model.setdefault(model, {})
        if row["pk"] in known:
            report.add(_where_row(position, model, row["pk"]), "pk", _("the id appears twice"))
            continue
        known[row["pk"]] = row["fields"]
        indexed.append((position, model, row))
    events = list(rows.by_model.get(Tournament, {}))
    if len(events) != 1:
        report.add(
            _("the backup"),
            "objects",
            _("the backup must hold exactly one event (%(count)s found)") % {"count": len(events)},
        )
    else:
        rows.event = events[0]
    return indexed


def _row_model(
    position: int, row: Any, labels: dict[str, type[models.Model]], report: _Report
) -> type[models.Model] | None:
    """The model of a well-formed row (``model``, ``pk`` and ``fields`` right), else ``None``."""
    where = _where_row(position, None, None)
    if not isinstance(row, dict):
        report.add(where, "", _("expected %(type)s") % {"type": _("an object")})
        return None
    before = len(report.problems)
    _check_keys(row, ("model", "pk", "fields"), {"model", "pk", "fields"}, where, report)
    label = row.get("model")
    model = labels.get(label) if isinstance(label, str) else None
    if "model" in row and model is None:
        report.add(where, "model", _("not a part of an event: %(value)s") % {"value": label})
    where = _where_row(position, model, row.get("pk"))
    if "pk" in row and (not _is_int(row["pk"]) or row["pk"] < 1):
        report.add(where, "pk", _("expected %(type)s") % {"type": _("a positive whole number")})
    if "fields" in row and not isinstance(row["fields"], dict):
        report.add(where, "fields", _("expected %(type)s") % {"type": _("an object")})
    return model if len(report.problems) == before else None


def _check_fields(
    model: type[models.Model], fields: dict[str, Any], where: Any, rows: _Rows, report: _Report
) -> None:
    concrete, required = _model_fields(model)
    _check_keys(fields, concrete, required, where, report)
    for key, value in fields.items():
        field_ = concrete.get(key)
        if field_ is None:
            continue
        if field_.is_relation:
            _check_reference(field_, value, where, rows, report)
            continue
        if _check_value(field_, value, where, key, report) and _is_int(value):
            _check_range(RANGES.get((model, key)), value, where, key, report)


@functools.cache
def _model_fields(model: type[models.Model]) -> tuple[dict[str, Any], frozenset[str]]:
    """The fields a row of ``model`` holds by name, and those it must hold (no default)."""
    concrete = {f.name: f for f in model._meta.concrete_fields if not f.primary_key}
    required = frozenset(n for n, f in concrete.items() if not f.has_default() and not f.null)
    return concrete, required


def _check_value(field_: Any, value: Any, where: Any, key: str, report: _Report) -> bool:
    """Type, then the field's own checks (choices, length, range); ``True`` when it passed."""
    if value is None:
        if not field_.null:
            report.add(where, key, _("a value is required"))
        return field_.null
    types, name = _TYPES.get(field_.get_internal_type(), ((object,), ""))
    wrong_type = not isinstance(value, types) or (int in types and isinstance(value, bool))
    if not wrong_type and field_.get_internal_type() == "DateTimeField":
        parsed = _parse_datetime(value)
        wrong_type = parsed is None or parsed.tzinfo is None
    if wrong_type:
        report.add(where, key, _("expected %(type)s") % {"type": name})
        return False
    try:
        field_.clean(value, None)
    except ValidationError as exc:
        for message in exc.messages:
            report.add(where, key, message)
        return False
    return True


def _parse_datetime(value: str) -> datetime.datetime | None:
    try:
        return datetime.datetime.fromisoformat(value)
    except ValueError:
        return None


def _check_range(
    bounds: tuple[int, int | None] | None, value: int, where: Any, key: str, report: _Report
) -> None:
    if bounds is None:
        return
    low, high = bounds
    if high is None and value < low:
        report.add(where, key, _("must be at least %(low)s") % {"low": low})
    elif high is not None and not low <= value <= high:
        report.add(
            where, key, _("must be between %(low)s and %(high)s") % {"low": low, "high": high}
        )


def _check_reference(field_: Any, value: Any, where: Any, rows: _Rows, report: _Report) -> None:
    """A foreign key stays inside the file: its event, its rows, its users, its format."""
    key, target = field_.name, field_.related_model
    if value is None:
        if not field_.null:
            report.add(where, key, _("a value is required"))
        return
    if target is get_user_model():
        named = isinstance(value, list) and len(value) == 1 and isinstance(value[0], str)
        if not (named and value[0] in rows.usernames):
            report.add(
                where,
                key,
                _("names no user of this backup (users are named by user name): %(value)s")
                % {"value": value},
            )
    elif target is Format:
        if value != [rows.format_slug]:
            report.add(
                where,
                key,
                _("the event's format must be the backup's format %(format)s")
                % {"format": rows.format_slug},
            )
    elif target is Tournament:
        if value != rows.event or not _is_int(value):
            report.add(
                where,
                key,
                _("points to another event (%(value)s); this backup holds event %(event)s")
                % {"value": value, "event": rows.event},
            )
    elif rows.fields_of(target, value) is None:
        report.add(
            where,
            key,
            _("points to %(model)s %(value)s, which is not in this backup")
            % {"model": target._meta.verbose_name, "value": value},
        )


def _unique_sets(model: type[models.Model]) -> list[tuple[tuple[str, ...], Any]]:
    """``(field names, condition or None)`` the database keeps unique (ids aside)."""
    sets: list[tuple[tuple[str, ...], Any]] = [
        ((f.name,), None) for f in model._meta.concrete_fields if f.unique and not f.primary_key
    ]
    for constraint in model._meta.constraints:
        if isinstance(constraint, models.UniqueConstraint) and constraint.fields:
            sets.append((tuple(constraint.fields), constraint.condition))
    return sets


def _condition_holds(condition: Any, fields: dict[str, Any]) -> bool:
    """Whether a row's ``fields`` meet a constraint's condition: ``None``, or a ``Q`` of
    ``name=value`` and ``name__in=[...]`` terms joined by AND (what the event's models use; a
    term of another shape counts as met, so the check errs towards refusing)."""
    if condition is None or condition.connector != "AND" or condition.negated:
        return True
    for child in condition.children:
        if not isinstance(child, tuple):
            continue
        name, value = child
        if name.endswith("__in"):
            if fields.get(name[: -len("__in")]) not in value:
                return False
        elif "__" not in name and fields.get(name) != value:
            return False
    return True


def _unique_problems(rows_of: dict[type[models.Model], dict[int, dict[str, Any]]]) -> list[Problem]:
    """Rows of one model that repeat values the database keeps unique (``Problem`` each)."""
    problems = []
    for model, rows in rows_of.items():
        for names, condition in _unique_sets(model):
            seen: set[str] = set()
            for pk, fields in rows.items():
                if not _condition_holds(condition, fields):
                    continue
                marker = repr([fields.get(n) for n in names])
                if marker in seen:
                    where = _("%(model)s, id %(pk)s") % {
                        "model": model._meta.verbose_name,
                        "pk": pk,
                    }
                    message = _("the same values appear in two rows")
                    problems.append(Problem(str(where), ", ".join(names), str(message)))
                seen.add(marker)
    return problems


# --- The event's own rules, per model -----------------------------------------------------------


def _unknown(where: Any, key: str, value: Any, report: _Report) -> None:
    report.add(where, key, _("unknown code: %(value)s") % {"value": value})


def _tournament_rules(fields: dict[str, Any], where: Any, rows: _Rows, report: _Report) -> None:
    codes = fields.get("tiebreakers", [])
    if not isinstance(codes, list) or not all(isinstance(c, str) for c in codes):
        report.add(where, "tiebreakers", _("expected %(type)s") % {"type": _("a list of codes")})
    else:
        for code in codes:
            if code not in standings_domain.TIEBREAKERS or codes.count(code) > 1:
                _unknown(where, "tiebreakers", code, report)
    structure = fields.get("match_structure", {})
    try:
        if not isinstance(structure, dict):
            raise InvalidStructure("invalid_value", {"field": "match_structure"})
        MatchStructure.from_dict(structure)
    except InvalidStructure as exc:
        report.add(where, "match_structure", structure_error_message(exc))


def _table_entries(match_pk: Any, rows: _Rows) -> set[Any]:
    match = rows.fields_of(Match, match_pk) or {}
    return {match.get("entry_a"), match.get("entry_b")} - {None}


def _match_rules(fields: dict[str, Any], where: Any, rows: _Rows, report: _Report) -> None:
    if fields.get("entry_a") == fields.get("entry_b"):
        report.add(where, "entry_b", _("an entry cannot play itself"))


def _at_table(
    fields: dict[str, Any], keys: tuple[str, ...], where: Any, rows: _Rows, report: _Report
) -> None:
    seated = _table_entries(fields.get("match"), rows)
    for key in keys:
        value = fields.get(key)
        if value is not None and value not in seated:
            report.add(
                where, key, _("entry %(value)s does not play at this table") % {"value": value}
            )


def _game_rules(fields: dict[str, Any], where: Any, rows: _Rows, report: _Report) -> None:
    _at_table(fields, ("right_holder", "first", "winner", "chosen_by"), where, rows, report)
    if (fields.get("winner") is None) != bool(fields.get("is_draw")):
        report.add(where, "winner", _("a game has a winner or is drawn, not both"))
    event = rows.fields_of(Tournament, rows.event) or {}
    structure = event.get("match_structure")
    most = structure.get("games_per_match") if isinstance(structure, dict) else None
    if _is_int(most) and _is_int(fields.get("number")) and fields["number"] > most:
        _check_range((1, most), fields["number"], where, "number", report)


def _seat_rules(fields: dict[str, Any], where: Any, rows: _Rows, report: _Report) -> None:
    match = rows.fields_of(Match, fields.get("match")) or {}
    if match.get("round") != fields.get("round"):
        report.add(where, "match", _("the table belongs to another round"))
    _at_table(fields, ("entry",), where, rows, report)


def _entry_ids(
    values: Iterable[Any],
    allowed: set[Any],
    where: Any,
    key: str,
    report: _Report,
    *,
    table: bool = False,
) -> None:
    """Refuse each value not in ``allowed`` (the file's entries, or a table's two)."""
    for value in values:
        if isinstance(value, Hashable) and value in allowed:
            continue
        if table:
            report.add(
                where, key, _("entry %(value)s does not play at this table") % {"value": value}
            )
        else:
            report.add(where, key, _("not an entry of this backup: %(value)s") % {"value": value})


def _objects(value: Any, where: Any, key: str, report: _Report) -> list[dict[str, Any]]:
    if isinstance(value, list) and all(isinstance(v, dict) for v in value):
        return value
    report.add(where, key, _("expected %(type)s") % {"type": _("a list of objects")})
    return []


def _report_rules(fields: dict[str, Any], where: Any, rows: _Rows, report: _Report) -> None:
    _at_table(fields, ("entry",), where, rows, report)
    seated = _table_entries(fields.get("match"), rows) | {None}
    games = _objects(fields.get("games"), where, "games", report)
    named = (g.get(k) for g in games for k in ("winner", "first"))
    _entry_ids(named, seated, where, "games", report, table=True)


def _correction_rules(fields: dict[str, Any], where: Any, rows: _Rows, report: _Report) -> None:
    game = rows.fields_of(Game, fields.get("game")) or {}
    seated = _table_entries(game.get("match"), rows) | {None}
    for key in ("old", "new"):
        values = fields.get(key)
        if not isinstance(values, dict):
            report.add(where, key, _("expected %(type)s") % {"type": _("an object")})
            continue
        named = (values.get(k) for k in ("right_holder", "first", "winner", "chosen_by"))
        _entry_ids(named, seated, where, key, report, table=True)


def _round_rules(fields: dict[str, Any], where: Any, rows: _Rows, report: _Report) -> None:
    entries = set(rows.by_model.get(Entry, {}))
    relaxed = _objects(fields.get("relaxations", []), where, "relaxations", report)
    for relaxation in relaxed:
        listed = relaxation.get("entries", [])
        _entry_ids(
            listed if isinstance(listed, list) else [listed], entries, where, "relaxations", report
        )
    bracket = fields.get("bracket", {})
    seeds = bracket.get("seeds", {}) if isinstance(bracket, dict) else None
    if not isinstance(seeds, dict):
        report.add(where, "bracket", _("expected %(type)s") % {"type": _("an object")})
        return
    _entry_ids((int(k) if k.isdigit() else k for k in seeds), entries, where, "bracket", report)


def _standings_rules(fields: dict[str, Any], where: Any, rows: _Rows, report: _Report) -> None:
    standing = _objects(fields.get("rows", []), where, "rows", report)
    entries = set(rows.by_model.get(Entry, {}))
    _entry_ids((row.get("entry") for row in standing), entries, where, "rows", report)


def _deck_rules(fields: dict[str, Any], where: Any, rows: _Rows, report: _Report) -> None:
    if fields.get("format_slug") not in rows.formats:
        _unknown(where, "format_slug", fields.get("format_slug"), report)


def _swap_rules(fields: dict[str, Any], where: Any, rows: _Rows, report: _Report) -> None:
    if fields.get("swap") not in ("a", "b"):
        _unknown(where, "swap", fields.get("swap"), report)


_EVENT_RULES: dict[type[models.Model], Callable[[dict[str, Any], Any, _Rows, _Report], None]] = {
    Tournament: _tournament_rules,
    Round: _round_rules,
    Match: _match_rules,
    Game: _game_rules,
    RoundSeat: _seat_rules,
    ResultReport: _report_rules,
    GameCorrection: _correction_rules,
    StandingsSnapshot: _standings_rules,
    DeckSubmission: _deck_rules,
    PairingChange: _swap_rules,
}
