"""HTML routes of the tournaments app (mounted at "" by the root URLconf)."""

from django.urls import path

from tournaments import views, views_judge, views_organiser, views_player, views_public

app_name = "tournaments"

T = "tournaments/<int:tournament_id>/"
R = T + "rounds/<int:number>/"

urlpatterns = [
    path("tournaments/", views.tournament_list, name="list"),
    path("tournaments/new/", views.tournament_create, name="create"),
    path("organiser/", views_organiser.dashboard, name="dashboard"),
    path("me/events/", views_player.my_events, name="my-events"),
    path(T, views.tournament_detail, name="detail"),
    path(T + "live/", views_public.live, name="live"),
    path(T + "options/", views.tournament_options, name="options"),
    path(T + "staff/", views_organiser.staff, name="staff"),
    path(T + "staff/appoint/", views_organiser.staff_appoint, name="staff-appoint"),
    path(T + "staff/remove/", views_organiser.staff_remove, name="staff-remove"),
    path(T + "open-registration/", views.tournament_open_registration, name="open-registration"),
    path(T + "start/", views.tournament_start, name="start"),
    path(T + "finish/", views.tournament_finish, name="finish"),
    path(T + "register/", views_player.register, name="register"),
    path(T + "my-deck/", views_player.my_deck, name="my-deck"),
    path(T + "my-match/", views_player.my_match, name="my-match"),
    path(T + "judge/", views_judge.judge_home, name="judge"),
    path(
        T + "reports/<int:report_id>/confirm/",
        views_judge.report_confirm,
        name="report-confirm",
    ),
    path(T + "entries/add/", views.entry_add, name="entry-add"),
    path(T + "entries/<int:entry_id>/deck/", views.entry_deck, name="entry-deck"),
    path(T + "entries/<int:entry_id>/lists/", views_player.entry_lists_view, name="entry-lists"),
    path(T + "entries/<int:entry_id>/override/", views.entry_override, name="entry-override"),
    path(T + "entries/<int:entry_id>/drop/", views.entry_drop, name="entry-drop"),
    path(T + "rounds/new/", views.round_pair_next, name="round-pair-next"),
    path(R, views.round_detail, name="round"),
    path(R + "by-name/", views.round_by_name, name="round-by-name"),
    path(R + "swap/", views.round_swap, name="round-swap"),
    path(R + "publish/", views.round_publish, name="round-publish"),
    path(R + "finish/", views.round_finish, name="round-finish"),
    path(R + "tables/<int:table>/", views.match_entry, name="match"),
    path(R + "deck-checks/", views_judge.deck_checks, name="deck-checks"),
    path(R + "deck-checks/pick/", views_judge.deck_checks_pick, name="deck-checks-pick"),
    path(R + "deck-checks/add/", views_judge.deck_check_add, name="deck-check-add"),
    path(
        R + "deck-checks/<int:check_id>/",
        views_judge.deck_check_record,
        name="deck-check-record",
    ),
    path(R + "print/pairings.pdf", views_organiser.print_pairings, name="print-pairings"),
    path(R + "print/slips.pdf", views_organiser.print_slips, name="print-slips"),
    path(T + "print/standings.pdf", views_organiser.print_standings, name="print-standings"),
    path(T + "standings/", views.standings, name="standings"),
]
