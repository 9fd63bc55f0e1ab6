"""Person names in two parts (issue 21, item 3): stored family and given name, shown in the
active language's order (Hungarian family first, English given first) by one formatting
function, sorted by family name; typed and imported names split by the language's order;
the duplicate check works across the two orders; the data migration splits old names."""

from __future__ import annotations

from importlib import import_module
from typing import Any

import pytest
from django.apps import apps
from django.utils import translation

from tests.factories import UserFactory, make_tournament
from tournaments import selectors, services
from tournaments.models import Entry, Player
from tournaments.models.entries import person_name
from tournaments.permissions import SYSTEM
from tournaments.services.staff import player_for_user

pytestmark = pytest.mark.django_db


def _event() -> Any:
    t, _ = make_tournament(entries=0, decks=False)
    return t


def test_a_typed_name_is_split_in_the_pages_language_and_shown_in_the_readers() -> None:
    t = _event()
    with translation.override("hu"):
        hu = services.entry_register(tournament=t, players=["Kovács Anna"])
    with translation.override("en"):
        en = services.entry_register(tournament=t, players=["Ubul Új"])
    for entry, family, given in ((hu, "Kovács", "Anna"), (en, "Új", "Ubul")):
        player = entry.members.get().player
        assert (player.family_name, player.given_name) == (family, given)
        assert (entry.family_name, entry.given_name) == (family, given)
        assert entry.name == player.display_name == f"{family} {given}"  # stored family first
    with translation.override("hu"):
        assert selectors.names_by_entry(t) == {hu.pk: "Kovács Anna", en.pk: "Új Ubul"}
        assert str(en) == en.shown_name == "Új Ubul"
    with translation.override("en"):
        assert selectors.names_by_entry(t) == {hu.pk: "Anna Kovács", en.pk: "Ubul Új"}
        assert person_name("Kovács", "Anna") == "Anna Kovács"
        assert person_name("", "", "Kék Sárkányok") == "Kék Sárkányok"  # a team as named


def test_the_duplicate_check_finds_a_name_typed_in_either_order() -> None:
    t = _event()
    with translation.override("hu"):
        services.entry_register(tournament=t, players=["Kovács Anna"])
        assert services.same_name_entries(t, "kovacs anna") == ["Kovács Anna"]
    with translation.override("en"):
        assert services.same_name_entries(t, "Anna Kovacs") == ["Kovács Anna"]


def test_an_account_gives_family_and_given_name_and_the_username_is_the_fallback() -> None:
    user: Any = UserFactory(first_name="Ubul", last_name="Új")
    player = player_for_user(user)
    assert (player.family_name, player.given_name, player.display_name) == ("Új", "Ubul", "Új Ubul")
    bare: Any = UserFactory(username="csak_nev", first_name="", last_name="")
    assert player_for_user(bare).display_name == "csak_nev"


def test_renaming_a_player_keeps_the_parts_in_step() -> None:
    player = Player.objects.create(family_name="Kovács", given_name="Anna")
    player = Player.objects.get(pk=player.pk)
    player.display_name = "Kiss Béla"
    player.save(update_fields=["display_name"])
    player.refresh_from_db()
    assert (player.family_name, player.given_name, player.name_key) == ("Kiss", "Béla", "kiss bela")
    player.given_name = "Bence"
    player.save()
    player.refresh_from_db()
    assert player.display_name == "Kiss Bence"


def test_imports_split_by_the_language_or_take_two_columns() -> None:
    t = _event()
    with translation.override("en"):
        services.entries_import(
            actor=SYSTEM, tournament=t, text="Anna Kovács\nMadonna\n", dry_run=False
        )
    with translation.override("hu"):
        services.entries_import(
            actor=SYSTEM,
            tournament=t,
            text="vezetéknév;keresztnév;e-mail\nÚj;Ubul Ödön;u@example.org\n",
            dry_run=False,
        )
        result = services.entries_import(actor=SYSTEM, tournament=t, text="Kovács Anna\n")
    got = {(p.family_name, p.given_name) for p in Player.objects.filter(memberships__tournament=t)}
    assert got == {("Kovács", "Anna"), ("Madonna", ""), ("Új", "Ubul Ödön")}
    assert Entry.objects.get(tournament=t, family_name="Új").name == "Új Ubul Ödön"
    assert result.rows[0].warnings  # already registered (from the English import)


def test_pairings_by_name_standings_ties_and_entries_sort_by_family_name() -> None:
    t = _event()
    with translation.override("en"):
        for name in ("Zoe Adams", "Anna Kovács", "Béla Kovács", "Ubul Új"):
            e = services.entry_register(tournament=t, players=[name])
            services.entry_override_deck(actor=SYSTEM, entry=e, reason="test without decks")
    services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t)
    )
    with translation.override("en"):
        rows = selectors.pairings_by_name(selectors.round_match_views(round=rnd))
        assert [r["name"] for r in rows] == ["Zoe Adams", "Anna Kovács", "Béla Kovács", "Ubul Új"]
        views = selectors.entry_views(tournament=t)
        assert [v.name for v in views] == ["Zoe Adams", "Anna Kovács", "Béla Kovács", "Ubul Új"]
    standings = services.standings_rows(tournament=t)  # no results yet: all tied
    assert [r["name"] for r in standings] == ["Adams Zoe", "Kovács Anna", "Kovács Béla", "Új Ubul"]
    with translation.override("en"):
        assert [selectors.stored_row_name(r) for r in standings][1] == "Anna Kovács"
        assert "Anna Kovács" in services.standings_csv(t)


def test_the_data_migration_splits_old_names() -> None:
    migration = import_module("tournaments.migrations.0021_split_person_names")
    t = _event()
    signed_up: Any = UserFactory(first_name="Ubul", last_name="Új")
    with translation.override("hu"):
        imported = services.entry_register(tournament=t, players=["Kovács Anna"])
    own = services.entry_self_register(tournament=t, user=signed_up)
    # as before the migration: one string, the account's name given name first
    Player.objects.filter(user=signed_up).update(
        display_name="Ubul Új", family_name="", given_name=""
    )
    Entry.objects.filter(pk=own.pk).update(name="Ubul Új", family_name="", given_name="")
    Player.objects.filter(memberships__entry=imported).update(family_name="", given_name="")
    Entry.objects.filter(pk=imported.pk).update(family_name="", given_name="")
    migration.split_names(apps, None)
    own.refresh_from_db()
    imported.refresh_from_db()
    assert (own.family_name, own.given_name, own.name) == ("Új", "Ubul", "Új Ubul")
    assert (imported.family_name, imported.given_name) == ("Kovács", "Anna")
    assert Player.objects.get(user=signed_up).name_key == "uj ubul"
