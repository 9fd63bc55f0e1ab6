"""Tournament services on a real database: registration, deck lists, Swiss rounds, results,
first-player rights, corrections, drops, late entries, standings and exports."""

from __future__ import annotations

from collections import Counter

import pytest
from django.utils import translation

from tests.factories import (
    ILLEGAL_DECK,
    UserFactory,
    eager_celery,  # noqa: F401 (fixture)
    hkk_catalogue,  # noqa: F401 (fixture)
    hkk_deck,
    make_tournament,
    submit_decks,
)
from tournaments import selectors, services
from tournaments.errors import Conflict, InvalidState, NotFound, ValidationFailed
from tournaments.models import (
    DeckSubmission,
    Game,
    GameCorrection,
    Match,
    PairingChange,
    Round,
    RoundSeat,
    StandingsSnapshot,
    Tournament,
)
from tournaments.tasks import round_pair_next_task, standings_recompute_task

pytestmark = pytest.mark.django_db


def play(match: Match, winners, *, waive=()):
    """Record games of ``match`` following the policy: ``winners`` is a list of "a", "b" or
    None (draw); the die roll goes to entry A; games listed in ``waive`` are waived."""
    a, b = match.entry_a_id, match.entry_b_id
    if match.die_roll_winner_id is None:
        services.match_set_die_roll(match=match, winner_entry=a)
    for number, w in enumerate(winners, start=1):
        nxt = services.match_next_right(match=match)
        holder = nxt.holder
        waived = number in waive
        first = (b if holder == a else a) if waived else holder
        services.game_record(
            match=match,
            number=number,
            winner_entry={"a": a, "b": b, None: None}[w],
            first_entry=first,
            waived=waived,
        )


def start_and_pair(t):
    t = services.tournament_start(tournament=t)
    rnd = services.round_pair_next(tournament=t)
    return t, services.round_publish(round=rnd)


def finish_round(rnd, pattern=("a", "a", "b")):
    for m in rnd.matches.order_by("table"):
        if m.entry_b_id is not None:
            play(m, pattern)
    return services.round_finish(round=rnd)


# --- creation -----------------------------------------------------------------------------


def test_create_takes_hkk_defaults_from_the_format():
    t, _ = make_tournament(decks=False)
    assert t.first_player_policy == "hkk"
    assert t.tiebreakers == ["buchholz", "game_points"]
    assert (t.games_per_match, t.stop_at_two_wins) == (3, False)
    assert (t.match_win_points, t.match_draw_points, t.game_win_points) == (3, 1, 2)
    assert t.status == Tournament.Status.REGISTRATION


def test_create_wow_defaults_to_loser_chooses_and_mtr_tiebreakers():
    t = services.tournament_create(owner=None, name="WoW", format_slug="wow-constructed")
    assert t.first_player_policy == "loser_chooses"
    assert t.tiebreakers == ["omw", "gw", "ogw"]


def test_create_rejects_unknown_format_tiebreaker_and_policy():
    with pytest.raises(NotFound) as exc:
        services.tournament_create(owner=None, name="x", format_slug="nope")
    assert exc.value.code == "unknown_format"
    with pytest.raises(ValidationFailed) as exc:
        services.tournament_create(owner=None, name="x", format_slug="hkk", tiebreakers=["elo"])
    assert exc.value.code == "unknown_tiebreaker"
    with pytest.raises(ValidationFailed) as exc:
        services.tournament_create(
            owner=None, name="x", format_slug="hkk", first_player_policy="coin"
        )
    assert exc.value.code == "unknown_first_player_policy"
    with pytest.raises(ValidationFailed):
        services.tournament_create(owner=None, name="x", format_slug="hkk", games_per_match=5)
    assert not Tournament.objects.exists()


def test_status_flow_is_enforced():
    t = services.tournament_create(owner=None, name="x", format_slug="hkk")
    with pytest.raises(InvalidState) as exc:
        services.tournament_start(tournament=t)
    assert exc.value.code == "tournament_status"
    services.tournament_open_registration(tournament=t)
    with pytest.raises(InvalidState) as exc:
        services.tournament_start(tournament=t)
    assert exc.value.code == "not_enough_entries"


