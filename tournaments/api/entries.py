"""Entries API: register players and pair teams (by the organiser or the players themselves),
submit and read deck lists, override a missing legal list and drop an entry. Serializers and
views of ``/api/tournaments/{id}/entries/…`` and ``…/register/``.

Rules: docs/rules.md §3 (HKK deck construction (Hagyományos)), §7 (HKK pair tournaments), §16
(Deck checks, penalties and result reporting).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from hkk_tournament.web.converters import ID_MAX
from tournaments import selectors, services
from tournaments.access import (
    can_judge,
    can_see_override_notes,
    is_player_of_entry,
    require_deck_list_reader,
)
from tournaments.api._common import (
    ERRORS,
    READ_ERRORS,
    ROLE_READ_ERRORS,
    ReasonInputSerializer,
    TournamentApi,
    _reason,
)
from tournaments.api.rounds import RoundChangedOutputSerializer, round_changed
from tournaments.models import Entry, Tournament
from tournaments.services import IMPORT_MAX_BYTES

# --- serializers --------------------------------------------------------------------------


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
    missed = serializers.ChoiceField(
        choices=["loss", "bye", "pair"],
        required=False,
        allow_blank=True,
        default="",
        help_text=_(
            "A late entry: what the rounds already paired count as (a loss, a bye, or a seat "
            "against the bye of the round in progress); with a reason, past any cut-off."
        ),
    )
    reason = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")


class SelfRegisterInputSerializer(serializers.Serializer):
    """A signed-in player registers themselves; a pair event names the partner's username."""

    name = serializers.CharField(max_length=200, required=False, allow_blank=True)
    partner = serializers.CharField(
        max_length=150, required=False, help_text=_("Username of the partner (pair events).")
    )


class DeckSummaryOutputSerializer(serializers.Serializer):
    """A member's current deck list in brief (version, legality, lock, rule card), nested as
    ``deck`` in the members of :class:`EntryOutputSerializer`.
    """

    id = serializers.IntegerField()
    version = serializers.IntegerField()
    legal = serializers.BooleanField()
    verdict = serializers.ChoiceField(
        choices=["legal", "illegal", "unverified"],
        help_text=_(
            "The list's verdict: illegal (a rule or the event's own rule is broken), unverified "
            "(it could not be fully checked, even once the organiser approved it) or legal."
        ),
    )
    locked = serializers.BooleanField()
    rule_card = serializers.CharField()
    submitted_at = serializers.DateTimeField()


class MemberOutputSerializer(serializers.Serializer):
    """A seat of an entry. ``deck.rule_card`` is empty when the caller may not see that list
    (other players' lists stay hidden until the organiser publishes them)."""

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
    """An entry (``selectors.EntryView``) with its members, deck status (legal, override,
    illegal, missing) and drop state: GET/POST .../entries/ and POST .../register/.

    ``override_reason`` is the organiser's note for the staff (``permissions.
    can_see_override_notes``): empty for everyone else, who sees only ``deck_status``
    ``override``. Context ``{"staff": bool}`` (default ``False``).
    """

    id = serializers.IntegerField()
    name = serializers.CharField()
    registered_round = serializers.IntegerField(source="entry.registered_round")
    dropped_after_round = serializers.IntegerField(
        source="entry.dropped_after_round", allow_null=True
    )
    deck_status = serializers.ChoiceField(
        choices=["legal", "override", "unverified", "illegal", "missing"]
    )
    override_reason = serializers.SerializerMethodField(
        help_text=_("The organiser's note on the override (staff only; empty for others).")
    )
    members = MemberOutputSerializer(many=True)

    def get_override_reason(self, obj: Any) -> str:
        return str(obj.entry.pairing_override_reason) if self.context.get("staff") else ""


class DeckSubmitInputSerializer(serializers.Serializer):
    """The list as ``text`` or structured ``data``; the member by ``player`` id or ``seat``."""

    player = serializers.IntegerField(
        required=False, min_value=1, max_value=ID_MAX, help_text=_("Player id of the member.")
    )
    seat = serializers.ChoiceField(choices=["A", "B"], required=False)
    text = serializers.CharField(required=False, allow_blank=True, trim_whitespace=False)
    # The metaclass moves declared fields out of the class, so this does not shadow
    # ``Serializer.data`` at run time; the stubs cannot express that.
    data = serializers.DictField(required=False)  # type: ignore[assignment]

    def validate(self, attrs: dict) -> dict:
        if ("text" in attrs) == ("data" in attrs):
            raise serializers.ValidationError(_("Give the list either as text or as data."))
        return attrs


