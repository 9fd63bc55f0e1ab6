"""Tampered backups (``manage.py import_event``) are refused and write nothing.

The database holds event B (another organiser's, running, with a published round) and the
users of event A; event A was exported and then deleted, and its judge's account removed (so
the import would create it). Each case changes A's file in one way a hostile or damaged file
could: foreign keys into event B, user ids of other people, unknown choices, numbers out of
range, missing keys, wrong types, duplicated ids. Every case must end in the command's clear
error (``CommandError``, never another exception) with the row count of every model of every
app unchanged; the untouched file imports.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import transaction

from tests.factories import make_tournament
from tournaments import selectors, services
from tournaments.domain.match_structure import get_preset
from tournaments.models import EntryMember, Match, Round, StaffRole, Tournament
from tournaments.permissions import SYSTEM
from tournaments.services.backup import EVENT_MODELS, event_backup

pytestmark = pytest.mark.django_db


@dataclass(frozen=True)
class Other:
    """Ids of rows the tampered files point at: event B and people outside event A."""

    event: int
    entry: int
    member: int
    player: int
    player_name: str
    round: int
    outsider_id: int
    outsider_name: str


def _play_table(match: Match, by: Any) -> None:
    a, b = match.entry_a_id, match.entry_b_id
    services.match_set_die_roll(actor=SYSTEM, match=match, winner_entry=a)
    for number, first in ((1, a), (2, b), (3, a)):
        services.game_record(
            match=match, number=number, winner_entry=a, first_entry=first, actor=by
        )


def _build() -> tuple[dict[str, Any], Other]:
    """Event B in the database; event A exported, then deleted (its judge's account too)."""
    users = get_user_model().objects
    outsider = users.create_user(username="masik", email="masik@example.org")
    other, other_entries = make_tournament(entries=2, decks=False, owner=outsider)
    other = services.tournament_start(actor=SYSTEM, tournament=other)
    other_round = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(tournament=other, actor=outsider)
    )
    owner = users.create_user(username="szervezo", email="szervezo@example.org")
    judge = users.create_user(username="biro", email="biro@example.org")
    t, entries = make_tournament(entries=4, decks=True, owner=owner, planned_rounds=2)
    services.staff_appoint(tournament=t, user=judge, role=StaffRole.Role.JUDGE, actor=owner)
    services.player_claim_code(actor=SYSTEM, entry=entries[1])
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(tournament=t, actor=owner)
    )
    first_table = rnd.matches.order_by("table")[0]
    _play_table(first_table, judge)
    services.game_correct(
        game=selectors.game_at(match=first_table, number=3),
        winner_entry=first_table.entry_b_id,
        first_entry=first_table.entry_a_id,
        reason="misread slip",
        actor=judge,
    )
    services.deck_check_add(round=rnd, entry=entries[2], actor=judge)
    services.penalty_record(
        tournament=t, entry=entries[3], category="tardiness", kind="warning", round=rnd, actor=judge
    )
    services.standings_refresh(tournament_id=t.pk)
    document = event_backup(tournament=Tournament.objects.get(pk=t.pk))
    for model in reversed(EVENT_MODELS):
        pks = [o["pk"] for o in document["objects"] if o["model"] == model._meta.label_lower]
        model._default_manager.filter(pk__in=pks).delete()
    judge.delete()
    other_member = EntryMember.objects.get(entry=other_entries[0])
    return document, Other(
        event=other.pk,
        entry=other_entries[0].pk,
        member=other_member.pk,
        player=other_member.player_id,
        player_name=other_member.player.display_name,
        round=Round.objects.get(pk=other_round.pk).pk,
        outsider_id=outsider.pk,
        outsider_name=outsider.username,
    )


def _rows(document: dict[str, Any], label: str) -> list[dict[str, Any]]:
    return [o for o in document["objects"] if o["model"] == f"tournaments.{label}"]


def _fields(document: dict[str, Any], label: str, index: int = 0) -> dict[str, Any]:
    fields: dict[str, Any] = _rows(document, label)[index]["fields"]
    return fields


def _hkk(**changes: Any) -> dict[str, Any]:
    return {**get_preset("hkk").to_dict(), **changes}


def _set(label: str, **values: Any) -> Callable[[dict[str, Any], Other], None]:
    """Set fields of the first ``label`` row; a callable value is called with ``Other``."""

    def change(document: dict[str, Any], other: Other) -> None:
        _fields(document, label).update(
            {k: v(other) if callable(v) else v for k, v in values.items()}
        )

    return change


def _drop_field(label: str, name: str) -> Callable[[dict[str, Any], Other], None]:
    return lambda d, o: _fields(d, label).pop(name)


def _drop_key(*path: str | int) -> Callable[[dict[str, Any], Other], None]:
    def change(document: dict[str, Any], other: Other) -> None:
        node: Any = document
        for key in path[:-1]:
            node = node[key]
        del node[path[-1]]

    return change