# --- registration and deck lists ----------------------------------------------------------


def test_player_cannot_be_in_two_entries():
    t, (e1,) = make_tournament(entries=1, decks=False)
    player = e1.members.get().player
    with pytest.raises(Conflict) as exc:
        services.entry_register_player(tournament=t, player=player)
    assert exc.value.code == "player_already_registered"
    assert t.entries.count() == 1


def test_pair_registration_rules():
    t, (team,) = make_tournament(entries=1, kind=Tournament.Kind.PAIR, decks=False)
    assert [m.seat for m in team.members.order_by("seat")] == ["A", "B"]
    with pytest.raises(ValidationFailed) as exc:
        services.entry_register_player(tournament=t, player_name="Solo")
    assert exc.value.code == "wrong_entry_kind"
    with pytest.raises(Conflict):
        a = team.members.get(seat="A").player
        services.entry_register_pair(tournament=t, name="Dup", player_a=a, player_b="New")
    with pytest.raises(InvalidState) as exc:
        services.entry_register_late(tournament=t, player_a="x", player_b="y")
    assert exc.value.code == "tournament_status"
    assert t.entries.count() == 1


@pytest.mark.usefixtures("hkk_catalogue")
def test_deck_versions_are_kept_with_their_results():
    t, (e,) = make_tournament(entries=1, decks=False)
    player = e.members.get().player
    bad = services.deck_submit(tournament=t, entry=e, player=player, text=ILLEGAL_DECK)
    assert not bad.legal and bad.version == 1
    assert any(err["code"] == "deck_too_small" for err in bad.result["errors"])
    good = services.deck_submit(tournament=t, entry=e, player=player, text=hkk_deck())
    assert good.legal and good.version == 2 and good.rule_card == "Ősi rúna"
    assert good.data["main"] and good.data["rule_card"][0]["name"] == "Ősi rúna"
    bad.refresh_from_db()
    assert not bad.is_current and bad.result["errors"]
    assert DeckSubmission.objects.filter(member__entry=e).count() == 2


@pytest.mark.usefixtures("hkk_catalogue")
def test_pair_rule_card_mismatch_flags_both_until_fixed():
    t, (team,) = make_tournament(
        entries=1, kind=Tournament.Kind.PAIR, decks=False, format_slug="hkk-paros"
    )
    a, b = submit_decks(t, team, rule_cards=["Ősi rúna", "Ősi bölcsesség"], format_slug="hkk-paros")
    a.refresh_from_db()
    assert a.validator_legal and b.validator_legal
    assert not a.legal and not b.legal
    for sub in (a, b):
        codes = [err["code"] for err in sub.result["errors"]]
        assert codes == ["pair_rule_card_mismatch"]
    assert not services.entry_has_legal_lists(team)
    # B replaces the list with the partner's rule card: both become legal.
    fixed = services.deck_submit(
        tournament=t,
        entry=team,
        player=team.members.get(seat="B").player,
        text=hkk_deck(rule_card="Ősi rúna", seed=99, format_slug="hkk-paros"),
    )
    a.refresh_from_db()
    assert fixed.legal and a.legal and a.result["errors"] == []
    assert services.entry_has_legal_lists(team)


@pytest.mark.usefixtures("hkk_catalogue")
def test_pair_both_without_rule_card_is_legal():
    t, (team,) = make_tournament(
        entries=1, kind=Tournament.Kind.PAIR, decks=False, format_slug="hkk-paros"
    )
    a, b = submit_decks(t, team, rule_cards=[None, None], format_slug="hkk-paros")
    a.refresh_from_db()
    assert a.legal and b.legal and a.rule_card == b.rule_card == ""


@pytest.mark.usefixtures("hkk_catalogue")
def test_lists_lock_at_start():
    t, entries = make_tournament(entries=2)
    t = services.tournament_start(tournament=t)
    assert t.status == Tournament.Status.RUNNING and t.lists_locked_at
    assert t.planned_rounds == 1  # suggested for 2 entries
    subs = DeckSubmission.objects.filter(member__entry__in=entries, is_current=True)
    assert subs.count() == 2 and all(s.locked for s in subs)
    player = entries[0].members.get().player
    with pytest.raises(InvalidState) as exc:
        services.deck_submit(
            tournament=t, entry=entries[0], player=player, text=hkk_deck(rule_card="Ősi bölcsesség")
        )
    assert exc.value.code == "lists_locked"
    assert DeckSubmission.objects.filter(member__entry=entries[0]).count() == 1


