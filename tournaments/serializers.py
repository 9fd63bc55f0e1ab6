"""Input and output serializers of the tournaments API (STYLE.md §5.6). No ``save()`` here:
input serializers only check shapes; the services decide everything else.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tournaments.models import DeckCheck, Round, StaffRole, Tournament

# --- errors -------------------------------------------------------------------------------


class ServiceErrorOutputSerializer(serializers.Serializer):
    """Body of every service error (404, 409, 400): stable code, translated message, params."""

    code = serializers.CharField(help_text=_("Stable error code, e.g. game_already_recorded."))
    message = serializers.CharField(help_text=_("Translated message (Accept-Language)."))
    params = serializers.DictField(help_text=_("Values the message was built from."))


# --- tournaments --------------------------------------------------------------------------


class TournamentCreateInputSerializer(serializers.Serializer):
    """Body of POST /api/tournaments/: name, format slug, kind and optional settings.

    Shapes only (games per match 1–9, planned rounds 1–50, ``scoring``: point setting → integer
    ≥ 0); ``services.tournament_create`` fills the defaults from the format and rejects unknown
    tiebreakers, policies or scoring keys (400).
    """

    name = serializers.CharField(max_length=200)
    format = serializers.SlugField(max_length=64, help_text=_("Format slug, e.g. hkk."))
    kind = serializers.ChoiceField(choices=Tournament.Kind.choices, default="individual")
    games_per_match = serializers.IntegerField(min_value=1, max_value=9, required=False)
    stop_at_two_wins = serializers.BooleanField(default=False)
    planned_rounds = serializers.IntegerField(min_value=1, max_value=50, required=False)
    tiebreakers = serializers.ListField(child=serializers.CharField(), required=False)
    first_player_policy = serializers.CharField(max_length=32, required=False)
    late_entry_cutoff_round = serializers.IntegerField(min_value=1, required=False)
    deck_deadline = serializers.DateTimeField(required=False)
    scoring = serializers.DictField(child=serializers.IntegerField(min_value=0), required=False)


class TournamentOutputSerializer(serializers.Serializer):
    """A tournament in the responses of the tournament list, create, detail and state-transition
    endpoints; ``scoring`` maps the seven point settings (``match_win_points`` … ``bye_games_won``).
    """

    id = serializers.IntegerField()
    name = serializers.CharField()
    format = serializers.CharField(source="format.slug")
    format_name = serializers.CharField(source="format.name")
    kind = serializers.CharField()
    status = serializers.CharField()
    owner = serializers.CharField(source="owner.get_username", allow_null=True, default=None)
    games_per_match = serializers.IntegerField()
    stop_at_two_wins = serializers.BooleanField()
    planned_rounds = serializers.IntegerField(allow_null=True)
    tiebreakers = serializers.ListField(child=serializers.CharField())
    first_player_policy = serializers.CharField()
    late_entry_cutoff_round = serializers.IntegerField(allow_null=True)
    deck_deadline = serializers.DateTimeField(allow_null=True)
    scoring = serializers.SerializerMethodField()
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)

    def get_scoring(self, obj: Tournament) -> dict[str, int]:
        return {
            key: getattr(obj, key)
            for key in (
                "match_win_points",
                "match_draw_points",
                "match_loss_points",
                "game_win_points",
                "game_draw_points",
                "game_loss_points",
                "bye_games_won",
            )
        }


# --- entries and decks --------------------------------------------------------------------


class EntryCreateInputSerializer(serializers.Serializer):
    """A single player (one name) or a pair team (two names: seat A, seat B)."""

    name = serializers.CharField(max_length=200, required=False, allow_blank=True)
    players = serializers.ListField(
        child=serializers.CharField(max_length=120),
        min_length=1,
        max_length=2,
        help_text=_("Player names: one for a single entry, two (seat A, seat B) for a pair."),
    )
    email = serializers.EmailField(required=False, allow_blank=True)


class DeckSummaryOutputSerializer(serializers.Serializer):
    """A member's current deck list in brief (version, legality, lock, rule card), nested as
    ``deck`` in the members of :class:`EntryOutputSerializer`.
    """

    id = serializers.IntegerField()
    version = serializers.IntegerField()
    legal = serializers.BooleanField()
    locked = serializers.BooleanField()
    rule_card = serializers.CharField()
    submitted_at = serializers.DateTimeField()


class MemberOutputSerializer(serializers.Serializer):
    """A seat of an entry. ``deck.rule_card`` is empty when the caller may not see that list
    (issue 4 §1: other players' lists stay hidden until the organiser publishes them)."""

    seat = serializers.CharField()
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player_name")
    deck = serializers.SerializerMethodField()

    @extend_schema_field(DeckSummaryOutputSerializer(allow_null=True))
    def get_deck(self, obj: Any) -> dict[str, Any] | None:
        if obj.deck is None:
            return None
        data = dict(DeckSummaryOutputSerializer(obj.deck).data)
        if not getattr(obj, "deck_visible", True):
            data["rule_card"] = ""
        return data


class EntryOutputSerializer(serializers.Serializer):
    """An entry (``api_selectors.EntryView``) with its members, deck status (legal, override,
    illegal, missing) and drop state: GET/POST .../entries/ and POST .../register/.
    """

    id = serializers.IntegerField()
    name = serializers.CharField()
    registered_round = serializers.IntegerField(source="entry.registered_round")
    dropped_after_round = serializers.IntegerField(
        source="entry.dropped_after_round", allow_null=True
    )
    deck_status = serializers.ChoiceField(choices=["legal", "override", "illegal", "missing"])
    override_reason = serializers.CharField(source="entry.pairing_override_reason")
    members = MemberOutputSerializer(many=True)


class DeckSubmitInputSerializer(serializers.Serializer):
    """The list as ``text`` or structured ``data``; the member by ``player`` id or ``seat``."""

    player = serializers.IntegerField(required=False, help_text=_("Player id of the member."))
    seat = serializers.ChoiceField(choices=["A", "B"], required=False)
    text = serializers.CharField(required=False, allow_blank=True, trim_whitespace=False)
    data = serializers.DictField(required=False)

    def validate(self, attrs: dict) -> dict:
        if ("text" in attrs) == ("data" in attrs):
            raise serializers.ValidationError(_("Give the list either as text or as data."))
        return attrs


class DeckSubmissionOutputSerializer(serializers.Serializer):
    """One stored version of a member's deck list (GET/POST .../entries/{entry_id}/decks/).

    ``legal`` is ``validator_legal`` unless ``extra_errors`` (e.g. ``pair_rule_card_mismatch``)
    make it illegal; ``result`` holds the validator's errors and warnings.
    """

    id = serializers.IntegerField()
    entry = serializers.IntegerField(source="member.entry_id")
    player = serializers.IntegerField(source="member.player_id")
    seat = serializers.CharField(source="member.seat")
    version = serializers.IntegerField()
    format = serializers.CharField(source="format_slug")
    legal = serializers.BooleanField()
    validator_legal = serializers.BooleanField()
    is_current = serializers.BooleanField()
    locked = serializers.BooleanField()
    rule_card = serializers.CharField()
    follower = serializers.CharField()
    hero = serializers.CharField()
    text = serializers.CharField()
    submitted_at = serializers.DateTimeField()
    result = serializers.DictField(help_text=_("The deck validation result (errors, warnings)."))
    extra_errors = serializers.ListField(child=serializers.DictField())


class OverrideInputSerializer(serializers.Serializer):
    """Body of POST .../entries/{entry_id}/override/: the organiser's ``reason`` (required, at most
    2000 characters) for letting the entry be paired without a legal list.
    """

    reason = serializers.CharField(max_length=2000)


class DropInputSerializer(serializers.Serializer):
    """Body of POST .../entries/{entry_id}/drop/: optional ``after_round`` (≥ 0; default the last
    round already paired).
    """

    after_round = serializers.IntegerField(min_value=0, required=False)


class EntryStateOutputSerializer(serializers.Serializer):
    """An entry's own fields after an override or drop: registered round, ``dropped_after_round``
    and the override reason (responses of .../override/ and .../drop/).
    """

    id = serializers.IntegerField()
    name = serializers.CharField()
    registered_round = serializers.IntegerField()
    dropped_after_round = serializers.IntegerField(allow_null=True)
    override_reason = serializers.CharField(source="pairing_override_reason")


class SelfRegisterInputSerializer(serializers.Serializer):
    """A signed-in player registers themselves; a pair event names the partner's username."""

    name = serializers.CharField(max_length=200, required=False, allow_blank=True)
    partner = serializers.CharField(
        max_length=150, required=False, help_text=_("Username of the partner (pair events).")
    )


# --- staff --------------------------------------------------------------------------------


class StaffAppointInputSerializer(serializers.Serializer):
    """Body of POST .../staff/: the ``username`` to appoint and the ``role`` (``organiser`` or
    ``judge``).
    """

    username = serializers.CharField(max_length=150)
    role = serializers.ChoiceField(choices=StaffRole.Role.choices)


class StaffOutputSerializer(serializers.Serializer):
    """A staff appointment (``StaffRole``): user id and username, role and its translated label,
    appointment time (GET/POST .../staff/).
    """

    user = serializers.IntegerField(source="user_id")
    username = serializers.CharField(source="user.get_username")
    role = serializers.ChoiceField(choices=StaffRole.Role.choices)
    role_label = serializers.CharField(source="get_role_display")
    appointed_at = serializers.DateTimeField()


# --- rounds and matches -------------------------------------------------------------------


class RoundSummaryOutputSerializer(serializers.Serializer):
    """A round without its tables: number, status, seed and timestamps (GET .../rounds/); the base
    of :class:`RoundDetailOutputSerializer`.
    """

    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Round.Status.choices)
    seed = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    published_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)


