"""The WoW TCG catalogue of every official set (WoWTCG-Tracker print list) and the formats over
it: lists of the post-2009 blocks are legal, faction is derived from the race (checked against
the cards whose faction the MIT card data states), Core and Block are read as of the event date
(docs/rules.md §9, §10, §17)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest

from decks.domain import codes
from decks.domain.editions import policy_from_params, resolve_edition_legality
from decks.domain.index import CardIndex
from decks.domain.normalize import normalize_name
from decks.domain.types import Verdict
from decks.domain.validate import validate_text
from decks.loaders import wowtcg
from decks.loaders.wowtcg_tracker import derive_faction, parse_tracker_cards, races_of
from tests.domain.decks.bundled import WOW_CONSTRUCTED, bundled_index, wow_cards

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "wowtcg"
BLOCK_LISTS = ("icecrown", "worldbreaker", "aftermath", "timewalkers")
MAIN_SETS = (
    "Heroes of Azeroth",
    "The Dark Portal",
    "Fires of Outland",
    "March of the Legion",
    "Servant of the Betrayer",
    "Hunt for Illidan",
    "Drums of War",
    "Blood of Gladiators",
    "Fields of Honor",
    "Scourgewar",
    "Wrathgate",
    "Icecrown",
    "Worldbreaker",
    "War of the Elements",
    "Twilight of the Dragons",
    "Throne of the Tides",
    "Crown of the Heavens",
    "Tomb of the Forgotten",
    "War of the Ancients",
    "Betrayal of the Guardian",
    "Reign of Fire",
)


def block_list(name: str) -> str:
    return (FIXTURES / f"{name}-block.txt").read_text(encoding="utf-8")


def spec_for(params: dict, on: date):
    policy = policy_from_params(params, label="test", on=on)
    legality = resolve_edition_legality(policy, wowtcg.parse_sets())
    return replace(WOW_CONSTRUCTED, params=params, editions=legality)


def test_every_official_set_is_in_the_catalogue():
    cards = wow_cards()
    assert len(cards) == 6425
    assert len({c.id for c in cards}) == len(cards)
    per_set = Counter(e for c in cards for e in c.attributes.get("editions", ()))
    for name in MAIN_SETS:
        assert per_set[name] >= 190, name
    groups = Counter(c.attributes.get("set_group") for c in cards)
    assert {"Basic", "Raid", "Dungeon", "Starter", "Special", "Promotional"} <= set(groups)
    # Every printing of the print list is reachable: 7,822 printings of 6,423 names.
    assert len(wowtcg.parse_tracker_prints()) == 7822
    names = {normalize_name(c.name) for c in cards}
    for row in parse_tracker_cards():
        key = normalize_name(row.name)
        assert key in names or key in {"twarting kolkar aggression", "a'dals signet of defense"}


def test_no_card_text_is_bundled():
    header = (wowtcg.TRACKER_CARDS_CSV.read_text(encoding="utf-8").splitlines())[0]
    assert "text" not in header
    assert "text" not in wowtcg.TRACKER_PRINTS_CSV.read_text(encoding="utf-8").splitlines()[0]


@pytest.mark.parametrize("name", BLOCK_LISTS)
def test_lists_of_the_later_blocks_are_legal_with_their_hero(name):
    result = validate_text(block_list(name), spec=WOW_CONSTRUCTED, index=bundled_index())
    assert result.status is Verdict.LEGAL, [e.code for e in (*result.errors, *result.warnings)]
    assert result.counts["main"] == 60
    assert result.hero is not None


def test_a_horde_ally_in_an_alliance_list_is_still_refused():
    text = block_list("worldbreaker") + "4 Orgrimmar Heartstriker\n"
    result = validate_text(text, spec=WOW_CONSTRUCTED, index=bundled_index())
    assert codes.FACTION_RESTRICTION in {e.code for e in result.errors}


@pytest.mark.parametrize(
    ("name", "faction"),
    [
        ("Victor Baltus", "Alliance"),  # Worgen hero, Worldbreaker
        ("Grizlik Sparkhex", "Horde"),  # Goblin hero, Worldbreaker
        ("Broxigar the Red", "Horde"),  # Orc hero, Timewalkers
        ("Alexstrasza the Life-Binder", None),  # Dragonkin: no playable race
    ],
)
def test_faction_of_tracker_heroes_comes_from_the_race(name, faction):
    card = next(c for c in wow_cards() if c.name == name)
    assert card.id.startswith("trk-")
    assert card.hero_traits["faction"] == ({faction} if faction else set())


def test_the_derivation_agrees_with_the_stated_faction_of_known_cards():
    tracker = {normalize_name(r.name): r for r in parse_tracker_cards()}
    agree: Counter[tuple[str, bool]] = Counter()
    for card in wowtcg.parse_csv():
        row = tracker.get(normalize_name(card.name))
        if row is None or card.types[0] not in ("Hero", "Ally"):
            continue
        if card.attributes.get("master_hero"):
            continue
        stated = card.faction
        if card.types[0] == "Hero":
            stated = next(iter(card.hero_traits["faction"]), None)
        agree[(card.types[0], derive_faction(races_of(row.types)) == stated)] += 1
    assert agree[("Hero", True)] == 228 and agree[("Hero", False)] == 3
    assert agree[("Ally", True)] == 920 and agree[("Ally", False)] == 138
    assert derive_faction(races_of(("Blood", "Elf", "Mage"))) == "Horde"
    assert derive_faction(races_of(("Draenai", "Priest"))) == "Alliance"


def test_core_is_read_as_of_the_event_date():
    core = {"last_blocks": 3, "as_of_event_date": True}
    icecrown, timewalkers = block_list("icecrown"), block_list("timewalkers")
    late_2010, mid_2013 = date(2010, 12, 31), date(2013, 12, 31)
    index = bundled_index()
    assert validate_text(icecrown, spec=spec_for(core, late_2010), index=index).legal
    old = validate_text(icecrown, spec=spec_for(core, mid_2013), index=index)
    assert codes.CARD_NOT_LEGAL_IN_FORMAT in {e.code for e in old.errors}
    assert validate_text(timewalkers, spec=spec_for(core, mid_2013), index=index).legal
    # A 2011 event: Drums of War, Scourgewar, Worldbreaker; the Aftermath block is not yet in.
    spring_2011 = spec_for(core, date(2011, 6, 1)).editions
    assert {"Drums of War", "Icecrown", "War of the Elements"} <= spring_2011.legal
    assert "Heroes of Azeroth" in spring_2011.not_legal
    assert "Reign of Fire" in spring_2011.not_legal


def test_block_and_classic_as_of_a_date():
    block = spec_for({"last_blocks": 1, "as_of_event_date": True}, date(2012, 6, 1)).editions
    assert "Throne of the Tides" in block.legal and "Worldbreaker" in block.not_legal
    classic = spec_for({"as_of_event_date": True}, date(2011, 6, 1)).editions
    assert "Heroes of Azeroth" in classic.legal and "Reign of Fire" in classic.not_legal
    assert "Throne of the Tides" in classic.undetermined  # released some time in 2011


def test_contemporary_uses_the_tracker_tags():
    spec = replace(WOW_CONSTRUCTED, params={"legality_tag": "Contemporary"})
    index = bundled_index()
    assert validate_text(block_list("worldbreaker"), spec=spec, index=index).legal
    old = validate_text(
        "Hero: Saeryn Dusksorrow\nDeck:\n4 Death Coil", spec=spec, index=CardIndex(wow_cards())
    )
    assert codes.CARD_NOT_LEGAL_IN_FORMAT not in {e.code for e in old.errors}
    hoa = validate_text(
        "Hero: Radak Doombringer\nDeck:\n4 Corruption", spec=spec, index=bundled_index()
    )
    assert codes.CARD_NOT_LEGAL_IN_FORMAT in {e.code for e in hoa.errors}