@pytest.mark.usefixtures("hkk_catalogue")
def test_illegal_list_blocks_start_unless_overridden():
    t, entries = make_tournament(entries=3)
    bad = services.entry_register_player(tournament=t, player_name="Late list")
    services.deck_submit(
        tournament=t, entry=bad, player=bad.members.get().player, text=ILLEGAL_DECK
    )
    with pytest.raises(ValidationFailed) as exc:
        services.tournament_start(tournament=t)
    assert exc.value.code == "entries_without_legal_list"
    assert exc.value.params["entries"] == [bad.pk]
    assert not DeckSubmission.objects.filter(locked=True).exists()
    with pytest.raises(ValidationFailed):
        services.entry_override_deck(entry=bad, reason="  ")
    organiser = UserFactory()
    services.entry_override_deck(entry=bad, reason="judge checked the paper list", by=organiser)
    t = services.tournament_start(tournament=t)
    rnd = services.round_pair_next(tournament=t)
    assert RoundSeat.objects.filter(round=rnd, entry=bad).exists()
    bad.refresh_from_db()
    assert bad.pairing_override_by == organiser


# --- a whole event ------------------------------------------------------------------------


@pytest.mark.usefixtures("hkk_catalogue")
def test_full_event_of_eight_entries_over_three_rounds():
    t, entries = make_tournament(entries=8, planned_rounds=3)
    t = services.tournament_start(tournament=t)
    met: set[frozenset[int]] = set()
    for number in (1, 2, 3):
        rnd = services.round_pair_next(tournament=t)
        assert rnd.number == number and rnd.status == Round.Status.DRAFT
        assert rnd.engine_version and 0 <= rnd.seed < 2**32
        rnd = services.round_publish(round=rnd)
        pairs = [frozenset((m.entry_a_id, m.entry_b_id)) for m in rnd.matches.all()]
        assert len(pairs) == 4
        assert Counter(e for p in pairs for e in p) == Counter({e.pk: 1 for e in entries})
        assert not met & set(pairs), "no rematch in 3 rounds of 8"
        met |= set(pairs)
        for i, m in enumerate(rnd.matches.order_by("table")):
            play(m, ["a", "b", "a"] if i % 2 else ["b", "b", None])
        services.round_finish(round=rnd)
    with pytest.raises(InvalidState) as exc:
        services.round_pair_next(tournament=t)
    assert exc.value.code == "planned_rounds_reached"
    t = services.tournament_finish(tournament=t)
    rows = services.standings_compute(tournament=t)
    assert len(rows) == 8
    # 12 decided matches: 3 points each, and every game gives 2 points (a win or two draws).
    assert sum(r.match_points for r in rows) == 12 * 3
    assert sum(r.game_points for r in rows) == 12 * 3 * 2
    keys = [(r.match_points, r.tiebreakers["buchholz"], r.tiebreakers["game_points"]) for r in rows]
    assert keys == sorted(keys, reverse=True)
    # Buchholz = the sum of the opponents' match points (RULES.md §1.7).
    mp = {r.entry: r.match_points for r in rows}
    opponents: dict[int, list[int]] = {e.pk: [] for e in entries}
    for m in Match.objects.filter(round__tournament=t):
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
            match=bye, number=1, winner_entry=bye.entry_a_id, first_entry=bye.entry_a_id
        )
    assert exc.value.code == "bye_match"
    nxt = services.match_next_right(match=bye)
    assert nxt.decision is None


def test_pairing_twice_while_round_open_is_a_conflict():
    t, _ = make_tournament(entries=4, decks=False)
    t, rnd = start_and_pair(t)
    with pytest.raises(Conflict) as exc:
        services.round_pair_next(tournament=t)
    assert exc.value.code == "round_in_progress"
    assert t.rounds.count() == 1