class GameOutputSerializer(serializers.Serializer):
    """One recorded game: right holder, waiver, who went first, winner (entry ids; ``winner`` null
    for a draw) and ``version`` (1, plus one per correction).
    """

    number = serializers.IntegerField()
    right_holder = serializers.IntegerField(source="right_holder_id")
    waived = serializers.BooleanField()
    first = serializers.IntegerField(source="first_id")
    winner = serializers.IntegerField(source="winner_id", allow_null=True)
    is_draw = serializers.BooleanField()
    version = serializers.IntegerField()


class RightOutputSerializer(serializers.Serializer):
    """Who holds the right to go first in the next game, and why (RULES.md §1.4)."""

    game = serializers.IntegerField()
    holder = serializers.IntegerField(
        allow_null=True, help_text=_("Entry id; null: a die roll decides.")
    )
    seat = serializers.CharField(allow_null=True)
    needs_roll = serializers.BooleanField()
    reason = serializers.CharField(help_text=_("Stable reason code, e.g. player_2_game_2."))
    text = serializers.CharField(help_text=_("Translated explanation."))


class MatchOutputSerializer(serializers.Serializer):
    """A table of a round (``api_selectors.MatchView``): entries and names, die-roll choices, game
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
    complete = serializers.BooleanField(source="score.complete")
    match_points = serializers.SerializerMethodField()
    games = GameOutputSerializer(many=True)
    next_right = RightOutputSerializer(source="right", allow_null=True)

    def get_match_points(self, obj) -> dict[str, int]:
        return {str(k): v for k, v in obj.score.points.items()}


class RelaxationOutputSerializer(serializers.Serializer):
    """A pairing rule the Swiss engine had to relax for a round (``services.round_relaxations``):
    stable ``code``, the entries concerned, ``params`` and a translated ``message``.
    """

    code = serializers.CharField()
    entries = serializers.ListField(child=serializers.IntegerField())
    params = serializers.DictField()
    message = serializers.CharField()


class ByNameOutputSerializer(serializers.Serializer):
    """A row of a round's alphabetical pairings list (``api_selectors.pairings_by_name``): the
    entry, its table and seat, and its opponent (``opponent`` null for a bye).
    """

    entry = serializers.IntegerField()
    name = serializers.CharField()
    table = serializers.IntegerField()
    seat = serializers.CharField()
    opponent = serializers.IntegerField(allow_null=True)
    opponent_name = serializers.CharField()


class RoundDetailOutputSerializer(RoundSummaryOutputSerializer):
    """A round with its relaxations, pair-down count, tables and by-name list: the response of GET
    .../rounds/{number}/ and of pairing (201), swap, publish and finish.
    """

    relaxations = RelaxationOutputSerializer(many=True)
    pair_downs = serializers.IntegerField()
    matches = MatchOutputSerializer(many=True)
    by_name = ByNameOutputSerializer(many=True)


class RoundQueuedOutputSerializer(serializers.Serializer):
    """The 202 body of POST .../rounds/?async=1: ``queued`` (true) and the tournament id."""

    queued = serializers.BooleanField()
    tournament = serializers.IntegerField()


class SwapInputSerializer(serializers.Serializer):
    """Body of POST .../rounds/{number}/swap/: two table numbers (≥ 1), the seat to swap (``a`` or
    ``b``) and an optional reason (at most 2000 characters).
    """

    table_x = serializers.IntegerField(min_value=1)
    table_y = serializers.IntegerField(min_value=1)
    swap = serializers.ChoiceField(choices=["a", "b"], help_text=_("Seat to swap: a or b."))
    reason = serializers.CharField(required=False, allow_blank=True, max_length=2000)


class DieRollInputSerializer(serializers.Serializer):
    """Body of POST .../matches/{match_id}/die-roll/: ``winner`` (entry id of player 1) and
    ``reroll_game3_agreed`` (default false).
    """

    winner = serializers.IntegerField(help_text=_("Entry id of the die-roll winner (player 1)."))
    reroll_game3_agreed = serializers.BooleanField(default=False)


class Game3RollInputSerializer(serializers.Serializer):
    """Body of POST .../matches/{match_id}/game3-roll/: ``winner``, the entry id of the game-3
    re-roll winner.
    """

    winner = serializers.IntegerField(help_text=_("Entry id of the game-3 re-roll winner."))


class GameRecordInputSerializer(serializers.Serializer):
    """One game: ``winner`` entry id (null = draw), ``first`` entry id, ``waived``."""

    number = serializers.IntegerField(min_value=1, max_value=9)
    winner = serializers.IntegerField(allow_null=True, help_text=_("Entry id; null for a draw."))
    first = serializers.IntegerField(help_text=_("Entry id of the entry that went first."))
    waived = serializers.BooleanField(default=False)
    right_holder = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text=_("Entry holding the right (needed only when a die roll decided it)."),
    )
    correction = serializers.BooleanField(default=False)
    reason = serializers.CharField(required=False, allow_blank=True, max_length=2000)
    expected_version = serializers.IntegerField(required=False, min_value=1)

    def validate(self, attrs: dict) -> dict:
        if attrs.get("correction") and not (attrs.get("reason") or "").strip():
            raise serializers.ValidationError({"reason": _("A correction needs a reason.")})
        return attrs


class GameRecordOutputSerializer(serializers.Serializer):
    """Response of the game-recording endpoints: the recorded (or corrected) ``game`` and the
    updated ``match``.
    """

    game = GameOutputSerializer()
    match = MatchOutputSerializer()


# --- result reports -----------------------------------------------------------------------


class ReportGameSerializer(serializers.Serializer):
    """One reported game: ``winner`` entry id (null = draw), ``first`` entry id, ``waived``."""

    number = serializers.IntegerField(min_value=1, max_value=9)
    winner = serializers.IntegerField(allow_null=True, help_text=_("Entry id; null for a draw."))
    first = serializers.IntegerField(help_text=_("Entry id of the entry that went first."))
    waived = serializers.BooleanField(
        default=False, help_text=_("The right holder let the opponent go first.")
    )


class ReportSubmitInputSerializer(serializers.Serializer):
    """Body of POST .../matches/{match_id}/reports/: ``games``, 1–9 reported games
    (:class:`ReportGameSerializer`).
    """

    games = ReportGameSerializer(many=True, min_length=1, max_length=9)


class ReportOutputSerializer(serializers.Serializer):
    """A player's result report (``ResultReport``): match, entry, reporter, reported games, status
    (pending, accepted, disputed, superseded) and who resolved it when (reports, confirm and
    disputes endpoints).
    """

    id = serializers.IntegerField()
    match = serializers.IntegerField(source="match_id")
    entry = serializers.IntegerField(source="entry_id")
    reported_by = serializers.CharField(
        source="reported_by.get_username", allow_null=True, default=None
    )
    games = ReportGameSerializer(many=True)
    status = serializers.CharField(
        help_text=_("pending, accepted, disputed or superseded (see status_label).")
    )
    status_label = serializers.CharField(source="get_status_display")
    created_at = serializers.DateTimeField()
    resolved_by = serializers.CharField(
        source="resolved_by.get_username", allow_null=True, default=None
    )
    resolved_at = serializers.DateTimeField(allow_null=True)


class DisputeOutputSerializer(serializers.Serializer):
    """A match with disputed result reports (``api_selectors.DisputeView``): round, table, both
    entries and names, and the disputed reports (GET .../disputes/).
    """

    match = serializers.IntegerField(source="match.pk")
    round = serializers.IntegerField()
    table = serializers.IntegerField(source="match.table")
    entry_a = serializers.IntegerField(source="match.entry_a_id")
    entry_b = serializers.IntegerField(source="match.entry_b_id", allow_null=True)
    a_name = serializers.CharField()
    b_name = serializers.CharField()
    reports = ReportOutputSerializer(many=True)


# --- deck checks --------------------------------------------------------------------------


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

    entry = serializers.IntegerField(help_text=_("Entry id to check."))


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
    entry_name = serializers.CharField(source="entry.name")
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


# --- the caller's view of an event ----------------------------------------------------------


class MeOutputSerializer(serializers.Serializer):
    """The caller's roles in the event, their entries and their matches."""

    roles = serializers.ListField(
        child=serializers.ChoiceField(choices=["owner", "organiser", "judge", "player"])
    )
    entries = serializers.ListField(child=serializers.IntegerField())
    matches = MatchOutputSerializer(many=True)


