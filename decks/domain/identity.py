"""Card identity: which printing a shared name means, and the kind of a name-only card.

Pure Python. Used by :func:`decks.domain.validate.resolve` after the index has returned every
printing of a name (:meth:`decks.domain.index.CardIndex.candidates`).

Rules (docs/rules.md §9 (WoW TCG constructed decks), §1 (HKK card identity, colours and
editions), §17 (Card data sources and coverage)):

- A name shared by different cards (WoW "Death Coil": a Warlock ability and a Death Knight
  ability) resolves by context: the printing that fits the hero (class icon, faction icon,
  "Hero Required"); failing that, the printing whose class icons match the classes of the
  deck's other cards. When context still leaves several, the one that fits the hero (else
  the lowest id) is taken and a ``printing_chosen`` note names it.
- Printings with the same deck-rule facts (kind, type, icons, requirements, colours) are
  interchangeable: the lowest id is taken silently.
- A card whose kind is unknown (``Card.attributes["possible_kinds"]``) takes the kind of the
  section it is declared in, when that kind is possible; a ``card_facts_unknown`` note says
  the kind was assumed.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Sequence

from decks.domain import codes
from decks.domain.types import (
    FOLLOWER_KINDS,
    Card,
    CardKind,
    Violation,
    card_editions,
    possible_kinds,
)

#: The kind a card declared in a section is taken to have, when its kind is unknown.
SECTION_KINDS: dict[str, tuple[CardKind, ...]] = {
    "rule_card": (CardKind.RULE_CARD,),
    "follower": (CardKind.FOLLOWER, CardKind.EPIC_FOLLOWER, CardKind.HORDE_COMMANDER),
    "hero": (CardKind.HERO,),
    "main": (CardKind.CARD, CardKind.GUILD),
    "sideboard": (CardKind.CARD, CardKind.GUILD),
}


def fits_hero(card: Card, hero: Card | None) -> bool:
    """True if ``card`` may be played with ``hero``: its class icons include a hero class,
    its faction icon matches, its "Hero Required" traits are met (a trait the hero data
    lacks counts as met). Always True without a hero. docs/rules.md §9."""
    if hero is None:
        return True
    traits = hero.hero_traits
    hero_class = traits.get("class")
    if card.class_icons and hero_class is not None and not (card.class_icons & hero_class):
        return False
    hero_faction = traits.get("faction")
    if card.faction is not None and hero_faction is not None and card.faction not in hero_faction:
        return False
    for kind, required in card.requires.items():
        have = traits.get(kind)
        if required and have is not None and not (required & have):
            return False
    return True


def _facts(card: Card) -> tuple[object, ...]:
    return (
        card.kind,
        card.types,
        card.colours,
        card.class_icons,
        card.faction,
        tuple(sorted((k, tuple(sorted(v))) for k, v in card.requires.items())),
        card.unlimited,
    )


def printing_label(card: Card, others: Sequence[Card] = ()) -> str:
    """``"Death Coil (Death Knight, Death Knight Starter)"``: the name, what tells the
    printing apart (class icons, else type) and its first edition."""
    detail = ", ".join(sorted(card.class_icons))
    if not detail or any(o.class_icons == card.class_icons for o in others if o is not card):
        detail = ", ".join(card.types) or detail
    editions = card_editions(card) or ()
    parts = [p for p in (detail, editions[0] if editions else "") if p]
    return f"{card.name} ({', '.join(parts)})" if parts else card.name


def choose_printing(
    candidates: Sequence[Card], *, hero: Card | None, deck: Iterable[Card] = ()
) -> tuple[Card, Violation | None]:
    """Pick the printing a shared name means.

    Args:
        candidates: every printing of the name, lowest id first (non-empty).
        hero: the deck's hero, if known.
        deck: the deck's other (already resolved) cards, for their class icons.

    Returns:
        ``(card, None)`` when context decides (or the printings are interchangeable);
        ``(card, Violation("printing_chosen", …))`` when it does not and a choice was made.

    Raises:
        ValueError: ``candidates`` is empty.
    """
    if not candidates:
        raise ValueError("no candidates")
    first = candidates[0]
    if len({_facts(c) for c in candidates}) == 1:
        return first, None
    fitting = [c for c in candidates if fits_hero(c, hero)] if hero is not None else []
    if len(fitting) == 1:
        return fitting[0], None
    pool = fitting or list(candidates)
    classes: Counter[str] = Counter()
    for card in deck:
        classes.update(card.class_icons)
    if classes:
        best = max(sum(classes[c] for c in card.class_icons) for card in pool)
        top = [c for c in pool if sum(classes[i] for i in c.class_icons) == best]
        if best > 0 and len(top) == 1:
            return top[0], None
        if best > 0:
            pool = top
    chosen = pool[0]
    note = Violation(
        codes.PRINTING_CHOSEN,
        {
            "chosen": printing_label(chosen, candidates),
            "id": chosen.id,
            "set": (card_editions(chosen) or ("",))[0],
            "others": [printing_label(c, candidates) for c in candidates if c is not chosen],
        },
        chosen.name,
    )
    return chosen, note


def adopt_kind(card: Card, section: str) -> tuple[Card, Violation | None]:
    """Give a card whose kind is unknown the kind of the section it is declared in.

    Returns ``(card, None)`` when the kind is known or no possible kind fits the section
    (the rules then report the misplaced card), else ``(card with that kind,
    Violation("card_facts_unknown", {"facts": ["kind"], "assumed_kind": kind}))``.
    """
    kinds = possible_kinds(card)
    if len(kinds) <= 1:
        return card, None
    wanted = SECTION_KINDS.get(section, ())
    fitting = [kind for kind in kinds if kind in wanted]
    if not fitting:
        # Not possible here: keep a non-deck kind so the deck rules report it.
        deckless = [k for k in kinds if k is CardKind.RULE_CARD or k in FOLLOWER_KINDS]
        return (dataclasses.replace(card, kind=deckless[0]) if deckless else card), None
    kind = fitting[0]
    note = Violation(
        codes.CARD_FACTS_UNKNOWN, {"facts": ["kind"], "assumed_kind": str(kind)}, card.name
    )
    return dataclasses.replace(card, kind=kind), note
