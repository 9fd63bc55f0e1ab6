"""In-memory card index: name lookup per game, other-game detection and suggestions.

Pure Python (rapidfuzz is a plain library, not a framework). Build one :class:`CardIndex`
per catalogue version and reuse it: building costs O(cards), lookups are O(1) dict hits,
and fuzzy suggestions are computed only for names that were not found.

Names resolve by (docs/rules.md §1 (HKK card identity, colours and editions), §9 (WoW TCG
constructed decks), §17 (Card data sources and coverage)):

1. the printed name or one of the card's aliases (``Card.attributes["aliases"]``: the
   source data's misspellings, common variants), any case, whitespace or apostrophe;
2. the same with the Latin-1 look-alikes õ/û/Õ/Û read as ő/ű/Ő/Ű, when the catalogue has that
   form (:func:`decks.domain.normalize.hungarian_lookalikes`);
3. a qualified name naming one printing: ``"Death Coil (Death Knight)"``,
   ``"Death Coil [DKS]"``, ``"Death Coil (Fires of Outland)"``: the part in brackets is a
   class icon, an ally class, a card type, a set name or set code, or a card id.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from rapidfuzz import fuzz, process, utils

from decks.domain.normalize import hungarian_lookalikes, normalize_name
from decks.domain.types import Card, Coverage, card_aliases, card_editions

_QUALIFIED = re.compile(r"^(?P<base>.+?)\s*(?:\((?P<paren>[^()]+)\)|\[(?P<square>[^\[\]]+)\])$")

#: Minimum rapidfuzz WRatio score (0-100) for a suggestion.
SUGGESTION_CUTOFF = 70.0


def _id_order(card: Card) -> tuple[int, int, str]:
    """Sort key: numeric ids numerically, then any other id as text (deterministic)."""
    return (0, int(card.id), card.id) if card.id.isdigit() else (1, 0, card.id)


def qualifier_matches(card: Card, qualifier: str) -> bool:
    """True if ``qualifier`` (the bracketed part of ``"Death Coil (Death Knight)"``) names
    this printing: a class icon, an ally class, a hero class, a card type, an edition (set
    name), the set code, the card id or collector number (any case)."""
    wanted = normalize_name(qualifier).lstrip("#")
    if not wanted:
        return False
    values: set[str] = {card.id, *card.class_icons, *card.types}
    values.update(card.hero_traits.get("class", ()))
    ally_class = card.attributes.get("ally_class")
    if isinstance(ally_class, list | tuple):
        values.update(str(v) for v in ally_class)
    values.update(card_editions(card) or ())
    for key in ("set_code", "series", "card_num"):
        value = card.attributes.get(key)
        if isinstance(value, str):
            values.add(value)
            if key == "card_num":
                values.add(value.lstrip("0"))
    return wanted in {normalize_name(v) for v in values if v}


class CardIndex:
    """Cards of every game, indexed by normalised name (and by each card's aliases).

    Reprints sharing one name in one game (three names in the WoW CSV occur twice) resolve
    to a single canonical card, the one with the lowest id; :meth:`all_named` and
    :meth:`candidates` return them all, and ``decks.domain.identity.choose_printing`` picks
    one by context.

    Args:
        cards: any iterable of :class:`~decks.domain.types.Card` (all games mixed).
        coverage: per game slug, whether the catalogue holds every card
            (:class:`~decks.domain.types.Coverage`); a game not named is ``COMPLETE``.
            Source: docs/rules.md §17 (Card data sources and coverage).
    """

    def __init__(
        self, cards: Iterable[Card], coverage: Mapping[str, Coverage] | None = None
    ) -> None:
        grouped: dict[str, dict[str, list[Card]]] = {}
        by_id: dict[tuple[str, str], Card] = {}
        games_by_key: dict[str, set[str]] = {}
        alias_cards: list[tuple[str, Card]] = []
        for card in cards:
            key = normalize_name(card.name)
            grouped.setdefault(card.game, {}).setdefault(key, []).append(card)
            by_id[(card.game, card.id)] = card
            games_by_key.setdefault(key, set()).add(card.game)
            alias_cards.extend((normalize_name(alias), card) for alias in card_aliases(card))
        for key, card in alias_cards:
            names = grouped.setdefault(card.game, {})
            if key in names and all(normalize_name(c.name) == key for c in names[key]):
                continue  # a printed name wins over another card's alias
            if card not in names.setdefault(key, []):
                names[key].append(card)
            games_by_key.setdefault(key, set()).add(card.game)
        self._all: dict[str, dict[str, tuple[Card, ...]]] = {
            game: {key: tuple(sorted(found, key=_id_order)) for key, found in names.items()}
            for game, names in grouped.items()
        }
        self._canonical: dict[str, dict[str, Card]] = {
            game: {key: found[0] for key, found in names.items()}
            for game, names in self._all.items()
        }
        self._by_id = by_id
        self._games_by_key = {key: frozenset(games) for key, games in games_by_key.items()}
        self._choices: dict[str, tuple[list[str], list[str]]] = {}
        self._coverage = dict(coverage or {})

    def __len__(self) -> int:
        return len(self._by_id)

    @property
    def games(self) -> frozenset[str]:
        """Game slugs present in the index."""
        return frozenset(self._canonical)

    def coverage(self, game: str) -> Coverage:
        """Whether the catalogue of ``game`` is complete or partial (default complete)."""
        return self._coverage.get(game, Coverage.COMPLETE)

    def candidates(self, name: str, game: str) -> tuple[Card, ...]:
        """Every printing ``name`` may mean in ``game``, lowest id first; ``()`` if none.

        Tries, in order: the name (or an alias) as typed; the name with õ/û/Õ/Û read as
        ő/ű/Ő/Ű; a qualified name ``"Base (qualifier)"`` / ``"Base [qualifier]"`` whose
        qualifier picks printings of ``Base`` (:func:`qualifier_matches`). A qualifier that
        matches no printing gives ``()``.
        """
        names = self._all.get(game)
        if not names:
            return ()
        key = normalize_name(name)
        found = names.get(key)
        if found:
            return found
        fixed = hungarian_lookalikes(key)
        if fixed != key and fixed in names:
            return names[fixed]
        match = _QUALIFIED.match(name.strip())
        if match is None:
            return ()
        base = self.candidates(match.group("base"), game)
        qualifier = match.group("paren") or match.group("square") or ""
        return tuple(card for card in base if qualifier_matches(card, qualifier))

    def lookup(self, name: str, game: str) -> Card | None:
        """The canonical card called ``name`` (any spelling, alias, look-alike letters or
        qualified name; see :meth:`candidates`) in ``game``: the lowest id, or ``None``."""
        found = self.candidates(name, game)
        return found[0] if found else None

    def lookup_key(self, key: str, game: str) -> Card | None:
        """Like :meth:`lookup` for an already normalised ``key``."""
        names = self._canonical.get(game)
        return None if names is None else names.get(key)

    def all_named(self, name: str, game: str) -> tuple[Card, ...]:
        """Every printing called ``name`` in ``game``, lowest id first (``()`` if none)."""
        return self._all.get(game, {}).get(normalize_name(name), ())

    def by_id(self, game: str, card_id: str) -> Card | None:
        """The card with external id ``card_id`` in ``game``, or ``None``."""
        return self._by_id.get((game, card_id))

    def other_games(self, name: str, game: str) -> tuple[str, ...]:
        """Sorted slugs of games other than ``game`` that have a card called ``name``."""
        key = normalize_name(name)
        found = self._games_by_key.get(key) or self._games_by_key.get(
            hungarian_lookalikes(key), frozenset()
        )
        return tuple(sorted(found - {game}))

    def suggest(self, name: str, game: str, limit: int = 3) -> list[str]:
        """Printed names in ``game`` closest to ``name``, best first (at most ``limit``).

        Uses ``rapidfuzz.process.extract`` with the ``WRatio`` scorer (tolerates typos, missing
        accents-free words and partial names) and a cutoff of :data:`SUGGESTION_CUTOFF`.
        """
        key = normalize_name(name)
        if not key or limit <= 0:
            return []
        query = utils.default_process(key)
        keys, printed = self._choices_for(game)
        if not keys or not query:
            return []
        matches = process.extract(
            query,
            keys,
            scorer=fuzz.WRatio,
            processor=None,
            limit=limit * 2,
            score_cutoff=SUGGESTION_CUTOFF,
        )
        # An alias and its printed name are two keys for one printed name: show it once.
        unique = dict.fromkeys(printed[index] for _choice, _score, index in matches)
        return list(unique)[:limit]

    def _choices_for(self, game: str) -> tuple[list[str], list[str]]:
        cached = self._choices.get(game)
        if cached is None:
            names = self._canonical.get(game, {})
            keys = sorted(names)
            # rapidfuzz's default_process (lower case, non-alphanumerics to spaces), done once.
            cached = ([utils.default_process(k) for k in keys], [names[k].name for k in keys])
            self._choices[game] = cached
        return cached
