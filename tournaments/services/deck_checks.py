"""Deck checks: pick a share of the decks at random each round (10 % by default), record the
outcome and any penalty (docs/rules.md §16 (Deck checks, penalties and result reporting)).

Each round the judges pick ``ceil(deck_check_percent% × n)`` entries at random (at least one),
``n`` being the entries playing an opponent in the round (a bye's entry is not at a table).
The pick uses ``random.Random(seed)`` over the entry ids in order, and the seed is stored on
every check it chose, so the selection can be reproduced and audited, as with the pairing
seed. Judges may also add specific entries. Callers check the judge role
(``tournaments.permissions.can_judge``).
"""

from __future__ import annotations

import math
import random
import secrets
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from hkk_tournament.errors import Conflict, InvalidState, ValidationFailed
from tournaments.models import DeckCheck, Entry, Round
from tournaments.permissions import acting_user, require_judge
from tournaments.services._common import lock_tournament
from tournaments.services.penalties import penalty_log_deck_check

R = Round.Status


def _locked_round(rnd: Round) -> Round:
    lock_tournament(rnd.tournament_id)
    return Round.objects.select_for_update().select_related("tournament").get(pk=rnd.pk)


def _require_published(rnd: Round) -> None:
    if rnd.status == R.DRAFT:
        raise InvalidState(
            "round_not_published",
            _("Round %(round)s is not published yet.") % {"round": rnd.number},
            {"round": rnd.number},
        )
    if rnd.status == R.FINISHED:
        raise InvalidState(
            "round_finished",
            _("Round %(round)s is finished.") % {"round": rnd.number},
            {"round": rnd.number},
        )


def playing_entry_ids(rnd: Round) -> list[int]:
    """Ids (ascending) of the entries that play an opponent in ``rnd``."""
    ids: set[int] = set()
    for a, b in rnd.matches.filter(entry_b__isnull=False).values_list("entry_a_id", "entry_b_id"):
        ids.update((a, b))
    return sorted(ids)


def deck_check_count(*, percent: int, entries: int) -> int:
    """How many entries to check: ``ceil(percent% × entries)``, at least 1 (0 with no
    entries), never more than ``entries``. Integer arithmetic: 10% of 21 → 3."""
    if entries <= 0:
        return 0
    return min(entries, max(1, math.ceil(percent * entries / 100)))


@transaction.atomic
def deck_checks_pick(*, round: Round, actor: Any, seed: int | None = None) -> list[DeckCheck]:
    """Pick the round's random deck checks (idempotent per round).

    ``seed`` (default ``secrets.randbits(32)``) seeds ``random.Random``, which samples
    :func:`deck_check_count` ids from the ascending :func:`playing_entry_ids`, so a seed gives
    the same picks for the same pairings. The seed is stored on each chosen check; an entry a
    judge added already keeps its check (``random_pick`` stays false) and gets the seed too.
    Calling again returns the checks of the first pick unchanged (whatever ``seed``).

    Returns the chosen checks ordered by entry id.

    Raises:
        InvalidState: ``round_not_published``, ``round_finished``, ``no_entries_to_check``.
    """
    require_judge(actor, round.tournament)
    rnd = _locked_round(round)
    existing = list(
        DeckCheck.objects.filter(round=rnd, seed__isnull=False).order_by("entry_id", "id")
    )
    if existing:
        return existing
    _require_published(rnd)
    ids = playing_entry_ids(rnd)
    count = deck_check_count(percent=rnd.tournament.deck_check_percent, entries=len(ids))
    if count == 0:
        raise InvalidState(
            "no_entries_to_check",
            _("Nobody plays at a table in round %(round)s.") % {"round": rnd.number},
            {"round": rnd.number},
        )
    seed = secrets.randbits(32) if seed is None else int(seed)
    chosen = sorted(random.Random(seed).sample(ids, count))
    manual = {c.entry_id: c for c in DeckCheck.objects.select_for_update().filter(round=rnd)}
    checks = []
    for entry_id in chosen:
        check = manual.get(entry_id)
        if check is not None:
            check.seed = seed
            check.save(update_fields=["seed"])
        else:
            check = DeckCheck.objects.create(
                round=rnd,
                entry_id=entry_id,
                random_pick=True,
                seed=seed,
                created_by=acting_user(actor),
            )
        checks.append(check)
    return checks


