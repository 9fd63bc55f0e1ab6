"""A tournament's life cycle: create (with its match settings, scoring, the kind its format
implies and its descriptive details: date and time, venue, description, player cap), open
registration, change the planned rounds, start (locking the deck lists) and finish.

Sources: docs/rules.md §8 (HKK tournament structure and scoring), §6 (HKK first-player
rights), §7 (HKK pair tournaments: the Páros format makes a pair event), §11 (WoW TCG matches
and first player), §14 (Swiss pairing and byes; the player cap) and §15 (Match points and
tiebreakers).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from decks.models import Format
from hkk_tournament.errors import InvalidState, NotFound, ValidationFailed
from tournaments import selectors
from tournaments.domain import first_player as first_player_domain
from tournaments.domain import standings as standings_domain
from tournaments.domain.games import GameRules, UnknownGame, get_game
from tournaments.domain.match_structure import InvalidStructure, MatchStructure
from tournaments.models import Tournament
from tournaments.permissions import require_manage
from tournaments.services._common import (
    last_round,
    lock_rounds,
    lock_tournament,
    require_status,
)
from tournaments.services.circuits import circuits_event_finished
from tournaments.services.deck_lists import lock_lists, require_pairable
from tournaments.services.jobs import enqueue_meta
from tournaments.services.standings import standings_inputs_changed

S = Tournament.Status

#: The scoring fields ``tournament_create(scoring=...)`` may override.
SCORING_FIELDS = frozenset(
    {
        "match_win_points",
        "match_draw_points",
        "match_loss_points",
        "game_win_points",
        "game_draw_points",
        "game_loss_points",
        "bye_games_won",
    }
)


# --- create -------------------------------------------------------------------------------


def format_kind(fmt: Format) -> str:
    """The event kind a format implies: ``pair`` when its rule-set parameters say
    ``"pair": true`` (HKK Páros, docs/rules.md §7 (HKK pair tournaments)), else ``individual``."""
    params = fmt.params if isinstance(fmt.params, dict) else {}
    return Tournament.Kind.PAIR if params.get("pair") else Tournament.Kind.INDIVIDUAL


def kind_for_format(fmt: Format, kind: str | None) -> str:
    """The event kind: ``kind`` when given and it agrees with :func:`format_kind`, else the
    format's. Raises ``ValidationFailed("kind_mismatch")`` (field ``kind``) when they differ."""
    implied = format_kind(fmt)
    if kind and kind in Tournament.Kind.values and kind != implied:
        raise ValidationFailed(
            "kind_mismatch",
            _("The format %(format)s is played by %(kind)s entries.")
            % {"format": fmt.name, "kind": Tournament.Kind(implied).label},
            {"kind": kind, "format_kind": implied},
            fields={"kind": [_("This format decides the kind.")]},
        )
    return kind or implied


#: The descriptive fields ``tournament_set_details`` changes.
DETAIL_FIELDS = ("starts_at", "venue", "description", "max_entries")


def apply_details(tournament: Tournament, details: Mapping[str, Any]) -> None:
    unknown = set(details) - set(DETAIL_FIELDS)
    if unknown:
        raise ValidationFailed(
            "invalid_value",
            _("Unknown event detail: %(key)s.") % {"key": ", ".join(sorted(unknown))},
            {"fields": sorted(unknown)},
        )
    cap = details.get("max_entries", tournament.max_entries)
    if cap is not None and (not isinstance(cap, int) or cap < 2):
        raise ValidationFailed(
            "invalid_value",
            _("The player cap must be at least 2."),
            {"field": "max_entries"},
            fields={"max_entries": [_("The player cap must be at least 2.")]},
        )
    for key, value in details.items():
        if key in ("venue", "description"):
            value = str(value or "").strip()
        setattr(tournament, key, value)


def _game_slug(fmt: Format) -> str:
    game = getattr(fmt, "game", "")
    return str(getattr(game, "slug", game) or "")


def game_rules(fmt: Format) -> GameRules:
    """The registry entry of ``fmt``'s game (``tournaments.domain.games.GAMES``).

    Raises:
        ValidationFailed: ``unknown_game`` for a game with no entry (never another game's
            defaults).
    """
    slug = _game_slug(fmt)
    try:
        return get_game(slug)
    except UnknownGame:
        raise ValidationFailed(
            "unknown_game",
            _("The format's game has no tournament rules registered: %(game)s.") % {"game": slug},
            {"game": slug},
        ) from None


def _format_default(fmt: Format, names: Sequence[str], fallback: Any) -> Any:
    for name in names:
        value = getattr(fmt, name, None)
        if value not in (None, "", [], ()):
            return value
    return fallback


