"""Blue Moon deck rules (decks.domain.bluemoon): advanced and pre-constructed people decks."""

from __future__ import annotations

from decks.domain import bluemoon as bm
from decks.domain.deck import ResolvedLine
from decks.domain.types import Card, CardKind, FormatSpec

ADVANCED = FormatSpec(slug="bm-adv", game="bluemoon", rule_set="bluemoon-advanced")
PEOPLE = FormatSpec(slug="bm-people", game="bluemoon", rule_set="bluemoon-people")


def card(cid, people="Hoax", moons=None, kind=CardKind.CARD, **attrs):
    attributes = {"people": people, "moons": moons, "chosen_one": False, "mutant": False}
    attributes.update(attrs)
    return Card(id=cid, game="bluemoon", name=f"Card {cid}", kind=kind, attributes=attributes)


LEADER = card("leader-hoax", kind=CardKind.LEADER)
RAZOR = card("Inq-412", people="", kind=CardKind.INQUISITOR, plus_cards=5, plus_moons=5)
SWIFT = card("Inq-411", people="", kind=CardKind.INQUISITOR, plus_cards=0, plus_moons=0)


def lines(cards):
    return [ResolvedLine(c, 1, n) for n, c in enumerate(cards, start=1)]


def own(n, start=0):
    return [card(f"Hoax-{i}") for i in range(start + 1, start + n + 1)]


def codes(violations):
    return sorted(v.code for v in violations)


def test_legal_advanced_deck_with_moons_in_budget():
    deck = own(27) + [
        card("Vulca-1", "Vulca", 4),
        card("Flit-1", "Flit", 3),
        card("Aqua-1", "Aqua", 3),
    ]
    assert bm.check_advanced({"main": lines(deck), "leader": lines([LEADER])}, ADVANCED) == []


def test_moon_budget_exceeded_names_paying_cards():
    deck = own(27) + [
        card("Vulca-1", "Vulca", 4),
        card("Flit-1", "Flit", 4),
        card("Aqua-1", "Aqua", 3),
    ]
    found = bm.check_advanced({"main": lines(deck), "leader": lines([LEADER])}, ADVANCED)
    assert codes(found) == [bm.MOON_BUDGET_EXCEEDED]
    assert found[0].params == {
        "moons": 11,
        "budget": 10,
        "cards": ["Card Vulca-1", "Card Flit-1", "Card Aqua-1"],
    }


def test_chosen_one_and_own_people_cost_nothing():
    deck = own(28) + [card("Vulca-31", "Vulca", 5, chosen_one=True), card("Hoax-99", "Hoax", 9)]
    assert bm.check_advanced({"main": lines(deck), "leader": lines([LEADER])}, ADVANCED) == []


def test_mutant_costs_its_moons_even_if_marked_with_leaders_people():
    deck = own(29) + [card("Mutant-106", "", 11, mutant=True)]
    found = bm.check_advanced({"main": lines(deck), "leader": lines([LEADER])}, ADVANCED)
    assert codes(found) == [bm.MOON_BUDGET_EXCEEDED]


def test_sea_moon_from_bundled_data_is_free_in_buka_and_costs_two_elsewhere():
    from decks.loaders.bluemoon import load_bundled

    sea_moon = next(c for c in load_bundled() if c.id == "Buka-31")
    buka_leader = card("leader-buka", people="Buka", kind=CardKind.LEADER)
    assert bm.moon_cost(sea_moon, "Buka") == 0
    assert bm.moon_cost(sea_moon, "Hoax") == 2
    deck = [card(f"Buka-{i}", "Buka") for i in range(1, 30)] + [sea_moon]
    sections = {"main": lines(deck), "leader": lines([buka_leader])}
    assert bm.check_advanced(sections, ADVANCED) == []
    found = bm.check_people(sections, PEOPLE)
    assert codes(found) == [bm.NOT_IN_PRECONSTRUCTED_DECK]


def test_unknown_moons_are_a_warning_not_a_silent_pass():
    deck = own(29) + [card("Flit-13", "Flit", None)]
    found = bm.check_advanced({"main": lines(deck), "leader": lines([LEADER])}, ADVANCED)
    assert codes(found) == [bm.MOONS_UNKNOWN]
    assert bm.MOONS_UNKNOWN in bm.BLUEMOON_WARNING_CODES


