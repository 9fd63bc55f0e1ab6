"""Server-rendered pages of the tournaments app, by role (routes in ``tournaments.pages.urls``;
templates in ``templates/tournaments/<role>/``, shared partials in
``templates/tournaments/includes/``):

- ``public``: the list of events, the event page, pairings by table and by name, standings and
  the live page;
- ``player`` (+ ``player_forms``): my events, self-registration, my deck list, the lists of an
  entry, my pairing and my result report;
- ``judge`` (+ ``judge_forms``): the judge page, disputed reports and deck checks;
  ``judge_match``: the result screen of one table;
- ``organiser`` (+ ``organiser_forms``): the dashboard, the new event, options, status and staff;
  ``organiser_entries``: entries and their deck lists; ``organiser_rounds``: pairing, swapping,
  publishing and finishing rounds, and the PDFs drawn by ``printouts``;
- ``common``: loading the objects a URL names with the role checks, and running one service call
  with its error shown as a message.

Pages are thin: forms check the input, one service call does the work, and every POST redirects
(POST-redirect-GET).
"""
