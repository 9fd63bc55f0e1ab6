"""Backup and restore of an event (``manage.py export_event`` / ``import_event``): an event built
through the services — deck lists, three rounds with results, a drop, a correction, a pairing
swap, a result report, a deck check, staff — is exported, the database flushed, the catalogue's
format put back and the file imported; a canonical dump and the standings are the same."""

from __future__ import annotations

import datetime
import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from decks.models import Format
from hkk_tournament.errors import Conflict, ValidationFailed
from tests.api.tournaments.helpers import play_round, url
from tests.factories import UserFactory, ensure_format, make_tournament
from tournaments import services
from tournaments.models import Entry, Player, StaffRole, Tournament
from tournaments.models.entries import name_key
from tournaments.permissions import SYSTEM
from tournaments.services.backup import (
    EVENT_MODELS,
    OUTSIDE_EVENT_BACKUP,
    event_backup,
    event_restore,
)

pytestmark = pytest.mark.django_db(transaction=True)


def _build_event():
    owner = UserFactory(username="szervezo")
    judge = UserFactory(username="biro")
    player_user = UserFactory(username="jatekos")
    t, entries = make_tournament(entries=6, decks=True, owner=owner, planned_rounds=3)
    services.staff_appoint(tournament=t, user=judge, role=StaffRole.Role.JUDGE, actor=owner)
    member = entries[0].members.get()
    member.player.user = player_user
    member.player.save(update_fields=["user"])
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    api = Client()
    api.force_login(owner)
    for number in (1, 2, 3):
        rnd = services.round_pair_next(tournament=t, actor=owner)
        if number == 1:
            services.round_swap_pairings(round=rnd, table_x=1, table_y=2, swap="b", actor=owner,
                                         reason="same club")  # fmt: skip
        rnd = services.round_publish(actor=SYSTEM, round=rnd)
        if number == 1:
            services.deck_check_add(round=rnd, entry=rnd.matches.order_by("table")[0].entry_a_id,
                                    actor=judge)  # fmt: skip
        play_round(api, t, rnd)
        if number == 2:
            m = rnd.matches.filter(entry_b__isnull=False).order_by("table").first()
            r = api.post(
                url(t, f"matches/{m.pk}/games/"),
                {"number": 3, "winner": None, "first": m.entry_a_id, "correction": True,
                 "reason": "misread slip"},
                content_type="application/json",
            )  # fmt: skip
            assert r.status_code == 200, r.json()
        services.round_finish(actor=SYSTEM, round=rnd)
        if number == 1:
            services.entry_drop(entry=entries[5])
    services.standings_refresh(tournament_id=t.pk)
    return Tournament.objects.get(pk=t.pk)


def _canonical(document: dict) -> dict:
    return {k: v for k, v in document.items() if k != "exported_at"}


def _stored(document: dict) -> dict:
    """Every row the ``document`` names, as the database holds it (date-times as objects;
    users and the format, which a new database numbers anew, by their names)."""
    labels = {m._meta.label_lower: m for m in EVENT_MODELS}
    ids: dict[str, list] = {}
    for o in document["objects"]:
        ids.setdefault(o["model"], []).append(o["pk"])
    names = dict(get_user_model().objects.values_list("pk", "username"))
    slugs = dict(Format.objects.values_list("pk", "slug"))
    stored = {}
    for label, pks in ids.items():
        model = labels[label]
        renamed = {
            f.attname: names if f.related_model is get_user_model() else slugs
            for f in model._meta.concrete_fields
            if f.related_model in (get_user_model(), Format)
        }
        rows = model._default_manager.filter(pk__in=pks).order_by("pk").values()
        stored[label] = [
            {k: renamed[k].get(v) if k in renamed else v for k, v in row.items()} for row in rows
        ]
    return stored


def _sub_millisecond(stored: dict) -> int:
    """How many stored date-times have digits below the millisecond."""
    return sum(
        1
        for rows in stored.values()
        for row in rows
        for value in row.values()
        if isinstance(value, datetime.datetime) and value.microsecond % 1000
    )


