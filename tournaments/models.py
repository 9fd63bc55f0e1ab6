"""Tournament persistence: players, entries (single players or pair teams), deck submissions,
rounds, matches, games and their history.

Writes go through ``tournaments.services`` only; reads through ``tournaments.selectors``.
Sources: RULES.md §1.4 (first-player rights, per-game ``right_holder``/``waived``/``first``,
per-match ``reroll_game3_agreed``), §1.5 (pair teams, same rule card), §1.7 (scoring);
TOURNAMENT-PRACTICE.md §8 (round seed and relaxations, one seat per entry per round,
versioned deck lists locked at the deadline, audited corrections).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

#: Version of the pairing engine recorded on each round (bump when ``swiss`` changes output).
PAIRING_ENGINE_VERSION = "swiss-1"


class Player(models.Model):
    """A person who plays; optionally linked to a user account (issue 4)."""

    display_name = models.CharField(_("display name"), max_length=120)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="players",
    )
    email = models.EmailField(_("e-mail"), blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["display_name", "id"]

    def __str__(self) -> str:
        return self.display_name


class Tournament(models.Model):
    """One event: format, kind, match structure, scoring, tiebreakers and state.

    ``tiebreakers`` is an ordered list of codes from ``tournaments.domain.standings``
    (HKK default ``["buchholz", "game_points"]``, RULES.md §1.7 [INFERRED order]).
    ``first_player_policy`` is a code from ``tournaments.domain.first_player`` (``hkk``,
    ``loser_chooses``). ``late_entry_cutoff_round``: the last round a late entry may still
    join (``None`` = no late entries once running).
    """

    class Kind(models.TextChoices):
        INDIVIDUAL = "individual", _("individual")
        PAIR = "pair", _("pair")

    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        REGISTRATION = "registration", _("registration")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    name = models.CharField(_("name"), max_length=200)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("organiser"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="owned_tournaments",
    )
    format = models.ForeignKey(
        "decks.Format",
        verbose_name=_("format"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    kind = models.CharField(_("kind"), max_length=16, choices=Kind, default=Kind.INDIVIDUAL)
    games_per_match = models.PositiveSmallIntegerField(_("games per match"), default=3)
    stop_at_two_wins = models.BooleanField(_("stop when a player has won the match"), default=False)
    match_win_points = models.PositiveSmallIntegerField(_("match win points"), default=3)
    match_draw_points = models.PositiveSmallIntegerField(_("match draw points"), default=1)
    match_loss_points = models.PositiveSmallIntegerField(_("match loss points"), default=0)
    game_win_points = models.PositiveSmallIntegerField(_("game win points"), default=2)
    game_draw_points = models.PositiveSmallIntegerField(_("game draw points"), default=1)
    game_loss_points = models.PositiveSmallIntegerField(_("game loss points"), default=0)
    bye_games_won = models.PositiveSmallIntegerField(_("games credited for a bye"), default=2)
    planned_rounds = models.PositiveSmallIntegerField(_("planned rounds"), null=True, blank=True)
    tiebreakers = models.JSONField(_("tiebreakers"), default=list, blank=True)
    first_player_policy = models.CharField(_("first-player policy"), max_length=32)
    late_entry_cutoff_round = models.PositiveSmallIntegerField(
        _("late entry cut-off round"), null=True, blank=True
    )
    deck_deadline = models.DateTimeField(_("deck list deadline"), null=True, blank=True)
    is_public = models.BooleanField(
        _("public"),
        default=True,
        help_text=_("Anyone may see the published pairings and standings."),
    )
    decklists_published = models.BooleanField(
        _("deck lists published"),
        default=False,
        help_text=_("Players may see the deck lists of the other players."),
    )
    deck_check_percent = models.PositiveSmallIntegerField(
        _("deck checks per round (%)"),
        default=10,
        help_text=_("Share of the entries picked at random for a deck check each round."),
    )
    status = models.CharField(_("status"), max_length=16, choices=Status, default=Status.DRAFT)
    lists_locked_at = models.DateTimeField(_("lists locked at"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(games_per_match__gte=1), name="tournament_games_per_match_positive"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_pair(self) -> bool:
        return self.kind == self.Kind.PAIR


class Entry(models.Model):
    """A participant of one tournament: a single player, or a pair team (seats A and B).

    ``registered_round``: the first round the entry can be paired in (1 for normal
    registration; later for a late entry, which joins with zero points).
    ``dropped_after_round``: the entry is not paired after this round (0 = dropped before the
    event began); a team drops as one (MTR 8.2 via TOURNAMENT-PRACTICE.md §8).
    ``pairing_override_reason``: the organiser lets the entry be paired without a legal list.
    """

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="entries"
    )
    name = models.CharField(_("name"), max_length=200)
    registered_round = models.PositiveSmallIntegerField(_("registered for round"), default=1)
    dropped_after_round = models.PositiveSmallIntegerField(
        _("dropped after round"), null=True, blank=True
    )
    pairing_override_reason = models.TextField(_("deck override reason"), blank=True)
    pairing_override_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("deck override by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    pairing_override_at = models.DateTimeField(_("deck override at"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        ordering = ["tournament", "id"]

    def __str__(self) -> str:
        return self.name

    def is_active_for_round(self, number: int) -> bool:
        """May this entry be paired in round ``number`` (registered, not yet dropped)?"""
        if self.registered_round > number:
            return False
        return self.dropped_after_round is None or self.dropped_after_round >= number


class EntryMember(models.Model):
    """A player in a fixed seat of an entry: ``A`` (a single entry has only A), or A and B.

    ``tournament`` repeats ``entry.tournament`` so the database can refuse the same player
    in two entries of one event.
    """

    class Seat(models.TextChoices):
        A = "A", "A"
        B = "B", "B"

    entry = models.ForeignKey(
        Entry, verbose_name=_("entry"), on_delete=models.CASCADE, related_name="members"
    )
    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="+"
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="memberships"
    )
    seat = models.CharField(_("seat"), max_length=1, choices=Seat)

    class Meta:
        verbose_name = _("entry member")
        verbose_name_plural = _("entry members")
        ordering = ["entry", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["entry", "seat"], name="entrymember_one_per_seat"),
            models.UniqueConstraint(
                fields=["tournament", "player"], name="entrymember_player_once_per_tournament"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.entry} ({self.seat}): {self.player}"


class DeckSubmission(models.Model):
    """One version of one member's deck list, kept with its validation result, legal or not.

    ``result`` is the full ``decks.services.validation_result_dict`` output; ``extra_errors``
    are tournament-level errors added on top (``pair_rule_card_mismatch``, RULES.md §1.5).
    ``legal`` = the deck validator said legal and there is no extra error. ``is_current``
    marks the member's latest version; ``locked`` marks the snapshot the tournament accepted
    when lists locked (its ``text``/``data``/``result`` never change afterwards).
    """

    member = models.ForeignKey(
        EntryMember, verbose_name=_("member"), on_delete=models.CASCADE, related_name="decks"
    )
    version = models.PositiveIntegerField(_("version"))
    text = models.TextField(_("text"), blank=True)
    data = models.JSONField(_("structured list"), null=True, blank=True)
    format_slug = models.CharField(_("format"), max_length=64)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("submitted by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    submitted_at = models.DateTimeField(_("submitted at"), auto_now_add=True)
    validated_at = models.DateTimeField(_("validated at"))
    validator_legal = models.BooleanField(_("legal per the deck rules"))
    legal = models.BooleanField(_("legal"))
    result = models.JSONField(_("validation result"), default=dict)
    extra_errors = models.JSONField(_("tournament errors"), default=list, blank=True)
    rule_card = models.CharField(_("rule card"), max_length=200, blank=True)
    follower = models.CharField(_("follower"), max_length=200, blank=True)
    hero = models.CharField(_("hero"), max_length=200, blank=True)
    is_current = models.BooleanField(_("current"), default=True)
    locked = models.BooleanField(_("locked"), default=False)
    locked_at = models.DateTimeField(_("locked at"), null=True, blank=True)

    class Meta:
        verbose_name = _("deck submission")
        verbose_name_plural = _("deck submissions")
        ordering = ["member", "version"]
        constraints = [
            models.UniqueConstraint(fields=["member", "version"], name="decksubmission_version"),
            models.UniqueConstraint(
                fields=["member"], condition=Q(is_current=True), name="decksubmission_one_current"
            ),
            models.UniqueConstraint(
                fields=["member"], condition=Q(locked=True), name="decksubmission_one_locked"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.member} v{self.version}"


class Round(models.Model):
    """One Swiss round. ``seed`` is the RNG seed the pairing used (reproducible, audited).

    ``relaxations`` lists the hard rules given up (``[{"code", "entries", "params"}]``) when
    no pairing satisfied them; ``pair_downs``/``pair_down_gap`` come from the engine.
    Status: draft (pairings may be swapped) → published (results recorded) → finished.
    """

    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        PUBLISHED = "published", _("published")
        FINISHED = "finished", _("finished")

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="rounds"
    )
    number = models.PositiveSmallIntegerField(_("number"))
    seed = models.BigIntegerField(_("pairing seed"))
    status = models.CharField(_("status"), max_length=16, choices=Status, default=Status.DRAFT)
    relaxations = models.JSONField(_("relaxed rules"), default=list, blank=True)
    pair_downs = models.PositiveSmallIntegerField(_("pair-downs"), default=0)
    pair_down_gap = models.PositiveIntegerField(_("pair-down gap"), default=0)
    engine_version = models.CharField(_("pairing engine"), max_length=32)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    published_at = models.DateTimeField(_("published at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} #{self.number}"


class Match(models.Model):
    """A table of a round: ``entry_a`` against ``entry_b`` (``None`` = a bye for ``entry_a``).

    ``die_roll_winner`` is the entry that won the game-1 die roll (HKK "player 1"),
    ``game3_roll_winner`` the winner of the game-3 re-roll when ``reroll_game3_agreed``
    (RULES.md §1.4).
    """

    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="matches"
    )
    table = models.PositiveSmallIntegerField(_("table"))
    entry_a = models.ForeignKey(
        Entry, verbose_name=_("entry A"), on_delete=models.PROTECT, related_name="+"
    )
    entry_b = models.ForeignKey(
        Entry,
        verbose_name=_("entry B"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    reroll_game3_agreed = models.BooleanField(_("game 3 re-roll agreed"), default=False)
    die_roll_winner = models.ForeignKey(
        Entry,
        verbose_name=_("die roll winner"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    game3_roll_winner = models.ForeignKey(
        Entry,
        verbose_name=_("game 3 roll winner"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["round", "table"]
        constraints = [
            models.UniqueConstraint(fields=["round", "table"], name="match_table_unique"),
            models.CheckConstraint(
                condition=Q(entry_b__isnull=True) | ~Q(entry_a=models.F("entry_b")),
                name="match_distinct_entries",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} T{self.table}"

    @property
    def is_bye(self) -> bool:
        return self.entry_b_id is None


class RoundSeat(models.Model):
    """One row per entry per round: the database guarantees nobody is paired twice in a round."""

    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="seats"
    )
    entry = models.ForeignKey(
        Entry, verbose_name=_("entry"), on_delete=models.CASCADE, related_name="round_seats"
    )
    match = models.ForeignKey(
        Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="seats"
    )

    class Meta:
        verbose_name = _("round seat")
        verbose_name_plural = _("round seats")
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="roundseat_entry_once"),
        ]

    def __str__(self) -> str:
        return f"{self.round}: {self.entry}"


class Game(models.Model):
    """One game of a match: who held the right to go first, whether it was waived, who went
    first, and the result (``winner``, or ``is_draw``). ``version`` grows with each correction.
    """

    match = models.ForeignKey(
        Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="games"
    )
    number = models.PositiveSmallIntegerField(_("number"))
    right_holder = models.ForeignKey(
        Entry, verbose_name=_("right holder"), on_delete=models.PROTECT, related_name="+"
    )
    waived = models.BooleanField(_("waived"), default=False)
    first = models.ForeignKey(
        Entry, verbose_name=_("went first"), on_delete=models.PROTECT, related_name="+"
    )
    winner = models.ForeignKey(
        Entry,
        verbose_name=_("winner"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    is_draw = models.BooleanField(_("draw"), default=False)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("recorded by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    recorded_at = models.DateTimeField(_("recorded at"), auto_now_add=True)
    version = models.PositiveIntegerField(_("version"), default=1)

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="game_number_unique"),
            models.CheckConstraint(
                condition=(Q(is_draw=True) & Q(winner__isnull=True))
                | (Q(is_draw=False) & Q(winner__isnull=False)),
                name="game_winner_xor_draw",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match} G{self.number}"


class GameCorrection(models.Model):
    """History of an explicit correction: the values before and after, who, when and why."""

    game = models.ForeignKey(
        Game, verbose_name=_("game"), on_delete=models.CASCADE, related_name="corrections"
    )
    old = models.JSONField(_("before"))
    new = models.JSONField(_("after"))
    reason = models.TextField(_("reason"), blank=True)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("changed by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    changed_at = models.DateTimeField(_("changed at"), auto_now_add=True)

    class Meta:
        verbose_name = _("game correction")
        verbose_name_plural = _("game corrections")
        ordering = ["game", "changed_at", "id"]

    def __str__(self) -> str:
        return f"{self.game} @ {self.changed_at:%Y-%m-%d %H:%M}"


class PairingChange(models.Model):
    """A manual swap of two pairings in a draft round (``before``/``after`` as table lists)."""

    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="pairing_changes"
    )
    table_x = models.PositiveSmallIntegerField(_("table X"))
    table_y = models.PositiveSmallIntegerField(_("table Y"))
    swap = models.CharField(_("swapped seat"), max_length=1)
    before = models.JSONField(_("before"))
    after = models.JSONField(_("after"))
    reason = models.TextField(_("reason"), blank=True)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("changed by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    changed_at = models.DateTimeField(_("changed at"), auto_now_add=True)

    class Meta:
        verbose_name = _("pairing change")
        verbose_name_plural = _("pairing changes")
        ordering = ["round", "changed_at", "id"]

    def __str__(self) -> str:
        return f"{self.round}: T{self.table_x} <-> T{self.table_y} ({self.swap})"


class StandingsSnapshot(models.Model):
    """Cached standings written by ``standings_recompute_task`` so pages read them fast.

    ``rows``: ``[{"rank", "entry", "name", "match_points", "game_points", "matches_played",
    "tiebreakers": {code: "exact fraction string"}}]``; ``after_round`` = rounds finished.
    """

    tournament = models.OneToOneField(
        Tournament,
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="standings_snapshot",
    )
    computed_at = models.DateTimeField(_("computed at"))
    after_round = models.PositiveSmallIntegerField(_("after round"), default=0)
    rows = models.JSONField(_("rows"), default=list)

    class Meta:
        verbose_name = _("standings snapshot")
        verbose_name_plural = _("standings snapshots")

    def __str__(self) -> str:
        return f"{self.tournament} ({self.after_round})"


class StaffRole(models.Model):
    """A user's role in one tournament besides its owner (issue 4).

    ``organiser``: a co-organiser, with the owner's powers except appointing staff.
    ``judge``: records and corrects results, sees every deck list, runs deck checks.
    Players are not staff: a player is a user linked to an ``EntryMember``'s ``Player``.
    """

    class Role(models.TextChoices):
        ORGANISER = "organiser", _("co-organiser")
        JUDGE = "judge", _("judge")

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="staff"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="tournament_roles",
    )
    role = models.CharField(_("role"), max_length=16, choices=Role)
    appointed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("appointed by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    appointed_at = models.DateTimeField(_("appointed at"), auto_now_add=True)

    class Meta:
        verbose_name = _("staff role")
        verbose_name_plural = _("staff roles")
        ordering = ["tournament", "role", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="staffrole_one_per_user"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.user} ({self.role})"


class ResultReport(models.Model):
    """A player's own report of their match (issue 4 §1).

    ``games``: ``[{"number", "winner" (entry id or null for a draw), "first" (entry id),
    "waived" (bool)}]``. A report counts once both sides reported the same games
    (``accepted``, the games are then recorded) or a judge confirms it; two different
    reports are both ``disputed`` and flagged to the judges. ``superseded``: replaced by a
    newer report of the same side or overruled by a judge.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for the opponent")
        ACCEPTED = "accepted", _("accepted")
        DISPUTED = "disputed", _("disputed")
        SUPERSEDED = "superseded", _("superseded")

    match = models.ForeignKey(
        Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="reports"
    )
    entry = models.ForeignKey(
        Entry, verbose_name=_("reporting entry"), on_delete=models.CASCADE, related_name="+"
    )
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("reported by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    games = models.JSONField(_("games"))
    status = models.CharField(_("status"), max_length=16, choices=Status, default=Status.PENDING)
    created_at = models.DateTimeField(_("reported at"), auto_now_add=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("resolved by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    resolved_at = models.DateTimeField(_("resolved at"), null=True, blank=True)

    class Meta:
        verbose_name = _("result report")
        verbose_name_plural = _("result reports")
        ordering = ["match", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "entry"],
                condition=Q(status__in=["pending", "disputed"]),
                name="resultreport_one_open_per_side",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match}: {self.entry} ({self.status})"


class DeckCheck(models.Model):
    """A deck check of one entry in one round (issue 4 §3): picked at random (with the
    stored ``seed``) or by a judge; the outcome and any penalty are recorded.
    """

    class Outcome(models.TextChoices):
        PENDING = "pending", _("pending")
        OK = "ok", _("deck matches the list")
        PROBLEM = "problem", _("problem found")

    class Penalty(models.TextChoices):
        NONE = "none", _("none")
        WARNING = "warning", _("warning")
        GAME_LOSS = "game_loss", _("game loss")
        MATCH_LOSS = "match_loss", _("match loss")
        DISQUALIFICATION = "disqualification", _("disqualification")

    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="deck_checks"
    )
    entry = models.ForeignKey(
        Entry, verbose_name=_("entry"), on_delete=models.CASCADE, related_name="deck_checks"
    )
    random_pick = models.BooleanField(_("picked at random"), default=True)
    seed = models.BigIntegerField(_("selection seed"), null=True, blank=True)
    outcome = models.CharField(
        _("outcome"), max_length=16, choices=Outcome, default=Outcome.PENDING
    )
    penalty = models.CharField(_("penalty"), max_length=20, choices=Penalty, default=Penalty.NONE)
    notes = models.TextField(_("notes"), blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    checked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("checked by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    checked_at = models.DateTimeField(_("checked at"), null=True, blank=True)

    class Meta:
        verbose_name = _("deck check")
        verbose_name_plural = _("deck checks")
        ordering = ["round", "id"]
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="deckcheck_once_per_round"),
        ]

    def __str__(self) -> str:
        return f"{self.round}: {self.entry} ({self.outcome})"