# --- standings ----------------------------------------------------------------------------


class TiebreakerOutputSerializer(serializers.Serializer):
    """One tiebreaker of a standings row: ``code``, exact ``value`` (e.g. ``7/3``) and ``decimal``
    (4 places, e.g. ``2.3333``).
    """

    code = serializers.CharField()
    value = serializers.CharField(help_text=_("Exact value, e.g. 7/3."))
    decimal = serializers.CharField(help_text=_("Rounded to 4 decimals, e.g. 2.3333."))


class StandingOutputSerializer(serializers.Serializer):
    """A standings row (``api_selectors.StandingView``): rank, entry and name, match and game
    points, matches played, dropped, and the tiebreakers in the tournament's order.
    """

    rank = serializers.IntegerField()
    entry = serializers.IntegerField()
    name = serializers.CharField()
    match_points = serializers.IntegerField()
    game_points = serializers.IntegerField()
    matches_played = serializers.IntegerField()
    dropped = serializers.BooleanField()
    tiebreakers = TiebreakerOutputSerializer(many=True)


class ExportOutputSerializer(serializers.Serializer):
    """The whole event (``services.tournament_export``)."""

    format = serializers.CharField()
    kind = serializers.CharField()
    policy = serializers.CharField()
    games_per_match = serializers.IntegerField()
    tiebreakers = serializers.ListField(child=serializers.CharField())
    entries = serializers.ListField(child=serializers.DictField())
    rounds = serializers.ListField(child=serializers.DictField())
    drops = serializers.ListField(child=serializers.DictField())
    standings = serializers.ListField(child=serializers.DictField())
