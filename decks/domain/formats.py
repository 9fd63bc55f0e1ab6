"""Registry of rule sets, keyed by ``FormatSpec.rule_set``. Add new rule sets here, explicitly.
The rules of each set are described in docs/rules.md §3 (HKK deck construction (Hagyományos)),
§9 (WoW TCG constructed decks) and §12 (Blue Moon decks).

Pure Python. The Blue Moon entries delegate to ``decks.domain.bluemoon.check_advanced`` /
``check_people`` (signature ``(sections: Mapping[str, Sequence[ResolvedLine]],
spec: FormatSpec) -> list[Violation]``), imported lazily so this module loads without it.
"""

from __future__ import annotations

from dataclasses import dataclass

from decks.domain.rules_common import RuleSet, Sections
from decks.domain.rules_hkk import HKK
from decks.domain.rules_wow import WOW_CONSTRUCTED
from decks.domain.sections import DECK_SECTIONS
from decks.domain.types import FormatSpec, Violation

#: The sections of a Blue Moon deck (``bluemoon_cards.SECTION_KINDS``; docs/rules.md §12).
BLUE_MOON_SECTIONS = ("main", "leader", "inquisitor", "emissary")


class UnknownRuleSet(LookupError):  # noqa: N818 (stable public name)
    """No rule set is registered under this code (``args[0]`` is the code)."""


@dataclass(frozen=True, slots=True)
class BlueMoonDelegate:
    """A rule that calls ``decks.domain.bluemoon.<function>`` (Blue Moon FAQ; docs/rules.md
    §12 (Blue Moon decks))."""

    function: str

    def check(self, sections: Sections, spec: FormatSpec) -> list[Violation]:
        from decks.domain import bluemoon  # lazy: written by another module owner

        return list(getattr(bluemoon, self.function)(sections, spec))


RULE_SETS: dict[str, RuleSet] = {
    "hkk": HKK,
    "wow-constructed": WOW_CONSTRUCTED,
    "bluemoon-advanced": RuleSet(
        code="bluemoon-advanced",
        rules=(BlueMoonDelegate("check_advanced"),),
        sections=BLUE_MOON_SECTIONS,
    ),
    "bluemoon-people": RuleSet(
        code="bluemoon-people",
        rules=(BlueMoonDelegate("check_people"),),
        sections=BLUE_MOON_SECTIONS,
    ),
}


def section_drift() -> list[str]:
    """What is wrong between the rule sets and the deck sections (``sections.DECK_SECTIONS``):
    a rule set naming a section with no entry, an entry without its label, title or a
    heading. Empty when consistent; the ``decks`` system check reports each line."""
    problems = [
        f"rule set {code!r} names the deck section {name!r}, which has no entry"
        for code, rule_set in RULE_SETS.items()
        for name in rule_set.sections
        if name not in DECK_SECTIONS
    ]
    problems += [
        f"deck section {code!r} lacks its code, label, title or a heading"
        for code, s in DECK_SECTIONS.items()
        if s.code != code or not (s.label and s.title and s.headers)
    ]
    return problems


def get_rule_set(code: str) -> RuleSet:
    """The rule set registered as ``code``.

    Raises:
        UnknownRuleSet: ``code`` is not in :data:`RULE_SETS`.
    """
    try:
        return RULE_SETS[code]
    except KeyError:
        raise UnknownRuleSet(code) from None