@transaction.atomic
def deck_check_add(*, round: Round, entry: Entry | int, actor: Any) -> DeckCheck:
    """A judge picks ``entry`` for a deck check in ``round`` (``random_pick=False``).

    Raises:
        InvalidState: ``round_not_published``, ``round_finished``.
        ValidationFailed: ``not_in_round`` (the entry has no seat in the round).
        Conflict: ``deck_check_exists`` (the entry is already picked this round).
    """
    require_judge(actor, round.tournament)
    rnd = _locked_round(round)
    _require_published(rnd)
    entry_id: int = entry if isinstance(entry, int) else entry.pk
    if not rnd.seats.filter(entry_id=entry_id).exists():
        raise ValidationFailed(
            "not_in_round",
            _("That entry does not play in round %(round)s.") % {"round": rnd.number},
            {"entry": entry_id, "round": rnd.number},
        )
    if DeckCheck.objects.filter(round=rnd, entry_id=entry_id).exists():
        raise Conflict(
            "deck_check_exists",
            _("That deck is already picked for a check this round."),
            {"entry": entry_id, "round": rnd.number},
        )
    try:
        with transaction.atomic():
            return DeckCheck.objects.create(
                round=rnd, entry_id=entry_id, random_pick=False, created_by=acting_user(actor)
            )
    except IntegrityError:
        raise Conflict(
            "deck_check_exists",
            _("That deck is already picked for a check this round."),
            {"entry": entry_id, "round": rnd.number},
        ) from None


@transaction.atomic
def deck_check_record(
    *, check: DeckCheck, outcome: str, penalty: str = "none", notes: str = "", actor: Any
) -> DeckCheck:
    """Record (or re-record) the outcome of a deck check: ``outcome`` ``ok`` or ``problem``,
    ``penalty`` one of ``DeckCheck.Penalty`` (``none`` when the deck matched its list),
    ``notes``; ``checked_by``/``checked_at`` are set.

    Raises:
        ValidationFailed: ``invalid_value`` (unknown or pending outcome, unknown penalty),
            ``penalty_without_problem`` (a penalty with outcome ``ok``).
        InvalidState: ``round_not_published`` (a draft round).
    """
    require_judge(actor, check.round.tournament)
    rnd = _locked_round(check.round)
    check = DeckCheck.objects.select_for_update().get(pk=check.pk)
    if rnd.status == R.DRAFT:
        _require_published(rnd)
    if outcome not in (DeckCheck.Outcome.OK, DeckCheck.Outcome.PROBLEM):
        raise ValidationFailed(
            "invalid_value",
            _("The outcome is either ok or problem."),
            {"field": "outcome", "value": outcome},
        )
    if penalty not in DeckCheck.Penalty.values:
        raise ValidationFailed(
            "invalid_value",
            _("Unknown penalty: %(penalty)s.") % {"penalty": penalty},
            {"field": "penalty", "value": penalty},
        )
    if outcome == DeckCheck.Outcome.OK and penalty != DeckCheck.Penalty.NONE:
        raise ValidationFailed(
            "penalty_without_problem",
            _("A penalty needs a problem: record the outcome as a problem."),
            {"field": "penalty"},
        )
    check.outcome = outcome
    check.penalty = penalty
    check.notes = (notes or "").strip()
    check.checked_by = acting_user(actor)
    check.checked_at = timezone.now()
    check.save(update_fields=["outcome", "penalty", "notes", "checked_by", "checked_at"])
    penalty_log_deck_check(check, by=acting_user(actor))
    return check
