"""Catalogue models, commands and the DB → domain adapter (database tests)."""

from __future__ import annotations

import importlib
import json
from datetime import date
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import translation

from decks.domain.normalize import normalize_name
from decks.domain.types import CardKind, SideboardMode
from decks.errors import UnknownFormat
from decks.models import (
    BanKind,
    BanList,
    BanListEntry,
    Card,
    CatalogueVersion,
    Edition,
    Format,
    Game,
)
from decks.selectors.cache import clear_caches
from decks.selectors.cards import card_to_domain, cards_for_game, get_card_index
from decks.selectors.formats import format_spec

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_caches():
    clear_caches()
    yield
    clear_caches()


@pytest.fixture(autouse=True)
def _english():
    # The commands' messages are asserted in English (the site default is Hungarian).
    with translation.override("en"):
        yield


def _load() -> str:
    out = StringIO()
    call_command("load_catalogue", stdout=out)
    return out.getvalue()


def _empty_catalogue() -> None:
    # tests/conftest.py loads the catalogue once per session; start these tests from scratch.
    Card.objects.all().delete()
    Edition.objects.all().delete()


def test_load_catalogue_is_idempotent():
    _empty_catalogue()
    first = _load()
    assert "wow: 6425 created, 0 updated, 0 unchanged" in first
    assert "hkk: 841 created, 0 updated, 0 unchanged" in first
    version = CatalogueVersion.current()
    second = _load()
    assert "wow: 0 created, 0 updated, 6425 unchanged" in second
    assert "hkk: 0 created, 0 updated, 841 unchanged" in second
    assert CatalogueVersion.current() == version  # nothing written
    assert Card.objects.filter(game__slug="wow").count() == 6425
    assert Edition.objects.filter(game__slug="hkk", code="195").exists()
    assert Edition.objects.get(game__slug="hkk", code="1").name == "Alappakli, 1. kiadás"


def test_reload_keeps_admin_edits_until_the_source_changes():
    _load()
    row = Card.objects.get(game__slug="wow", external_id="188")
    row.unlimited = False
    row.copy_group = "Guards"
    row.save()  # an organiser's edit in the admin
    assert "wow: 0 created, 0 updated, 6425 unchanged" in _load()
    row.refresh_from_db()
    assert row.unlimited is False
    # The source record changed (simulated by a stale fingerprint): facts are rewritten,
    # the judge's copy group stays.
    Card.objects.filter(pk=row.pk).update(source_hash="stale")
    row.editions.clear()
    assert "wow: 0 created, 1 updated, 6424 unchanged" in _load()
    row.refresh_from_db()
    assert row.unlimited is True
    assert row.copy_group == "guards"
    assert list(row.editions.values_list("code", flat=True)) == ["Heroes of Azeroth"]


def test_adapter_round_trips_loader_facts():
    _load()
    arochos = card_to_domain(Card.objects.get(game__slug="hkk", external_id="9219"))
    assert arochos.kind is CardKind.HORDE_COMMANDER
    assert arochos.colours == ()
    assert arochos.copy_group == normalize_name("Arochos (2020)")
    boris = card_to_domain(Card.objects.get(game__slug="wow", external_id="1"))
    assert boris.kind is CardKind.HERO
    assert boris.hero_traits["profession"] == frozenset({"Enchanting", "Tailoring"})
    assert boris.attributes["editions"] == ("Heroes of Azeroth",)
    wow_cards = cards_for_game("wow")
    assert len(wow_cards) == 6425
    assert sum(1 for c in wow_cards if c.name == "Death Coil") == 2


def test_unknown_colours_become_none():
    game = Game.objects.get(slug="hkk")
    row = Card.objects.create(
        game=game, external_id="1", name="  Titok ", colours_unknown=True, kind="card"
    )
    assert row.name == "Titok" and row.normalized_name == "titok"
    assert card_to_domain(row).colours is None


def test_card_index_is_cached_and_invalidated_by_edits():
    _load()
    index = get_card_index()
    assert get_card_index() is index
    assert index.lookup("arochos (2020)", "hkk").id == "9219"
    row = Card.objects.get(game__slug="hkk", external_id="9219")
    row.name = "Arochos (2021)"
    row.save()  # post_save bumps the catalogue version
    clear_caches()  # skip the one-second re-check interval
    fresh = get_card_index()
    assert fresh is not index
    assert fresh.lookup("Arochos (2021)", "hkk").id == "9219"


