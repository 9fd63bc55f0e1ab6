"""Claim codes API: the one-time codes of organiser-added players without an account (per entry
or for the whole event; organisers only) and claiming such a player (``POST /api/claim/``, any
signed-in user)."""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from hkk_tournament.web.schema import ErrorResponseSerializer
from hkk_tournament.web.throttling import attempt_budgets, check_and_count, failures_counted
from tournaments import selectors, services
from tournaments.api._common import ERRORS, TournamentApi, _reason, require_authenticated


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
            player = services.player_claim_code(
                actor=request.user, entry=entry, player_id=member.player_id
            )
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
