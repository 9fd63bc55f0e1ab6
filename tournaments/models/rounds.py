"""Swiss rounds, their tables, seats, games and the audit trail of corrections and swaps
(docs/rules.md §6 (HKK first-player rights), §14 (Swiss pairing and byes), §16 (Deck checks,
penalties and result reporting))."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models.entries import Entry
from tournaments.models.tournament import Tournament

#: Version of the pairing engine recorded on each round (bump when ``swiss`` changes output).
PAIRING_ENGINE_VERSION = "swiss-2"


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

    class Stage(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        TOP_CUT = "top_cut", _("top cut")

    stage = models.CharField(_("stage"), max_length=16, choices=Stage, default=Stage.SWISS)
    bracket = models.JSONField(
        _("bracket"),
        default=dict,
        blank=True,
        help_text=_('Top cut only: {"size", "seeds": {entry id: seed}, "higher_seed_chooses"}.'),
    )
    # Round clock (docs/rules.md §16 (Deck checks, penalties and result reporting)): stored as
    # facts, never ticked; the time left is computed by ``tournaments.domain.clock``.
    clock_minutes = models.PositiveSmallIntegerField(_("round time (minutes)"), default=50)
    clock_started_at = models.DateTimeField(_("clock started at"), null=True, blank=True)
    clock_paused_at = models.DateTimeField(_("clock paused at"), null=True, blank=True)
    clock_paused_seconds = models.PositiveIntegerField(_("seconds paused"), default=0)
    clock_extension_seconds = models.PositiveIntegerField(_("round extension (s)"), default=0)

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
    (docs/rules.md §6 (HKK first-player rights)). ``result_version`` grows by one in the
    transaction of every write of the match's result (games, time called), under the match's
    row lock (``services.standings.standings_inputs_changed``): the standings snapshot compares
    the event's sum of them to know whether its rows are current.
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
    ended_at_time = models.BooleanField(
        _("ended at time"),
        default=False,
        help_text=_("Time was called: the match counts with fewer games than the format has."),
    )
    extension_seconds = models.PositiveIntegerField(_("table extension (s)"), default=0)
    result_version = models.PositiveBigIntegerField(
        _("result version"),
        default=0,
        help_text=_("Grows by one with every change of the match's result."),
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


class MissedRound(models.Model):
    """The result the desk gave an entry for a Swiss round it did not play (re-added after a
    drop or a no-show, or registered late): ``loss`` counts as a match loss with no game won,
    ``bye`` as a bye (docs/rules.md §14 (Swiss pairing and byes)). Deleted with its round."""

    class Outcome(models.TextChoices):
        LOSS = "loss", _("match loss")
        BYE = "bye", _("bye")

    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="missed"
    )
    entry = models.ForeignKey(
        Entry, verbose_name=_("entry"), on_delete=models.CASCADE, related_name="missed_rounds"
    )
    outcome = models.CharField(_("result"), max_length=8, choices=Outcome)

    class Meta:
        verbose_name = _("missed round")
        verbose_name_plural = _("missed rounds")
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="missedround_entry_once"),
        ]

    def __str__(self) -> str:
        return f"{self.round}: {self.entry} ({self.outcome})"


class Game(models.Model):
    """One game of a match: who held the right to go first, whether it was waived, who went
    first, and the result (``winner``, or ``is_draw``). ``version`` grows with each correction.

    Where the format gives a choice (WoW TCG, Blue Moon: docs/rules.md §11 (WoW TCG matches and
    first player), §13 (Blue Moon matches)) ``chosen_by`` is the entry that chose who starts
    (the right holder) and ``waived`` its choice (``True`` = it let the opponent start); under
    the HKK rule (§6 (HKK first-player rights)) it stays empty. ``score`` is the winner's score
    in the format's unit (Blue Moon crystals), empty where none is kept or the game is drawn.

    ``details_reported`` is ``False`` for a game that stands for part of a match score entered
    at match level (a result slip's "2–1", a player's one-choice report): its winner counts in
    the score, but its place in the order, the right holder and who went first were not
    reported, so ``right_holder``, ``first`` and ``chosen_by`` are empty (``NULL``) and
    ``waived`` false; a game with its details reported always has ``right_holder`` and
    ``first`` (a database constraint).
    """

    match = models.ForeignKey(
        Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="games"
    )
    number = models.PositiveSmallIntegerField(_("number"))
    right_holder = models.ForeignKey(
        Entry,
        verbose_name=_("right holder"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    waived = models.BooleanField(_("waived"), default=False)
    first = models.ForeignKey(
        Entry,
        verbose_name=_("went first"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
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
    chosen_by = models.ForeignKey(
        Entry,
        verbose_name=_("chosen by"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    score = models.PositiveSmallIntegerField(_("score"), null=True, blank=True)
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
    details_reported = models.BooleanField(_("details reported"), default=True)

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["match_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="game_number_unique"),
            models.CheckConstraint(
                condition=(Q(is_draw=True) & Q(winner__isnull=True))
                | (Q(is_draw=False) & Q(winner__isnull=False)),
                name="game_winner_xor_draw",
            ),
            models.CheckConstraint(
                condition=Q(details_reported=False)
                | (Q(right_holder__isnull=False) & Q(first__isnull=False)),
                name="game_detailed_has_holder_and_first",
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
