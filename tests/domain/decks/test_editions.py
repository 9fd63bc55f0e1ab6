"""Editions as data and format legality by edition (docs/rules.md §4, §10): HKK Retró (cards
released before April 2000 plus the Túlélők Földje retro reprints, edition 247), WoW TCG
Classic (every set), Core (the last three blocks) and Block (one block)."""

from __future__ import annotations

import dataclasses
from datetime import date

import pytest

from decks.domain import codes
from decks.domain.editions import (
    HKK_RETRO,
    WOW_CLASSIC,
    Edition,
    EditionLegality,
    EditionPolicy,
    EditionStatus,
    parse_partial_date,
    policy_from_params,
    resolve_edition_legality,
    wow_block,
    wow_core,
)
from decks.domain.types import Card, Verdict, card_editions
from decks.domain.validate import validate_text
from decks.loaders import hkk, wowtcg
from tests.domain.decks.bundled import (
    RETRO,
    WOW_CONSTRUCTED,
    bundled_index,
    hkk_card,
    hkk_cards,
    wow_card,
    wow_cards,
)

# --- the data --------------------------------------------------------------------------------


def test_partial_dates():
    assert parse_partial_date("1995") == (date(1995, 1, 1), date(1995, 12, 31))
    assert parse_partial_date("2000-04") == (date(2000, 4, 1), date(2000, 4, 30))
    assert parse_partial_date("2006-12-04") == (date(2006, 12, 4), date(2006, 12, 4))
    assert parse_partial_date("") is None
    for bad in ("95", "2000-13", "2000-02-30", "1999/01", "a-b"):
        with pytest.raises(ValueError):
            parse_partial_date(bad)


def test_hkk_editions_have_the_dates_retro_needs():
    table = {e.code: e for e in hkk.parse_edition_releases()}
    assert len(table) == 259
    assert table["1"].released == "1995" and table["6"].released == "1996"
    assert table["37"].released == "2000-04"  # the Ősök Városa base set
    for code in [str(i) for i in range(1, 23)] + [str(i) for i in range(26, 37)]:
        span = table[code].released_between()
        assert span is not None and span[1] < date(2000, 4, 1), code
    for code in ("23", "24", "25"):  # Alanori Krónika, TF találkozó, HSZ: many years
        assert table[code].released_between() is None
    assert table["258"].released_between()[0] >= date(2000, 4, 1)


def test_wow_sets_have_blocks_and_groups():
    sets = {e.code: e for e in wowtcg.parse_sets()}
    assert sets["Heroes of Azeroth"].block == "Azeroth"
    assert sets["The Dark Portal"].name == "Through the Dark Portal"
    assert sets["Wrathgate"].block == "Scourgewar" and sets["Wrathgate"].block_order == 4
    assert sets["Worldbreaker"].block_order == 5 and sets["Timewalkers"].block_order == 7
    assert (sets["Onyxia Raid Loot"].group, sets["Onyxia Raid Loot"].kind) == ("Raid", "Treasure")
    assert sets["Dungeon treasure"].group == "Dungeon"
    assert sets["Class Starters 2010"].group == "Starter" and not sets["Class Starters 2010"].block
    # Every set a bundled card names is in the table.
    codes_used = {code for c in wow_cards() for code in card_editions(c) or ()}
    assert codes_used <= set(sets)


# --- policies --------------------------------------------------------------------------------


def test_policy_from_params():
    assert policy_from_params({}) is None
    policy = policy_from_params(
        {"editions_released_before": "2000-04-01", "extra_legal_editions": ["247"]},
        label="Retró",
    )
    assert policy == dataclasses.replace(HKK_RETRO)
    core = policy_from_params({"last_blocks": 3, "last_blocks_as_of": "Scourgewar"}, label="Core")
    assert core == wow_core("Scourgewar")
    assert policy_from_params({"legal_blocks": ["Drums of War"]}).blocks == {"Drums of War"}
    assert policy_from_params({"legal_editions": ["1", 2]}).legal == {"1", "2"}
    for bad in (
        {"legal_editions": "1"},
        {"editions_released_before": 2000},
        {"editions_released_before": "April 2000"},
        {"last_blocks": 0},
        {"last_blocks": True},
        {"last_blocks_as_of": 4},
    ):
        with pytest.raises(ValueError):
            policy_from_params(bad)


