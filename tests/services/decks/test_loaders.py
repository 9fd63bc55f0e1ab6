"""Pure loader tests (no database): WoW CSV traps, HKK kinds/colours, publisher JSON."""

from __future__ import annotations

import json

import pytest

from decks.domain.normalize import normalize_name
from decks.domain.types import CardKind
from decks.loaders import IMPORTERS, CatalogueFormatError, get_importer, hkk, wowtcg


@pytest.fixture(scope="module")
def wow():
    cards = wowtcg.parse_csv()
    return {card.id: card for card in cards}


@pytest.fixture(scope="module")
def hkk_sample():
    return {card.id: card for card in hkk.parse_sample_csv()}


def test_wow_loads_every_row(wow):
    assert len(wow) == 3186
    assert sum(1 for c in wow.values() if c.kind is CardKind.HERO) == 231  # 232 minus 1 master


def test_wow_ally_class_is_not_an_icon(wow):
    # 1138 Adyen the Lightwarden: a Paladin ally, faction Neutral.
    ally = wow["1138"]
    assert ally.types == ("Ally",)
    assert ally.class_icons == frozenset()
    assert ally.attributes["ally_class"] == ["Paladin"]
    assert ally.attributes["reputation"] == "Aldor"
    assert ally.faction is None
    # An Alliance ally carries the faction icon only.
    grunts = wow["188"]
    assert grunts.name == "Ironforge Guards"
    assert grunts.faction == "Alliance"
    assert grunts.class_icons == frozenset()


def test_wow_multi_class_codes_are_decoded(wow):
    assert wowtcg.decode_classes("MgPrWk") == {"Mage", "Priest", "Warlock"}
    assert wowtcg.decode_classes("DkPaWr") == {"Death Knight", "Paladin", "Warrior"}
    assert wowtcg.decode_classes("DkHuPaWrWr") == {"Death Knight", "Hunter", "Paladin", "Warrior"}
    assert wowtcg.decode_classes("Hunter ") == {"Hunter"}
    # 2943 Icy Blast Amulet: class "DkHuPaRoShPa" on an item → class icons.
    assert wow["2943"].class_icons == {"Death Knight", "Hunter", "Paladin", "Rogue", "Shaman"}
    assert wow["2730"].class_icons == {"Paladin", "Warrior"}


def test_wow_any_means_no_class_icon(wow):
    assert wowtcg.decode_classes("Any") == frozenset()
    diplomacy = wow["489"]  # class Any, Alliance racial ability, "Human Hero Required"
    assert diplomacy.class_icons == frozenset()
    assert diplomacy.faction == "Alliance"
    assert diplomacy.requires == {"race": {"Human"}}


def test_wow_unknown_class_code_is_an_error():
    with pytest.raises(CatalogueFormatError):
        wowtcg.decode_classes("XyZz")


def test_wow_unlimited_comes_from_type_tags(wow):
    unlimited = {c.name for c in wow.values() if c.unlimited}
    assert len(unlimited) == 10
    assert {"Orgrimmar Grunts", "Ironforge Guards", "Sunseeker Astromage"} <= unlimited
    assert not wow["1"].unlimited


def test_wow_names_are_stripped(wow):
    assert all(c.name == c.name.strip() for c in wow.values())
    assert any(c.name == "Ta'zo" for c in wow.values())  # "Ta'zo " in the source


def test_wow_reprinted_names_stay_separate_cards(wow):
    for name, ids in {
        "Death Coil": {"763", "2897"},
        "Surge of Life": {"463", "3044"},
        "Paladin Training": {"988", "3168"},
    }.items():
        found = {c.id for c in wow.values() if c.name == name}
        assert found == ids
        assert {wow[i].copy_group for i in ids} == {normalize_name(name)}
    assert wow["763"].class_icons == {"Warlock"}
    assert wow["2897"].class_icons == {"Death Knight"}


def test_wow_hero_traits(wow):
    boris = wow["1"]
    assert boris.kind is CardKind.HERO
    assert boris.hero_traits == {
        "class": {"Priest"},
        "race": {"Dwarf"},
        "faction": {"Alliance"},
        "talent": {"Holy"},
        "profession": {"Enchanting", "Tailoring"},
    }
    assert boris.requires == {}
    # Neutral demon hero: no faction trait.
    assert wow["1530"].hero_traits["faction"] == frozenset()


