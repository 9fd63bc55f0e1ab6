"""In-memory card index: name lookup per game, other-game detection and suggestions.

Pure Python (rapidfuzz is a plain library, not a framework). Build one :class:`CardIndex`
per catalogue version and reuse it: building costs O(cards), lookups are O(1) dict hits,
and fuzzy suggestions are computed only for names that were not found.
"""

from __future__ import annotations

from collections.abc import Iterable

from rapidfuzz import fuzz, process, utils

from decks.domain.normalize import normalize_name
from decks.domain.types import Card

#: Minimum rapidfuzz WRatio score (0-100) for a suggestion.
SUGGESTION_CUTOFF = 70.0


def _id_order(card: Card) -> tuple[int, int, str]:
    """Sort key: numeric ids numerically, then any other id as text (deterministic)."""
    return (0, int(card.id), card.id) if card.id.isdigit() else (1, 0, card.id)


class CardIndex:
    """Cards of every game, indexed by normalised name.

    Reprints sharing one name in one game (three names in the WoW CSV occur twice) resolve
    to a single canonical card, the one with the lowest id; :meth:`all_named` returns them all.

    Args:
        cards: any iterable of :class:`~decks.domain.types.Card` (all games mixed).
    """

    def __init__(self, cards: Iterable[Card]) -> None:
        grouped: dict[str, dict[str, list[Card]]] = {}
        by_id: dict[tuple[str, str], Card] = {}
        games_by_key: dict[str, set[str]] = {}
        for card in cards:
            key = normalize_name(card.name)
            grouped.setdefault(card.game, {}).setdefault(key, []).append(card)
            by_id[(card.game, card.id)] = card
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

    def __len__(self) -> int:
        return len(self._by_id)

    @property
    def games(self) -> frozenset[str]:
        """Game slugs present in the index."""
        return frozenset(self._canonical)

    def lookup(self, name: str, game: str) -> Card | None:
        """The canonical card called ``name`` (any spelling) in ``game``, or ``None``."""
        return self.lookup_key(normalize_name(name), game)

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
        found = self._games_by_key.get(normalize_name(name), frozenset())
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
            limit=limit,
            score_cutoff=SUGGESTION_CUTOFF,
        )
        return [printed[index] for _choice, _score, index in matches]

    def _choices_for(self, game: str) -> tuple[list[str], list[str]]:
        cached = self._choices.get(game)
        if cached is None:
            names = self._canonical.get(game, {})
            keys = sorted(names)
            # rapidfuzz's default_process (lower case, non-alphanumerics to spaces), done once.
            cached = ([utils.default_process(k) for k in keys], [names[k].name for k in keys])
            self._choices[game] = cached
        return cached