class DeckSubmissionOutputSerializer(serializers.Serializer):
    """One stored version of a member's deck list (GET/POST .../entries/{entry_id}/decks/).

    ``legal`` is ``validator_legal`` (or an unverified list approved with ``approval_reason``)
    unless ``extra_errors`` (e.g. ``pair_rule_card_mismatch``) make it illegal; ``status`` is
    the validator's verdict; ``result`` holds the validator's errors and warnings.
    """

    id = serializers.IntegerField()
    entry = serializers.IntegerField(source="member.entry_id")
    player = serializers.IntegerField(source="member.player_id")
    seat = serializers.CharField(source="member.seat")
    version = serializers.IntegerField()
    format = serializers.CharField(source="format_slug")
    legal = serializers.BooleanField()
    validator_legal = serializers.BooleanField()
    status = serializers.CharField(
        help_text=_("The validator's verdict: legal, illegal or unverified (needs approval).")
    )
    verdict = serializers.ChoiceField(
        choices=["legal", "illegal", "unverified"],
        help_text=_(
            "The list's verdict: illegal (a rule or the event's own rule is broken), unverified "
            "(it could not be fully checked, even once the organiser approved it) or legal."
        ),
    )
    unknown_cards = serializers.ListField(
        child=serializers.CharField(),
        help_text=_("Names the partial card catalogue lacks, in list order."),
    )
    approval_reason = serializers.CharField(
        help_text=_("The organiser's reason for accepting an unverified list (empty: none).")
    )
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

    after_round = serializers.IntegerField(min_value=0, max_value=32767, required=False)


class EntryStateOutputSerializer(serializers.Serializer):
    """An entry's own fields after an override or drop: registered round, ``dropped_after_round``
    and the override reason (responses of .../override/ and .../drop/).
    """

    id = serializers.IntegerField()
    name = serializers.CharField(source="shown_name")
    registered_round = serializers.IntegerField()
    dropped_after_round = serializers.IntegerField(allow_null=True)
    override_reason = serializers.CharField(source="pairing_override_reason")


# --- helpers ------------------------------------------------------------------------------


def entry_created_response(tournament: Tournament, entry: Entry) -> Response:
    """201 with the new entry as :class:`EntryOutputSerializer`."""
    views = [v for v in selectors.entry_views(tournament=tournament) if v.id == entry.pk]
    return Response(EntryOutputSerializer(views[0]).data, status=status.HTTP_201_CREATED)


def entries_context(request: Request, tournament: Tournament) -> dict[str, bool]:
    """The serializer context of :class:`EntryOutputSerializer` for the caller."""
    return {"staff": can_see_override_notes(request.user, tournament)}


# --- views --------------------------------------------------------------------------------


