"""WoW TCG formats read as of the event date, in the database and in an event; fan-made
editions imported by an organiser (docs/rules.md §10, §17). Real bundled catalogue."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import translation

from decks.models import Card, Edition, Game
from decks.selectors.cache import clear_caches
from decks.selectors.formats import format_spec
from decks.services.validation import deck_validate
from tournaments import services
from tournaments.permissions import SYSTEM
from tournaments.services.deck_lists import event_date

pytestmark = pytest.mark.django_db
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "wowtcg"


@pytest.fixture(autouse=True)
def _fresh_caches(catalogue):
    clear_caches()
    yield
    clear_caches()


def block_list(name: str) -> str:
    return (FIXTURES / f"{name}-block.txt").read_text(encoding="utf-8")


def test_the_catalogue_is_complete_and_names_its_source():
    game = Game.objects.get(slug="wow")
    assert game.coverage == "complete"
    assert "WoWTCG-Tracker" in game.catalogue_source
    assert Card.objects.filter(game=game).count() == 6425
    assert Edition.objects.get(game=game, code="Reign of Fire").block == "Timewalker"
    assert Edition.objects.get(game=game, code="War of the Elements").released == "2011-04-26"


def test_core_follows_the_event_date():
    core_2011 = format_spec("wow-core", on=date(2011, 6, 1)).editions
    assert {"Scourgewar", "Icecrown", "War of the Elements"} <= core_2011.legal
    assert {"Heroes of Azeroth", "Throne of the Tides"} <= core_2011.not_legal
    core_2013 = format_spec("wow-core", on=date(2013, 12, 31)).editions
    assert {"Worldbreaker", "Tomb of the Forgotten", "Reign of Fire"} <= core_2013.legal
    assert "Icecrown" in core_2013.not_legal


@pytest.mark.parametrize("name", ["icecrown", "worldbreaker", "aftermath", "timewalkers"])
def test_later_block_lists_are_legal_in_constructed_and_classic(name):
    assert deck_validate(format_slug="wow-constructed", text=block_list(name)).legal
    assert deck_validate(format_slug="wow-classic", text=block_list(name)).legal


def test_an_event_validates_lists_as_of_its_date():
    t = services.tournament_create(owner=None, name="Core 2011", format_slug="wow-core")
    t.starts_at = datetime(2011, 2, 5, 10, 0, tzinfo=UTC)
    t.save(update_fields=["starts_at"])
    t = services.tournament_open_registration(actor=SYSTEM, tournament=t)
    assert event_date(t) == date(2011, 2, 5)
    entry = services.entry_register_player(tournament=t, player_name="Kovács Anna")
    player = entry.members.get().player
    ok = services.deck_submit(
        actor=SYSTEM, tournament=t, entry=entry, player=player, text=block_list("icecrown")
    )
    assert ok.legal
    t.starts_at = datetime(2013, 9, 7, 10, 0, tzinfo=UTC)
    t.save(update_fields=["starts_at"])
    late = services.deck_submit(
        actor=SYSTEM, tournament=t, entry=entry, player=player, text=block_list("icecrown")
    )
    assert not late.legal
    assert {e["code"] for e in late.result["errors"]} == {"card_not_legal_in_format"}


FAN = {
    "edition": "Próba Kiegészítő",
    "source": "WoW TCG revival test set, made for this test (CC0)",
    "cards": [
        {
            "name": "Próba Orc Harcos",
            "type": "Ally",
            "race": "Orc",
            "classes": ["Warrior"],
            "number": "1",
            "cost": "2",
        },
        {
            "name": "Próba Ütés",
            "type": "Ability",
            "classes": ["Warrior"],
            "number": "2",
            "hero_required": ["Arms"],
        },
        {"name": "Próba Sereg", "type": "Ally", "race": "Orc", "unlimited": True, "number": "3"},
    ],
}


def _import(tmp_path, data, name="fan.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    out = StringIO()
    with translation.override("en"):
        call_command("import_cards", "wow", str(path), stdout=out)
    return out.getvalue()


def test_an_organiser_imports_a_fan_made_edition(tmp_path):
    assert "3 created" in _import(tmp_path, FAN)
    assert "0 created, 0 updated, 3 unchanged" in _import(tmp_path, FAN)
    grunt = Card.objects.get(game__slug="wow", name="Próba Orc Harcos")
    assert grunt.faction == "Horde"  # derived from the race
    assert grunt.attributes["provenance"] == FAN["source"]
    assert grunt.attributes["set_group"] == "Fan-made"
    assert list(grunt.editions.values_list("code", flat=True)) == ["Próba Kiegészítő"]
    assert Card.objects.get(name="Próba Sereg").unlimited
    assert Card.objects.get(name="Próba Ütés").requires == {"talent": ["Arms"]}
    clear_caches()
    text = block_list("timewalkers") + "8 Próba Sereg\n"
    assert deck_validate(format_slug="wow-classic", text=text).legal
    core = deck_validate(format_slug="wow-core", text=text)
    assert core.status == "unverified"  # a fan-made edition has no block


def test_a_fan_made_csv_imports_and_a_bad_file_writes_nothing(tmp_path):
    csv_text = (
        "edition,source,name,type,race,classes,faction,number,unlimited,hero_required\n"
        "Próba CSV,made for this test,Próba Törpe,Ally,Dwarf,Warrior,,1,,\n"
        "Próba CSV,made for this test,Próba Hős,Hero,Human,Paladin,Alliance,2,,\n"
    )
    assert "2 created" in _import(tmp_path, csv_text, "fan.csv")
    assert Card.objects.get(name="Próba Törpe").faction == "Alliance"
    assert Card.objects.get(name="Próba Hős").kind == "hero"
    bad = {**FAN, "edition": "Rossz", "cards": [*FAN["cards"], {"name": "X", "type": "Spell"}]}
    with pytest.raises(CommandError) as info:
        _import(tmp_path, bad)
    assert info.value.returncode == 2
    assert not Edition.objects.filter(code="Rossz").exists()
    with pytest.raises(CommandError):
        _import(tmp_path, {"cards": FAN["cards"]})  # no edition, no source
