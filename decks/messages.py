"""Violation code -> translated, parameterised message.

The domain (``decks.domain``) emits stable codes with JSON-serialisable params
(``decks.domain.codes``; the Blue Moon codes of ``decks.domain.rules.bluemoon``). This module
is the only place that turns them into words. Every message is a lazy ``gettext`` string with
``%(name)s`` placeholders filled from the violation's params, evaluated in the active
language when :func:`message_for` is called (so one cached result renders in Hungarian for
one request and English for the next).

Adding a code: add an entry to :data:`MESSAGES` and a Hungarian translation; the test
``test_every_violation_code_has_a_message`` (tests/services/decks/test_validation.py) fails until
you do.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from decks.domain.sections import DECK_SECTIONS
from decks.domain.types import Violation

#: One message per violation code. Placeholders name the keys of ``Violation.params`` (plus
#: ``card`` for the printed name and ``reason_text``/``section_text``/``kind_text``/
#: ``trait_text`` which :func:`message_for` derives from the raw params).
MESSAGES: dict[str, object] = {
    # --- parsing and catalogue look-up -----------------------------------------------------
    "parse_error": _("This line could not be read: %(reason_text)s"),
    "unknown_card": _("Unknown card: “%(card)s”."),
    "card_not_in_game": _(
        "“%(card)s” is not a card of this game (%(game)s); it was found in: %(found_in)s."
    ),
    "card_not_in_catalogue": _(
        "“%(card)s” is not in the card catalogue, which holds only part of this game's "
        "cards, so the list could not be fully checked."
    ),
    "card_facts_unknown": _(
        "The card catalogue knows only the name of “%(card)s”, so it was taken to be a "
        "%(assumed_kind_text)s and the list could not be fully checked."
    ),
    "printing_chosen": _(
        "Several cards are called “%(card)s”; %(chosen)s was taken. Name another printing "
        "explicitly if you meant it: %(others)s."
    ),
    "card_not_legal_in_format": _(
        "“%(card)s” is not legal in the %(format)s format: none of its editions is allowed "
        "(%(editions)s)."
    ),
    "card_editions_unknown": _(
        "It is not known whether “%(card)s” was printed in an edition the %(format)s format "
        "allows, so the list could not be fully checked."
    ),
    # --- sizes and copies ------------------------------------------------------------------
    "deck_too_small": _("The deck has %(count)s cards; at least %(minimum)s are required."),
    "deck_too_large": _("The deck has %(count)s cards; at most %(maximum)s are allowed."),
    "too_many_copies": _(
        "%(count)s copies of “%(card)s” (deck and sideboard together); at most %(limit)s "
        "are allowed."
    ),
    "banned_card": _("“%(card)s” is banned in this format."),
    "sideboard_wrong_size": _(
        "The sideboard has %(count)s cards; when used it must be exactly %(expected)s."
    ),
    "sideboard_too_large": _("The sideboard has %(count)s cards; at most %(maximum)s are allowed."),
    "sideboard_not_allowed": _("This format has no sideboard, but %(count)s cards were given."),
    "sideboard_only_in_main": _("“%(card)s” may be played only in the sideboard."),
    "section_not_used": _("This format does not use the “%(section_text)s” section."),
    "wrong_section": _("“%(card)s” (%(kind_text)s) cannot be in the “%(section_text)s” section."),
    # --- HKK rule card, follower, colours --------------------------------------------------
    "too_many_rule_cards": _("%(count)s rule cards declared; at most %(limit)s is allowed."),
    "rule_card_in_sideboard": _("The rule card “%(card)s” may not be in the sideboard."),
    "too_many_followers": _("%(count)s followers declared; at most %(limit)s is allowed."),
    "epic_follower_combined": _(
        "The epic follower or horde commander “%(card)s” cannot be combined with: %(with)s."
    ),
    "follower_in_deck": _(
        "The follower “%(card)s” belongs in the follower section, not in the “%(section_text)s”."
    ),
    "too_many_colours": _(
        "The deck uses %(colour_count)s colours (%(colours)s); at most %(limit)s are allowed."
    ),
    "colours_unknown": _(
        "The colours of “%(card)s” are not known, so the colour limit was not checked for it."
    ),
    # --- WoW TCG hero ----------------------------------------------------------------------
    "missing_hero": _("No hero declared: the deck needs exactly one hero."),
    "too_many_heroes": _("%(count)s heroes declared; exactly %(limit)s is required."),
    "hero_in_deck": _("The hero “%(card)s” cannot be in the “%(section_text)s”."),
    "hero_wrong_kind": _("“%(card)s” is not a hero card."),
    "class_restriction": _(
        "“%(card)s” is for %(classes)s, but the hero's class is %(hero_class)s."
    ),
    "faction_restriction": _(
        "“%(card)s” belongs to the %(faction)s faction, but the hero's faction is %(hero_faction)s."
    ),
    "hero_trait_required": _(
        "“%(card)s” requires a hero with %(trait_text)s %(required)s; the hero has: %(hero)s."
    ),
    "hero_traits_unknown": _(
        "The hero's %(trait_text)s is not known, so “%(card)s” could not be checked."
    ),
    # --- Blue Moon (decks.domain.bluemoon) ---------------------------------------------------
    "missing_leader": _("No leader declared: the deck needs exactly one leader."),
    "too_many_leaders": _("%(count)s leaders declared; exactly %(limit)s is required."),
    "deck_wrong_size": _("The deck has %(count)s cards; exactly %(required)s are required."),
    "moon_budget_exceeded": _(
        "Cards of other peoples cost %(moons)s moons; at most %(budget)s are allowed (%(cards)s)."
    ),
    "inquisitor_with_emissary": _("An inquisitor and an emissary cannot be used together."),
    "too_many_inquisitors": _("%(count)s inquisitors declared; at most %(limit)s is allowed."),
    "too_many_emissaries": _("%(count)s emissaries declared; at most %(limit)s is allowed."),
    "emissary_not_allowed": _("A self-built (advanced) deck cannot use an emissary."),
    "inquisitor_not_allowed": _("A pre-constructed people deck cannot use an inquisitor."),
    "emissaries_inquisitors_not_used": _(
        "This format is played without the Emissaries and Inquisitors expansions, so “%(card)s” "
        "cannot be used."
    ),
    "duplicate_card": _("“%(card)s” is in the deck %(count)s times; each card may be used once."),
    "card_not_of_people": _(
        "“%(card)s” (people: %(people)s) is not a card of the leader's people "
        "(%(leader_people)s) nor one of the emissary's cards."
    ),
    "not_in_preconstructed_deck": _(
        "“%(card)s” is not part of the pre-constructed %(people)s deck."
    ),
    "moons_unknown": _(
        "The moon value of “%(card)s” is not known, so the moon budget was not checked for it."
    ),
    "emissary_cards_unknown": _(
        "The cards of the emissary %(emissary)s are not known, so “%(card)s” could not be "
        "checked against them."
    ),
    "leader_people_unknown": _(
        "The leader's people is not known, so the people and moon rules were not checked."
    ),
}

#: Message for a code this module does not know (a newer domain than this table).
GENERIC_MESSAGE = _("Deck rule violated (%(code)s).")

#: ``parse_error`` reasons (``decks.domain.codes``).
PARSE_REASONS: dict[str, object] = {
    "zero_count": _("the number of copies is zero."),
    "negative_count": _("the number of copies is negative."),
    "count_too_large": _("the number of copies is too large."),
    "missing_name": _("the card name is missing."),
    "name_too_long": _("the card name is too long."),
    "too_many_lines": _("the list has too many lines."),
    "text_too_long": _("the list is too long."),
    "not_an_object": _("the data is not an object."),
    "unknown_section": _("unknown section heading."),
    "bad_section": _("the section is not a list of cards."),
    "bad_item": _("an entry is not a card name with a count."),
    "bad_count": _("the number of copies is not a whole number."),
}
GENERIC_PARSE_REASON = _("the line is not in the form “3 Card name”.")

#: Names a violation's ``section`` may take beyond the deck sections
#: (``decks.domain.sections.DECK_SECTIONS``, whose ``label`` names them).
OTHER_SECTIONS: dict[str, object] = {"guild": _("guild")}


def section_text(code: object) -> str:
    """What users call the section ``code``: its registry entry's ``label``, translated."""
    if code is None:
        return "?"
    section = DECK_SECTIONS.get(str(code))
    if section is not None:
        return gettext(section.label)
    return _lookup(OTHER_SECTIONS, code)