def _check_tiebreakers(codes: Sequence[str]) -> list[str]:
    known = set(standings_domain.TIEBREAKERS)
    codes = [str(c) for c in codes]
    unknown = [c for c in codes if c not in known]
    if unknown or len(set(codes)) != len(codes):
        raise ValidationFailed(
            "unknown_tiebreaker",
            _("Unknown or repeated tiebreaker: %(codes)s.")
            % {"codes": ", ".join(unknown or codes)},
            {"codes": unknown or codes, "known": sorted(known)},
        )
    return codes


def _check_policy(code: str) -> str:
    try:
        first_player_domain.get_policy(code)
    except (KeyError, LookupError, ValueError):
        raise ValidationFailed(
            "unknown_first_player_policy",
            _("Unknown first-player policy: %(code)s.") % {"code": code},
            {"code": code},
        ) from None
    return code


def _format_or_not_found(format_slug: str) -> Format:
    fmt = Format.objects.filter(slug=format_slug).first()
    if fmt is None:
        raise NotFound(
            "unknown_format",
            _("Unknown format: %(slug)s.") % {"slug": format_slug},
            {"slug": format_slug},
        )
    return fmt


def _check_kind_and_name(kind: str, name: str) -> None:
    if kind not in Tournament.Kind.values:
        raise ValidationFailed(
            "invalid_value",
            _("Unknown tournament kind: %(kind)s.") % {"kind": kind},
            {"kind": kind},
        )
    if not str(name).strip():
        raise ValidationFailed(
            "invalid_value", _("The tournament needs a name."), {"field": "name"}
        )


def _check_positive(**values: object) -> None:
    for field, value in values.items():
        if value is not None and (not isinstance(value, int) or value < 1):
            raise ValidationFailed(
                "invalid_value",
                _("%(field)s must be a positive whole number.") % {"field": field},
                {"field": field},
            )


def _invalid_structure(exc: InvalidStructure) -> ValidationFailed:
    return ValidationFailed(
        "invalid_match_structure",
        selectors.structure_error_message(exc),
        {"reason": exc.code, **exc.params},
    )


def format_structure(fmt: Format) -> MatchStructure:
    """The match structure a new tournament of ``fmt`` starts from: the format's
    ``match_structure`` when set (a WoW TCG Core format stores best of one), else its game's
    entry (:func:`game_rules`: HKK three games, WoW TCG best of three, Blue Moon one game in
    crystals; docs/rules.md §6 (HKK first-player rights), §11 (WoW TCG matches and first
    player), §13 (Blue Moon matches)).

    Raises:
        ValidationFailed: ``invalid_match_structure`` for stored data that is not valid;
            ``unknown_game`` for a format without a structure whose game has no entry.
    """
    if not fmt.match_structure:
        return game_rules(fmt).structure
    try:
        return MatchStructure.from_dict(fmt.match_structure)
    except InvalidStructure as exc:
        raise _invalid_structure(exc) from None


@dataclass(frozen=True, slots=True)
class TournamentSettings:
    """The settings a new event may take instead of its format's (``None``: the format's or the
    game's), built by the create form and the create serializer.

    Attributes:
        first_player_policy: a code of ``first_player_policies.POLICIES``; another policy than
            the format's keeps its scoring settings, and ``later_games`` only when the new
            policy allows it.
        games_per_match: 1–9 (at most the policy's ``max_games``: 3 for ``hkk``).
        ends_when_decided: ``True`` = best of (the match stops once its winner cannot change),
            ``False`` = every game is played.
        planned_rounds: Swiss rounds (``None``: suggested from the entries at the start).
        tiebreakers: ordered codes of ``standings.TIEBREAKERS`` (``None``: the format's, else
            the game's).
        late_entry_cutoff_round: the last round a late entry may join (``None``: none once
            running).
        deck_deadline: when deck lists are due.
        scoring: overrides of :data:`SCORING_FIELDS` (integers ≥ 0).
    """

    first_player_policy: str | None = None
    games_per_match: int | None = None
    ends_when_decided: bool | None = None
    planned_rounds: int | None = None
    tiebreakers: Sequence[str] | None = None
    late_entry_cutoff_round: int | None = None
    deck_deadline: datetime | None = None
    scoring: Mapping[str, int] | None = None


