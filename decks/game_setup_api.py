"""``POST /api/game-setup/``: the HKK game-start calculator (issue 5; STYLE.md §5.6).

Input ``{"side_a": {"players": [{"name", "rule_card", "follower"}]}, "side_b": {...},
"start_rule_hand_change": 0}`` (one or two players per side). 200: per player the opening
hand, starting and maximum ÉP with translated explanation lines, plus warnings for unknown
cards and values (:func:`decks.game_setup.game_setup_compute`). 400: a bad shape (field
errors) or unusable input (``{"detail", "code"}``, e.g. a player name used twice).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from decks.game_setup import (
    MAX_NAME_LENGTH,
    MAX_START_RULE_HAND_CHANGE,
    GameSetupInputError,
    game_setup_compute,
)
from decks.serializers import ErrorOutputSerializer


class GameSetupPlayerInputSerializer(serializers.Serializer):
    """One player of a side in POST /api/game-setup/: ``name`` (required, unique in the game) and
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


class GameSetupSideInputSerializer(serializers.Serializer):
    """One side of the table in POST /api/game-setup/: ``players``, one player or the two members
    of a pair team.
    """

    players = serializers.ListField(
        child=GameSetupPlayerInputSerializer(),
        min_length=1,
        max_length=2,
        help_text=_("One player, or the two members of a pair team."),
    )


class GameSetupInputSerializer(serializers.Serializer):
    """Body of POST /api/game-setup/: ``side_a``, ``side_b`` and the start rule's hand change for
    every player (default 0, within ±``MAX_START_RULE_HAND_CHANGE``).
    """

    side_a = GameSetupSideInputSerializer()
    side_b = GameSetupSideInputSerializer()
    start_rule_hand_change = serializers.IntegerField(
        required=False,
        default=0,
        min_value=-MAX_START_RULE_HAND_CHANGE,
        max_value=MAX_START_RULE_HAND_CHANGE,
        help_text=_("Start-rule (kezdőszabály) hand change for every player, in cards."),
    )


class GameSetupLineOutputSerializer(serializers.Serializer):
    """One explanation line or warning of the game-setup result: stable ``code``, ``params`` and the
    translated ``text``.
    """

    code = serializers.CharField()
    params = serializers.DictField()
    text = serializers.CharField()


class GameSetupPlayerOutputSerializer(serializers.Serializer):
    """One player's game start in the POST /api/game-setup/ response: side, declared cards, opening
    hand, maximum and starting ÉP, and the lines explaining them.
    """

    name = serializers.CharField()
    side = serializers.CharField(help_text=_("Side of the table: a or b."))
    rule_card = serializers.CharField(allow_null=True)
    follower = serializers.CharField(allow_null=True)
    hand = serializers.IntegerField(help_text=_("Opening hand in cards."))
    max_ep = serializers.IntegerField(help_text=_("Maximum life points (ÉP)."))
    start_ep = serializers.IntegerField(help_text=_("Life points (ÉP) at game start."))
    explanation = GameSetupLineOutputSerializer(many=True)


class GameSetupOutputSerializer(serializers.Serializer):
    """The 200 body of POST /api/game-setup/ (``game_setup_compute``): every player (side A first),
    the warnings about unknown cards or values, and ``complete`` (false when any is unknown).
    """

    players = GameSetupPlayerOutputSerializer(many=True)
    warnings = GameSetupLineOutputSerializer(many=True)
    complete = serializers.BooleanField(
        help_text=_("False when a card or value is not known (see warnings).")
    )


class GameSetupComputeApi(APIView):
    """Compute opening hand and ÉP for both sides of an HKK game (no login needed)."""

    @extend_schema(
        operation_id="game_setup_compute",
        summary="HKK game start: opening hand, starting and maximum ÉP",
        request=GameSetupInputSerializer,
        responses={200: GameSetupOutputSerializer, 400: ErrorOutputSerializer},
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
        serializer = GameSetupInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            result = game_setup_compute(
                side_a=data["side_a"]["players"],
                side_b=data["side_b"]["players"],
                start_rule_hand_change=data["start_rule_hand_change"],
            )
        except GameSetupInputError as exc:
            return Response(
                {"detail": str(exc.message), "code": exc.code},
                status=status.HTTP_400_BAD_REQUEST,
            )
        return Response(GameSetupOutputSerializer(result).data)