#: Card kinds (``decks.domain.types.CardKind`` values).
KINDS: dict[str, object] = {
    "card": _("card"),
    "rule_card": _("rule card"),
    "follower": _("follower"),
    "epic_follower": _("epic follower"),
    "horde_commander": _("horde commander"),
    "guild": _("guild"),
    "hero": _("hero"),
    "leader": _("leader"),
    "inquisitor": _("inquisitor"),
    "emissary": _("emissary"),
}

#: WoW hero traits (``hero_trait_required`` / ``hero_traits_unknown``).
TRAITS: dict[str, object] = {
    "class": _("class"),
    "race": _("race"),
    "faction": _("faction"),
    "talent": _("talent"),
    "profession": _("profession"),
}


class _Lenient(dict):
    """Params for ``%`` formatting: a missing placeholder renders as ``?`` instead of raising."""

    def __missing__(self, key: str) -> str:
        return "?"


def _text(value: object) -> str:
    if isinstance(value, list | tuple | set | frozenset):
        items = sorted(value) if isinstance(value, set | frozenset) else value
        return ", ".join(str(v) for v in items) or "–"
    if value is None:
        return "–"
    return str(value)


def _lookup(table: Mapping[str, object], key: object) -> str:
    if key is None:
        return "?"
    return str(table.get(str(key), key))


