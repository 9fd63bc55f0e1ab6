"""Event-day API for the organiser: fix a round after pairing (discard and pair again,
unpublish), drop an entry paired in the current round (re-pair or bye for the opponent), add a
dropped entry back, check-in and dropping those not checked in, import a player list (preview
or save, all or nothing), claim codes and claiming an entry, reopen a finished event, the
event's details, "use as a template", and the action log.

Organisers only (``require_manage``), except ``POST /api/claim/`` (any signed-in user).
Actions that change results need a ``reason``; each is recorded with who and when
(docs/rules.md §14 (Swiss pairing and byes), §16 (Deck checks, penalties and result
reporting)).
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from hkk_tournament.schema import ErrorResponseSerializer
from hkk_tournament.throttling import attempt_budgets, check_and_count, failures_counted
from tournaments import selectors, services
from tournaments.api._common import ERRORS, ROLE_READ_ERRORS, TournamentApi
from tournaments.api.rounds import RoundDetailOutputSerializer, round_payload, round_response
from tournaments.models import TournamentAction
from tournaments.permissions import require_authenticated
from tournaments.services import IMPORT_MAX_BYTES

# --- serializers --------------------------------------------------------------------------


class ReasonInputSerializer(serializers.Serializer):
    """A recorded reason (required by the services where results change)."""

    reason = serializers.CharField(required=False, allow_blank=True, max_length=2000, default="")


class UnpublishInputSerializer(ReasonInputSerializer):
    """``delete_results``: confirm deleting the round's results (kept in the action log,
    restorable); without it a round with results is refused (409 ``round_has_results``)."""

    delete_results = serializers.BooleanField(required=False, default=False)


class DiscardInputSerializer(UnpublishInputSerializer):
    """Discard a draft round; ``pair_again`` pairs it anew at once."""

    pair_again = serializers.BooleanField(required=False, default=False)


class DropAfterPairingInputSerializer(ReasonInputSerializer):
    """``fix``: ``repair`` (pair the round again) or ``bye`` (the opponent gets a bye)."""

    fix = serializers.ChoiceField(choices=["repair", "bye"])


class ReaddInputSerializer(ReasonInputSerializer):
    """``missed``: what the rounds paired without the entry count as — ``loss``, ``bye`` or
    ``pair`` (a seat against the bye of the round in progress); needed, with a ``reason``,
    only when such rounds exist."""

    missed = serializers.ChoiceField(
        choices=["loss", "bye", "pair"], required=False, allow_blank=True, default=""
    )


class CheckInInputSerializer(serializers.Serializer):
    """``checked_in``: true to check the entry in, false to take it back."""

    checked_in = serializers.BooleanField(required=False, default=True)


class ImportInputSerializer(serializers.Serializer):
    """A player list (CSV: name, e-mail, deck list; in a pair event a team list: team name,
    A's name, A's e-mail, B's name, B's e-mail, A's deck list, B's deck list) as ``text`` (JSON
    or a form field) or as an uploaded ``file`` (multipart; its encoding is detected: UTF-8,
    UTF-16, Windows-1250, ISO-8859-2); exactly one of them. ``dry_run`` (default true) previews."""

    text = serializers.CharField(
        max_length=IMPORT_MAX_BYTES, trim_whitespace=False, required=False, allow_blank=True
    )
    file = serializers.FileField(required=False, allow_empty_file=True, use_url=False)
    dry_run = serializers.BooleanField(required=False, default=True)

    def validate_file(self, upload: Any) -> Any:
        """Refuse a file over ``IMPORT_MAX_BYTES`` by its size, before reading it."""
        if upload is not None and upload.size > IMPORT_MAX_BYTES:
            raise serializers.ValidationError(
                _("The file is too large: at most %(kib)s KiB.") % {"kib": IMPORT_MAX_BYTES // 1024}
            )
        return upload

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("file" in attrs) == ("text" in attrs):
            raise serializers.ValidationError(_("Give the list either as text or as a file."))
        return attrs


class ImportPartnerOutputSerializer(serializers.Serializer):
    """Seat B of a pair list's row: name, e-mail and list verdict (as seat A's fields)."""

    name = serializers.CharField()
    email = serializers.CharField()
    deck_legal = serializers.BooleanField(allow_null=True)
    deck_status = serializers.ChoiceField(
        choices=["legal", "illegal", "unverified"], allow_null=True
    )
    deck_unknown_cards = serializers.ListField(child=serializers.CharField())


class ImportRowOutputSerializer(serializers.Serializer):
    """One row of an import with its errors, warnings, entry id (when saved) and list verdict:
    ``deck_status`` legal / illegal / unverified (null without a list), ``deck_unknown_cards``
    the names the partial card catalogue lacks. In a pair event ``name``, ``email`` and the
    ``deck_*`` fields are seat A's, ``partner`` seat B's and ``team`` the team name (empty:
    "A & B"); ``partner`` is null in a single-player event."""

    line = serializers.IntegerField()
    team = serializers.CharField(allow_blank=True)
    partner = ImportPartnerOutputSerializer(allow_null=True)
    name = serializers.CharField()
    email = serializers.CharField()
    row_errors = serializers.ListField(child=serializers.CharField(), source="errors")
    warnings = serializers.ListField(child=serializers.CharField())
    entry = serializers.IntegerField(allow_null=True)
    deck_legal = serializers.BooleanField(allow_null=True)
    deck_status = serializers.ChoiceField(
        choices=["legal", "illegal", "unverified"], allow_null=True
    )
    deck_unknown_cards = serializers.ListField(child=serializers.CharField())


class ImportOutputSerializer(serializers.Serializer):
    """``saved``: true only when every row was valid and ``dry_run`` was false; ``encoding``:
    how an uploaded file was read (empty for text); ``pair``: rows are teams; ``bad_rows``: how
    many rows have an error."""

    saved = serializers.BooleanField()
    ok = serializers.BooleanField()
    pair = serializers.BooleanField()
    bad_rows = serializers.IntegerField()
    encoding = serializers.CharField()
    rows = ImportRowOutputSerializer(many=True)


class ClaimCodeOutputSerializer(serializers.Serializer):
    """The claim codes of an entry's players without an account."""

    player = serializers.IntegerField()
    name = serializers.CharField()
    code = serializers.CharField()