def test_retro_legality_on_the_real_edition_table():
    legality = resolve_edition_legality(HKK_RETRO, hkk.parse_edition_releases())
    assert legality is not None and legality.label == "Retró"
    expected = {str(i) for i in [*range(1, 23), *range(26, 37)]} | {"247"}
    assert legality.legal == expected
    assert legality.undetermined == {"23", "24", "25"}
    assert {"37", "58", "195", "258"} <= legality.not_legal


def test_card_status_any_legal_printing_wins_unknown_never_illegal():
    legality = EditionLegality(legal=frozenset({"a"}), not_legal=frozenset({"b"}))
    assert legality.card_status(["b", "a"]) is EditionStatus.LEGAL
    assert legality.card_status(["b"]) is EditionStatus.NOT_LEGAL
    assert legality.card_status(["b", "zzz"]) is EditionStatus.UNDETERMINED
    assert legality.card_status([]) is EditionStatus.UNDETERMINED


def test_an_explicit_edition_list_and_no_restriction():
    table = [Edition("a"), Edition("b")]
    legality = resolve_edition_legality(EditionPolicy(legal=frozenset({"a"})), table)
    assert legality.legal == {"a"} and legality.not_legal == {"b"}
    assert resolve_edition_legality(None, table) is None
    assert resolve_edition_legality(WOW_CLASSIC, table) is None  # Classic: every set


# --- HKK Retró -------------------------------------------------------------------------------


def retro_spec():
    return dataclasses.replace(
        RETRO, editions=resolve_edition_legality(HKK_RETRO, hkk.parse_edition_releases())
    )


def retro_lines() -> list[str]:
    """15 names x 3 of Fairlight/Sheran cards printed before April 2000 (45 cards)."""
    spec = retro_spec()
    pool = [
        c
        for c in hkk_cards()
        if c.kind.value == "card"
        and c.colours in (("Fairlight",), ("Sheran",))
        and spec.editions.card_status(card_editions(c) or ()) is EditionStatus.LEGAL
    ]
    names = list(dict.fromkeys(c.name for c in pool))[:15]
    assert len(names) == 15
    return ["Pakli:", *(f"3 {n}" for n in names)]


def check_retro(*extra: str):
    text = "\n".join([*retro_lines(), *extra]) + "\n"
    return validate_text(text, spec=retro_spec(), index=bundled_index())


def test_retro_list_of_old_cards_is_legal():
    result = check_retro()
    assert result.status == Verdict.LEGAL, result.errors
    assert result.counts["main"] == 45


def test_retro_rejects_a_card_printed_only_after_april_2000():
    late = hkk_card("1984")  # Hártyás lemúr: editions 37, 58, 67
    result = check_retro(f"1 {late.name}")
    assert result.status == Verdict.ILLEGAL
    error = next(e for e in result.errors if e.code == codes.CARD_NOT_LEGAL_IN_FORMAT)
    assert error.card == late.name
    assert error.params == {"editions": ["37", "58", "67"], "format": "Retró"}


def test_retro_allows_the_tulelok_foldje_reprints():
    reprint = hkk_card("1996")  # Tüskés hólyag: editions 37, 58, 67, 86, 247
    assert "247" in card_editions(reprint)
    assert check_retro(f"1 {reprint.name}").status == Verdict.LEGAL


def test_unknown_editions_make_retro_unverified_never_illegal():
    undated = hkk_card("9226")  # Yeti csemete (2020): editions 212, 180 and 226 (no table row)
    result = check_retro(f"1 {undated.name}")
    assert result.status == Verdict.UNVERIFIED
    assert [w.code for w in result.warnings] == [codes.CARD_EDITIONS_UNKNOWN]
    name_only = check_retro("1 Morf talizmán")  # usage statistics only: editions unknown
    assert name_only.status == Verdict.UNVERIFIED
    assert codes.CARD_EDITIONS_UNKNOWN in {w.code for w in name_only.warnings}
    assert name_only.errors == ()