def test_wow_hero_required_from_columns_and_text(wow):
    assert wow["28"].requires == {"talent": {"Restoration"}}  # column
    assert wow["3058"].requires == {"talent": {"Arms"}}  # "Arns" typo in the column
    assert wow["733"].requires == {"faction": {"Horde"}}  # text only
    assert wow["2730"].requires == {"profession": {"Blacksmithing"}}  # text only


def test_wow_master_hero_is_a_deck_card(wow):
    spirit = wow["3030"]  # typed Hero, tagged "Instant Master Hero"
    assert spirit.kind is CardKind.CARD
    assert spirit.attributes["master_hero"] is True
    assert spirit.requires == {"talent": {"Holy"}}


def test_wow_series_type_and_editions(wow):
    assert wow["2943"].attributes["series_type"] == "Raid"
    assert wow["1"].attributes["series_type"] == "Core"
    assert wow["1"].attributes["editions"] == ("Heroes of Azeroth",)
    assert wow["1"].attributes["formats"] == ["Classic"]
    assert wow["4"].attributes["formats"] == ["Classic", "Core"]
    assert {c.game for c in wow.values()} == {"wow"}


def test_hkk_kinds(hkk_sample):
    assert hkk_sample["9219"].name == "Arochos (2020)"
    assert hkk_sample["9219"].kind is CardKind.HORDE_COMMANDER
    rule_ids = {"1033", "3138", "3298", "4490", "4605", "6516"}
    follower_ids = {"2592", "3592", "4596", "6305", "9211"}
    assert {i for i, c in hkk_sample.items() if c.kind is CardKind.RULE_CARD} == rule_ids
    assert {i for i, c in hkk_sample.items() if c.kind is CardKind.FOLLOWER} == follower_ids
    assert hkk_sample["9211"].types == ("Követő",)  # placeholder "-" dropped
    assert hkk.card_kind(("Követő", "epikus")) is CardKind.EPIC_FOLLOWER


def test_hkk_colours(hkk_sample):
    # Rule cards and followers are colourless by rule, even when printed "Színtelen".
    assert hkk_sample["6516"].colours == ()
    assert hkk_sample["1033"].colours == ()
    assert hkk_sample["12"].colours == ("Tharr",)
    multi = [c for c in hkk_sample.values() if c.colours and len(c.colours) == 2]
    assert len(multi) == 2
    assert all(c.colours is not None for c in hkk_sample.values())


def test_hkk_editions_file():
    editions = hkk.parse_editions()
    assert editions["1"] == "Alappakli, 1. kiadás"
    assert len(editions) == 259  # ids 1..266 with 7 gaps in the source


def _write(tmp_path, data, name="cards.json"):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def test_publisher_json_drops_nincs_and_unknown_colours(tmp_path):
    path = _write(
        tmp_path,
        {
            "cards": [
                {
                    "ID": 1,
                    "name": "Próba lap ",
                    "type": ["Szörny", "Sárkány"],
                    "color": ["Nincs", "Leah"],
                    "commonness": "rare",
                    "editions": [1, 2],
                    "text": "rules text is ignored",
                },
                {"ID": "2", "name": "Ismeretlen", "type": ["Azonnali"], "color": ["Nincs"]},
                {"ID": 3, "name": "Szabály", "type": ["Szabálylap"], "color": ["Nincs", "Nincs"]},
            ]
        },
    )
    cards = get_importer("hkk")(path)
    assert [c.id for c in cards] == ["1", "2", "3"]
    assert cards[0].name == "Próba lap"
    assert cards[0].colours == ("Leah",)
    assert cards[0].attributes["editions"] == ("1", "2")
    assert cards[1].colours is None
    assert cards[2].colours == () and cards[2].kind is CardKind.RULE_CARD


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not valid JSON"),
        ('{"foo": 1}', "expected a list"),
        ('[{"name": "x"}]', "ID"),
        ('[{"ID": 1, "name": ""}]', "name"),
        ('[{"ID": 1, "name": "a"}, {"ID": 1, "name": "b"}]', "duplicate"),
        ('[{"ID": 1, "name": "a", "color": "Leah"}]', "color"),
    ],
)
def test_publisher_json_errors(tmp_path, content, message):
    with pytest.raises(CatalogueFormatError, match=message):
        IMPORTERS["hkk"](_write(tmp_path, content))
