"""Matches API: a match with its games, score and first-player holder; the game-1 die roll and
the agreed game-3 re-roll; recording and correcting games (by match or by round and table).
Serializers and views of ``/api/tournaments/{id}/matches/…`` and ``…/rounds/{n}/tables/…``.

Rules: docs/rules.md §6 (HKK first-player rights), §11 (WoW TCG matches and first player), §13
(Blue Moon matches), §15 (Match points and tiebreakers).
"""

from __future__ import annotations

from typing import Any, cast

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from hkk_tournament.web.converters import ID_MAX, INT_MAX, SMALLINT_MAX
from tournaments import selectors, services
from tournaments.api._common import ERRORS, READ_ERRORS, TournamentApi
from tournaments.models import Match, Tournament

# --- serializers --------------------------------------------------------------------------


class GameOutputSerializer(serializers.Serializer):
    """One recorded game: right holder, waiver, who went first, winner (entry ids; ``winner`` null
    for a draw) and ``version`` (1, plus one per correction). Where the format gives a choice
    (WoW TCG, Blue Moon) ``chosen_by`` is the entry that chose who starts and ``choice`` its
    choice (``self`` / ``opponent``); ``score`` is the winner's score (Blue Moon crystals).
    """

    number = serializers.IntegerField()
    right_holder = serializers.IntegerField(
        source="right_holder_id",
        allow_null=True,
        help_text=_("Null when the game's details were not reported."),
    )
    waived = serializers.BooleanField()
    first = serializers.IntegerField(
        source="first_id",
        allow_null=True,
        help_text=_("Null when the game's details were not reported."),
    )
    details_reported = serializers.BooleanField(
        help_text=_(
            "False for a game entered as part of a match score: its winner counts; its order, "
            "right holder and first player were not reported."
        )
    )
    winner = serializers.IntegerField(source="winner_id", allow_null=True)
    is_draw = serializers.BooleanField()
    chosen_by = serializers.IntegerField(source="chosen_by_id", allow_null=True)
    choice = serializers.SerializerMethodField()
    score = serializers.IntegerField(allow_null=True)
    version = serializers.IntegerField()

    @extend_schema_field(serializers.ChoiceField(choices=["self", "opponent"], allow_null=True))
    def get_choice(self, obj: Any) -> str | None:
        """``self`` / ``opponent``; ``None`` when the game's details were not reported."""
        if not obj.details_reported:
            return None
        return "opponent" if obj.waived else "self"


class PolicyOutputSerializer(serializers.Serializer):
    """The match structure of the event: ``code`` (first-player policy), translated ``name``
    and one-line ``rule``, its ``source`` (the translated name of the public document) and
    ``section`` (of the rules page, ``/rules/#sN``), and the ``structure`` as stored
    (``MatchStructure.to_dict``)."""

    code = serializers.CharField()
    name = serializers.CharField()
    rule = serializers.CharField()
    section = serializers.IntegerField(help_text=_("Section of the rules page."))
    structure = serializers.DictField()

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        # ``source`` is a Field attribute, so this field cannot be declared on the class.
        fields["source"] = serializers.CharField(help_text=_("Public document the rule follows."))
        return fields


class RightOutputSerializer(serializers.Serializer):
    """Who holds the right to go first in the next game, and why (docs/rules.md §6 (HKK
    first-player rights))."""

    game = serializers.IntegerField()
    holder = serializers.IntegerField(
        allow_null=True, help_text=_("Entry id; null: a die roll decides.")
    )
    seat = serializers.CharField(allow_null=True)
    needs_roll = serializers.BooleanField()
    reason = serializers.CharField(help_text=_("Stable reason code, e.g. player_2_game_2."))
    mode = serializers.CharField(
        help_text=_("holds_right (HKK: may waive) or chooses (chooses who starts).")
    )
    text = serializers.CharField(help_text=_("Translated explanation."))