def test_missing_and_too_many_leaders():
    assert bm.MISSING_LEADER in codes(bm.check_advanced({"main": lines(own(30))}, ADVANCED))
    two = lines([LEADER, card("leader-vulca", "Vulca", kind=CardKind.LEADER)])
    found = bm.check_advanced({"main": lines(own(30)), "leader": two}, ADVANCED)
    assert codes(found) == [bm.TOO_MANY_LEADERS]


def test_deck_size_and_inquisitor_modifiers():
    sections = {"main": lines(own(30)), "leader": lines([LEADER]), "inquisitor": lines([RAZOR])}
    found = bm.check_advanced(sections, ADVANCED)
    assert codes(found) == [bm.DECK_WRONG_SIZE]
    assert found[0].params == {"count": 30, "required": 35}
    deck = own(31) + [card("Vulca-1", "Vulca", 8), card("Flit-1", "Flit", 7)] + own(2, 40)
    sections = {"main": lines(deck), "leader": lines([LEADER]), "inquisitor": lines([RAZOR])}
    assert bm.check_advanced(sections, ADVANCED) == []  # 35 cards, 15 moons <= 10 + 5
    sections["inquisitor"] = lines([SWIFT])
    assert codes(bm.check_advanced(sections, ADVANCED)) == [
        bm.DECK_WRONG_SIZE,
        bm.MOON_BUDGET_EXCEEDED,
    ]


def test_params_override_size_and_budget():
    spec = FormatSpec(
        slug="x",
        game="bluemoon",
        rule_set="bluemoon-advanced",
        params={"deck_size": 20, "moon_budget": 3},
    )
    deck = own(19) + [card("Vulca-1", "Vulca", 4)]
    found = bm.check_advanced({"main": lines(deck), "leader": lines([LEADER])}, spec)
    assert codes(found) == [bm.MOON_BUDGET_EXCEEDED]
    assert found[0].params["budget"] == 3


def test_inquisitor_with_emissary_and_two_inquisitors():
    tutu = card("emissary-tutu", "", kind=CardKind.EMISSARY)
    sections = {
        "main": lines(own(30)),
        "leader": lines([LEADER]),
        "inquisitor": lines([SWIFT]),
        "emissary": lines([tutu]),
    }
    assert codes(bm.check_advanced(sections, ADVANCED)) == [
        bm.EMISSARY_NOT_ALLOWED,
        bm.INQUISITOR_WITH_EMISSARY,
    ]
    allowed = FormatSpec(
        slug="x", game="bluemoon", rule_set="bluemoon-advanced", params={"allow_emissary": True}
    )
    assert codes(bm.check_advanced(sections, allowed)) == [bm.INQUISITOR_WITH_EMISSARY]
    sections = {
        "main": lines(own(30)),
        "leader": lines([LEADER]),
        "inquisitor": lines([SWIFT, RAZOR]),
    }
    assert bm.TOO_MANY_INQUISITORS in codes(bm.check_advanced(sections, ADVANCED))


def test_duplicate_card_and_foreign_sections():
    deck = own(29)
    main = lines(deck) + [ResolvedLine(deck[0], 1, 40)]
    rule_card = Card(id="1", game="hkk", name="Lépéselőny", kind=CardKind.RULE_CARD)
    sections = {
        "main": main,
        "leader": lines([LEADER]),
        "rule_card": lines([rule_card]),
        "sideboard": [],
    }
    found = bm.check_advanced(sections, ADVANCED)
    assert codes(found) == [bm.DUPLICATE_CARD, "section_not_used"]
    assert [v.params for v in found if v.code == bm.DUPLICATE_CARD] == [{"count": 2}]


def test_leader_in_main_deck_is_wrong_section():
    sections = {"main": lines(own(29) + [LEADER])}
    found = bm.check_advanced(sections, ADVANCED)
    assert "wrong_section" in codes(found) and bm.MISSING_LEADER in codes(found)


