"""REST routes of the tournaments app (mounted at "api/" by the root URLconf)."""

from django.urls import path

import hkk_tournament.web.converters  # noqa: F401  (registers <id:…>, <small:…>)
from tournaments.api import (
    actions,
    circuits,
    claims,
    clock,
    deck_checks,
    entries,
    exports,
    matches,
    meta,
    penalties,
    reports,
    rounds,
    staff,
    top_cut,
)
from tournaments.api import tournaments as events

T = "tournaments/<id:tournament_id>/"

E = T + "entries/<id:entry_id>/"
RN = T + "rounds/<small:number>/"

urlpatterns = [
    path("meta/", meta.MetaApi.as_view(), name="meta"),
    path("me/list-consent/", meta.ListConsentApi.as_view(), name="list-consent"),
    path("claim/", claims.ClaimApi.as_view(), name="claim"),
    path(T + "reopen/", events.TournamentReopenApi.as_view(), name="tournaments-reopen"),
    path(T + "details/", events.TournamentDetailsApi.as_view(), name="tournaments-details"),
    path(
        T + "claim-codes/",
        claims.TournamentClaimCodesApi.as_view(),
        name="tournaments-claim-codes",
    ),
    path(T + "duplicate/", events.TournamentDuplicateApi.as_view(), name="tournaments-duplicate"),
    path(T + "actions/", actions.TournamentActionsApi.as_view(), name="tournaments-actions"),
    path(
        T + "invitations/",
        claims.TournamentInvitationsApi.as_view(),
        name="tournaments-invitations",
    ),
    path(
        T + "actions/<int:action_id>/restore/",
        actions.ResultsRestoreApi.as_view(),
        name="tournaments-actions-restore",
    ),
    path(
        T + "check-in/drop-absent/",
        entries.DropAbsentApi.as_view(),
        name="tournaments-drop-absent",
    ),
    path(
        T + "entries/import/",
        entries.EntriesImportApi.as_view(),
        name="tournaments-entries-import",
    ),
    path(
        E + "drop-after-pairing/",
        entries.EntryDropAfterPairingApi.as_view(),
        name="tournaments-entry-drop-after-pairing",
    ),
    path(E + "readd/", entries.EntryReaddApi.as_view(), name="tournaments-entry-readd"),
    path(E + "check-in/", entries.EntryCheckInApi.as_view(), name="tournaments-entry-check-in"),
    path(
        E + "claim-code/",
        claims.EntryClaimCodeApi.as_view(),
        name="tournaments-entry-claim-code",
    ),
    path(RN + "discard/", rounds.RoundDiscardApi.as_view(), name="tournaments-round-discard"),
    path(
        RN + "unpublish/",
        rounds.RoundUnpublishApi.as_view(),
        name="tournaments-round-unpublish",
    ),
    path("tournaments/", events.TournamentListCreateApi.as_view(), name="tournaments-list"),
    path(T, events.TournamentDetailApi.as_view(), name="tournaments-detail"),
    path(
        T + "open-registration/",
        events.TournamentOpenRegistrationApi.as_view(),
        name="tournaments-open-registration",
    ),
    path(T + "start/", events.TournamentStartApi.as_view(), name="tournaments-start"),
    path(T + "finish/", events.TournamentFinishApi.as_view(), name="tournaments-finish"),
    path(T + "entries/", entries.EntryListCreateApi.as_view(), name="tournaments-entries"),
    path(T + "register/", entries.SelfRegisterApi.as_view(), name="tournaments-register"),
    path(
        T + "entries/<id:entry_id>/decks/",
        entries.EntryDeckSubmitApi.as_view(),
        name="tournaments-entry-decks",
    ),
    path(
        T + "entries/<id:entry_id>/decks/<id:deck_id>/approve/",
        entries.EntryDeckApproveApi.as_view(),
        name="tournaments-entry-deck-approve",
    ),
    path(
        T + "entries/<id:entry_id>/override/",
        entries.EntryOverrideApi.as_view(),
        name="tournaments-entry-override",
    ),
    path(
        T + "entries/<id:entry_id>/drop/",
        entries.EntryDropApi.as_view(),
        name="tournaments-entry-drop",
    ),
    path(T + "rounds/", rounds.RoundListCreateApi.as_view(), name="tournaments-rounds"),
    path(T + "rounds/<small:number>/", rounds.RoundDetailApi.as_view(), name="tournaments-round"),
    path(
        T + "rounds/<small:number>/swap/",
        rounds.RoundSwapApi.as_view(),
        name="tournaments-round-swap",
    ),
    path(
        T + "rounds/<small:number>/publish/",
        rounds.RoundPublishApi.as_view(),
        name="tournaments-round-publish",
    ),
    path(
        T + "rounds/<small:number>/finish/",
        rounds.RoundFinishApi.as_view(),
        name="tournaments-round-finish",
    ),
    path(
        T + "rounds/<small:number>/pairings.csv",
        exports.RoundPairingsCsvApi.as_view(),
        name="tournaments-round-pairings-csv",
    ),
    path(
        T + "rounds/<small:number>/tables/<small:table>/games/",
        matches.TableGameRecordApi.as_view(),
        name="tournaments-table-games",
    ),
    path(T + "matches/<id:match_id>/", matches.MatchDetailApi.as_view(), name="tournaments-match"),
    path(
        T + "matches/<id:match_id>/die-roll/",
        matches.MatchDieRollApi.as_view(),
        name="tournaments-match-die-roll",
    ),
    path(
        T + "matches/<id:match_id>/reroll-agreement/",
        matches.MatchRerollAgreementApi.as_view(),
        name="tournaments-match-reroll-agreement",
    ),
    path(
        T + "matches/<id:match_id>/game3-roll/",
        matches.MatchGame3RollApi.as_view(),
        name="tournaments-match-game3-roll",
    ),
    path(
        T + "matches/<id:match_id>/result/",
        matches.MatchResultApi.as_view(),
        name="tournaments-match-result",
    ),
    path(
        T + "rounds/<small:number>/clock/",
        clock.RoundClockApi.as_view(),
        name="tournaments-round-clock",
    ),
    path(
        T + "matches/<id:match_id>/games/",
        matches.MatchGameRecordApi.as_view(),
        name="tournaments-match-games",
    ),
    path(
        T + "matches/<id:match_id>/reports/",
        reports.MatchReportListCreateApi.as_view(),
        name="tournaments-match-reports",
    ),
    path(
        T + "reports/<id:report_id>/confirm/",
        reports.ReportConfirmApi.as_view(),
        name="tournaments-report-confirm",
    ),
    path(T + "disputes/", reports.DisputeListApi.as_view(), name="tournaments-disputes"),
    path(
        T + "rounds/<small:number>/deck-checks/",
        deck_checks.RoundDeckCheckListAddApi.as_view(),
        name="tournaments-round-deck-checks",
    ),
    path(
        T + "rounds/<small:number>/deck-checks/pick/",
        deck_checks.RoundDeckCheckPickApi.as_view(),
        name="tournaments-round-deck-checks-pick",
    ),
    path(
        T + "deck-checks/<id:check_id>/record/",
        deck_checks.DeckCheckRecordApi.as_view(),
        name="tournaments-deck-check-record",
    ),
    path(T + "top-cut/", top_cut.TopCutApi.as_view(), name="tournaments-top-cut"),
    path(T + "penalties/", penalties.PenaltyListCreateApi.as_view(), name="tournaments-penalties"),
    path(T + "penalties.csv", penalties.PenaltyCsvApi.as_view(), name="tournaments-penalties-csv"),
    path(T + "staff/", staff.StaffListCreateApi.as_view(), name="tournaments-staff"),
    path(
        T + "staff/<userid:user_id>/",
        staff.StaffRemoveApi.as_view(),
        name="tournaments-staff-remove",
    ),
    path(T + "me/", staff.MeApi.as_view(), name="tournaments-me"),
    path(T + "standings/", exports.StandingsApi.as_view(), name="tournaments-standings"),
    path(T + "standings.csv", exports.StandingsCsvApi.as_view(), name="tournaments-standings-csv"),
    path(T + "export/", exports.TournamentExportApi.as_view(), name="tournaments-export"),
    path("circuits/", circuits.CircuitListApi.as_view(), name="circuits"),
    path("circuits/<id:circuit_id>/", circuits.CircuitDetailApi.as_view(), name="circuits-detail"),
    path(
        "circuits/<id:circuit_id>/standings/",
        circuits.CircuitStandingsApi.as_view(),
        name="circuits-standings",
    ),
    path(
        "circuits/<id:circuit_id>/events/",
        circuits.CircuitEventsApi.as_view(),
        name="circuits-events",
    ),
    path(
        "circuits/<id:circuit_id>/events/<id:link_id>/decision/",
        circuits.CircuitDecisionApi.as_view(),
        name="circuits-events-decision",
    ),
    path("players/<id:user_id>/", circuits.PlayerProfileApi.as_view(), name="players-profile"),
]