def test_an_event_round_trips_losslessly_through_an_empty_database(catalogue, tmp_path):
    t = _build_event()
    before = event_backup(tournament=t)
    stored_before = _stored(before)
    # The event's own clock writes microseconds; those are what a millisecond export would cut.
    assert _sub_millisecond(stored_before) > 20
    standings_before = services.standings_rows(tournament=t)
    counts = {m._meta.label_lower: 0 for m in EVENT_MODELS}
    for o in before["objects"]:
        counts[o["model"]] += 1
    # Every part of the event is in the file.
    assert counts["tournaments.round"] == 3 and counts["tournaments.gamecorrection"] == 1
    assert counts["tournaments.decksubmission"] >= 6 and counts["tournaments.deckcheck"] == 1
    assert counts["tournaments.pairingchange"] == 1 and counts["tournaments.staffrole"] == 1
    assert counts["tournaments.standingssnapshot"] == 1 and counts["tournaments.game"] > 0
    path = tmp_path / "event.json"
    call_command("export_event", str(t.pk), str(path), verbosity=0)

    call_command("flush", interactive=False, verbosity=0)
    assert not Tournament.objects.exists() and not get_user_model().objects.exists()
    ensure_format("hkk")  # what load_catalogue puts back in a new database

    call_command("import_event", str(path), verbosity=0)
    restored = Tournament.objects.get(pk=t.pk)
    # Every value, date-times to the microsecond, is what the database held before.
    assert _stored(before) == stored_before
    after = event_backup(tournament=restored)
    written = json.loads(path.read_text())
    again = tmp_path / "again.json"
    call_command("export_event", str(t.pk), str(again), verbosity=0)
    assert _canonical(json.loads(again.read_text())) == _canonical(written)
    assert _without_export_time(again.read_text()) == _without_export_time(path.read_text())
    differing = [
        (a, b) for a, b in zip(after["objects"], written["objects"], strict=False) if a != b
    ]
    assert not differing, differing[:3]
    assert _canonical(after) == _canonical(written)
    assert _canonical(after) == _canonical(before)
    assert services.standings_rows(tournament=restored) == standings_before
    users = get_user_model().objects.order_by("username")
    assert [u.username for u in users] == ["biro", "jatekos", "szervezo"]
    assert not any(u.has_usable_password() for u in users)
    # New rows after the restore get fresh ids (the sequences moved past the restored ones).
    assert UserFactory().pk > max(u.pk for u in users)

    with pytest.raises(Conflict):  # restoring twice would overwrite: refused
        event_restore(document=json.loads(path.read_text()))


def _without_export_time(text: str) -> str:
    return re.sub(r'"exported_at": "[^"]*"', "", text)


def test_a_file_that_is_not_a_backup_is_refused(db):
    with pytest.raises(ValidationFailed):
        event_restore(document={"kind": "something else"})
    with pytest.raises(ValidationFailed):
        event_restore(document={"kind": "hkk-tournament-event", "version": 99})


def test_every_model_of_the_tournaments_app_is_in_the_backup():
    from django.apps import apps

    models = set(apps.get_app_config("tournaments").get_models())
    assert models == set(EVENT_MODELS) | set(OUTSIDE_EVENT_BACKUP)
    assert not set(EVENT_MODELS) & set(OUTSIDE_EVENT_BACKUP)


def test_a_restore_recomputes_the_duplicate_checks_name_keys(catalogue):
    """Rows are written raw, so an old backup (no keys) or an edited one (wrong keys) would leave
    the import's duplicate check blind; the restore computes every key from the names."""
    t = _build_event()
    document = event_backup(tournament=t)
    keyed = {o["model"] for o in document["objects"] if "name_key" in o["fields"]}
    assert keyed == {"tournaments.player", "tournaments.entry"}
    for o in document["objects"]:
        if "name_key" in o["fields"]:
            o["fields"]["name_key"] = "wrong"
    call_command("flush", interactive=False, verbosity=0)
    ensure_format("hkk")
    restored = event_restore(document=document).tournament
    entries = Entry.objects.filter(tournament=restored)
    assert entries and all(e.name_key == name_key(e.name) for e in entries)
    players = Player.objects.filter(memberships__entry__tournament=restored).distinct()
    assert players and all(p.name_key == name_key(p.display_name) for p in players)
