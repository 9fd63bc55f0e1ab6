"""Deck checks API: a round's deck checks, the random pick, a hand-picked entry, and recording
a check's outcome and penalty. Serializers and views of ``/api/tournaments/{id}/rounds/{n}/
deck-checks/…`` and ``…/deck-checks/{c}/record/``.

Rules: docs/rules.md §16 (Deck checks, penalties and result reporting).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from hkk_tournament.web.converters import ID_MAX
from tournaments import selectors, services
from tournaments.api._common import ERRORS, ROLE_READ_ERRORS, TournamentApi
from tournaments.models import DeckCheck

# --- serializers --------------------------------------------------------------------------


class DeckCheckPickInputSerializer(serializers.Serializer):
    """Body of POST .../rounds/{number}/deck-checks/pick/: an optional ``seed`` (0 to 2**63 - 1)."""

    seed = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=2**63 - 1,
        help_text=_("Selection seed (random when omitted); ignored once the round is picked."),
    )


class DeckCheckAddInputSerializer(serializers.Serializer):
    """Body of POST .../rounds/{number}/deck-checks/: ``entry``, the id of the entry to check."""

    entry = serializers.IntegerField(
        min_value=1, max_value=ID_MAX, help_text=_("Entry id to check.")
    )


class DeckCheckRecordInputSerializer(serializers.Serializer):
    """Body of POST .../deck-checks/{check_id}/record/: ``outcome`` (``ok`` or ``problem``),
    ``penalty`` (a ``DeckCheck.Penalty``, default ``none``) and ``notes`` (at most 4000
    characters).
    """

    outcome = serializers.ChoiceField(
        choices=[DeckCheck.Outcome.OK, DeckCheck.Outcome.PROBLEM],
        help_text=_("ok: the deck matches its list; problem: it does not."),
    )
    penalty = serializers.ChoiceField(choices=DeckCheck.Penalty.choices, default="none")
    notes = serializers.CharField(required=False, allow_blank=True, max_length=4000, default="")


class DeckCheckOutputSerializer(serializers.Serializer):
    """A deck check (``DeckCheck``): round number, entry, random or hand pick, seed, outcome,
    penalty, notes, and who checked it when.
    """

    id = serializers.IntegerField()
    round = serializers.IntegerField(source="round.number")
    entry = serializers.IntegerField(source="entry_id")
    entry_name = serializers.CharField(source="entry.shown_name")
    random_pick = serializers.BooleanField()
    seed = serializers.IntegerField(allow_null=True)
    outcome = serializers.ChoiceField(choices=DeckCheck.Outcome.choices)
    penalty = serializers.ChoiceField(choices=DeckCheck.Penalty.choices)
    notes = serializers.CharField()
    created_at = serializers.DateTimeField()
    checked_by = serializers.CharField(
        source="checked_by.get_username", allow_null=True, default=None
    )
    checked_at = serializers.DateTimeField(allow_null=True)


# --- views --------------------------------------------------------------------------------


class RoundDeckCheckListAddApi(TournamentApi):
    """GET, POST /api/tournaments/{tournament_id}/rounds/{number}/deck-checks/: a round's deck
    checks; pick one entry by hand.

    Judges and organisers (``require_judge``). POST body ``DeckCheckAddInputSerializer``: 201 with
    the check; 404 ``round_not_found``, ``entry_not_found``; 409 ``round_not_published``,
    ``round_finished``, ``deck_check_exists``; 400 ``not_in_round``.
    """

    @extend_schema(
        operation_id="tournaments_rounds_deck_checks_list",
        summary="Deck checks of a round (judges)",
        responses={200: DeckCheckOutputSerializer(many=True), **ROLE_READ_ERRORS},
    )
    def get(self, request: Request, tournament_id: int, number: int) -> Response:
        tournament = self.judged_tournament(tournament_id)
        rnd = selectors.round_get(tournament=tournament, number=number)
        checks = selectors.deck_checks_of_round(round=rnd)
        return Response(DeckCheckOutputSerializer(checks, many=True).data)

    @extend_schema(
        operation_id="tournaments_rounds_deck_checks_add",
        summary="Pick a specific entry for a deck check (judges)",
        request=DeckCheckAddInputSerializer,
        responses={201: DeckCheckOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, number: int) -> Response:
        tournament = self.judged_tournament(tournament_id)
        serializer = DeckCheckAddInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        rnd = selectors.round_get(tournament=tournament, number=number)
        entry = selectors.entry_get(
            tournament=tournament, entry_id=serializer.validated_data["entry"]
        )
        check = services.deck_check_add(round=rnd, entry=entry, actor=request.user)
        check = selectors.deck_check_get(tournament=tournament, check_id=check.pk)
        return Response(DeckCheckOutputSerializer(check).data, status=status.HTTP_201_CREATED)


class RoundDeckCheckPickApi(TournamentApi):
    """POST /api/tournaments/{tournament_id}/rounds/{number}/deck-checks/pick/: pick the round's
    random deck checks (``deck_check_percent`` of the entries playing, sampled with a stored seed).

    Judges and organisers (``require_judge``). Body ``DeckCheckPickInputSerializer``. A repeat
    returns the first pick. 200 with the picked checks; 404 ``round_not_found``; 409
    ``round_not_published``, ``round_finished``, ``no_entries_to_check``.
    """

    @extend_schema(
        operation_id="tournaments_rounds_deck_checks_pick",
        summary="Pick the round's random deck checks (judges; idempotent: the first pick stays)",
        request=DeckCheckPickInputSerializer,
        responses={200: DeckCheckOutputSerializer(many=True), **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, number: int) -> Response:
        tournament = self.judged_tournament(tournament_id)
        serializer = DeckCheckPickInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        rnd = selectors.round_get(tournament=tournament, number=number)
        services.deck_checks_pick(
            round=rnd, actor=request.user, seed=serializer.validated_data.get("seed")
        )
        checks = [c for c in selectors.deck_checks_of_round(round=rnd) if c.seed is not None]
        return Response(DeckCheckOutputSerializer(checks, many=True).data)


class DeckCheckRecordApi(TournamentApi):
    """POST /api/tournaments/{tournament_id}/deck-checks/{check_id}/record/: record (or re-record) a
    deck check's outcome, penalty and notes.

    Judges and organisers (``require_judge``). Body ``DeckCheckRecordInputSerializer``. 200 with the
    check; 404 ``deck_check_not_found``; 400 ``penalty_without_problem``; 409
    ``round_not_published``.
    """

    @extend_schema(
        operation_id="tournaments_deck_checks_record",
        summary="Record a deck check's outcome, penalty and notes (judges)",
        request=DeckCheckRecordInputSerializer,
        responses={200: DeckCheckOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, check_id: int) -> Response:
        tournament = self.judged_tournament(tournament_id)
        serializer = DeckCheckRecordInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        check = selectors.deck_check_get(tournament=tournament, check_id=check_id)
        services.deck_check_record(
            check=check,
            outcome=data["outcome"],
            penalty=data["penalty"],
            notes=data.get("notes", ""),
            actor=request.user,
        )
        check = selectors.deck_check_get(tournament=tournament, check_id=check_id)
        return Response(DeckCheckOutputSerializer(check).data)
