"""Read-only queries of the decks app (no writes, no transactions).

- :mod:`decks.selectors.cache`: in-process caches checked against the catalogue version;
- :mod:`decks.selectors.cards`: card rows as domain cards, the cached card index, card search;
- :mod:`decks.selectors.formats`: active formats and a format's spec with its ban lists;
- :mod:`decks.selectors.game_start_effects`: the organiser's game-start effects table.
"""
