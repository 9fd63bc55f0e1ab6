"""Deck checks (docs/rules.md §16 (Deck checks, penalties and result reporting)):
ceil(percent% of the playing entries) picked at random from a stored seed, idempotent per round;
judges add entries and record outcome and penalty."""

from __future__ import annotations

import math
import random

import pytest

from hkk_tournament.errors import Conflict, InvalidState, ValidationFailed
from tests.factories import UserFactory, make_tournament
from tournaments import services
from tournaments.models import DeckCheck, Round, Tournament
from tournaments.permissions import SYSTEM
from tournaments.services.deck_checks import playing_entry_ids

pytestmark = pytest.mark.django_db


def round_of(entries: int, *, publish: bool = True, **options) -> tuple[Tournament, Round]:
    t, _ = make_tournament(entries=entries, decks=False, **options)
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_pair_next(actor=SYSTEM, tournament=t, seed=11)
    if publish:
        rnd = services.round_publish(actor=SYSTEM, round=rnd)
    return t, rnd


@pytest.mark.parametrize(
    ("percent", "entries", "expected"),
    [(10, 1, 1), (10, 9, 1), (10, 10, 1), (10, 11, 2), (10, 20, 2), (10, 21, 3), (25, 8, 2)],
)
def test_count_is_the_ceiling_and_at_least_one(percent, entries, expected):
    assert services.deck_check_count(percent=percent, entries=entries) == expected
    assert services.deck_check_count(percent=0, entries=entries) == 1
    assert services.deck_check_count(percent=100, entries=entries) == entries
    assert services.deck_check_count(percent=percent, entries=0) == 0


@pytest.mark.parametrize(("entries", "expected"), [(4, 1), (5, 1), (22, 3), (30, 3)])
def test_pick_checks_ceil_ten_percent_of_the_playing_entries(entries, expected):
    _t, rnd = round_of(entries)
    playing = playing_entry_ids(rnd)
    assert len(playing) == entries - entries % 2  # the bye's entry is not at a table
    assert expected == math.ceil(len(playing) / 10)
    checks = services.deck_checks_pick(actor=SYSTEM, round=rnd, seed=5)
    assert len(checks) == expected
    assert {c.entry_id for c in checks} <= set(playing)
    assert all(c.random_pick and c.seed == 5 and c.outcome == "pending" for c in checks)


def test_pick_is_reproducible_from_the_seed():
    _t, rnd = round_of(22)
    checks = services.deck_checks_pick(actor=SYSTEM, round=rnd, seed=1234)
    expected = sorted(random.Random(1234).sample(playing_entry_ids(rnd), 3))
    assert [c.entry_id for c in checks] == expected
    DeckCheck.objects.filter(round=rnd).delete()
    again = services.deck_checks_pick(actor=SYSTEM, round=rnd, seed=1234)
    assert [c.entry_id for c in again] == expected


def test_pick_without_a_seed_stores_the_one_it_drew():
    _t, rnd = round_of(22)
    checks = services.deck_checks_pick(actor=SYSTEM, round=rnd)
    seed = checks[0].seed
    assert seed is not None and all(c.seed == seed for c in checks)
    assert [c.entry_id for c in checks] == sorted(
        random.Random(seed).sample(playing_entry_ids(rnd), 3)
    )


def test_pick_is_idempotent_per_round():
    _t, rnd = round_of(22)
    first = services.deck_checks_pick(actor=SYSTEM, round=rnd, seed=1)
    second = services.deck_checks_pick(actor=SYSTEM, round=rnd, seed=2)
    assert [c.pk for c in second] == [c.pk for c in first]
    assert DeckCheck.objects.filter(round=rnd).count() == 3


def test_pick_keeps_an_entry_a_judge_added():
    _t, rnd = round_of(4)
    seed = 3
    chosen = sorted(random.Random(seed).sample(playing_entry_ids(rnd), 1))[0]
    manual = services.deck_check_add(actor=SYSTEM, round=rnd, entry=chosen)
    checks = services.deck_checks_pick(actor=SYSTEM, round=rnd, seed=seed)
    assert [c.pk for c in checks] == [manual.pk]
    manual.refresh_from_db()
    assert manual.random_pick is False and manual.seed == seed
    assert DeckCheck.objects.filter(round=rnd).count() == 1


def test_pick_needs_a_published_round():
    _t, rnd = round_of(4, publish=False)
    with pytest.raises(InvalidState) as exc:
        services.deck_checks_pick(actor=SYSTEM, round=rnd, seed=1)
    assert exc.value.code == "round_not_published"
    assert not DeckCheck.objects.exists()


def test_judge_adds_a_specific_entry_once():
    t, rnd = round_of(4)
    judge = UserFactory(username="judge")
    services.staff_appoint(actor=SYSTEM, tournament=t, user=judge, role="judge")
    entry = t.entries.order_by("id").first()
    check = services.deck_check_add(round=rnd, entry=entry, actor=judge)
    assert (check.random_pick, check.seed, check.created_by) == (False, None, judge)
    with pytest.raises(Conflict) as exc:
        services.deck_check_add(round=rnd, entry=entry, actor=judge)
    assert exc.value.code == "deck_check_exists"


def test_added_entry_must_play_in_the_round():
    t, rnd = round_of(4, late_entry_cutoff_round=3)
    late = services.entry_register_late(tournament=t, player="Late")
    with pytest.raises(ValidationFailed) as exc:
        services.deck_check_add(actor=SYSTEM, round=rnd, entry=late)
    assert exc.value.code == "not_in_round"
    assert not DeckCheck.objects.exists()


def test_record_outcome_and_penalty():
    t, rnd = round_of(4)
    judge = UserFactory(username="judge")
    services.staff_appoint(actor=SYSTEM, tournament=t, user=judge, role="judge")
    check = services.deck_check_add(actor=SYSTEM, round=rnd, entry=t.entries.first())
    ok = services.deck_check_record(check=check, outcome="ok", penalty="none", actor=judge)
    assert (ok.outcome, ok.penalty, ok.checked_by) == ("ok", "none", judge)
    assert ok.checked_at is not None
    bad = services.deck_check_record(
        check=check, outcome="problem", penalty="game_loss", notes=" 41 cards ", actor=judge
    )
    bad.refresh_from_db()
    assert (bad.outcome, bad.penalty, bad.notes) == ("problem", "game_loss", "41 cards")


@pytest.mark.parametrize(
    ("outcome", "penalty", "code"),
    [
        ("ok", "warning", "penalty_without_problem"),
        ("pending", "none", "invalid_value"),
        ("problem", "banishment", "invalid_value"),
    ],
)
def test_record_rejects_inconsistent_values(outcome, penalty, code):
    t, rnd = round_of(4)
    check = services.deck_check_add(actor=SYSTEM, round=rnd, entry=t.entries.first())
    with pytest.raises(ValidationFailed) as exc:
        services.deck_check_record(actor=SYSTEM, check=check, outcome=outcome, penalty=penalty)
    assert exc.value.code == code
    check.refresh_from_db()
    assert (check.outcome, check.penalty, check.checked_at) == ("pending", "none", None)