def test_round_finish_requires_every_result():
    t, _ = make_tournament(entries=4, decks=False)
    t, rnd = start_and_pair(t)
    first = rnd.matches.order_by("table").first()
    play(first, ["a", "a", "a"])
    with pytest.raises(InvalidState) as exc:
        services.round_finish(round=rnd)
    assert exc.value.code == "matches_incomplete" and exc.value.params["tables"] == [2]


def test_swap_in_a_draft_round_is_recorded():
    t, _ = make_tournament(entries=4, decks=False)
    t = services.tournament_start(tournament=t)
    rnd = services.round_pair_next(tournament=t)
    m1, m2 = rnd.matches.order_by("table")
    b1, b2 = m1.entry_b_id, m2.entry_b_id
    organiser = UserFactory()
    services.round_swap_pairings(
        round=rnd, table_x=1, table_y=2, swap="b", by=organiser, reason="team-mates"
    )
    m1.refresh_from_db()
    m2.refresh_from_db()
    assert (m1.entry_b_id, m2.entry_b_id) == (b2, b1)
    assert RoundSeat.objects.get(round=rnd, entry_id=b2).match == m1
    change = PairingChange.objects.get(round=rnd)
    assert change.changed_by == organiser and change.reason == "team-mates"
    assert change.before[0]["b"] == b1 and change.after[0]["b"] == b2
    with pytest.raises(NotFound) as exc:
        services.round_swap_pairings(round=rnd, table_x=1, table_y=9, swap="a")
    assert exc.value.code == "table_not_in_round"
    services.round_publish(round=rnd)
    with pytest.raises(InvalidState) as exc:
        services.round_swap_pairings(round=rnd, table_x=1, table_y=2, swap="a")
    assert exc.value.code == "round_not_draft"
    assert PairingChange.objects.count() == 1


# --- first-player rights and results ------------------------------------------------------


def test_hkk_first_player_rights_are_enforced():
    t, _ = make_tournament(entries=2, decks=False)
    t, rnd = start_and_pair(t)
    m = rnd.matches.get()
    a, b = m.entry_a_id, m.entry_b_id
    nxt = services.match_next_right(match=m)
    assert nxt.decision.needs_roll and nxt.holder is None
    with pytest.raises(ValidationFailed) as exc:
        services.game_record(match=m, number=1, winner_entry=a, first_entry=a)
    assert exc.value.code == "roll_not_recorded"
    services.match_set_die_roll(match=m, winner_entry=b)
    with translation.override("en"):
        assert services.match_next_right(match=m).text == "game 1: player 1 (B) won the die roll"
    # B holds the right; A going first is only possible if B waived.
    with pytest.raises(ValidationFailed) as exc:
        services.game_record(match=m, number=1, winner_entry=a, first_entry=a)
    assert exc.value.code == "first_player_mismatch"
    services.game_record(match=m, number=1, winner_entry=a, first_entry=a, waived=True)
    nxt = services.match_next_right(match=m)
    assert nxt.holder == a and nxt.seat == "A"
    with translation.override("en"):  # the explanation is rendered in the active language
        assert services.match_next_right(match=m).text == "game 2: player 2 (A) per rule"
    with pytest.raises(ValidationFailed) as exc:
        services.game_record(match=m, number=2, winner_entry=a, first_entry=b)
    assert exc.value.code == "first_player_mismatch"
    services.game_record(match=m, number=2, winner_entry=b, first_entry=a)
    assert services.match_next_right(match=m).holder == b  # game 3: back to player 1
    g1 = Game.objects.get(match=m, number=1)
    assert (g1.right_holder_id, g1.waived, g1.first_id) == (b, True, a)


def test_hkk_game_three_reroll_when_agreed():
    t, _ = make_tournament(entries=2, decks=False)
    t, rnd = start_and_pair(t)
    m = rnd.matches.get()
    a, b = m.entry_a_id, m.entry_b_id
    services.match_set_die_roll(match=m, winner_entry=a, reroll_game3_agreed=True)
    services.game_record(match=m, number=1, winner_entry=a, first_entry=a)
    services.game_record(match=m, number=2, winner_entry=b, first_entry=b)
    assert services.match_next_right(match=m).decision.needs_roll
    # The judge records game 3 with the re-roll winner as right holder.
    services.game_record(match=m, number=3, winner_entry=b, first_entry=b, right_holder_entry=b)
    m.refresh_from_db()
    assert m.game3_roll_winner_id == b
    assert services.match_next_right(match=m).decision is None