class InvitationCountSerializer(serializers.Serializer):
    """What a bulk invitation did: e-mails ``sent``; players without an account ``skipped``
    because they have no e-mail address (their codes are made all the same)."""

    sent = serializers.IntegerField()
    skipped = serializers.IntegerField()


class ClaimInputSerializer(serializers.Serializer):
    code = serializers.CharField(max_length=32)


class ClaimOutputSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    tournaments = serializers.ListField(child=serializers.IntegerField())


class DetailsInputSerializer(serializers.Serializer):
    """Any of the event's details (absent fields stay as they are)."""

    starts_at = serializers.DateTimeField(required=False, allow_null=True)
    venue = serializers.CharField(required=False, allow_blank=True, max_length=200)
    description = serializers.CharField(required=False, allow_blank=True, max_length=20000)
    max_entries = serializers.IntegerField(required=False, allow_null=True, min_value=2)


class DetailsOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    starts_at = serializers.DateTimeField(allow_null=True)
    venue = serializers.CharField()
    description = serializers.CharField()
    max_entries = serializers.IntegerField(allow_null=True)
    status = serializers.CharField()


class EntryIdsOutputSerializer(serializers.Serializer):
    entries = serializers.ListField(child=serializers.IntegerField())


class ActionOutputSerializer(serializers.Serializer):
    """One recorded organiser action (``id``: for ``.../actions/{id}/restore/``)."""

    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=TournamentAction.Kind.choices)
    round_number = serializers.IntegerField(allow_null=True)
    entry = serializers.IntegerField(source="entry_id", allow_null=True)
    reason = serializers.CharField()
    params = serializers.DictField()
    by = serializers.CharField(source="by.username", allow_null=True, default=None)
    at = serializers.DateTimeField()


class DropAfterPairingOutputSerializer(serializers.Serializer):
    round = RoundDetailOutputSerializer(allow_null=True)


def _reason(request: Request, serializer_class: type[serializers.Serializer]) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


# --- rounds ------------------------------------------------------------------------------------