def test_people_deck_legal_and_card_of_other_people():
    sections = {"main": lines(own(30)), "leader": lines([LEADER])}
    assert bm.check_people(sections, PEOPLE) == []
    sections = {"main": lines(own(29) + [card("Vulca-1", "Vulca", 1)]), "leader": lines([LEADER])}
    found = bm.check_people(sections, PEOPLE)
    assert codes(found) == [bm.CARD_NOT_OF_PEOPLE]
    assert found[0].params == {"people": "Vulca", "leader_people": "Hoax"}


def test_people_deck_with_emissary_and_its_seven():
    seven = [card(f"Infl-{600 + i}", "") for i in range(7)]
    hyla = card("emissary-hyla", "", kind=CardKind.EMISSARY, emissary_cards=[c.id for c in seven])
    sections = {
        "main": lines(own(30) + seven),
        "leader": lines([LEADER]),
        "emissary": lines([hyla]),
    }
    assert bm.check_people(sections, PEOPLE) == []
    sections["main"] = lines(own(30) + seven[:6] + [card("Flit-1", "Flit", 1)])
    assert codes(bm.check_people(sections, PEOPLE)) == [bm.CARD_NOT_OF_PEOPLE]


def test_people_deck_emissary_with_unknown_seven_warns():
    tutu = card("emissary-tutu", "", kind=CardKind.EMISSARY, emissary_cards=[])
    extra = [card(f"Flit-{i}", "Flit", 1) for i in range(7)]
    sections = {
        "main": lines(own(30) + extra),
        "leader": lines([LEADER]),
        "emissary": lines([tutu]),
    }
    found = bm.check_people(sections, PEOPLE)
    assert codes(found) == [bm.EMISSARY_CARDS_UNKNOWN] * 7


def test_people_deck_rejects_inquisitor_and_wrong_size():
    sections = {"main": lines(own(28)), "leader": lines([LEADER]), "inquisitor": lines([SWIFT])}
    found = bm.check_people(sections, PEOPLE)
    assert codes(found) == [bm.DECK_WRONG_SIZE, bm.INQUISITOR_NOT_ALLOWED]


def test_formats_without_emissaries_and_inquisitors_refuse_them():
    # A base-game format (allow_emissary / allow_inquisitor False; docs/rules.md §12).
    base_people = FormatSpec(
        slug="bm-basic",
        game="bluemoon",
        rule_set="bluemoon-people",
        params={"allow_emissary": False},
    )
    base_advanced = FormatSpec(
        slug="bm-adv-basic",
        game="bluemoon",
        rule_set="bluemoon-advanced",
        params={"allow_inquisitor": False},
    )
    hyla = card("emissary-hyla", "", kind=CardKind.EMISSARY, emissary_cards=[])
    people = {"main": lines(own(30)), "leader": lines([LEADER])}
    assert bm.check_people(people, base_people) == []
    found = bm.check_people({**people, "emissary": [ResolvedLine(hyla, 1, 33)]}, base_people)
    # The emissary is refused; its seven cards are not added to the required size.
    assert [(v.code, v.card, v.line) for v in found] == [
        (bm.EMISSARIES_INQUISITORS_NOT_USED, "Card emissary-hyla", 33)
    ]
    advanced = {"main": lines(own(30)), "leader": lines([LEADER])}
    assert bm.check_advanced(advanced, base_advanced) == []
    found = bm.check_advanced({**advanced, "inquisitor": lines([SWIFT])}, base_advanced)
    assert codes(found) == [bm.EMISSARIES_INQUISITORS_NOT_USED]
    # The seeded formats allow them (the parameters default to True).
    assert bm.check_advanced({**advanced, "inquisitor": lines([SWIFT])}, ADVANCED) == []


def test_bluemoon_error_codes_do_not_clash_and_warnings_are_warnings():
    from decks.domain import codes as shared

    errors = bm.BLUEMOON_CODES - bm.BLUEMOON_WARNING_CODES
    assert not (errors & shared.ALL_CODES)
    assert bm.BLUEMOON_WARNING_CODES <= shared.WARNING_CODES
    assert all(shared.is_warning(code) for code in bm.BLUEMOON_WARNING_CODES)
    assert not any(shared.is_warning(code) for code in errors)