class MatchOutputSerializer(serializers.Serializer):
    """A table of a round (``selectors.MatchView``): entries and names, die-roll choices, game
    wins and draws, ``complete``, ``match_points`` (entry id → points, once complete), the games and
    the first-player right for the next game. Used by the match, round, game and "me" endpoints.
    """

    id = serializers.IntegerField(source="match.pk")
    table = serializers.IntegerField()
    entry_a = serializers.IntegerField(source="match.entry_a_id")
    entry_b = serializers.IntegerField(source="match.entry_b_id", allow_null=True)
    a_name = serializers.CharField()
    b_name = serializers.CharField()
    is_bye = serializers.BooleanField()
    die_roll_winner = serializers.IntegerField(source="match.die_roll_winner_id", allow_null=True)
    reroll_game3_agreed = serializers.BooleanField(source="match.reroll_game3_agreed")
    game3_roll_winner = serializers.IntegerField(
        source="match.game3_roll_winner_id", allow_null=True
    )
    a_wins = serializers.IntegerField(source="score.a_wins")
    b_wins = serializers.IntegerField(source="score.b_wins")
    draws = serializers.IntegerField(source="score.draws")
    a_score = serializers.IntegerField(source="score.a_score")
    b_score = serializers.IntegerField(source="score.b_score")
    complete = serializers.BooleanField(source="score.complete")
    match_points = serializers.SerializerMethodField()
    games = GameOutputSerializer(many=True)
    next_right = RightOutputSerializer(source="right", allow_null=True)
    policy = serializers.SerializerMethodField()

    def get_match_points(self, obj) -> dict[str, int]:
        return {str(k): v for k, v in obj.score.points.items()}

    @extend_schema_field(PolicyOutputSerializer)
    def get_policy(self, obj) -> dict[str, Any]:
        # Worded once per event and answer: a round's page repeats it at each of its 100
        # tables (a tenth of the page's CPU when worded each time).
        tournament = obj.match.round.tournament
        context = cast(dict[str, Any], self.context)  # the root serializer's own dict
        known = context.setdefault("policies", {})
        if tournament.pk not in known:
            known[tournament.pk] = policy_data(tournament)
        return known[tournament.pk]


def policy_data(tournament: Tournament) -> dict[str, Any]:
    """The :class:`PolicyOutputSerializer` body of ``tournament``'s match structure."""
    structure = tournament.structure
    summary = selectors.policy_summary(structure)
    return {
        "code": summary.code,
        "name": summary.name,
        "rule": summary.rule,
        "source": summary.source,
        "section": summary.section,
        "structure": structure.to_dict(),
    }


class DieRollInputSerializer(serializers.Serializer):
    """Body of POST .../matches/{match_id}/die-roll/: ``winner`` (entry id of player 1) and,
    optionally, ``reroll_game3_agreed`` (HKK: the agreement made before this roll; omitted =
    keep the recorded one).
    """

    winner = serializers.IntegerField(
        min_value=1, max_value=ID_MAX, help_text=_("Entry id of the die-roll winner (player 1).")
    )
    reroll_game3_agreed = serializers.BooleanField(required=False)


class RerollAgreementInputSerializer(serializers.Serializer):
    """Body of POST .../matches/{match_id}/reroll-agreement/: ``agreed`` (default true; false
    withdraws it)."""

    agreed = serializers.BooleanField(default=True)


class Game3RollInputSerializer(serializers.Serializer):
    """Body of POST .../matches/{match_id}/game3-roll/: ``winner``, the entry id of the game-3
    re-roll winner.
    """

    winner = serializers.IntegerField(
        min_value=1, max_value=ID_MAX, help_text=_("Entry id of the game-3 re-roll winner.")
    )