def message_params(violation: Violation) -> dict[str, str]:
    """The strings a message is formatted with: the params, lists joined, derived names added."""
    params = dict(violation.params)
    values: dict[str, str] = {key: _text(value) for key, value in params.items()}
    values.setdefault("card", violation.card or "?")
    values["code"] = violation.code
    values["section_text"] = section_text(params.get("section"))
    values["kind_text"] = _lookup(KINDS, params.get("kind"))
    values["trait_text"] = _lookup(TRAITS, params.get("trait"))
    values["assumed_kind_text"] = _lookup(KINDS, params.get("assumed_kind"))
    reason = params.get("reason")
    values["reason_text"] = str(PARSE_REASONS.get(str(reason), GENERIC_PARSE_REASON))
    colours = params.get("colours")
    if "colour_count" not in values:
        values["colour_count"] = str(len(colours)) if isinstance(colours, list | tuple) else "?"
    return values


def message_for(violation: Violation) -> str:
    """The translated message for ``violation`` in the active language.

    Unknown codes get a generic message naming the code; a message whose placeholder has no
    param shows ``?`` there rather than failing. Suggestions of ``unknown_card`` and
    ``card_not_in_catalogue`` are not in the message (clients show ``params["suggestions"]``
    themselves) except as a trailing "Did you mean …?" sentence.
    """
    template = MESSAGES.get(violation.code, GENERIC_MESSAGE)
    text = str(template) % _Lenient(message_params(violation))
    if violation.code in ("unknown_card", "card_not_in_catalogue"):
        suggestions = violation.params.get("suggestions") or []
        if suggestions:
            text = (
                text
                + " "
                + gettext("Did you mean: %(suggestions)s?") % {"suggestions": _text(suggestions)}
            )
    return text


def has_message(code: str) -> bool:
    """True if ``code`` has its own message (not the generic fallback)."""
    return code in MESSAGES