class RoundDiscardApi(TournamentApi):
    """POST .../rounds/{number}/discard/: delete a draft round (``pair_again``: pair anew;
    ``delete_results``: confirm deleting its results). 200 with the new round, 204 without;
    409 ``round_not_draft``, ``round_not_last``, ``round_has_results``; 400
    ``reason_required``."""

    @extend_schema(
        operation_id="tournaments_rounds_discard",
        summary="Discard a draft round (and pair it again)",
        request=DiscardInputSerializer,
        responses={200: RoundDetailOutputSerializer, 204: None, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, number: int) -> Response:
        tournament = self.managed_tournament(tournament_id)
        data = _reason(request, DiscardInputSerializer)
        rnd = selectors.round_get(tournament=tournament, number=number)
        new = services.round_discard(round=rnd, by=request.user, **data)
        if new is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        return round_response(tournament, new)


class RoundUnpublishApi(TournamentApi):
    """POST .../rounds/{number}/unpublish/: a published round back to draft; one with results
    only with ``delete_results`` (they go to the action log, restorable). 409
    ``round_has_results`` (params ``games``, ``reports``, ``rolls``), ``round_not_published``;
    400 ``reason_required``."""

    @extend_schema(
        operation_id="tournaments_rounds_unpublish",
        summary="Unpublish a round (deleting its results only when confirmed)",
        request=UnpublishInputSerializer,
        responses={200: RoundDetailOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, number: int) -> Response:
        tournament = self.managed_tournament(tournament_id)
        data = _reason(request, UnpublishInputSerializer)
        rnd = selectors.round_get(tournament=tournament, number=number)
        return round_response(
            tournament, services.round_unpublish(round=rnd, by=request.user, **data)
        )


# --- entries -----------------------------------------------------------------------------------


class EntryDropAfterPairingApi(TournamentApi):
    """POST .../entries/{entry_id}/drop-after-pairing/: drop an entry paired in the current
    round; ``fix`` = ``repair`` or ``bye``. 200 with the round; 409 ``not_paired``,
    ``round_has_results``, ``match_has_results``; 400 ``reason_required``."""

    @extend_schema(
        operation_id="tournaments_entries_drop_after_pairing",
        summary="Drop a paired entry: re-pair the round or give the opponent a bye",
        request=DropAfterPairingInputSerializer,
        responses={200: DropAfterPairingOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, entry_id: int) -> Response:
        tournament = self.managed_tournament(tournament_id)
        data = _reason(request, DropAfterPairingInputSerializer)
        entry = selectors.entry_get(tournament=tournament, entry_id=entry_id)
        rnd = services.entry_drop_after_pairing(entry=entry, by=request.user, **data)
        payload = {"round": round_payload(tournament, rnd) if rnd is not None else None}
        return Response(DropAfterPairingOutputSerializer(payload).data)


class EntryReaddApi(TournamentApi):
    """POST .../entries/{entry_id}/readd/: add a dropped entry back at any time before the
    end; after rounds were paired without it, ``missed`` (loss / bye / pair) and a ``reason``
    are required. 400 ``missed_choice_required``, ``reason_required``,
    ``entries_without_legal_list``; 409 ``not_dropped``, ``event_full``, ``no_bye_to_pair``,
    ``top_cut_started``."""

    @extend_schema(
        operation_id="tournaments_entries_readd",
        summary="Add a dropped entry back, scoring the rounds it missed",
        request=ReaddInputSerializer,
        responses={200: EntryIdsOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, entry_id: int) -> Response:
        tournament = self.managed_tournament(tournament_id)
        data = _reason(request, ReaddInputSerializer)
        entry = selectors.entry_get(tournament=tournament, entry_id=entry_id)
        entry = services.entry_readd(entry=entry, by=request.user, **data)
        return Response({"entries": [entry.pk]})


class EntryCheckInApi(TournamentApi):
    """POST .../entries/{entry_id}/check-in/: check an entry in (or out) before round 1. 409
    ``rounds_started``."""

    @extend_schema(
        operation_id="tournaments_entries_check_in",
        summary="Check an entry in before round 1",
        request=CheckInInputSerializer,
        responses={200: EntryIdsOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, entry_id: int) -> Response:
        tournament = self.managed_tournament(tournament_id)
        data = _reason(request, CheckInInputSerializer)
        entry = selectors.entry_get(tournament=tournament, entry_id=entry_id)
        services.entry_check_in(entry=entry, checked_in=data["checked_in"])
        return Response({"entries": [entry.pk]})


class DropAbsentApi(TournamentApi):
    """POST .../check-in/drop-absent/: drop every entry not checked in (before round 1)."""

    @extend_schema(
        operation_id="tournaments_drop_not_checked_in",
        summary="Drop every entry not checked in",
        request=None,
        responses={200: EntryIdsOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = self.managed_tournament(tournament_id)
        dropped = services.entries_drop_not_checked_in(tournament=tournament, by=request.user)
        return Response({"entries": [e.pk for e in dropped]})


class EntriesImportApi(TournamentApi):
    """POST .../entries/import/: preview (``dry_run``, the default) or import a player list;
    all or nothing. 200 with the rows (``saved`` false when any row has an error)."""

    @extend_schema(
        operation_id="tournaments_entries_import",
        summary="Import a player list (CSV text), preview or save, all or nothing",
        request=ImportInputSerializer,
        responses={200: ImportOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = self.managed_tournament(tournament_id)
        data = _reason(request, ImportInputSerializer)
        upload = data.get("file")
        result = services.entries_import(
            tournament=tournament,
            text=data.get("text"),
            data=upload.read() if upload is not None else None,
            dry_run=data["dry_run"],
            by=request.user,
        )
        body = {
            "saved": result.saved,
            "ok": result.ok,
            "encoding": result.encoding,
            "pair": result.pair,
            "bad_rows": result.bad_rows,
            "rows": [vars(r) for r in result.rows],
        }
        return Response(ImportOutputSerializer(body).data)


class EntryClaimCodeApi(TournamentApi):
    """POST .../entries/{entry_id}/claim-code/: make (or show) the claim codes of the entry's
    players without an account."""

    @extend_schema(
        operation_id="tournaments_entries_claim_code",
        summary="One-time claim codes of an entry's players",
        request=None,
        responses={200: ClaimCodeOutputSerializer(many=True), **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, entry_id: int) -> Response:
        tournament = self.managed_tournament(tournament_id)
        entry = selectors.entry_get(tournament=tournament, entry_id=entry_id)
        rows = []
        for member in entry.members.filter(player__user=None).order_by("seat"):
            player = services.player_claim_code(entry=entry, player_id=member.player_id)
            rows.append({"player": player.pk, "name": player.shown_name, "code": player.claim_code})
        return Response(ClaimCodeOutputSerializer(rows, many=True).data)


class TournamentClaimCodesApi(TournamentApi):
    """POST /api/tournaments/{id}/claim-codes/ (organisers): a claim code for every player of
    the event without an account in one step (missing and expired codes made new, valid ones
    kept), returned by entry name (``services.player_claim_codes_all``)."""

    @extend_schema(
        operation_id="tournaments_claim_codes_all",
        summary="One-time claim codes of every player without an account",
        request=None,
        responses={200: ClaimCodeOutputSerializer(many=True), **ERRORS},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = self.managed_tournament(tournament_id)
        players = services.player_claim_codes_all(actor=request.user, tournament=tournament)
        rows = [{"player": p.pk, "name": p.shown_name, "code": p.claim_code} for p in players]
        return Response(ClaimCodeOutputSerializer(rows, many=True).data)


class TournamentInvitationsApi(TournamentApi):
    """POST /api/tournaments/{id}/invitations/ (organisers): claim codes for every player
    without an account and an invitation e-mail to each who has an address
    (``services.player_invite_all``); 409 ``mail_unavailable`` when this server sends no mail,
    429 ``throttled`` (scope ``invite``, counted once per call)."""

    @extend_schema(
        operation_id="tournaments_invitations_all",
        summary="Claim codes and e-mail invitations for every player without an account",
        request=None,
        responses={200: InvitationCountSerializer, **ERRORS, 429: ErrorResponseSerializer},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = self.managed_tournament(tournament_id)
        check_and_count(attempt_budgets(request, "invite"))
        count = services.player_invite_all(
            actor=request.user,
            tournament=tournament,
            claim_url=request.build_absolute_uri(reverse("tournaments:claim")),
        )
        return Response(InvitationCountSerializer(vars(count)).data)


class ClaimApi(TournamentApi):
    """POST /api/claim/ (signed-in users): claim an organiser-added player with its code. 404
    ``claim_code_unknown``; 409 ``claim_code_expired``, ``already_registered``; 403
    ``staff_cannot_claim``; 429 ``throttled`` after too many failed attempts of the user or the
    address (scopes ``claim``, ``claim_address``)."""

    @extend_schema(
        operation_id="claim_entry",
        summary="Claim an organiser-added player with a one-time code",
        request=ClaimInputSerializer,
        responses={200: ClaimOutputSerializer, **ERRORS, 429: ErrorResponseSerializer},
    )
    def post(self, request: Request) -> Response:
        require_authenticated(request.user)
        data = _reason(request, ClaimInputSerializer)
        with failures_counted(request, "claim"):
            player = services.player_claim(user=request.user, code=data["code"])
        events = list(player.memberships.values_list("tournament_id", flat=True))
        return Response(
            ClaimOutputSerializer(
                {"player": player.pk, "name": player.shown_name, "tournaments": events}
            ).data
        )


# --- the event ------------------------------------------------------------------------------


class TournamentReopenApi(TournamentApi):
    """POST .../reopen/: finished → running to correct results; ``reason`` required."""

    @extend_schema(
        operation_id="tournaments_reopen",
        summary="Reopen a finished event for corrections (recorded reason)",
        request=ReasonInputSerializer,
        responses={200: DetailsOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = self.managed_tournament(tournament_id)
        data = _reason(request, ReasonInputSerializer)
        tournament = services.tournament_reopen(tournament=tournament, by=request.user, **data)
        return Response(DetailsOutputSerializer(tournament).data)


class TournamentDetailsApi(TournamentApi):
    """PATCH .../details/: date and time, venue, description, player cap (≥ 2 or null)."""

    @extend_schema(
        operation_id="tournaments_details_update",
        summary="Change the event's date, venue, description or player cap",
        request=DetailsInputSerializer,
        responses={200: DetailsOutputSerializer, **ERRORS},
    )
    def patch(self, request: Request, tournament_id: int) -> Response:
        tournament = self.managed_tournament(tournament_id)
        data = _reason(request, DetailsInputSerializer)
        tournament = services.tournament_set_details(tournament=tournament, **data)
        return Response(DetailsOutputSerializer(tournament).data)


class TournamentDuplicateApi(TournamentApi):
    """POST .../duplicate/: a new draft event with the same settings (no entries); 201."""

    @extend_schema(
        operation_id="tournaments_duplicate",
        summary="Use the event as a template: a new draft with its settings",
        request=None,
        responses={201: DetailsOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = self.managed_tournament(tournament_id)
        copy = services.tournament_duplicate(tournament=tournament, owner=request.user)
        return Response(DetailsOutputSerializer(copy).data, status=status.HTTP_201_CREATED)


class TournamentActionsApi(TournamentApi):
    """GET .../actions/: the organiser action log, newest first."""

    @extend_schema(
        operation_id="tournaments_actions_list",
        summary="The recorded organiser actions",
        responses={200: ActionOutputSerializer(many=True), **ROLE_READ_ERRORS},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = self.managed_tournament(tournament_id)
        actions = selectors.tournament_actions(tournament=tournament)
        return Response(ActionOutputSerializer(actions, many=True).data)


class ResultsRestoreApi(TournamentApi):
    """POST .../actions/{action_id}/restore/: put back the results that action (an unpublish
    or discard) deleted, into the round of the same number, published again. 201 with the
    ``results_restored`` action; 404 ``action_not_found``; 409 ``results_already_restored``,
    ``results_not_restorable`` (params ``tables``), ``round_not_published``,
    ``tournament_status``."""

    @extend_schema(
        operation_id="tournaments_actions_restore_results",
        summary="Restore the results an unpublish or discard deleted",
        request=None,
        responses={201: ActionOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, action_id: int) -> Response:
        tournament = self.managed_tournament(tournament_id)
        action = services.round_results_restore(
            tournament=tournament, action_id=action_id, by=request.user
        )
        return Response(ActionOutputSerializer(action).data, status=status.HTTP_201_CREATED)
