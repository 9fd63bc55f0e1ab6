"""Tournament services on a real database: a whole event, Swiss rounds, byes, swaps,
relaxations, drops and late entries."""

from __future__ import annotations

from collections import Counter

import pytest
from django.utils import translation

from hkk_tournament.errors import Conflict, InvalidState, NotFound, ValidationFailed
from tests.factories import (
    hkk_catalogue,  # noqa: F401 (fixture)
    make_tournament,
    staff_user,
    submit_decks,
)
from tests.services.tournaments.helpers import finish_round, play, start_and_pair
from tournaments import services
from tournaments.models import DeckSubmission, Match, PairingChange, Round, RoundSeat, Tournament
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db


# --- a whole event ------------------------------------------------------------------------


@pytest.mark.usefixtures("hkk_catalogue")
def test_full_event_of_eight_entries_over_three_rounds() -> None:
    t, entries = make_tournament(entries=8, planned_rounds=3)
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    met: set[frozenset[int | None]] = set()
    for number in (1, 2, 3):
        rnd = services.round_pair_next(actor=SYSTEM, tournament=t)
        assert rnd.number == number and rnd.status == Round.Status.DRAFT
        assert rnd.engine_version and 0 <= rnd.seed < 2**32
        rnd = services.round_publish(actor=SYSTEM, round=rnd)
        pairs = [frozenset((m.entry_a_id, m.entry_b_id)) for m in rnd.matches.all()]
        assert len(pairs) == 4
        assert Counter(e for p in pairs for e in p) == Counter({e.pk: 1 for e in entries})
        assert not met & set(pairs), "no rematch in 3 rounds of 8"
        met |= set(pairs)
        for i, m in enumerate(rnd.matches.order_by("table")):
            play(m, ["a", "b", "a"] if i % 2 else ["b", "b", None])
        services.round_finish(actor=SYSTEM, round=rnd)
    with pytest.raises(InvalidState) as exc:
        services.round_pair_next(actor=SYSTEM, tournament=t)
    assert exc.value.code == "planned_rounds_reached"
    t = services.tournament_finish(actor=SYSTEM, tournament=t)
    rows = services.standings_compute(tournament=t)
    assert len(rows) == 8
    # 12 decided matches: 3 points each, and every game gives 2 points (a win or two draws).
    assert sum(r.match_points for r in rows) == 12 * 3
    assert sum(r.game_points for r in rows) == 12 * 3 * 2
    keys = [(r.match_points, r.tiebreakers["buchholz"], r.tiebreakers["game_points"]) for r in rows]
    assert keys == sorted(keys, reverse=True)
    # Buchholz = the sum of the opponents' match points (docs/rules.md §15 (Match points and
    # tiebreakers)).
    mp = {r.entry: r.match_points for r in rows}
    opponents: dict[int, list[int]] = {e.pk: [] for e in entries}
    for m in Match.objects.filter(round__tournament=t):
        assert m.entry_b_id is not None  # eight entries: no bye
        opponents[m.entry_a_id].append(m.entry_b_id)
        opponents[m.entry_b_id].append(m.entry_a_id)
    for r in rows:
        assert r.tiebreakers["buchholz"] == sum(mp[o] for o in opponents[r.entry])
    export = services.tournament_export(tournament=t)
    assert set(export) >= {
        "format",
        "kind",
        "policy",
        "tiebreakers",
        "entries",
        "rounds",
        "drops",
        "standings",
    }
    assert [len(r["pairings"]) for r in export["rounds"]] == [4, 4, 4]
    assert all(len(p["games"]) == 3 for r in export["rounds"] for p in r["pairings"])


def test_odd_field_gets_a_bye_worth_a_two_nil_win():
    t, entries = make_tournament(entries=3, decks=False)
    t, rnd = start_and_pair(t)
    bye = rnd.matches.get(entry_b__isnull=True)
    rows = {r.entry: r for r in services.standings_compute(tournament=t)}
    assert rows[bye.entry_a_id].match_points == 3
    assert rows[bye.entry_a_id].game_points == 4
    with pytest.raises(InvalidState) as exc:
        services.game_record(
            actor=SYSTEM,
            match=bye,
            number=1,
            winner_entry=bye.entry_a_id,
            first_entry=bye.entry_a_id,
        )
    assert exc.value.code == "bye_match"
    nxt = services.match_next_right(match=bye)
    assert nxt.decision is None


def test_pairing_twice_while_round_open_is_a_conflict():
    t, _ = make_tournament(entries=4, decks=False)
    t, rnd = start_and_pair(t)
    with pytest.raises(Conflict) as exc:
        services.round_pair_next(actor=SYSTEM, tournament=t)
    assert exc.value.code == "round_in_progress"
    assert t.rounds.count() == 1


def test_round_finish_requires_every_result():
    t, _ = make_tournament(entries=4, decks=False)
    t, rnd = start_and_pair(t)
    first = rnd.matches.order_by("table").first()
    play(first, ["a", "a", "a"])
    with pytest.raises(InvalidState) as exc:
        services.round_finish(actor=SYSTEM, round=rnd)
    assert exc.value.code == "matches_incomplete" and exc.value.params["tables"] == [2]