def _duplicate(label: str, **values: Any) -> Callable[[dict[str, Any], Other], None]:
    def change(document: dict[str, Any], other: Other) -> None:
        row = copy.deepcopy(_rows(document, label)[0])
        row["fields"].update(values)
        document["objects"].append(row)

    return change


def _first_row(label: str, key: str, value: Any) -> Callable[[dict[str, Any], Other], None]:
    return lambda d, o: _rows(d, label)[0].__setitem__(key, value)


def _foreign_entry_in_game(document: dict[str, Any], other: Other) -> None:
    """The first game's winner: an entry of the file, but not one of that table's two."""
    game = _fields(document, "game")
    match = next(o for o in _rows(document, "match") if o["pk"] == game["match"])["fields"]
    seated = {match["entry_a"], match["entry_b"]}
    game["winner"] = next(o["pk"] for o in _rows(document, "entry") if o["pk"] not in seated)


def _correction_to_a_stranger(document: dict[str, Any], other: Other) -> None:
    """The correction's new winner: an entry of the file that does not play at that table."""
    correction = _fields(document, "gamecorrection")
    game = next(o for o in _rows(document, "game") if o["pk"] == correction["game"])["fields"]
    match = next(o for o in _rows(document, "match") if o["pk"] == game["match"])
    correction["new"] = {**correction["new"], "winner": _stranger(document, match)}


def _stranger(document: dict[str, Any], match: dict[str, Any]) -> int:
    return next(o["pk"] for o in _rows(document, "entry") if o["pk"] not in _match_entries(match))


def _standings_entry(value: Callable[[Other], Any]) -> Callable[[dict[str, Any], Other], None]:
    """The first standings row names ``value(other)`` as its entry."""

    def change(document: dict[str, Any], other: Other) -> None:
        _fields(document, "standingssnapshot")["rows"][0]["entry"] = value(other)

    return change


def _seat_in_wrong_match(document: dict[str, Any], other: Other) -> None:
    seat = _fields(document, "roundseat")
    seat["match"] = next(
        o["pk"] for o in _rows(document, "match") if seat["entry"] not in _match_entries(o)
    )


def _match_entries(row: dict[str, Any]) -> set[int]:
    return {row["fields"]["entry_a"], row["fields"]["entry_b"]}


def _second_current_list(document: dict[str, Any], other: Other) -> None:
    row = copy.deepcopy(_rows(document, "decksubmission")[0])
    row["pk"] += 1000
    row["fields"]["version"] += 1
    document["objects"].append(row)


def _take_over_player(document: dict[str, Any], other: Other) -> None:
    """A's first player becomes event B's player (same id and name), under A's organiser."""
    player = _rows(document, "player")[0]
    old, player["pk"] = player["pk"], other.player
    player["fields"].update(display_name=other.player_name, user=["szervezo"])
    for member in _rows(document, "entrymember"):
        if member["fields"]["player"] == old:
            member["fields"]["player"] = other.player


def _second_tournament(document: dict[str, Any], other: Other) -> None:
    row = copy.deepcopy(_rows(document, "tournament")[0])
    row["pk"] += 1000
    document["objects"].append(row)


