"""Services of the decks app: computations and writes; writes own their transaction.

- :mod:`decks.services.validation`: validate a deck list against a format;
- :mod:`decks.services.game_start`: the HKK game start (opening hand and ÉP);
- :mod:`decks.services.catalogue_sync`: write loader output into the card catalogue.

Errors raised on purpose are the :mod:`decks.errors` family.
"""
