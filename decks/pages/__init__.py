"""HTML pages of the decks app: the deck-check page at ``/`` (:mod:`decks.pages.validate`, its
form in :mod:`decks.pages.forms`, routes in :mod:`decks.pages.urls`)."""