#: name → change of the exported document (the name is the report's row label).
CASES: dict[str, Callable[[dict[str, Any], Other], None]] = {
    # Foreign keys into event B.
    "staff role for another event (outsider co-organiser)": _set(
        "staffrole", tournament=lambda o: o.event, role="organiser"
    ),
    "entry in another event": _set("entry", tournament=lambda o: o.event),
    "member in another event's entry": _set("entrymember", entry=lambda o: o.entry),
    "member naming another event": _set("entrymember", tournament=lambda o: o.event),
    "member is a player outside the file": _set("entrymember", player=lambda o: o.player),
    "deck list of another event's member": _set("decksubmission", member=lambda o: o.member),
    "round of another event": _set("round", tournament=lambda o: o.event),
    "match in another event's round": _set("match", round=lambda o: o.round),
    "match seats another event's entry": _set("match", entry_b=lambda o: o.entry),
    "game won by another event's entry": _set("game", winner=lambda o: o.entry),
    "seat in another event's round": _set("roundseat", round=lambda o: o.round),
    "penalty in another event": _set("penalty", tournament=lambda o: o.event),
    "penalty in another event's round": _set("penalty", round=lambda o: o.round),
    "deck check of another event's entry": _set("deckcheck", entry=lambda o: o.entry),
    "standings of another event": _set("standingssnapshot", tournament=lambda o: o.event),
    # Inconsistent within the file.
    "game won by an entry not at the table": _foreign_entry_in_game,
    "seat at a table the entry does not play": _seat_in_wrong_match,
    "correction naming an entry not at the table": _correction_to_a_stranger,
    "standings row of another event's entry": _standings_entry(lambda o: o.entry),
    # People outside the file.
    "staff role by another person's user id": _set("staffrole", user=lambda o: o.outsider_id),
    "staff role naming an unlisted username": _set("staffrole", user=lambda o: [o.outsider_name]),
    "owner by another person's user id": _set("tournament", owner=lambda o: o.outsider_id),
    # Choices and registries.
    "unknown staff role": _set("staffrole", role="owner"),
    "unknown event status": _set("tournament", status="archived"),
    "unknown event kind": _set("tournament", kind="trio"),
    "unknown first-player policy": _set("tournament", match_structure=_hkk(policy="coin_flip")),
    "unknown tiebreaker": _set("tournament", tiebreakers=["luck"]),
    "broken match structure": _set("tournament", match_structure={"policy": "hkk", "x": 1}),
    "no match structure": _set("tournament", match_structure={}),
    "an older backup's unknown policy column": _set(
        "tournament", match_structure={}, first_player_policy="coin_flip"
    ),
    "unknown round status": _set("round", status="paused"),
    "unknown penalty kind": _set("penalty", kind="ban"),
    "unknown seat": _set("entrymember", seat="C"),
    "unknown deck list format": _set("decksubmission", format_slug="nincs-ilyen"),
    "unknown event format": lambda d, o: d.__setitem__("format", "nincs-ilyen"),
    # Numbers out of range.
    "zero games per match": _set("tournament", match_structure=_hkk(games_per_match=0)),
    "games per match beyond a small integer": _set(
        "tournament", match_structure=_hkk(games_per_match=70000)
    ),
    "deck checks for 500% of the entries": _set("tournament", deck_check_percent=500),
    "negative registered round": _set("entry", registered_round=-1),
    "round number 0": _set("round", number=0),
    "game number beyond the match": _set("game", number=9),
    "table 0": _set("match", table=0),
    # Missing keys.
    "no objects": _drop_key("objects"),
    "no users": _drop_key("users"),
    "no format": _drop_key("format"),
    "row without pk": _drop_key("objects", 1, "pk"),
    "row without fields": _drop_key("objects", 1, "fields"),
    "row without model": _drop_key("objects", 1, "model"),
    "user without username": _drop_key("users", 0, "username"),
    "round without its seed": _drop_field("round", "seed"),
    "entry without its name": _drop_field("entry", "name"),
    "no tournament row": lambda d, o: d["objects"].pop(0),
    # Wrong types.
    "id is text": _first_row("entry", "pk", "abc"),
    "number is text": _set("entry", registered_round="three"),
    "fields is a list": _first_row("entry", "fields", []),
    "objects is a mapping": lambda d, o: d.__setitem__("objects", {"a": 1}),
    "users is a mapping": lambda d, o: d.__setitem__("users", {"a": 1}),
    "date-time is not a date-time": _set("round", published_at="yesterday"),
    "boolean is text": _set("game", is_draw="maybe"),
    "name is a number": _set("entry", name=12),
    "foreign key is text": _set("match", entry_a="x"),
    "tiebreakers is text": _set("tournament", tiebreakers="buchholz"),
    "user named by a nested list": _set("staffrole", user=[["biro"]]),
    "standings row names an object": _standings_entry(lambda o: {"pk": 1}),
    "game record names a list": _set("game", winner=[1]),
    "unknown field": _set("entry", is_superuser=True),
    "unknown model": lambda d, o: d["objects"].append(
        {"model": "auth.user", "pk": 999, "fields": {"username": "x"}}
    ),
    # Duplicated ids.
    "duplicated entry id": _duplicate("entry", name="Másolat"),
    "duplicated staff role id": _duplicate("staffrole", role="organiser"),
    "two tournaments": _second_tournament,
    "duplicated username": lambda d, o: d["users"].append(dict(d["users"][0])),
    "two current deck lists of one member": _second_current_list,
    "another event's player under another account": _take_over_player,
}


def test_an_older_backup_with_the_structure_columns_imports(catalogue, tmp_path):
    """A backup written while ``Tournament`` still mirrored its structure in three columns: the
    columns are folded into an empty structure (a stored one is kept)."""
    document, _other = _build()
    fields = _fields(document, "tournament")
    fields.update(first_player_policy="loser_chooses", games_per_match=3, stop_at_two_wins=True)
    fields["match_structure"] = {}
    path = tmp_path / "old.json"
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    call_command("import_event", str(path), verbosity=0)
    pk = next(o["pk"] for o in document["objects"] if o["model"] == "tournaments.tournament")
    structure = Tournament.objects.get(pk=pk).structure
    assert (structure.policy, structure.games_per_match, structure.ends_when_decided) == (
        "loser_chooses",
        3,
        True,
    )


