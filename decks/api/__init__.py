"""REST API of the decks app (mounted at ``/api/`` by :mod:`decks.api.urls`).

One module per resource, serializers beside the views they serve:

- :mod:`decks.api.validate`: ``POST /api/decks/validate/``;
- :mod:`decks.api.formats`: ``GET /api/formats/``;
- :mod:`decks.api.cards`: ``GET /api/cards/``;
- :mod:`decks.api.game_start`: ``POST /api/game-start/``.

Views stay thin: serializers check shapes, services decide. Errors raised on purpose
(:mod:`decks.errors`) are rendered by the project's handler as
``{"error": {"code", "message", "fields", "params"}}`` (documented by
``hkk_tournament.web.schema.ErrorResponseSerializer``).
"""
