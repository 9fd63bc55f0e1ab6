"""REST API of the tournaments app, one module per resource, each holding its serializers beside
its views: ``tournaments`` (events and their state transitions), ``entries`` (registration and
deck lists), ``rounds`` (Swiss pairing, swaps, publish, finish), ``matches`` (die rolls and
games), ``reports`` (players' result reports, disputes), ``deck_checks``, ``staff`` (staff and
the caller's own roles), ``exports`` (standings, CSV and JSON exports); ``urls`` routes them and
``_common`` holds the base view and the documented error responses.

One ``<Entity><Action>Api`` class per endpoint, explicit input and output serializers, no ORM in
the views: reads go through ``tournaments.selectors``, writes through ``tournaments.services``.

Who may do what is decided on the object by the services (each takes the caller as ``actor``
and applies a ``tournaments.permissions`` check); the views only gate reads and answer early
through ``tournaments.access`` (``TournamentApi.role_tournament``):

- reading: anyone for public events; private events and drafts are 404 for outsiders
  (``selectors.tournament_get_visible``); draft rounds are 404 for all but the organisers;
  deck lists of others need the judge role or published lists;
- organisers (owner and co-organisers): tournament changes, registrations by the organiser,
  overrides, drops, rounds (pair, swap, publish, finish); only the owner appoints staff;
- judges (and organisers): recording and correcting games, die rolls, confirming result
  reports, disputes, deck checks;
- players: self-registration, their own deck list before the lock, their own result reports.

Anonymous callers get 403 (``not_authenticated``; 401 with token auth headers) on anything
that needs a role; signed-in callers without the role get 403 (``permission_denied``, or
``own_match`` at their own table).

Errors (``hkk_tournament.errors.ApplicationError`` and DRF's own) are rendered by the project's
one handler (``hkk_tournament.web.exceptions.api_exception_handler``) as
``{"error": {"code", "message", "fields", "params"}}``: ``NotFound`` → 404, ``Conflict`` → 409
(duplicate or concurrent write), ``InvalidState`` → 409 (well-formed, but the tournament, round
or match is in the wrong state; RFC 9110 §15.5.10), ``ValidationFailed`` → 400 (bad input).
"""