def test_swap_in_a_draft_round_is_recorded():
    t, _ = make_tournament(entries=4, decks=False)
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_pair_next(actor=SYSTEM, tournament=t)
    m1, m2 = rnd.matches.order_by("table")
    b1, b2 = m1.entry_b_id, m2.entry_b_id
    organiser = staff_user(t)
    services.round_swap_pairings(
        round=rnd, table_x=1, table_y=2, swap="b", actor=organiser, reason="team-mates"
    )
    m1.refresh_from_db()
    m2.refresh_from_db()
    assert (m1.entry_b_id, m2.entry_b_id) == (b2, b1)
    assert RoundSeat.objects.get(round=rnd, entry_id=b2).match == m1
    change = PairingChange.objects.get(round=rnd)
    assert change.changed_by == organiser and change.reason == "team-mates"
    assert change.before[0]["b"] == b1 and change.after[0]["b"] == b2
    with pytest.raises(NotFound) as exc:
        services.round_swap_pairings(actor=SYSTEM, round=rnd, table_x=1, table_y=9, swap="a")
    assert exc.value.code == "table_not_in_round"
    services.round_publish(actor=SYSTEM, round=rnd)
    with pytest.raises(InvalidState) as exc:
        services.round_swap_pairings(actor=SYSTEM, round=rnd, table_x=1, table_y=2, swap="a")
    assert exc.value.code == "round_not_draft"
    assert PairingChange.objects.count() == 1


def test_relaxations_are_explained():
    t, _ = make_tournament(entries=2, decks=False, planned_rounds=2)
    t, rnd = start_and_pair(t)
    finish_round(rnd)
    rnd2 = services.round_pair_next(actor=SYSTEM, tournament=t)
    assert [r["code"] for r in rnd2.relaxations] == ["rematch"]
    with translation.override("en"):
        explained = services.round_relaxations(rnd2)
    assert "again" in explained[0]["message"] and "P1" in explained[0]["message"]


# --- drops and late entries ---------------------------------------------------------------


def test_drop_takes_effect_from_the_next_round_and_stays_in_standings():
    t, entries = make_tournament(entries=5, decks=False)
    early = entries[4]
    services.entry_drop(entry=early)  # before the event: leaves completely
    t, rnd = start_and_pair(t)
    assert not RoundSeat.objects.filter(entry=early).exists()
    leaver = entries[0]
    services.entry_drop(entry=leaver)
    leaver.refresh_from_db()
    assert leaver.dropped_after_round == 1
    assert RoundSeat.objects.filter(round=rnd, entry=leaver).exists()  # still plays round 1
    with pytest.raises(InvalidState) as exc:
        services.entry_drop(entry=leaver)
    assert exc.value.code == "already_dropped"
    with pytest.raises(ValidationFailed) as exc:
        services.entry_drop(entry=entries[1], after_round=0)
    assert exc.value.code == "drop_in_past"
    finish_round(rnd)
    t.planned_rounds = 3
    t.save()
    rnd2 = services.round_pair_next(actor=SYSTEM, tournament=t)
    assert not RoundSeat.objects.filter(round=rnd2, entry=leaver).exists()
    assert RoundSeat.objects.filter(round=rnd2).count() == 3
    rows = {r.entry: r for r in services.standings_compute(tournament=t)}
    assert early.pk not in rows
    assert rows[leaver.pk].dropped and rows[leaver.pk].matches_played == 1


def test_pair_team_drops_as_one():
    t, (t1, t2, t3) = make_tournament(entries=3, kind=Tournament.Kind.PAIR, decks=False)
    t, rnd = start_and_pair(t)
    services.entry_drop(entry=t1)
    finish_round(rnd)
    t.planned_rounds = 2
    t.save()
    rnd2 = services.round_pair_next(actor=SYSTEM, tournament=t)
    assert set(RoundSeat.objects.filter(round=rnd2).values_list("entry", flat=True)) == {
        t2.pk,
        t3.pk,
    }


@pytest.mark.usefixtures("hkk_catalogue")
def test_late_entry_until_the_cutoff_round():
    t, entries = make_tournament(entries=4, late_entry_cutoff_round=2, planned_rounds=3)
    t, rnd = start_and_pair(t)
    late = services.entry_register_late(tournament=t, player="Késő Kata")
    assert late.registered_round == 2
    submit_decks(t, late, seed=77)
    finish_round(rnd)
    cand = {c.id: c for c in services.pairing_candidates(t, [*entries, late])}
    assert cand[late.pk].match_points == 0 and not cand[late.pk].opponents
    assert cand[late.pk].rank == 5 and cand[late.pk].byes == 0
    assert not DeckSubmission.objects.get(member__entry=late, is_current=True).locked
    rnd2 = services.round_pair_next(actor=SYSTEM, tournament=t)
    assert RoundSeat.objects.filter(round=rnd2, entry=late).exists()
    assert DeckSubmission.objects.get(member__entry=late, is_current=True).locked
    services.round_publish(actor=SYSTEM, round=rnd2)
    finish_round(rnd2)
    with pytest.raises(InvalidState) as exc:
        services.entry_register_late(tournament=t, player="Too late")
    assert exc.value.code == "late_entry_closed"


def test_late_entry_without_a_list_cannot_be_paired():
    t, _ = make_tournament(entries=2, decks=False, late_entry_cutoff_round=3, planned_rounds=3)
    t, rnd = start_and_pair(t)
    late = services.entry_register_late(tournament=t, player="No list")
    finish_round(rnd)
    with pytest.raises(ValidationFailed) as exc:
        services.round_pair_next(actor=SYSTEM, tournament=t)
    assert exc.value.code == "entries_without_legal_list"
    assert t.rounds.count() == 1
    services.entry_override_deck(actor=SYSTEM, entry=late, reason="list on paper")
    assert services.round_pair_next(actor=SYSTEM, tournament=t).number == 2
