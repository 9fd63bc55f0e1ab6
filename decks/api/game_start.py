"""``POST /api/game-start/``: the HKK game-start calculator.

Input ``{"side_a": {"players": [{"name", "rule_card", "follower"}]}, "side_b": {...},
"start_rule_hand_change": 0}`` (one or two players per side). 200: per player the opening
hand, starting and maximum ÉP with translated explanation lines, plus warnings for unknown
cards and values (:func:`decks.services.game_start.game_start_compute`). 400: a bad shape
(field errors) or unusable input (e.g. ``duplicate_player_name``), in the project's error
shape. Rules: docs/rules.md §5 (HKK game start: opening hand and life points).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from decks.services.game_start import (
    MAX_NAME_LENGTH,
    MAX_START_RULE_HAND_CHANGE,
    game_start_compute,
)
from hkk_tournament.web.schema import ErrorResponseSerializer


class GameStartPlayerInputSerializer(serializers.Serializer):
    """One player of a side in POST /api/game-start/: ``name`` (required, unique in the game) and
    the declared ``rule_card`` and ``follower`` names, each optional.
    """

    name = serializers.CharField(max_length=MAX_NAME_LENGTH, help_text=_("Player name."))
    rule_card = serializers.CharField(
        required=False,
        allow_null=True,
        allow_blank=True,
        max_length=MAX_NAME_LENGTH,
        help_text=_("Declared rule card (szabálylap), if any."),
    )
    follower = serializers.CharField(
        required=False,
        allow_null=True,
        allow_blank=True,
        max_length=MAX_NAME_LENGTH,
        help_text=_("Declared follower (követő), if any."),
    )


class GameStartSideInputSerializer(serializers.Serializer):
    """One side of the table in POST /api/game-start/: ``players``, one player or the two members
    of a pair team.
    """

    players = serializers.ListField(
        child=GameStartPlayerInputSerializer(),
        min_length=1,
        max_length=2,
        help_text=_("One player, or the two members of a pair team."),
    )


class GameStartInputSerializer(serializers.Serializer):
    """Body of POST /api/game-start/: ``side_a``, ``side_b`` and the start rule's hand change for
    every player (default 0, within ±``MAX_START_RULE_HAND_CHANGE``).
    """

    side_a = GameStartSideInputSerializer()
    side_b = GameStartSideInputSerializer()
    start_rule_hand_change = serializers.IntegerField(
        required=False,
        default=0,
        min_value=-MAX_START_RULE_HAND_CHANGE,
        max_value=MAX_START_RULE_HAND_CHANGE,
        help_text=_("Start-rule (kezdőszabály) hand change for every player, in cards."),
    )


class GameStartLineOutputSerializer(serializers.Serializer):
    """One explanation line or warning of the game-start result: stable ``code``, ``params`` and the
    translated ``text``.
    """

    code = serializers.CharField()
    params = serializers.DictField()
    text = serializers.CharField()


class GameStartPlayerOutputSerializer(serializers.Serializer):
    """One player's game start in the POST /api/game-start/ response: side, declared cards, opening
    hand, maximum and starting ÉP, and the lines explaining them.
    """

    name = serializers.CharField()
    side = serializers.CharField(help_text=_("Side of the table: a or b."))
    rule_card = serializers.CharField(allow_null=True)
    follower = serializers.CharField(allow_null=True)
    hand = serializers.IntegerField(help_text=_("Opening hand in cards."))
    max_ep = serializers.IntegerField(help_text=_("Maximum life points (ÉP)."))
    start_ep = serializers.IntegerField(help_text=_("Life points (ÉP) at game start."))
    explanation = GameStartLineOutputSerializer(many=True)


class GameStartOutputSerializer(serializers.Serializer):
    """The 200 body of POST /api/game-start/ (``game_start_compute``): every player (side A first),
    the warnings about unknown cards or values, and ``complete`` (false when any is unknown).
    """

    players = GameStartPlayerOutputSerializer(many=True)
    warnings = GameStartLineOutputSerializer(many=True)
    complete = serializers.BooleanField(
        help_text=_("False when a card or value is not known (see warnings).")
    )


class GameStartComputeApi(APIView):
    """Compute opening hand and ÉP for both sides of an HKK game (no login needed)."""

    throttle_scope = "deck_validation"

    @extend_schema(
        operation_id="game_start_compute",
        summary="HKK game start: opening hand, starting and maximum ÉP",
        request=GameStartInputSerializer,
        responses={200: GameStartOutputSerializer, 400: ErrorResponseSerializer},
        examples=[
            OpenApiExample(
                "28 ÉP",
                value={
                    "side_a": {"players": [{"name": "Anna", "follower": "Terrgath"}]},
                    "side_b": {"players": [{"name": "Bence", "rule_card": "Életenergia (új)"}]},
                },
                request_only=True,
            )
        ],
    )
    def post(self, request: Request) -> Response:
        serializer = GameStartInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        result = game_start_compute(
            side_a=data["side_a"]["players"],
            side_b=data["side_b"]["players"],
            start_rule_hand_change=data["start_rule_hand_change"],
        )
        return Response(GameStartOutputSerializer(result).data)
