"""REST routes of the tournaments app (mounted at "api/" by the root URLconf)."""

from django.urls import path

from tournaments import api

T = "tournaments/<int:tournament_id>/"

urlpatterns = [
    path("tournaments/", api.TournamentListCreateApi.as_view(), name="tournaments-list"),
    path(T, api.TournamentDetailApi.as_view(), name="tournaments-detail"),
    path(
        T + "open-registration/",
        api.TournamentOpenRegistrationApi.as_view(),
        name="tournaments-open-registration",
    ),
    path(T + "start/", api.TournamentStartApi.as_view(), name="tournaments-start"),
    path(T + "finish/", api.TournamentFinishApi.as_view(), name="tournaments-finish"),
    path(T + "entries/", api.EntryListCreateApi.as_view(), name="tournaments-entries"),
    path(T + "register/", api.SelfRegisterApi.as_view(), name="tournaments-register"),
    path(
        T + "entries/<int:entry_id>/decks/",
        api.EntryDeckSubmitApi.as_view(),
        name="tournaments-entry-decks",
    ),
    path(
        T + "entries/<int:entry_id>/override/",
        api.EntryOverrideApi.as_view(),
        name="tournaments-entry-override",
    ),
    path(
        T + "entries/<int:entry_id>/drop/",
        api.EntryDropApi.as_view(),
        name="tournaments-entry-drop",
    ),
    path(T + "rounds/", api.RoundListCreateApi.as_view(), name="tournaments-rounds"),
    path(T + "rounds/<int:number>/", api.RoundDetailApi.as_view(), name="tournaments-round"),
    path(
        T + "rounds/<int:number>/swap/", api.RoundSwapApi.as_view(), name="tournaments-round-swap"
    ),
    path(
        T + "rounds/<int:number>/publish/",
        api.RoundPublishApi.as_view(),
        name="tournaments-round-publish",
    ),
    path(
        T + "rounds/<int:number>/finish/",
        api.RoundFinishApi.as_view(),
        name="tournaments-round-finish",
    ),
    path(
        T + "rounds/<int:number>/pairings.csv",
        api.RoundPairingsCsvApi.as_view(),
        name="tournaments-round-pairings-csv",
    ),
    path(
        T + "rounds/<int:number>/tables/<int:table>/games/",
        api.TableGameRecordApi.as_view(),
        name="tournaments-table-games",
    ),
    path(T + "matches/<int:match_id>/", api.MatchDetailApi.as_view(), name="tournaments-match"),
    path(
        T + "matches/<int:match_id>/die-roll/",
        api.MatchDieRollApi.as_view(),
        name="tournaments-match-die-roll",
    ),
    path(
        T + "matches/<int:match_id>/game3-roll/",
        api.MatchGame3RollApi.as_view(),
        name="tournaments-match-game3-roll",
    ),
    path(
        T + "matches/<int:match_id>/games/",
        api.MatchGameRecordApi.as_view(),
        name="tournaments-match-games",
    ),
    path(
        T + "matches/<int:match_id>/reports/",
        api.MatchReportListCreateApi.as_view(),
        name="tournaments-match-reports",
    ),
    path(
        T + "reports/<int:report_id>/confirm/",
        api.ReportConfirmApi.as_view(),
        name="tournaments-report-confirm",
    ),
    path(T + "disputes/", api.DisputeListApi.as_view(), name="tournaments-disputes"),
    path(
        T + "rounds/<int:number>/deck-checks/",
        api.RoundDeckCheckListAddApi.as_view(),
        name="tournaments-round-deck-checks",
    ),
    path(
        T + "rounds/<int:number>/deck-checks/pick/",
        api.RoundDeckCheckPickApi.as_view(),
        name="tournaments-round-deck-checks-pick",
    ),
    path(
        T + "deck-checks/<int:check_id>/record/",
        api.DeckCheckRecordApi.as_view(),
        name="tournaments-deck-check-record",
    ),
    path(T + "staff/", api.StaffListCreateApi.as_view(), name="tournaments-staff"),
    path(T + "staff/<int:user_id>/", api.StaffRemoveApi.as_view(), name="tournaments-staff-remove"),
    path(T + "me/", api.MeApi.as_view(), name="tournaments-me"),
    path(T + "standings/", api.StandingsApi.as_view(), name="tournaments-standings"),
    path(T + "standings.csv", api.StandingsCsvApi.as_view(), name="tournaments-standings-csv"),
    path(T + "export/", api.TournamentExportApi.as_view(), name="tournaments-export"),
]
