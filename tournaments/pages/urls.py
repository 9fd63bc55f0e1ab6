"""HTML routes of the tournaments app (mounted at "" by the root URLconf, namespace
``tournaments``): the public pages, the player's, the judges' and the organisers' pages of
``tournaments.pages``.
"""

from django.urls import path

import hkk_tournament.converters  # noqa: F401  (registers <id:…>, <small:…>)
from tournaments.pages import (
    event_day,
    event_history,
    judge,
    judge_match,
    meta,
    organiser,
    organiser_desk,
    organiser_entries,
    organiser_rounds,
    player,
    public,
)

app_name = "tournaments"

T = "tournaments/<id:tournament_id>/"
R = T + "rounds/<small:number>/"

urlpatterns = [
    path("tournaments/", public.tournament_list, name="list"),
    path("tournaments/new/", organiser.tournament_create, name="create"),
    path("organiser/", organiser.dashboard, name="dashboard"),
    path("me/events/", player.my_events, name="my-events"),
    path("me/list-consent/", meta.list_consent, name="list-consent"),
    path("meta/", meta.meta_page, name="meta"),
    path("meta/cards.csv", meta.meta_csv, name="meta-csv"),
    path("meta/hkkmeta.csv", meta.meta_hkkmeta, name="meta-hkkmeta"),
    path("meta/meta.json", meta.meta_json, name="meta-json"),
    path("claim/", organiser_desk.claim, name="claim"),
    path(T + "reopen/", organiser_desk.tournament_reopen, name="reopen"),
    path(
        T + "actions/<int:action_id>/restore/",
        organiser_desk.results_restore,
        name="results-restore",
    ),
    path(T + "history/", event_history.event_history, name="history"),
    path(T + "details/", organiser_desk.tournament_details, name="details"),
    path(T + "duplicate/", organiser_desk.tournament_duplicate, name="duplicate"),
    path(T + "claim-codes/", organiser_desk.claim_codes, name="claim-codes"),
    path(T + "claim-codes/all/", organiser_desk.claim_codes_all, name="claim-codes-all"),
    path(T + "claim-codes/sheet.pdf", organiser_desk.claim_sheet, name="claim-sheet"),
    path(T + "check-in/drop-absent/", organiser_desk.drop_not_checked_in, name="drop-absent"),
    path(T + "entries/import/", organiser_desk.entries_import, name="entries-import"),
    path(T + "entries/<id:entry_id>/readd/", organiser_desk.entry_readd, name="entry-readd"),
    path(
        T + "entries/<id:entry_id>/check-in/", organiser_desk.entry_check_in, name="entry-check-in"
    ),
    path(T + "entries/<id:entry_id>/claim-code/", organiser_desk.claim_code, name="claim-code"),
    path(T + "entries/<id:entry_id>/invite/", organiser_desk.invite, name="entry-invite"),
    path(R + "discard/", organiser_desk.round_discard, name="round-discard"),
    path(R + "unpublish/", organiser_desk.round_unpublish, name="round-unpublish"),
    path(T, public.tournament_detail, name="detail"),
    path(T + "live/", public.live, name="live"),
    path(T + "options/", organiser.tournament_options, name="options"),
    path(T + "staff/", organiser.staff, name="staff"),
    path(T + "staff/appoint/", organiser.staff_appoint, name="staff-appoint"),
    path(T + "staff/remove/", organiser.staff_remove, name="staff-remove"),
    path(
        T + "open-registration/", organiser.tournament_open_registration, name="open-registration"
    ),
    path(T + "start/", organiser.tournament_start, name="start"),
    path(T + "finish/", organiser.tournament_finish, name="finish"),
    path(T + "register/", player.register, name="register"),
    path(T + "my-deck/", player.my_deck, name="my-deck"),
    path(T + "my-match/", player.my_match, name="my-match"),
    path(T + "judge/", judge.judge_home, name="judge"),
    path(T + "penalties/", event_day.penalties, name="penalties"),
    path(T + "top-cut/", event_day.top_cut, name="top-cut"),
    path(T + "top-cut/start/", event_day.top_cut_action, {"action": "start"}, name="top-cut-start"),
    path(T + "top-cut/next/", event_day.top_cut_action, {"action": "next"}, name="top-cut-next"),
    path(T + "reports/<id:report_id>/confirm/", judge.report_confirm, name="report-confirm"),
    path(T + "entries/add/", organiser_entries.entry_add, name="entry-add"),
    path(T + "entries/<id:entry_id>/deck/", organiser_entries.entry_deck, name="entry-deck"),
    path(T + "entries/<id:entry_id>/lists/", player.entry_lists_view, name="entry-lists"),
    path(
        T + "entries/<id:entry_id>/decks/<id:deck_id>/approve/",
        organiser_entries.entry_deck_approve,
        name="entry-deck-approve",
    ),
    path(
        T + "entries/<id:entry_id>/override/",
        organiser_entries.entry_override,
        name="entry-override",
    ),
    path(T + "entries/<id:entry_id>/drop/", organiser_entries.entry_drop, name="entry-drop"),
    path(T + "rounds/new/", organiser_rounds.round_pair_next, name="round-pair-next"),
    path(R, public.round_detail, name="round"),
    path(R + "by-name/", public.round_by_name, name="round-by-name"),
    path(R + "swap/", organiser_rounds.round_swap, name="round-swap"),
    path(R + "publish/", organiser_rounds.round_publish, name="round-publish"),
    path(R + "finish/", organiser_rounds.round_finish, name="round-finish"),
    path(R + "tables/<small:table>/", judge_match.match_entry, name="match"),
    path(R + "tables/<small:table>/result/", event_day.match_result, name="match-result"),
    path(R + "clock/", event_day.round_clock, name="round-clock"),
    path(R + "projector/", event_day.projector, name="round-projector"),
    path(T + "projector/", event_day.projector_current, name="projector"),
    path(R + "deck-checks/", judge.deck_checks, name="deck-checks"),
    path(R + "deck-checks/pick/", judge.deck_checks_pick, name="deck-checks-pick"),
    path(R + "deck-checks/add/", judge.deck_check_add, name="deck-check-add"),
    path(R + "deck-checks/<id:check_id>/", judge.deck_check_record, name="deck-check-record"),
    path(R + "print/pairings.pdf", organiser_rounds.print_pairings, name="print-pairings"),
    path(R + "print/slips.pdf", organiser_rounds.print_slips, name="print-slips"),
    path(T + "print/standings.pdf", organiser_rounds.print_standings, name="print-standings"),
    path(T + "standings/", public.standings, name="standings"),
]