def _import(tmp_path, data) -> str:
    path = tmp_path / "cards.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    out = StringIO()
    call_command("import_cards", "hkk", str(path), stdout=out)
    return out.getvalue()


def test_import_cards_hkk(tmp_path):
    data = [
        {
            "ID": 90001,
            "name": "Próba sárkány",
            "type": ["Szörny", "Sárkány"],
            "color": ["Nincs", "Leah"],
            "commonness": "rare",
            "editions": [1, 226],
            "text": "ignored",
            "link": "ignored",
        },
        {
            "ID": 90002,
            "name": "Próba szabálylap",
            "type": ["Szabálylap"],
            "color": ["Nincs", "Nincs"],
            "commonness": "uncommon",
            "editions": [1],
        },
    ]
    out = _import(tmp_path, data)
    assert "2 created, 0 updated, 0 unchanged" in out
    dragon = Card.objects.get(game__slug="hkk", external_id="90001")
    assert dragon.colours == ["Leah"] and not dragon.colours_unknown
    assert set(dragon.editions.values_list("code", flat=True)) == {"1", "226"}
    assert "text" not in dragon.attributes
    rule = card_to_domain(Card.objects.get(game__slug="hkk", external_id="90002"))
    assert rule.kind is CardKind.RULE_CARD and rule.colours == ()
    assert "0 created, 0 updated, 2 unchanged" in _import(tmp_path, {"cards": data})


def test_import_cards_bad_json_writes_nothing(tmp_path):
    good = {"ID": 90003, "name": "Jó lap", "type": ["Azonnali"], "color": ["Raia"]}
    for content in ("[{broken", json.dumps([good, {"ID": 90004, "name": ""}])):
        with pytest.raises(CommandError) as info:
            _import(tmp_path, content)
        assert info.value.returncode == 2
        assert "nothing was imported" in str(info.value)
    assert not Card.objects.filter(external_id__in=["90003", "90004"]).exists()


def test_import_cards_unknown_game(tmp_path):
    path = tmp_path / "x.json"
    path.write_text("[]", encoding="utf-8")
    with pytest.raises(CommandError, match="No importer") as info:
        call_command("import_cards", "nosuchgame", str(path))
    assert info.value.returncode == 2


def test_seeded_formats():
    hag = format_spec("hkk-hagyomanyos", on=date(2025, 6, 1))
    assert (hag.min_main, hag.sideboard_mode, hag.sideboard_size) == (50, SideboardMode.EXACT, 30)
    assert hag.colour_limit == 3 and hag.copy_limit == 3
    assert hag.colours_not_counted == {"Színtelen", "Bufa"}
    assert {"tűzmadár (2020)", "alanor (cm)", "krigis, a lélekkufár"} <= hag.banned
    assert len(hag.banned) == 14 + 4
    base = format_spec("hkk", on=date(2025, 6, 1))
    assert base.min_main == 45 and base.sideboard_mode is SideboardMode.ANY
    assert base.banned == {
        "a művészet ereje (cm)",
        "cunami teknős (cm)",
        "alanor (cm)",
        "beholder mágus (cm)",
    }
    retro = format_spec("hkk-retro", on=date(2025, 6, 1))
    assert retro.sideboard_only == {"tiltott mágia"} and retro.colour_limit == 4
    paros = format_spec("hkk-paros", on=date(2025, 6, 1))
    assert paros.params == {"pair": True} and len(paros.banned) == 25 + 4
    wow = format_spec("wow-constructed", on=date(2025, 6, 1))
    assert (wow.min_main, wow.sideboard_size, wow.copy_limit) == (60, 10, 4)
    assert Format.objects.get(slug="wow-constructed").match_structure["policy"] == "wow"
    for slug in ("bluemoon-advanced", "bluemoon-people"):
        spec = format_spec(slug)
        assert spec.rule_set == slug and spec.game == "bluemoon"
        assert spec.params == {"deck_size": 30, "moon_budget": 10}
    # The migration's frozen normalisation agrees with the domain's.
    for entry in BanListEntry.objects.all():
        assert entry.normalized_name == normalize_name(entry.card_name)