class GameRecordInputSerializer(serializers.Serializer):
    """One game: ``winner`` entry id (null = draw), ``first`` entry id, ``waived`` (or, where
    the format gives a choice, ``choice`` ``self`` / ``opponent``), ``score`` (Blue Moon
    crystals of the winner)."""

    number = serializers.IntegerField(min_value=1, max_value=9)
    winner = serializers.IntegerField(
        allow_null=True, min_value=1, max_value=ID_MAX, help_text=_("Entry id; null for a draw.")
    )
    first = serializers.IntegerField(
        min_value=1, max_value=ID_MAX, help_text=_("Entry id of the entry that went first.")
    )
    waived = serializers.BooleanField(default=False)
    choice = serializers.ChoiceField(
        choices=["self", "opponent"],
        required=False,
        help_text=_("Who the chooser let start: self or opponent (same as waived)."),
    )
    score = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=SMALLINT_MAX,
        help_text=_("The winner's score where the format keeps one (Blue Moon crystals)."),
    )
    right_holder = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=ID_MAX,
        allow_null=True,
        help_text=_("Entry holding the right (needed only when a die roll decided it)."),
    )
    correction = serializers.BooleanField(default=False)
    reason = serializers.CharField(required=False, allow_blank=True, max_length=2000)
    expected_version = serializers.IntegerField(required=False, min_value=1, max_value=INT_MAX)

    def validate(self, attrs: dict) -> dict:
        if attrs.get("correction") and not (attrs.get("reason") or "").strip():
            raise serializers.ValidationError({"reason": _("A correction needs a reason.")})
        if "choice" in attrs:  # the chooser let the opponent start: same as waived
            attrs["waived"] = attrs.pop("choice") == "opponent"
        return attrs


class GameRecordOutputSerializer(serializers.Serializer):
    """Response of the game-recording endpoints: the recorded (or corrected) ``game`` and the
    updated ``match``.
    """

    game = GameOutputSerializer()
    match = MatchOutputSerializer()


# --- helpers ------------------------------------------------------------------------------


def match_response(tournament: Tournament, match_id: int) -> Response:
    """200 with the match (re-read) as :class:`MatchOutputSerializer`."""
    match = selectors.match_get(tournament=tournament, match_id=match_id)
    return Response(MatchOutputSerializer(selectors.match_view(match=match)).data)


def record_game(request: Request, match: Match) -> Any:
    """Validate the body (:class:`GameRecordInputSerializer`) and record the game
    (``services.game_record``) or, with ``correction``, correct it (``services.game_correct``).
    Returns the stored game."""
    serializer = GameRecordInputSerializer(data=request.data)
    serializer.is_valid(raise_exception=True)
    data = serializer.validated_data
    if data["correction"]:
        return services.game_correct(
            game=selectors.game_at(match=match, number=data["number"]),
            winner_entry=data["winner"],
            first_entry=data["first"],
            waived=data["waived"],
            score=data.get("score"),
            reason=data.get("reason", ""),
            expected_version=data.get("expected_version"),
            actor=request.user,
        )
    return services.game_record(
        match=match,
        number=data["number"],
        winner_entry=data["winner"],
        first_entry=data["first"],
        waived=data["waived"],
        right_holder_entry=data.get("right_holder"),
        score=data.get("score"),
        actor=request.user,
    )


def game_response(tournament: Tournament, game: Any) -> Response:
    """201 for a new game, 200 for a correction (version > 1), with the updated match."""
    match = selectors.match_get(tournament=tournament, match_id=game.match_id)
    body = {"game": game, "match": selectors.match_view(match=match)}
    code = status.HTTP_201_CREATED if game.version == 1 else status.HTTP_200_OK
    return Response(GameRecordOutputSerializer(body).data, status=code)


# --- views --------------------------------------------------------------------------------