def _structure_with(base: MatchStructure, settings: TournamentSettings) -> MatchStructure:
    """``base`` with the organiser's overrides (:class:`TournamentSettings`): another policy
    (its scoring settings are kept, ``later_games`` only when the new policy allows it), games
    per match, best-of ending."""
    policy = settings.first_player_policy or None
    games, ends = settings.games_per_match, settings.ends_when_decided
    if policy is None and games is None and ends is None:
        return base
    data = base.to_dict()
    if policy is not None and policy != base.policy:
        _check_policy(policy)
        data["policy"] = policy
        if not first_player_domain.get_policy(policy).later_games_setting:
            data["later_games"] = None
    if games is not None:
        data["games_per_match"] = games
    if ends is not None:
        data["ends_when_decided"] = bool(ends)
    try:
        return MatchStructure.from_dict(data)
    except InvalidStructure as exc:
        if exc.code == "too_many_games_for_policy":
            raise ValidationFailed(
                "invalid_value",
                _("The first-player policy %(policy)s allows at most %(max)s games per match.")
                % {"policy": data["policy"], "max": exc.params.get("max")},
                {"field": "games_per_match", "max": exc.params.get("max")},
            ) from None
        raise _invalid_structure(exc) from None


def _match_settings(fmt: Format, settings: TournamentSettings) -> tuple[MatchStructure, list[str]]:
    """``(match structure, tiebreakers)``: the format's structure (``format_structure``) with
    the given overrides, the given tiebreakers else the format row's, else the game's
    (:func:`game_rules`); checked: positive numbers, a known policy that allows that many
    games, known tiebreakers. Raises ``ValidationFailed`` (``unknown_game`` among others)."""
    game = game_rules(fmt)
    if settings.tiebreakers is not None:
        tbs = list(settings.tiebreakers)
    else:
        tbs = list(_format_default(fmt, ("default_tiebreakers",), game.tiebreakers))
        if not set(tbs) <= set(standings_domain.TIEBREAKERS):
            # A format row naming codes the standings registry does not know: use the game's.
            tbs = list(game.tiebreakers)
    _check_positive(
        games_per_match=settings.games_per_match, planned_rounds=settings.planned_rounds
    )
    if settings.first_player_policy:
        _check_policy(str(settings.first_player_policy))
    return _structure_with(format_structure(fmt), settings), _check_tiebreakers(tbs)


def _apply_scoring(tournament: Tournament, scoring: Mapping[str, int] | None) -> None:
    for key, value in (scoring or {}).items():
        if key not in SCORING_FIELDS or not isinstance(value, int) or value < 0:
            raise ValidationFailed(
                "invalid_value",
                _("Invalid scoring setting: %(key)s.") % {"key": key},
                {"field": key},
            )
        setattr(tournament, key, value)


@transaction.atomic
def tournament_create(
    *,
    owner: Any,
    name: str,
    format_slug: str,
    kind: str | None = None,
    settings: TournamentSettings | None = None,
    details: Mapping[str, Any] | None = None,
) -> Tournament:
    """Create a tournament in ``draft``.

    ``kind`` follows the format (:func:`kind_for_format`); ``details``: date, venue,
    description, player cap (:func:`apply_details`).

    The match structure (first-player policy, games per match, best-of ending, draws, Blue Moon
    crystal score) is copied from the format (:func:`format_structure`): HKK formats the HKK
    rule with three games, all played (docs/rules.md §6 (HKK first-player rights)); WoW TCG
    best of three, the die roll winner chooses (§11 (WoW TCG matches and first player)); Blue
    Moon one game scored in crystals (§13 (Blue Moon matches)). ``settings``
    (:class:`TournamentSettings`; ``None`` fields = the format's) override it, the planned
    rounds, the tiebreakers and the scoring. Tiebreakers come from the format row, else the
    game: HKK ``["buchholz", "game_points"]`` (§8 (HKK tournament structure and scoring)); WoW
    ``["omw", "gw", "ogw"]`` (§15 (Match points and tiebreakers); Magic Tournament Rules,
    appendix C). Scoring defaults: HKK 3/1/0 match and 2/1/0 game points.

    Raises:
        NotFound: ``unknown_format``.
        ValidationFailed: ``unknown_tiebreaker``, ``unknown_first_player_policy``,
            ``invalid_match_structure`` (params ``reason``: an ``InvalidStructure`` code),
            ``invalid_value`` (bad kind, games per match, rounds or scoring key),
            ``kind_mismatch`` (a kind the format does not allow), ``unknown_game``.
    """
    settings = settings or TournamentSettings()
    fmt = _format_or_not_found(format_slug)
    kind = kind_for_format(fmt, kind)
    _check_kind_and_name(kind, name)
    structure, tbs = _match_settings(fmt, settings)
    tournament = Tournament(
        owner=owner,
        name=str(name).strip(),
        format=fmt,
        kind=kind,
        planned_rounds=settings.planned_rounds,
        tiebreakers=tbs,
        match_structure=structure.to_dict(),
        late_entry_cutoff_round=settings.late_entry_cutoff_round,
        deck_deadline=settings.deck_deadline,
    )
    _apply_scoring(tournament, settings.scoring)
    apply_details(tournament, details or {})
    tournament.save()
    return tournament