def test_format_spec_respects_effective_dates():
    ban_list = BanList.objects.get(slug="hkk-hagyomanyos")
    BanListEntry.objects.create(
        ban_list=ban_list, card_name="Jövőbeli Lap", effective_from=date(2030, 1, 1)
    )
    BanListEntry.objects.create(
        ban_list=ban_list,
        card_name="Régi  Lap",
        effective_from=date(2020, 1, 1),
        effective_until=date(2024, 12, 31),
    )
    BanListEntry.objects.create(
        ban_list=ban_list,
        card_name="Csak Kiegészítő",
        kind=BanKind.SIDEBOARD_ONLY,
        effective_from=date(2024, 1, 1),
    )
    now = format_spec("hkk-hagyomanyos", on=date(2025, 6, 1))
    assert "jövőbeli lap" not in now.banned
    assert "régi lap" not in now.banned
    assert now.sideboard_only == {"csak kiegészítő"}
    past = format_spec("hkk-hagyomanyos", on=date(2024, 12, 31))
    assert "régi lap" in past.banned
    assert "tűzmadár (2020)" not in past.banned  # the crawled list starts 2025-01-01
    future = format_spec("hkk-hagyomanyos", on=date(2030, 1, 1))
    assert "jövőbeli lap" in future.banned
    # Shared list: the all-events entry reaches every HKK format.
    assert "alanor (cm)" in format_spec("hkk-retro", on=date(2025, 6, 1)).banned


def test_format_spec_unknown_or_inactive():
    with pytest.raises(UnknownFormat):
        format_spec("no-such-format")
    Format.objects.filter(slug="hkk-retro").update(is_active=False)
    CatalogueVersion.bump()
    clear_caches()
    with pytest.raises(UnknownFormat):
        format_spec("hkk-retro")


def test_format_spec_cache_sees_admin_edit():
    spec = format_spec("hkk", on=date(2025, 6, 1))
    assert format_spec("hkk", on=date(2025, 6, 1)) is spec
    fmt = Format.objects.get(slug="hkk")
    fmt.min_main = 40
    fmt.save()
    clear_caches()
    assert format_spec("hkk", on=date(2025, 6, 1)).min_main == 40


def test_seed_migration_reverse_and_forward():
    seed = importlib.import_module("decks.migrations.0002_seed_formats")
    from django.apps import apps

    seed.unseed(apps, None)
    assert not Format.objects.filter(slug="hkk").exists()
    assert not BanList.objects.exists()
    seed.seed(apps, None)
    assert Format.objects.get(slug="hkk-retro").ban_lists.count() == 2


def test_admin_pages_render(admin_client):
    fmt = Format.objects.get(slug="hkk-retro")
    ban_list = BanList.objects.get(slug="hkk-retro")
    card = Card.objects.filter(game__slug="hkk").first()
    for url in [
        f"/admin/decks/card/?q=arochos&game__id__exact={card.game_id}",
        "/admin/decks/card/?kind__exact=horde_commander",
        f"/admin/decks/card/{card.pk}/change/",
        f"/admin/decks/format/{fmt.pk}/change/",
        f"/admin/decks/banlist/{ban_list.pk}/change/",
        "/admin/decks/edition/?q=Alappakli",
    ]:
        response = admin_client.get(url)
        assert response.status_code == 200, url
    body = admin_client.get("/admin/decks/card/?q=arochos").content.decode()
    assert "Arochos (2020)" in body


@pytest.mark.django_db
def test_a_game_the_bundled_data_creates_starts_with_the_bundled_coverage():
    """A database whose game rows were removed (a flush, a fresh install without the seed
    migration's rows) must not come back "complete" for the HKK sample."""
    from decks.management.commands.load_catalogue import BUNDLED_COVERAGE
    from decks.services.catalogue_sync import catalogue_sync

    assert BUNDLED_COVERAGE["hkk"] == "partial"
    catalogue_sync(game_slug="ujjatek", cards=[], coverage="partial")
    assert Game.objects.get(slug="ujjatek").coverage == "partial"
    Game.objects.filter(slug="ujjatek").update(coverage="complete")  # the organiser decides
    catalogue_sync(game_slug="ujjatek", cards=[], coverage="partial")
    assert Game.objects.get(slug="ujjatek").coverage == "complete"


@pytest.mark.django_db
def test_the_card_index_follows_a_coverage_change_made_without_a_version_bump(catalogue):
    from decks.domain.types import Coverage
    from decks.selectors.cards import get_card_index

    assert get_card_index().coverage("hkk") == Coverage.PARTIAL
    Game.objects.filter(slug="hkk").update(coverage="complete")  # no signal, no version bump
    assert get_card_index().coverage("hkk") == Coverage.COMPLETE
    Game.objects.filter(slug="hkk").update(coverage="partial")
    assert get_card_index().coverage("hkk") == Coverage.PARTIAL
