"""Backup and restore of one event: a versioned, lossless JSON document.

``event_backup(tournament)`` returns everything the event owns, row by row, with the original
primary keys: the tournament, its players, entries and members, deck submissions (text,
structured list, validation result, lock), rounds (seed, relaxations, engine), matches, seats,
games, game corrections, pairing changes, result reports, deck checks, staff and the standings
snapshot. ``event_restore(document)`` writes them back, into an empty database or one that
never held this event (the ids are kept, so the JSON parts that name entries — relaxations,
reports, corrections, standings — stay true).

The document is **sensitive**: it holds the users' and players' e-mail addresses and the
players' live claim codes (whoever holds a code can link that player to their account).
``event_backup(..., emails_and_codes=False)`` leaves both out (the restored players can be
given new codes). A document read back is input from outside: ``event_restore`` checks all of
it first (``services.backup_checks``: every key, type, choice and range, and that every
reference stays inside the file's own event and users) and writes nothing unless it passes.

Document shape (``BACKUP_VERSION`` 1)::

    {"kind": "hkk-tournament-event", "version": 1, "exported_at": ISO time,
     "emails_and_codes": bool, "format": format slug, "users": [{"username", "first_name",
     "last_name", "email", "is_active"}], "objects": [{"model": "tournaments.entry", "pk": 7,
     "fields": {...}}, ...]}

``objects`` is Django's serializer output ("python" serializer, JSON-encoded; date-times as ISO
8601 with microseconds and offset): foreign keys are ids, except users, which are natural keys
(``["username"]``), and the format (``["slug"]``). On restore, users are matched by username
and created when missing with an **unusable password** (they set one through "forgot
password", or an administrator sets it): an account of that name already in the database is
taken to be the same person, with the roles the file gives it in the restored event. The
format is matched by slug and must exist (run ``load_catalogue`` first).
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.management.color import no_style
from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError, connection, models, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from decks.models import Format
from hkk_tournament.errors import Conflict, ValidationFailed
from tournaments.models import (
    Circuit,
    CircuitEvent,
    CircuitRating,
    DeckCheck,
    DeckSubmission,
    Entry,
    EntryMember,
    Game,
    GameCorrection,
    League,
    ListConsent,
    Match,
    MetaSnapshot,
    MissedRound,
    PairingChange,
    Penalty,
    Player,
    PlayerProfile,
    PushEvent,
    ResultReport,
    Round,
    RoundSeat,
    StaffRole,
    StandingsSnapshot,
    Tournament,
    TournamentAction,
)
from tournaments.models.entries import name_key
from tournaments.services.backup_checks import check_backup

BACKUP_KIND = "hkk-tournament-event"
BACKUP_VERSION = 1

#: Personal fields a backup made without e-mails and claim codes leaves empty (besides the
#: users' ``email``): a claim code links a player to whoever holds it, so it is a live secret.
PERSONAL_FIELDS: dict[type[models.Model], tuple[str, ...]] = {Player: ("email", "claim_code")}

#: Every model of an event, parents before children (the restore order).
EVENT_MODELS: tuple[type[models.Model], ...] = (
    Tournament,
    Player,
    Entry,
    EntryMember,
    DeckSubmission,
    Round,
    Match,
    RoundSeat,
    MissedRound,
    Game,
    GameCorrection,
    PairingChange,
    ResultReport,
    DeckCheck,
    Penalty,
    StaffRole,
    StandingsSnapshot,
    TournamentAction,
    ListConsent,
)

#: The app's models that are not part of one event's backup, each with the reason.
OUTSIDE_EVENT_BACKUP: dict[type[models.Model], str] = {
    Circuit: "a season spans events and organisers",
    League: "part of a circuit",
    CircuitEvent: "a circuit's link to an event; the circuit's owner decides it again",
    CircuitRating: "recomputed from the circuit's events",
    PlayerProfile: "a person's setting (their account), not an event's",
    MetaSnapshot: "derived from the published lists; recomputed by the meta job",
    PushEvent: "a 12-hour log of live events; open pages resync on reconnect",
}


def _event_rows(t: Tournament) -> Iterable[tuple[type[models.Model], models.QuerySet[Any]]]:
    rounds = Round.objects.filter(tournament=t)
    matches = Match.objects.filter(round__tournament=t)
    yield Tournament, Tournament.objects.filter(pk=t.pk)
    yield Player, Player.objects.filter(memberships__entry__tournament=t).distinct()
    yield Entry, Entry.objects.filter(tournament=t)
    yield EntryMember, EntryMember.objects.filter(entry__tournament=t)
    yield DeckSubmission, DeckSubmission.objects.filter(member__entry__tournament=t)
    yield Round, rounds
    yield Match, matches
    yield RoundSeat, RoundSeat.objects.filter(round__tournament=t)
    yield MissedRound, MissedRound.objects.filter(round__tournament=t)
    yield Game, Game.objects.filter(match__round__tournament=t)
    yield GameCorrection, GameCorrection.objects.filter(game__match__round__tournament=t)
    yield PairingChange, PairingChange.objects.filter(round__tournament=t)
    yield ResultReport, ResultReport.objects.filter(match__round__tournament=t)
    yield DeckCheck, DeckCheck.objects.filter(round__tournament=t)
    yield Penalty, Penalty.objects.filter(tournament=t)
    yield StaffRole, StaffRole.objects.filter(tournament=t)
    yield StandingsSnapshot, StandingsSnapshot.objects.filter(tournament=t)
    yield TournamentAction, TournamentAction.objects.filter(tournament=t)
    # A player's opt-out of list publication travels with the player (privacy).
    yield (
        ListConsent,
        ListConsent.objects.filter(player__memberships__entry__tournament=t).distinct(),
    )


def _user_fields(model: type[models.Model]) -> list[str]:
    user_model = get_user_model()
    return [
        f.name
        for f in model._meta.concrete_fields
        if f.is_relation and f.related_model is user_model
    ]


class _ExactJSONEncoder(DjangoJSONEncoder):
    """Django's encoder, but date-times and times keep their microseconds (Django's cuts them
    to milliseconds, so a restored event would not be the one exported)."""

    def default(self, o: Any) -> Any:
        if isinstance(o, datetime.datetime | datetime.time):
            return o.isoformat()
        return super().default(o)


def _without_emails_and_codes(model: type[models.Model], fields: dict[str, Any]) -> None:
    for name in PERSONAL_FIELDS.get(model, ()):
        fields[name] = ""


def event_backup(*, tournament: Tournament, emails_and_codes: bool = True) -> dict[str, Any]:
    """The whole event ``tournament`` as a JSON-ready backup document (see the module docstring).

    Read in one transaction so the rows are consistent with each other. Date-times keep their
    microseconds. ``emails_and_codes=False`` leaves out the personal fields of
    :data:`PERSONAL_FIELDS` (players' e-mail addresses and claim codes) and the users' e-mail
    addresses (empty text instead; the document says ``"emails_and_codes": false``); names stay.
    """
    objects: list[dict[str, Any]] = []
    usernames: set[str] = set()
    with transaction.atomic():
        for model, queryset in _event_rows(tournament):
            rows = serializers.serialize(
                "python", queryset.order_by("pk"), use_natural_foreign_keys=True
            )
            for row in rows:
                if not emails_and_codes:
                    _without_emails_and_codes(model, row["fields"])
                for name in _user_fields(model):
                    if row["fields"].get(name):
                        usernames.add(row["fields"][name][0])
                objects.append(row)
        users = [
            {
                "username": u.get_username(),
                "first_name": getattr(u, "first_name", ""),
                "last_name": getattr(u, "last_name", ""),
                "email": getattr(u, "email", "") if emails_and_codes else "",
                "is_active": u.is_active,
            }
            for u in get_user_model().objects.filter(username__in=usernames).order_by("username")
        ]
    document = {
        "kind": BACKUP_KIND,
        "version": BACKUP_VERSION,
        "exported_at": timezone.now().isoformat(),
        "emails_and_codes": emails_and_codes,
        "format": tournament.format.slug,
        "users": users,
        "objects": objects,
    }
    # Round-trip through JSON so the document holds only JSON types (dates as ISO strings).
    loaded: dict[str, Any] = json.loads(json.dumps(document, cls=_ExactJSONEncoder))
    return loaded


def event_backup_json(*, tournament: Tournament, emails_and_codes: bool = True) -> str:
    """:func:`event_backup` as indented JSON text (UTF-8, keys sorted)."""
    document = event_backup(tournament=tournament, emails_and_codes=emails_and_codes)
    return json.dumps(document, ensure_ascii=False, indent=1, sort_keys=True)


def _check_document(document: Any) -> None:
    if not isinstance(document, dict) or document.get("kind") != BACKUP_KIND:
        raise ValidationFailed(
            "not_an_event_backup", _("The file is not an event backup of this application.")
        )
    if document.get("version") != BACKUP_VERSION:
        raise ValidationFailed(
            "unsupported_backup_version",
            _("Backup version %(version)s cannot be read by this version of the application.")
            % {"version": document.get("version")},
            {"version": document.get("version")},
        )


@dataclass(frozen=True)
class Restored:
    """What :func:`event_restore` wrote: the event, and the accounts of the file's users that
    were created (unusable password) or matched by user name to accounts already here."""

    tournament: Tournament
    users_created: list[str]
    users_matched: list[str]


def _refresh_name_keys(tournament_pk: int, objects: list[dict[str, Any]]) -> None:
    """Recompute the duplicate check's ``name_key`` of the restored players and entries.

    Rows are written raw (no ``save()``), so the stored keys would be the file's: empty in a
    backup made before the keys existed, anything at all in an edited one.
    """
    player_ids = [o["pk"] for o in objects if o["model"] == "tournaments.player"]
    players = list(Player.objects.filter(pk__in=player_ids))
    for player in players:
        player.name_key = name_key(player.display_name)
    Player.objects.bulk_update(players, ["name_key"], batch_size=2000)
    entries = list(Entry.objects.filter(tournament_id=tournament_pk))
    for entry in entries:
        entry.name_key = name_key(entry.name)
    Entry.objects.bulk_update(entries, ["name_key"], batch_size=2000)


#: Tournament keys of backups written before the match structure was the only copy, folded into
#: ``match_structure`` on restore (``tournaments`` migration 0016 does the same to the table).
LEGACY_STRUCTURE_KEYS = ("first_player_policy", "games_per_match", "stop_at_two_wins")


def _fold_legacy_structure(document: Any) -> Any:
    """``document`` with its tournament row's :data:`LEGACY_STRUCTURE_KEYS` removed, folded into
    an empty ``match_structure`` (a stored structure was the one in force and is kept). The
    caller's document is not changed; anything not shaped like a backup is returned as it is
    (the checks refuse it)."""
    objects = document.get("objects") if isinstance(document, dict) else None
    if not isinstance(objects, list):
        return document
    out = []
    for row in objects:
        fields = row.get("fields") if isinstance(row, dict) else None
        if row_is_event := (
            isinstance(fields, dict)
            and row.get("model") == "tournaments.tournament"
            and any(k in fields for k in LEGACY_STRUCTURE_KEYS)
        ):
            fields = {k: v for k, v in fields.items() if k not in LEGACY_STRUCTURE_KEYS}
            if not fields.get("match_structure"):
                fields["match_structure"] = {
                    "policy": row["fields"].get("first_player_policy"),
                    "games_per_match": row["fields"].get("games_per_match"),
                    "ends_when_decided": row["fields"].get("stop_at_two_wins"),
                }
        out.append({**row, "fields": fields} if row_is_event else row)
    return {**document, "objects": out}


def event_restore(*, document: Any) -> Restored:
    """Write the event of a backup ``document`` (from :func:`event_backup`) into this database.

    The whole document is checked first (``services.backup_checks.check_backup``: keys, types,
    choices, ranges, and every reference inside the file's own event and users) and any id
    already taken is refused; only then is it written, in one transaction. Users are matched
    by username and created when missing (unusable password); a tournament row of an older
    backup with the structure's former mirror columns has them folded into ``match_structure``
    (:func:`_fold_legacy_structure`); players that already exist with
    the same id and name are reused; the format is matched by slug. A refused document writes
    nothing.

    Raises:
        ValidationFailed: ``not_an_event_backup``, ``unsupported_backup_version``,
            ``format_missing`` (load the card catalogue first), ``backup_refused`` (the
            problems by row and key in ``params["problems"]``).
        Conflict: ``event_rows_exist`` (a row of the event, by id, is already in the
            database; a player counts as the same when its name and account match),
            ``backup_refused_by_database`` (the database refused a row while writing, e.g. one
            written meanwhile by someone else; nothing was written).
    """
    _check_document(document)
    document = _fold_legacy_structure(document)
    slug = document.get("format")
    fmt = Format.objects.filter(slug=slug).first() if isinstance(slug, str) else None
    if isinstance(slug, str) and fmt is None:
        raise ValidationFailed(
            "format_missing",
            _("Format %(format)s is missing; load the card catalogue first.") % {"format": slug},
            {"format": slug},
        )
    labels = {m._meta.label_lower: m for m in EVENT_MODELS}
    checked = check_backup(document, labels=labels)
    assert fmt is not None  # check_backup refuses a document without a format slug
    objects = [dict(o) for o in checked.objects]
    for o in objects:
        if o["model"] == "tournaments.tournament":
            o["fields"] = {**o["fields"], "format": fmt.pk}
    try:
        with transaction.atomic():
            _refuse_existing(objects, labels)
            created, matched = _restore_users(checked.users)
            _restore_rows(objects)
            _refresh_name_keys(checked.tournament_pk, objects)
    except IntegrityError as exc:  # a row or user name written meanwhile by someone else
        raise Conflict(
            "backup_refused_by_database",
            _(
                "The database refused a row of the backup (one written meanwhile, or a rule "
                "of the database); nothing was written."
            ),
            {"detail": str(exc).splitlines()[0]},
        ) from exc
    return Restored(Tournament.objects.get(pk=checked.tournament_pk), created, matched)


def _restore_users(users: list[dict[str, Any]]) -> tuple[list[str], list[str]]:
    user_model = get_user_model()
    created_names, matched_names = [], []
    for u in users:
        user, created = user_model.objects.get_or_create(
            username=u["username"],
            defaults={
                "first_name": u["first_name"],
                "last_name": u["last_name"],
                "email": u["email"],
                "is_active": u["is_active"],
            },
        )
        if created:
            user.set_unusable_password()
            user.save(update_fields=["password"])
            created_names.append(u["username"])
        else:
            matched_names.append(u["username"])
    return created_names, matched_names


def _restore_rows(objects: list[dict[str, Any]]) -> None:
    touched: list[type[models.Model]] = []
    for obj in serializers.deserialize("python", objects, handle_forward_references=False):
        model = type(obj.object)
        if model is Player and Player.objects.filter(pk=obj.object.pk).exists():
            continue  # the same player (checked by ``_refuse_existing``)
        obj.save()
        if model not in touched:
            touched.append(model)
    _reset_sequences(touched)


def _rows_exist(params: dict[str, Any]) -> Conflict:
    return Conflict(
        "event_rows_exist",
        _("The database already holds rows of this event; restore into an empty one."),
        params,
    )


def _refuse_existing(objects: list[dict[str, Any]], labels: dict[str, type[models.Model]]) -> None:
    by_model: dict[str, list[Any]] = {}
    for o in objects:
        by_model.setdefault(o["model"], []).append(o)
    for label, rows in by_model.items():
        model = labels[label]
        pks = [r["pk"] for r in rows]
        if model is Player:
            # The same player: same id, name and account (a name alone may be someone else's).
            given = {r["pk"]: (r["fields"]["display_name"], r["fields"].get("user")) for r in rows}
            here = Player.objects.filter(pk__in=pks).values_list(
                "pk", "display_name", "user__username"
            )
            clash = [
                pk
                for pk, name, username in here
                if given[pk] != (name, [username] if username else None)
            ]
        else:
            clash = list(model._default_manager.filter(pk__in=pks).values_list("pk", flat=True))
        if clash:
            raise _rows_exist({"model": label, "ids": sorted(clash)[:20]})


def _reset_sequences(models_touched: list[type[models.Model]]) -> None:
    """After inserting explicit ids, move PostgreSQL's id sequences past them."""
    statements = connection.ops.sequence_reset_sql(no_style(), models_touched)
    if statements:
        with connection.cursor() as cursor:
            for sql in statements:
                cursor.execute(sql)