def _counts() -> dict[str, int]:
    return {
        m._meta.label_lower: m._default_manager.count()
        for m in apps.get_models()
        if m._meta.managed and not m._meta.proxy
    }


def _attempt(document: dict[str, Any], path: Any) -> tuple[str, int, str]:
    """Import ``document``: ``(outcome, rows written, message)``; rolled back afterwards."""
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    before = _counts()
    with transaction.atomic():
        try:
            call_command("import_event", str(path), verbosity=0)
            outcome, message = "accepted", ""
        except CommandError as exc:
            outcome, message = "refused", str(exc)
        except Exception as exc:
            outcome, message = f"traceback ({type(exc).__name__})", str(exc)[:200]
        after = _counts()
        transaction.set_rollback(True)
    return outcome, sum(abs(after[k] - before[k]) for k in before), message


def test_every_tampered_backup_is_refused_and_writes_nothing(catalogue, tmp_path):
    document, other = _build()
    outcome, written, message = _attempt(document, tmp_path / "event.json")
    assert (outcome, message) == ("accepted", "")  # the untouched file imports
    assert written == len(document["objects"]) + 1  # every row, and the judge's account
    results = {}
    for name, change in CASES.items():
        tampered = copy.deepcopy(document)
        change(tampered, other)
        results[name] = _attempt(tampered, tmp_path / "tampered.json")
    wrong = {n: r for n, r in results.items() if r[:2] != ("refused", 0)}
    assert not wrong, wrong
    codes = {n: r[2].split(":")[0] for n, r in results.items()}
    assert set(codes.values()) == {"backup_refused", "format_missing", "event_rows_exist"}, codes
    assert not get_user_model().objects.filter(username="biro").exists()


def test_the_refusal_names_every_problem_by_row_and_key_in_hungarian(catalogue, tmp_path):
    document, other = _build()
    for change in (
        CASES["staff role for another event (outsider co-organiser)"],
        CASES["unknown penalty kind"],
        CASES["round without its seed"],
    ):
        change(document, other)
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(CommandError) as refused:
        call_command("import_event", str(path), verbosity=0)
    lines = str(refused.value).splitlines()
    staff = _position(document, "staffrole")
    assert lines[0].startswith("backup_refused: A mentést elutasítottuk")
    assert any(f"{staff}. sor" in line and "„tournament”" in line for line in lines[1:])
    assert any("„kind”" in line and "ban" in line for line in lines[1:])
    assert any("„seed”" in line and "hiányzik" in line for line in lines[1:])
    assert len(lines) == 4

    for row in document["objects"]:  # one more problem in every row: only 20 are listed
        row["fields"]["extra"] = 1
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(CommandError) as refused:
        call_command("import_event", str(path), verbosity=0)
    lines = str(refused.value).splitlines()
    total = len(document["objects"]) + 3
    assert f"talált hibák: {total}." in lines[0]
    assert len(lines) == 1 + 20 + 1 and lines[-1] == f"  … és még {total - 20}"


def _position(document: dict[str, Any], label: str) -> int:
    return next(
        i
        for i, o in enumerate(document["objects"], start=1)
        if o["model"] == f"tournaments.{label}"
    )


def test_a_backup_without_emails_and_claim_codes_imports_cleanly(catalogue, tmp_path):
    owner = get_user_model().objects.create_user(username="szervezo", email="szervezo@example.org")
    t, entries = make_tournament(entries=2, decks=False, owner=owner)
    player = services.player_claim_code(actor=SYSTEM, entry=entries[0])
    player.email = "kovacs.anna@example.org"
    player.save(update_fields=["email"])
    full, bare = tmp_path / "full.json", tmp_path / "bare.json"
    call_command("export_event", str(t.pk), str(full), verbosity=0)
    call_command("export_event", str(t.pk), str(bare), "--without-emails-and-codes", verbosity=0)
    text = bare.read_text(encoding="utf-8")
    assert player.claim_code in full.read_text() and "@example.org" in full.read_text()
    assert player.claim_code not in text and "@" not in text
    document = json.loads(text)
    assert document["emails_and_codes"] is False
    for model in reversed(EVENT_MODELS):
        pks = [o["pk"] for o in document["objects"] if o["model"] == model._meta.label_lower]
        model._default_manager.filter(pk__in=pks).delete()
    owner.delete()
    call_command("import_event", str(bare), verbosity=0)
    restored = Tournament.objects.get(pk=t.pk)
    assert restored.owner.username == "szervezo" and restored.owner.email == ""
    names = sorted(m.player.display_name for e in restored.entries.all() for m in e.members.all())
    assert names == ["P1", "P2"]
    players = [m.player for e in restored.entries.all() for m in e.members.all()]
    assert all(p.email == "" and p.claim_code == "" for p in players)