# --- status changes -----------------------------------------------------------------------


@transaction.atomic
def tournament_open_registration(*, actor: Any, tournament: Tournament) -> Tournament:
    """draft → registration. Raises ``InvalidState("tournament_status")`` otherwise."""
    require_manage(actor, tournament)
    tournament = lock_tournament(tournament)
    require_status(tournament, S.DRAFT)
    tournament.status = S.REGISTRATION
    tournament.save(update_fields=["status"])
    return tournament


@transaction.atomic
def tournament_set_planned_rounds(
    *, actor: Any, tournament: Tournament, planned_rounds: int
) -> Tournament:
    """Change the number of planned rounds (not below the rounds already paired).

    Raises ``ValidationFailed("invalid_value")``, ``InvalidState("tournament_status")``.
    """
    require_manage(actor, tournament)
    tournament = lock_tournament(tournament)
    require_status(tournament, S.DRAFT, S.REGISTRATION, S.RUNNING)
    last = last_round(tournament)
    if not isinstance(planned_rounds, int) or planned_rounds < max(1, last.number if last else 1):
        raise ValidationFailed(
            "invalid_value",
            _("The number of rounds cannot be less than the rounds already paired."),
            {"field": "planned_rounds"},
        )
    tournament.planned_rounds = planned_rounds
    tournament.save(update_fields=["planned_rounds"])
    return tournament


@transaction.atomic
def tournament_start(*, actor: Any, tournament: Tournament) -> Tournament:
    """registration → running: lock every active entry's current list (rule cards are fixed
    for the event), check that each has a legal list or an override, and set
    ``planned_rounds`` to the suggestion for the entry count when it is empty (docs/rules.md
    §14 (Swiss pairing and byes)).

    Raises:
        InvalidState: ``tournament_status``, ``not_enough_entries`` (fewer than 2 active).
        ValidationFailed: ``entries_without_legal_list`` (nothing is locked then).
    """
    require_manage(actor, tournament)
    tournament = lock_tournament(tournament)
    require_status(tournament, S.REGISTRATION)
    entries = [
        e for e in tournament.entries.prefetch_related("members") if e.dropped_after_round is None
    ]
    if len(entries) < 2:
        raise InvalidState(
            "not_enough_entries",
            _("At least two entries are needed to start."),
            {"entries": len(entries)},
        )
    require_pairable(entries)
    lock_lists(entries)
    now = timezone.now()
    tournament.status = S.RUNNING
    tournament.started_at = now
    tournament.lists_locked_at = now
    if not tournament.planned_rounds:
        tournament.planned_rounds = standings_domain.suggested_rounds(len(entries))
    tournament.save(update_fields=["status", "started_at", "lists_locked_at", "planned_rounds"])
    # Creates the standings snapshot's row under the event's lock, before any result can ask
    # for a recompute (no writer then ever creates it concurrently).
    standings_inputs_changed(tournament_id=tournament.pk)
    return tournament


@transaction.atomic
def tournament_finish(*, actor: Any, tournament: Tournament) -> Tournament:
    """running → finished, once every round is finished and at least one was played.

    Locks the tournament row and then every round row (``lock_rounds``): a correction being
    written holds its round ``FOR SHARE``, so it commits before the event is finished, and a
    later one sees the event finished (``tournament_finished``).

    Raises ``InvalidState("tournament_status" | "round_not_finished" | "no_rounds")``.
    """
    require_manage(actor, tournament)
    tournament = lock_tournament(tournament)
    lock_rounds(tournament)
    require_status(tournament, S.RUNNING)
    last = last_round(tournament)
    if last is None:
        raise InvalidState("no_rounds", _("No round has been played yet."), {})
    if tournament.rounds.exclude(status="finished").exists():
        raise InvalidState(
            "round_not_finished",
            _("Round %(round)s is not finished yet.") % {"round": last.number},
            {"round": last.number},
        )
    tournament.status = S.FINISHED
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
    circuits_event_finished(tournament=tournament)  # ratings of the circuits counting it
    enqueue_meta(tournament.pk)  # its published lists now count (docs/rules.md §20)
    return tournament