def test_loser_chooses_policy():
    t, _ = make_tournament(entries=2, decks=False, first_player_policy="loser_chooses")
    t, rnd = start_and_pair(t)
    m = rnd.matches.get()
    a, b = m.entry_a_id, m.entry_b_id
    services.match_set_die_roll(match=m, winner_entry=a)
    services.game_record(match=m, number=1, winner_entry=a, first_entry=a)
    assert services.match_next_right(match=m).holder == b
    services.game_record(match=m, number=2, winner_entry=None, first_entry=b)
    nxt = services.match_next_right(match=m)
    assert nxt.holder == b and nxt.decision.reason == "same_after_draw"


def test_stop_at_two_wins_ends_the_match():
    t, _ = make_tournament(entries=2, decks=False, stop_at_two_wins=True)
    t, rnd = start_and_pair(t)
    m = rnd.matches.get()
    play(m, ["a", "a"])
    assert selectors.match_score(m).complete
    with pytest.raises(InvalidState) as exc:
        services.game_record(match=m, number=3, winner_entry=m.entry_a_id, first_entry=m.entry_a_id)
    assert exc.value.code == "match_complete"
    services.round_finish(round=rnd)
    rows = {r.entry: r for r in services.standings_compute(tournament=t)}
    assert rows[m.entry_a_id].game_points == 4 and rows[m.entry_a_id].match_points == 3


def test_result_rejections_and_correction_history():
    t, _ = make_tournament(entries=4, decks=False)
    t = services.tournament_start(tournament=t)
    rnd = services.round_pair_next(tournament=t)
    m = rnd.matches.order_by("table").first()
    a, b = m.entry_a_id, m.entry_b_id
    with pytest.raises(InvalidState) as exc:  # draft round
        services.game_record(match=m, number=1, winner_entry=a, first_entry=a, right_holder_entry=a)
    assert exc.value.code == "round_not_published"
    services.round_publish(round=rnd)
    with pytest.raises(NotFound) as exc:
        services.game_record(round=rnd, table=7, number=1, winner_entry=a, first_entry=a)
    assert exc.value.code == "table_not_in_round"
    judge = UserFactory()
    services.game_record(
        round=rnd,
        table=m.table,
        number=1,
        winner_entry=a,
        first_entry=a,
        right_holder_entry=a,
        recorded_by=judge,
    )
    with pytest.raises(Conflict) as exc:
        services.game_record(match=m, number=1, winner_entry=b, first_entry=a)
    assert exc.value.code == "game_already_recorded"
    with pytest.raises(ValidationFailed) as exc:
        services.game_record(match=m, number=3, winner_entry=b, first_entry=a)
    assert exc.value.code == "wrong_game_number"
    finish_round_rest(rnd, m)
    services.game_record(match=m, number=2, winner_entry=b, first_entry=b)
    services.game_record(match=m, number=3, winner_entry=a, first_entry=a)
    services.round_finish(round=rnd)
    with pytest.raises(InvalidState) as exc:
        services.game_record(match=m, number=3, winner_entry=b, first_entry=a)
    assert exc.value.code == "round_finished"
    # An explicit correction in the finished round keeps the earlier value.
    game = services.game_record(
        match=m,
        number=3,
        winner_entry=b,
        first_entry=a,
        correction=True,
        reason="score sheet misread",
        recorded_by=judge,
        expected_version=1,
    )
    assert game.version == 2 and game.winner_id == b
    history = GameCorrection.objects.get(game=game)
    assert history.old["winner"] == a and history.new["winner"] == b
    assert history.reason == "score sheet misread" and history.changed_by == judge
    with pytest.raises(Conflict) as exc:
        services.game_record(
            match=m, number=3, winner_entry=a, first_entry=a, correction=True, expected_version=1
        )
    assert exc.value.code == "stale_version"
    with pytest.raises(NotFound):
        services.game_record(match=m, number=4, winner_entry=a, first_entry=a, correction=True)
    assert Game.objects.filter(match=m).count() == 3
    rows = {r.entry: r for r in services.standings_compute(tournament=t)}
    assert rows[b].match_points == 3 and rows[a].match_points == 0


