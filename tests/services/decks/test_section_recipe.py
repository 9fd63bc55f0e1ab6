"""The CONTRIBUTING recipe "A new game", step 4 (Sections), run: a toy deck section added
through ``register_section`` alone is read by the parser under its Hungarian and English
headings, accepted by the API's structured input, named by the messages and the validation
page, and used by a rule set that names it; the system check reports a rule set naming a
section with no entry."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.test import Client
from django.utils import translation

from decks.api.validate import DeckValidateInputSerializer
from decks.checks import deck_section_drift
from decks.domain.formats import RULE_SETS, section_drift
from decks.domain.parser import parse_structured, parse_text
from decks.domain.rules_common import RuleSet, SectionsUsed
from decks.domain.sections import DECK_SECTIONS, DeckSection, register_section
from decks.domain.types import Violation
from decks.messages import message_for

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalogue")]


@pytest.fixture
def ally() -> Iterator[DeckSection]:
    """The toy section "ally" (one card) and a toy rule set using it; registries restored."""
    sections, rule_sets = dict(DECK_SECTIONS), dict(RULE_SETS)
    section = register_section(DeckSection("ally", "ally", "Ally", ("szövetséges", "ally")))
    RULE_SETS["toy-allies"] = RuleSet(
        "toy-allies",
        rules=(SectionsUsed(frozenset({"main", "ally"})),),
        sections=("main", "ally"),
    )
    yield section
    DECK_SECTIONS.clear()
    DECK_SECTIONS.update(sections)
    RULE_SETS.clear()
    RULE_SETS.update(rule_sets)


def test_a_toy_section_through_the_registry_alone(ally):
    parsed = parse_text("Pakli:\n3 Gigaököl\nSzövetséges: Ősi rúna\n")
    assert [line.name for line in parsed.sections["ally"]] == ["Ősi rúna"]
    assert [line.name for line in parse_text("Ally: Ősi rúna").sections["ally"]] == ["Ősi rúna"]
    assert [line.name for line in parse_structured({"ally": "Ősi rúna"}).sections["ally"]] == [
        "Ősi rúna"
    ]

    serializer = DeckValidateInputSerializer(data={"format": "hkk", "ally": "Ősi rúna"})
    assert serializer.is_valid(), serializer.errors
    assert serializer.structured() == {"ally": "Ősi rúna"}

    with translation.override("en"):
        message = message_for(Violation("section_not_used", {"section": "ally"}))
    assert "“ally”" in message
    assert section_drift() == [] and deck_section_drift() == []

    # HKK does not use the toy section: the validation page says so, naming it.
    client = Client()
    client.cookies["django_language"] = "en"
    html = client.post("/", {"format": "hkk", "text": "3 Gigaököl\nAlly: Ősi rúna\n"}).content
    assert "This format does not use the “ally” section." in html.decode()


def test_a_rule_set_naming_a_section_without_an_entry_fails_the_check(ally):
    del DECK_SECTIONS["ally"]
    problems = section_drift()
    assert problems == ["rule set 'toy-allies' names the deck section 'ally', which has no entry"]
    assert [e.id for e in deck_section_drift()] == ["decks.E001"]