class EntryListCreateApi(TournamentApi):
    """GET, POST /api/tournaments/{tournament_id}/entries/: list the entries; register one.

    GET: anyone who may see the event; a member's ``deck.rule_card`` is blank where the caller may
    not see that list, and ``override_reason`` for anyone but the staff. POST: organisers only,
    body ``EntryCreateInputSerializer`` (one name, or two for a pair); a late entry while
    running. 201 with the entry; 400 ``wrong_entry_kind``, ``pair_needs_two_players``,
    ``invalid_value``, ``missed_choice_required``, ``reason_required``; 409
    ``player_already_registered``, ``tournament_status``, ``late_entry_closed`` (no
    ``missed`` choice past the cut-off), ``no_bye_to_pair``.
    """

    @extend_schema(
        operation_id="tournaments_entries_list",
        summary="List entries with their deck status",
        responses={200: EntryOutputSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = self.visible_tournament(tournament_id)
        views = selectors.entry_views(tournament=tournament, user=request.user)
        context = entries_context(request, tournament)
        return Response(EntryOutputSerializer(views, many=True, context=context).data)

    @extend_schema(
        operation_id="tournaments_entries_create",
        summary="Register a player or a pair team (a late entry while running)",
        request=EntryCreateInputSerializer,
        responses={201: EntryOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = self.managed_tournament(tournament_id)
        serializer = EntryCreateInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        entry = services.entry_register(
            tournament=tournament,
            players=data["players"],
            name=data.get("name", ""),
            email=data.get("email", ""),
            missed=services.MissedChoice(
                outcome=data["missed"], reason=data["reason"], by=request.user
            )
            if data.get("missed")
            else None,
        )
        return entry_created_response(tournament, entry)


class SelfRegisterApi(TournamentApi):
    """POST /api/tournaments/{tournament_id}/register/: the signed-in caller registers themselves.

    Any signed-in user who may see the event. Body ``SelfRegisterInputSerializer`` (``partner``:
    the teammate's username in a pair event). 201 with the entry; 404 ``user_not_found``; 409
    ``registration_closed``, ``late_entry_closed``, ``already_registered``; 400
    ``pair_needs_two_players``, ``wrong_entry_kind``.
    """

    @extend_schema(
        operation_id="tournaments_register_self",
        summary="Register yourself (while registration is open, or as a late entry)",
        request=SelfRegisterInputSerializer,
        responses={201: EntryOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = self.member_tournament(tournament_id)
        serializer = SelfRegisterInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        partner = selectors.user_get(username=data["partner"]) if data.get("partner") else None
        entry = services.entry_self_register(
            tournament=tournament, user=request.user, partner=partner, name=data.get("name", "")
        )
        return entry_created_response(tournament, entry)


class EntryDeckSubmitApi(TournamentApi):
    """GET, POST /api/tournaments/{tournament_id}/entries/{entry_id}/decks/: an entry's deck lists.

    GET (``require_deck_list_viewer``): every version for judges and the entry's players, the
    current lists for other players once published; 403 otherwise. POST
    (``require_deck_submitter``; ``DeckSubmitInputSerializer``): organisers any member, players
    their own; illegal lists are stored too. 201; 404 ``entry_not_found``, ``not_a_member``; 409
    ``lists_locked``, ``deck_deadline_passed``, ``tournament_status``; 400 ``deck_input``.
    """

    @extend_schema(
        operation_id="tournaments_entries_decks_list",
        summary="An entry's deck lists (judges and the entry's players; others once published)",
        responses={200: DeckSubmissionOutputSerializer(many=True), **ROLE_READ_ERRORS},
    )
    def get(self, request: Request, tournament_id: int, entry_id: int) -> Response:
        tournament = self.member_tournament(tournament_id)
        entry = selectors.entry_get(tournament=tournament, entry_id=entry_id)
        require_deck_list_reader(request.user, entry)
        history = can_judge(request.user, tournament) or is_player_of_entry(request.user, entry)
        decks = selectors.entry_deck_lists(entry=entry, history=history)
        return Response(DeckSubmissionOutputSerializer(decks, many=True).data)

    @extend_schema(
        operation_id="tournaments_entries_decks_submit",
        summary="Submit a member's deck list (organisers: any member; players: their own, "
        "before the lock). Illegal lists are stored too.",
        request=DeckSubmitInputSerializer,
        responses={201: DeckSubmissionOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, entry_id: int) -> Response:
        tournament = self.member_tournament(tournament_id)
        entry = selectors.entry_get(tournament=tournament, entry_id=entry_id)
        serializer = DeckSubmitInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        player = selectors.member_player_for(
            entry=entry, user=request.user, player_id=data.get("player"), seat=data.get("seat")
        )
        submission = services.deck_submit(
            tournament=tournament,
            entry=entry,
            player=player,
            text=data.get("text"),
            data=data.get("data"),
            actor=request.user,
        )
        return Response(
            DeckSubmissionOutputSerializer(submission).data, status=status.HTTP_201_CREATED
        )


class EntryOverrideApi(TournamentApi):
    """POST /api/tournaments/{tournament_id}/entries/{entry_id}/override/: let an entry be paired
    without a legal deck list.

    Organisers only (``require_manage``). Body ``OverrideInputSerializer`` (``reason``, stored with
    the organiser and time). 200 with ``EntryStateOutputSerializer``; 404 ``entry_not_found``;
    400 for a blank reason.
    """

    @extend_schema(
        operation_id="tournaments_entries_override",
        summary="Let an entry be paired without a legal list (reason recorded)",
        request=OverrideInputSerializer,
        responses={200: EntryStateOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, entry_id: int) -> Response:
        tournament = self.managed_tournament(tournament_id)
        serializer = OverrideInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        entry = selectors.entry_get(tournament=tournament, entry_id=entry_id)
        entry = services.entry_override_deck(
            entry=entry, reason=serializer.validated_data["reason"], actor=request.user
        )
        return Response(EntryStateOutputSerializer(entry).data)


class EntryDeckApproveApi(TournamentApi):
    """POST /api/tournaments/{tournament_id}/entries/{entry_id}/decks/{deck_id}/approve/: accept
    an unverified deck list (a card the partial catalogue lacks …) as legal for this event.

    Organisers only (``require_manage``). Body ``OverrideInputSerializer`` (``reason``, stored
    with the organiser and time). 200 with ``DeckSubmissionOutputSerializer``; 404
    ``entry_not_found``, ``deck_not_found``; 409 ``deck_not_unverified``,
    ``deck_not_current``; 400 ``reason_required``. docs/rules.md §17 (Card data sources and
    coverage).
    """

    @extend_schema(
        operation_id="tournaments_entries_deck_approve",
        summary="Approve an unverified deck list (reason recorded)",
        request=OverrideInputSerializer,
        responses={200: DeckSubmissionOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, entry_id: int, deck_id: int) -> Response:
        tournament = self.managed_tournament(tournament_id)
        serializer = OverrideInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        entry = selectors.entry_get(tournament=tournament, entry_id=entry_id)
        submission = services.deck_approve_unverified(
            tournament=tournament,
            entry=entry,
            submission_id=deck_id,
            reason=serializer.validated_data["reason"],
            actor=request.user,
        )
        return Response(DeckSubmissionOutputSerializer(submission).data)


class EntryDropApi(TournamentApi):
    """POST /api/tournaments/{tournament_id}/entries/{entry_id}/drop/: drop an entry (a pair team
    drops as one) from the next round on.

    Organisers only (``require_manage``). Body ``DropInputSerializer`` (``after_round``, default
    the last round paired). 200 with ``EntryStateOutputSerializer``; 404 ``entry_not_found``; 409
    ``already_dropped``, ``tournament_status`` (finished); 400 ``drop_in_past``.
    """

    @extend_schema(
        operation_id="tournaments_entries_drop",
        summary="Drop an entry (effective from the next round)",
        request=DropInputSerializer,
        responses={200: EntryStateOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, entry_id: int) -> Response:
        tournament = self.managed_tournament(tournament_id)
        serializer = DropInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        entry = selectors.entry_get(tournament=tournament, entry_id=entry_id)
        entry = services.entry_drop(
            entry=entry, after_round=serializer.validated_data.get("after_round")
        )
        return Response(EntryStateOutputSerializer(entry).data)


#: The service of each ``fix`` of ``EntryDropAfterPairingApi``.
DROP_SERVICES = {"repair": services.entry_drop_and_repair, "bye": services.entry_drop_with_bye}


class DropAfterPairingInputSerializer(ReasonInputSerializer):
    """``fix``: ``repair`` (pair the round again) or ``bye`` (the opponent gets a bye)."""

    fix = serializers.ChoiceField(choices=list(DROP_SERVICES))


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


class EntryIdsOutputSerializer(serializers.Serializer):
    entries = serializers.ListField(child=serializers.IntegerField())


class DropAfterPairingOutputSerializer(serializers.Serializer):
    round = RoundChangedOutputSerializer(allow_null=True)


class EntryDropAfterPairingApi(TournamentApi):
    """POST .../entries/{entry_id}/drop-after-pairing/: drop an entry paired in the current
    round; ``fix`` = ``repair`` (``services.entry_drop_and_repair``) or ``bye``
    (``services.entry_drop_with_bye``). 200 with the round's summary (number, status, tables,
    the URL of its tables); 409 ``not_paired``,
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
        drop = DROP_SERVICES[data.pop("fix")]
        rnd = drop(entry=entry, actor=request.user, **data)
        payload = {"round": round_changed(request, tournament, rnd) if rnd is not None else None}
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
        entry = services.entry_readd(entry=entry, actor=request.user, **data)
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
        services.entry_check_in(actor=request.user, entry=entry, checked_in=data["checked_in"])
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
        dropped = services.entries_drop_not_checked_in(tournament=tournament, actor=request.user)
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
            actor=request.user,
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