def finish_round_rest(rnd, skip):
    for m in rnd.matches.exclude(pk=skip.pk):
        play(m, ["a", "a", "a"])


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
    rnd2 = services.round_pair_next(tournament=t)
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
    rnd2 = services.round_pair_next(tournament=t)
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
    rnd2 = services.round_pair_next(tournament=t)
    assert RoundSeat.objects.filter(round=rnd2, entry=late).exists()
    assert DeckSubmission.objects.get(member__entry=late, is_current=True).locked
    services.round_publish(round=rnd2)
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
        services.round_pair_next(tournament=t)
    assert exc.value.code == "entries_without_legal_list"
    assert t.rounds.count() == 1
    services.entry_override_deck(entry=late, reason="list on paper")
    assert services.round_pair_next(tournament=t).number == 2


# --- standings, tasks, exports --------------------------------------------------------------


@pytest.mark.usefixtures("eager_celery")
def test_results_refresh_the_standings_snapshot_on_commit(django_capture_on_commit_callbacks):
    t, _ = make_tournament(entries=2, decks=False)
    t, rnd = start_and_pair(t)
    m = rnd.matches.get()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        play(m, ["a", "a", "b"])
    assert len(callbacks) >= 1
    snap = StandingsSnapshot.objects.get(tournament=t)
    assert snap.rows[0]["entry"] == m.entry_a_id and snap.rows[0]["match_points"] == 3
    assert snap.rows[0]["tiebreakers"] == {"buchholz": "0", "game_points": "4"}


def test_tasks_delegate_to_the_services():
    t, _ = make_tournament(entries=4, decks=False)
    services.tournament_start(tournament=t)
    out = round_pair_next_task.apply(args=(t.pk,)).get()
    assert out["ok"] and out["number"] == 1
    assert Round.objects.filter(tournament=t).count() == 1
    again = round_pair_next_task.apply(args=(t.pk,)).get()
    assert again == {**again, "ok": False, "code": "round_in_progress"}
    res = standings_recompute_task.apply(args=(t.pk,)).get()
    assert res["rows"] == 4


def test_csv_exports():
    t, _ = make_tournament(entries=3, decks=False)
    t, rnd = start_and_pair(t)
    finish_round(rnd)
    with translation.override("en"):
        pairings = services.pairings_csv(rnd).splitlines()
        standings = services.standings_csv(t).splitlines()
    assert pairings[0].startswith("Table,Entry A,Entry B")
    assert len(pairings) == 3 and "bye" in pairings[-1]
    assert standings[0] == "Rank,Entry,Match points,Game points,buchholz,game_points,Dropped"
    assert len(standings) == 4


def test_relaxations_are_explained():
    t, _ = make_tournament(entries=2, decks=False, planned_rounds=2)
    t, rnd = start_and_pair(t)
    finish_round(rnd)
    rnd2 = services.round_pair_next(tournament=t)
    assert [r["code"] for r in rnd2.relaxations] == ["rematch"]
    with translation.override("en"):
        explained = services.round_relaxations(rnd2)
    assert "again" in explained[0]["message"] and "P1" in explained[0]["message"]


def test_a_draft_round_counts_nothing_in_the_standings_not_even_its_bye():
    t, _entries = make_tournament(entries=3, decks=False)
    t = services.tournament_start(tournament=t)
    rnd = services.round_pair_next(tournament=t, seed=1)
    assert rnd.matches.filter(entry_b__isnull=True).count() == 1
    assert all(row.match_points == 0 for row in services.standings_compute(tournament=t))
    services.round_publish(round=rnd)
    assert sorted(r.match_points for r in services.standings_compute(tournament=t)) == [0, 0, 3]


def test_no_deck_override_once_the_event_is_finished():
    t, entries = make_tournament(entries=2, decks=False)
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED)
    with pytest.raises(InvalidState) as exc:
        services.entry_override_deck(entry=entries[0], reason="late")
    assert exc.value.code == "tournament_status"
