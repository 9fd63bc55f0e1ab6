"""Tournament services on a real database: creation, status flow, registration, pair teams,
deck list versions, the pair rule-card check, locking and overrides."""

from __future__ import annotations

import pytest

from hkk_tournament.errors import Conflict, InvalidState, NotFound, ValidationFailed
from tests.factories import (
    ILLEGAL_DECK,
    hkk_catalogue,  # noqa: F401 (fixture)
    hkk_deck,
    make_tournament,
    staff_user,
    submit_decks,
)
from tournaments import services
from tournaments.models import DeckSubmission, RoundSeat, Tournament
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db


# --- creation -----------------------------------------------------------------------------


def test_create_takes_hkk_defaults_from_the_format():
    t, _ = make_tournament(decks=False)
    s = t.structure
    assert t.tiebreakers == ["buchholz", "game_points"]
    assert (s.policy, s.games_per_match, s.ends_when_decided) == ("hkk", 3, False)
    assert (t.match_win_points, t.match_draw_points, t.game_win_points) == (3, 1, 2)
    assert t.status == Tournament.Status.REGISTRATION


def test_create_wow_copies_the_format_structure_and_mtr_tiebreakers():
    t = services.tournament_create(owner=None, name="WoW", format_slug="wow-constructed")
    assert t.match_structure["policy"] == "wow"
    assert t.match_structure["later_games"] == "loser_chooses"
    assert (t.structure.games_per_match, t.structure.ends_when_decided) == (3, True)
    assert t.tiebreakers == ["omw", "gw", "ogw"]


def test_create_bluemoon_is_one_game_in_crystals():
    t = services.tournament_create(owner=None, name="BM", format_slug="bluemoon-advanced")
    s = t.structure
    assert (s.policy, s.games_per_match, s.game_draws) == ("blue_moon", 1, False)
    # Inquisitors are used: up to 7 crystals a game (Blue Moon FAQ, "End of Game").
    assert (s.game_score_unit, s.game_score_max) == ("crystals", 7)
    basic = services.tournament_create(owner=None, name="BM", format_slug="bluemoon-people-basic")
    assert basic.structure.game_score_max == 4


def test_create_rejects_unknown_format_tiebreaker_and_policy():
    with pytest.raises(NotFound) as exc:
        services.tournament_create(owner=None, name="x", format_slug="nope")
    assert exc.value.code == "unknown_format"
    with pytest.raises(ValidationFailed) as exc:
        services.tournament_create(
            owner=None,
            name="x",
            format_slug="hkk",
            settings=services.TournamentSettings(tiebreakers=["elo"]),
        )
    assert exc.value.code == "unknown_tiebreaker"
    with pytest.raises(ValidationFailed) as exc:
        services.tournament_create(
            owner=None,
            name="x",
            format_slug="hkk",
            settings=services.TournamentSettings(first_player_policy="coin"),
        )
    assert exc.value.code == "unknown_first_player_policy"
    with pytest.raises(ValidationFailed):
        services.tournament_create(
            owner=None,
            name="x",
            format_slug="hkk",
            settings=services.TournamentSettings(games_per_match=5),
        )
    assert not Tournament.objects.exists()


def test_status_flow_is_enforced():
    t = services.tournament_create(owner=None, name="x", format_slug="hkk")
    with pytest.raises(InvalidState) as exc:
        services.tournament_start(actor=SYSTEM, tournament=t)
    assert exc.value.code == "tournament_status"
    services.tournament_open_registration(actor=SYSTEM, tournament=t)
    with pytest.raises(InvalidState) as exc:
        services.tournament_start(actor=SYSTEM, tournament=t)
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
    bad = services.deck_submit(
        actor=SYSTEM, tournament=t, entry=e, player=player, text=ILLEGAL_DECK
    )
    assert not bad.legal and bad.version == 1
    assert any(err["code"] == "deck_too_small" for err in bad.result["errors"])
    good = services.deck_submit(actor=SYSTEM, tournament=t, entry=e, player=player, text=hkk_deck())
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
        actor=SYSTEM,
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
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    assert t.status == Tournament.Status.RUNNING and t.lists_locked_at
    assert t.planned_rounds == 1  # suggested for 2 entries
    subs = DeckSubmission.objects.filter(member__entry__in=entries, is_current=True)
    assert subs.count() == 2 and all(s.locked for s in subs)
    player = entries[0].members.get().player
    with pytest.raises(InvalidState) as exc:
        services.deck_submit(
            actor=SYSTEM,
            tournament=t,
            entry=entries[0],
            player=player,
            text=hkk_deck(rule_card="Ősi bölcsesség"),
        )
    assert exc.value.code == "lists_locked"
    assert DeckSubmission.objects.filter(member__entry=entries[0]).count() == 1


@pytest.mark.usefixtures("hkk_catalogue")
def test_illegal_list_blocks_start_unless_overridden():
    t, entries = make_tournament(entries=3)
    bad = services.entry_register_player(tournament=t, player_name="Late list")
    services.deck_submit(
        actor=SYSTEM, tournament=t, entry=bad, player=bad.members.get().player, text=ILLEGAL_DECK
    )
    with pytest.raises(ValidationFailed) as exc:
        services.tournament_start(actor=SYSTEM, tournament=t)
    assert exc.value.code == "entries_without_legal_list"
    assert exc.value.params["entries"] == [bad.pk]
    assert not DeckSubmission.objects.filter(locked=True).exists()
    with pytest.raises(ValidationFailed):
        services.entry_override_deck(actor=SYSTEM, entry=bad, reason="  ")
    organiser = staff_user(t)
    services.entry_override_deck(entry=bad, reason="judge checked the paper list", actor=organiser)
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_pair_next(actor=SYSTEM, tournament=t)
    assert RoundSeat.objects.filter(round=rnd, entry=bad).exists()
    bad.refresh_from_db()
    assert bad.pairing_override_by == organiser


def test_no_deck_override_once_the_event_is_finished():
    t, entries = make_tournament(entries=2, decks=False)
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED)
    with pytest.raises(InvalidState) as exc:
        services.entry_override_deck(actor=SYSTEM, entry=entries[0], reason="late")
    assert exc.value.code == "tournament_status"
