"""Verdicts for partial catalogues: legal / illegal / unverified (docs/rules.md §17).

Against the bundled HKK catalogue (partial: the 624-card sample plus name-only entries from the
tournament usage statistics) a name the catalogue lacks does not make a list illegal; a broken
rule still does. Against a complete catalogue an unknown name stays an error.
"""

from __future__ import annotations

import json

from decks.domain import bluemoon as bm
from decks.domain import codes
from decks.domain.deck import ResolvedLine
from decks.domain.index import CardIndex
from decks.domain.types import Card, CardKind, Coverage, FormatSpec, Verdict
from decks.domain.validate import validate_text, verdict
from tests.domain.decks.bundled import HAGYOMANYOS, bundled_index, hkk_cards, hkk_legal_lines


def text(*extra: str, main: tuple[str, ...] = ()) -> str:
    lines = hkk_legal_lines()
    split = lines.index("Kiegészítő pakli:")
    lines = lines[:split] + list(main) + lines[split:]
    return "\n".join([*lines, *extra]) + "\n"


def check(deck: str, index: CardIndex | None = None):
    return validate_text(deck, spec=HAGYOMANYOS, index=index or bundled_index())


def codes_of(violations) -> set[str]:
    return {v.code for v in violations}


def test_known_cards_only_is_legal():
    result = check(text())
    assert result.status == Verdict.LEGAL and result.legal
    assert result.errors == () and result.warnings == () and result.unknown_cards == ()


def test_unknown_name_in_a_partial_catalogue_is_unverified_not_illegal():
    result = check(text(main=("1 Nincs ilyen lap a mintában",)))
    assert result.status == Verdict.UNVERIFIED
    assert result.errors == ()
    assert result.legal  # "no rule broken"; the verdict is in status
    assert codes_of(result.warnings) == {codes.CARD_NOT_IN_CATALOGUE}
    assert result.unknown_cards == ("Nincs ilyen lap a mintában",)
    warning = result.warnings[0]
    assert warning.card == "Nincs ilyen lap a mintában" and warning.line is not None
    assert "suggestions" in warning.params


def test_a_broken_rule_stays_illegal_beside_unknown_names():
    first = hkk_legal_lines()[1]  # "3 <name>"
    result = check(text(main=("1 Nincs ilyen lap", f"1 {first.split(' ', 1)[1]}")))
    assert result.status == Verdict.ILLEGAL and not result.legal
    assert codes_of(result.errors) == {codes.TOO_MANY_COPIES}
    assert result.unknown_cards == ("Nincs ilyen lap",)


def test_unknown_name_in_a_complete_catalogue_is_an_error():
    complete = CardIndex(hkk_cards())  # coverage defaults to complete
    result = check(text(main=("1 Nincs ilyen lap",)), complete)
    assert result.status == Verdict.ILLEGAL
    assert codes_of(result.errors) == {codes.UNKNOWN_CARD}
    assert result.unknown_cards == ()
    assert complete.coverage("hkk") is Coverage.COMPLETE
    assert bundled_index().coverage("hkk") is Coverage.PARTIAL


def test_name_only_deck_card_leaves_the_colour_limit_unchecked():
    # "Morf talizmán": a top card of real tournaments, not in the sample.
    result = check(text(main=("1 Morf talizmán",)))
    assert result.status == Verdict.UNVERIFIED
    assert [(w.code, w.card) for w in result.warnings] == [(codes.COLOURS_UNKNOWN, "Morf talizmán")]
    assert result.counts["main"] == 52


def test_name_only_rule_card_takes_the_declared_section_and_is_unverified():
    result = check(text("Szabálylap: Sokszínűség"))
    assert result.status == Verdict.UNVERIFIED and result.errors == ()
    assert result.rule_card == "Sokszínűség"
    note = next(w for w in result.warnings if w.code == codes.CARD_FACTS_UNKNOWN)
    assert note.params == {"facts": ["kind"], "assumed_kind": "rule_card"}
    assert result.lines["rule_card"][0].card.kind is CardKind.RULE_CARD


def test_checked_rules_apply_to_name_only_cards():
    # "(epikus)" marks an epic follower: it cannot be combined with a rule card.
    result = check(text("Szabálylap: Ősi rúna", "Követő: Fufuka, az álomelf (epikus)"))
    assert result.status == Verdict.ILLEGAL
    assert codes_of(result.errors) == {codes.EPIC_FOLLOWER_COMBINED}
    # A rule card or follower (kind unknown which) in the deck is misplaced either way.
    misplaced = check(text(main=("1 Lassan járj!",)))
    assert misplaced.status == Verdict.ILLEGAL
    assert codes_of(misplaced.errors) == {codes.WRONG_SECTION}


def test_unknown_moon_costs_make_a_blue_moon_list_unverified():
    def card(cid: str, people: str, moons: int | None, kind=CardKind.CARD) -> Card:
        attributes = {"people": people, "moons": moons, "chosen_one": False, "mutant": False}
        return Card(id=cid, game="bluemoon", name=cid, kind=kind, attributes=attributes)

    leader = card("leader-hoax", "Hoax", None, CardKind.LEADER)
    deck = [card(f"Hoax-{i}", "Hoax", 1) for i in range(29)] + [card("Flit-13", "Flit", None)]
    sections = {
        "main": [ResolvedLine(c, 1, n) for n, c in enumerate(deck, 1)],
        "leader": [ResolvedLine(leader, 1, None)],
    }
    spec = FormatSpec(slug="bm", game="bluemoon", rule_set="bluemoon-advanced")
    found = bm.check_advanced(sections, spec)
    assert codes_of(found) == {codes.MOONS_UNKNOWN}
    assert verdict(found) is Verdict.UNVERIFIED


def test_verdict_order_error_beats_unverified_beats_legal():
    from decks.domain.types import Violation

    assert verdict([]) is Verdict.LEGAL
    assert verdict([Violation(codes.PRINTING_CHOSEN)]) is Verdict.LEGAL
    assert verdict([Violation(codes.COLOURS_UNKNOWN)]) is Verdict.UNVERIFIED
    assert (
        verdict([Violation(codes.COLOURS_UNKNOWN), Violation(codes.TOO_MANY_COPIES)])
        is Verdict.ILLEGAL
    )
    assert codes.UNVERIFIED_CODES <= codes.WARNING_CODES
    assert not (codes.UNVERIFIED_CODES & codes.INFO_CODES)


def test_to_dict_can_carry_the_verdict():
    result = check(text(main=("1 Nincs ilyen lap",)))
    plain = result.to_dict(lambda v: v.code)
    assert "status" not in plain  # today's API shape by default
    data = result.to_dict(lambda v: v.code, include_status=True)
    assert data["status"] == "unverified" and data["unknown_cards"] == ["Nincs ilyen lap"]
    json.dumps(data)