def test_formats_without_an_edition_policy_ignore_editions():
    assert dataclasses.replace(RETRO).editions is None
    late = hkk_card("1984")
    text = "\n".join([*retro_lines(), f"1 {late.name}"])
    assert validate_text(text, spec=RETRO, index=bundled_index()).status == Verdict.LEGAL


# --- WoW TCG Core / Block ----------------------------------------------------------------------


def wow_spec(policy: EditionPolicy):
    return dataclasses.replace(
        WOW_CONSTRUCTED, editions=resolve_edition_legality(policy, wowtcg.parse_sets())
    )


def test_core_is_the_last_three_blocks():
    sets = wowtcg.parse_sets()
    as_of_2010 = resolve_edition_legality(wow_core("Scourgewar"), sets)
    assert {"March of the Legion", "Drums of War", "Wrathgate"} <= as_of_2010.legal
    assert "Heroes of Azeroth" in as_of_2010.not_legal
    assert "Class Starters 2010" in as_of_2010.undetermined  # a starter belongs to no block
    newest = resolve_edition_legality(wow_core(), sets)
    assert {"Worldbreaker", "Tomb of the Forgotten", "War of the Ancients"} <= newest.legal
    assert "Wrathgate" in newest.not_legal


def check_wow(policy: EditionPolicy, hero: str, *cards: Card):
    lines = [f"Hero: {hero}", "Deck:", *(f"1 {c.name} [{c.id}]" for c in cards)]
    return validate_text("\n".join(lines), spec=wow_spec(policy), index=bundled_index())


def edition_codes(result) -> dict[str | None, str]:
    return {
        v.card: v.code
        for v in (*result.errors, *result.warnings)
        if v.code in (codes.CARD_NOT_LEGAL_IN_FORMAT, codes.CARD_EDITIONS_UNKNOWN)
    }


def test_core_judges_cards_by_every_printing():
    old = next(
        c
        for c in wow_cards()
        if c.attributes.get("series") == "Heroes of Azeroth"
        and c.kind.value == "card"
        and not c.attributes.get("reprint_editions")
        and not c.class_icons
        and c.faction is None
        and not c.requires
    )
    # Wrath: The Dark Portal, reprinted in Worldbreaker and in class starters (no block).
    wrath = next(c for c in wow_cards() if c.name == "Wrath")
    assert {"Worldbreaker", "Class Starters 2010"} <= set(card_editions(wrath))
    # The hero is checked too: Thangal (Heroes of Azeroth) is not legal in either Core.
    found = edition_codes(check_wow(wow_core("Scourgewar"), "Thangal", old, wrath))
    assert found == {
        "Thangal": codes.CARD_NOT_LEGAL_IN_FORMAT,
        old.name: codes.CARD_NOT_LEGAL_IN_FORMAT,
        wrath.name: codes.CARD_EDITIONS_UNKNOWN,  # only a starter printing might count
    }
    newest = edition_codes(check_wow(wow_core(), "Thangal", old, wrath))
    assert newest == {
        "Thangal": codes.CARD_NOT_LEGAL_IN_FORMAT,
        old.name: codes.CARD_NOT_LEGAL_IN_FORMAT,
    }


def test_block_format_and_unverifiable_printings():
    scourge = wow_card("2897")  # Death Coil, Death Knight Starter (a starter: no block)
    dow = next(c for c in wow_cards() if c.attributes.get("series") == "Drums of War")
    found = edition_codes(check_wow(wow_block("Drums of War"), "Saeryn Dusksorrow", scourge, dow))
    assert found.get(dow.name) is None
    assert found[scourge.name] == codes.CARD_EDITIONS_UNKNOWN


def test_classic_allows_every_set():
    treasure = wow_card("2943")  # a Naxxramas treasure card
    spec = wow_spec(WOW_CLASSIC)
    assert spec.editions is None
    result = validate_text(
        f"Hero: Saeryn Dusksorrow\nDeck:\n1 {treasure.name}", spec=spec, index=bundled_index()
    )
    assert edition_codes(result) == {}