class MatchDetailApi(TournamentApi):
    """GET /api/tournaments/{tournament_id}/matches/{match_id}/: a match with its games, score and
    the first-player holder of the next game.

    Anyone who may see the event. 404 ``match_not_found``; ``round_not_found`` for a match of a
    draft round unless the caller is an organiser.
    """

    @extend_schema(
        operation_id="tournaments_matches_retrieve",
        summary="A match with its games and the first-player holder of the next game",
        responses={200: MatchOutputSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, tournament_id: int, match_id: int) -> Response:
        tournament = self.visible_tournament(tournament_id)
        match = selectors.match_get(tournament=tournament, match_id=match_id)
        selectors.round_get_visible(
            tournament=tournament, number=match.round.number, user=request.user
        )
        return Response(MatchOutputSerializer(selectors.match_view(match=match)).data)


class MatchDieRollApi(TournamentApi):
    """POST /api/tournaments/{tournament_id}/matches/{match_id}/die-roll/: record the game-1 die
    roll winner ("player 1") and whether a game-3 re-roll was agreed (docs/rules.md §6 (HKK
    first-player rights)).

    Judges and organisers, not at their own table (``require_judge_of_match``; 403
    ``own_match``). Body ``DieRollInputSerializer``. 200 with the match;
    404 ``match_not_found``; 409 ``round_not_published``, ``round_finished``, ``bye_match``,
    ``games_already_recorded``, ``reroll_agreement_too_late`` (the agreement changed once a
    roll is recorded); 400 ``not_in_match``, ``reroll_not_available``.
    """

    @extend_schema(
        operation_id="tournaments_matches_die_roll",
        summary="Record the game-1 die roll winner (player 1) and the game-3 re-roll agreement",
        request=DieRollInputSerializer,
        responses={200: MatchOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, match_id: int) -> Response:
        tournament = self.judged_tournament(tournament_id)
        serializer = DieRollInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        match = selectors.match_get(tournament=tournament, match_id=match_id)
        services.match_set_die_roll(
            actor=request.user,
            match=match,
            winner_entry=data["winner"],
            reroll_game3_agreed=data.get("reroll_game3_agreed"),
        )
        return match_response(tournament, match_id)


class MatchRerollAgreementApi(TournamentApi):
    """POST /api/tournaments/{tournament_id}/matches/{match_id}/reroll-agreement/: record (or
    withdraw) both players' agreement to decide HKK game 3 by a new die roll. Accepted only
    before the game-1 die roll is recorded (docs/rules.md §6 (HKK first-player rights)).

    Judges and organisers, not at their own table (``require_judge_of_match``; 403
    ``own_match``). Body ``RerollAgreementInputSerializer``. 200 with
    the match; 409 ``reroll_agreement_too_late``, ``round_not_published``, ``round_finished``,
    ``bye_match``; 400 ``reroll_not_available`` (not HKK with three games); 404
    ``match_not_found``.
    """

    @extend_schema(
        operation_id="tournaments_matches_reroll_agreement",
        summary="Record the agreement to decide game 3 by a new die roll (before the game-1 roll)",
        request=RerollAgreementInputSerializer,
        responses={200: MatchOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, match_id: int) -> Response:
        tournament = self.judged_tournament(tournament_id)
        serializer = RerollAgreementInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        match = selectors.match_get(tournament=tournament, match_id=match_id)
        services.match_set_reroll_agreement(
            actor=request.user, match=match, agreed=serializer.validated_data["agreed"]
        )
        return match_response(tournament, match_id)


class MatchGame3RollApi(TournamentApi):
    """POST /api/tournaments/{tournament_id}/matches/{match_id}/game3-roll/: record the winner of
    the agreed game-3 re-roll (docs/rules.md §6 (HKK first-player rights)).

    Judges and organisers, not at their own table (``require_judge_of_match``; 403
    ``own_match``). Body ``Game3RollInputSerializer``. 200 with the
    match; 404 ``match_not_found``; 409 ``no_reroll_agreed``, ``not_game_3`` (not exactly two games
    recorded), ``round_not_published``, ``round_finished``, ``bye_match``; 400 ``not_in_match``.
    """

    @extend_schema(
        operation_id="tournaments_matches_game3_roll",
        summary="Record the winner of the agreed game-3 re-roll",
        request=Game3RollInputSerializer,
        responses={200: MatchOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, match_id: int) -> Response:
        tournament = self.judged_tournament(tournament_id)
        serializer = Game3RollInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        match = selectors.match_get(tournament=tournament, match_id=match_id)
        services.match_set_game3_roll(
            actor=request.user, match=match, winner_entry=serializer.validated_data["winner"]
        )
        return match_response(tournament, match_id)


class MatchGameRecordApi(TournamentApi):
    """POST /api/tournaments/{tournament_id}/matches/{match_id}/games/: record one game, or correct
    it (``correction`` with a ``reason``; ``expected_version`` guards against a concurrent edit).

    Judges and organisers, not at their own table (``require_judge_of_match``; 403
    ``own_match``). Body ``GameRecordInputSerializer``. 201 for a new
    game, 200 for a correction (game and match). 404 ``match_not_found``, ``game_not_recorded``;
    409 ``game_already_recorded``, ``stale_version``, ``match_complete``,
    ``match_already_decided`` (a best-of match is decided), ``round_finished`` …; 400
    ``first_player_mismatch``, ``wrong_game_number``, ``roll_not_recorded``,
    ``draw_not_allowed``, ``score_missing``, ``score_out_of_range``, ``score_not_allowed`` ….
    """

    @extend_schema(
        operation_id="tournaments_matches_games_record",
        summary="Record (or, with correction=true and a reason, correct) one game",
        request=GameRecordInputSerializer,
        responses={201: GameRecordOutputSerializer, 200: GameRecordOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, match_id: int) -> Response:
        tournament = self.judged_tournament(tournament_id)
        match = selectors.match_get(tournament=tournament, match_id=match_id)
        return game_response(tournament, record_game(request, match))


class TableGameRecordApi(TournamentApi):
    """POST /api/tournaments/{tournament_id}/rounds/{number}/tables/{table}/games/: record or
    correct one game, addressing the match by round number and table.

    Judges and organisers, not at their own table (``require_judge_of_match``; 403
    ``own_match``). Body, responses and errors as for
    ``.../matches/{match_id}/games/``, plus 404 ``round_not_found`` and ``table_not_in_round``.
    """

    @extend_schema(
        operation_id="tournaments_rounds_tables_games_record",
        summary="Record one game by round and table number",
        request=GameRecordInputSerializer,
        responses={201: GameRecordOutputSerializer, 200: GameRecordOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, number: int, table: int) -> Response:
        tournament = self.judged_tournament(tournament_id)
        rnd = selectors.round_get(tournament=tournament, number=number)
        match = selectors.match_for_table(round=rnd, table=table)
        return game_response(tournament, record_game(request, match))


class MatchResultInputSerializer(serializers.Serializer):
    """Body of POST .../matches/{match_id}/result/: ``result`` seen from seat A (``"2-1-0"``:
    game wins of A and B and drawn games; ``"2-1"`` works too), or ``"no_show_a"`` /
    ``"no_show_b"``; ``die_roll_winner`` (entry id) when the policy needs a roll not yet
    recorded.
    """

    result = serializers.CharField(max_length=16, help_text=_('e.g. "2-0", "2-1-0", "no_show_b"'))
    die_roll_winner = serializers.IntegerField(required=False, allow_null=True)


class MatchResultApi(TournamentApi):
    """POST /api/tournaments/{tournament_id}/matches/{match_id}/result/: record a whole match from
    its result slip (``services.match_result_record``): the games it stands for, each with the
    right holder of the first-player policy; a no-show is a match loss for the absent side.

    Judges and organisers (``require_judge``), never for a match they play in (403
    ``own_match``, refused by the service). 201 with the match; 404 ``match_not_found``; 409
    ``games_already_recorded``, ``round_not_published``, ``round_finished``, ``bye_match``; 400
    ``invalid_result``, ``roll_not_recorded``, ``not_in_match``.
    """

    @extend_schema(
        operation_id="tournaments_matches_result_record",
        summary="Record a whole match from its slip (2-0, 2-1, 1-1, draw, no-show)",
        request=MatchResultInputSerializer,
        responses={201: MatchOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, match_id: int) -> Response:
        tournament = self.judged_tournament(tournament_id)
        serializer = MatchResultInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        # Read narrow: the service re-reads the match whole under its row lock.
        match = selectors.match_to_lock(tournament=tournament, match_id=match_id)
        recorded = services.match_result_record(
            match=match,
            result=data["result"],
            die_roll_winner=data.get("die_roll_winner"),
            actor=request.user,
        )
        # The service's match was re-read under its row lock and carries what it wrote: no
        # second read of the match (a slip is the hottest write of an event day).
        view = selectors.match_view(match=recorded)
        return Response(MatchOutputSerializer(view).data, status=status.HTTP_201_CREATED)
