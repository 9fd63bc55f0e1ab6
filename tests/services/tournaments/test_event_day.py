"""Event-day services for the organiser: fixing a round after pairing, drops with a re-pair or
a bye, re-adding a dropped entry, check-in, the finished-event lock and reopening, the format
deciding the kind, event details and the player cap, templates, list import and claim codes."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail

from hkk_tournament.errors import Conflict, InvalidState, ValidationFailed
from tests.factories import (
    UserFactory,
    ensure_format,
    hkk_catalogue,  # noqa: F401 (fixture)
    hkk_deck,
    make_tournament,
    staff_user,
)
from tests.services.tournaments.helpers import finish_round, play
from tournaments import selectors, services
from tournaments.domain.names import duplicates, normalise_name
from tournaments.models import (
    DeckSubmission,
    Entry,
    Player,
    Round,
    RoundSeat,
    Tournament,
    TournamentAction,
)
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db
A = TournamentAction.Kind


def _running(n: int = 8, **kw):
    t, entries = make_tournament(entries=n, decks=False, planned_rounds=3, **kw)
    return services.tournament_start(actor=SYSTEM, tournament=t), entries


# --- round management ----------------------------------------------------------------------


def test_discard_a_draft_round_and_pair_again_is_recorded() -> None:
    t, _ = _running()
    user: Any = staff_user(t)
    rnd = services.round_pair_next(actor=SYSTEM, tournament=t)
    new = services.round_discard(round=rnd, actor=user, reason="wrong seating", pair_again=True)
    assert new is not None and new.number == 1 and new.status == Round.Status.DRAFT
    assert Round.objects.filter(tournament=t).count() == 1
    action = TournamentAction.objects.get(tournament=t)
    assert (action.kind, action.round_number, action.by, action.reason) == (
        A.ROUND_DISCARDED,
        1,
        user,
        "wrong seating",
    )
    assert len(action.params["tables"]) == 4


def test_discard_needs_a_reason_and_a_draft() -> None:
    t, _ = _running()
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t)
    )
    with pytest.raises(ValidationFailed) as exc:
        services.round_discard(actor=SYSTEM, round=rnd, reason=" ")
    assert exc.value.code == "reason_required"
    with pytest.raises(InvalidState) as state:
        services.round_discard(actor=SYSTEM, round=rnd, reason="x")
    assert state.value.code == "round_not_draft"


def test_unpublish_only_without_results() -> None:
    t, _ = _running()
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t)
    )
    rnd = services.round_unpublish(actor=SYSTEM, round=rnd, reason="table numbers wrong")
    assert rnd.status == Round.Status.DRAFT
    rnd = services.round_publish(actor=SYSTEM, round=rnd)
    play(rnd.matches.order_by("table")[0], ["a"])
    with pytest.raises(Conflict) as exc:
        services.round_unpublish(actor=SYSTEM, round=rnd, reason="late")
    assert exc.value.code == "round_has_results"
    assert TournamentAction.objects.filter(kind=A.ROUND_UNPUBLISHED).count() == 1


def test_no_show_after_publishing_gives_the_opponent_a_bye() -> None:
    t, _ = _running()
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t)
    )
    match = rnd.matches.order_by("table")[0]
    absent: Any = match.entry_a
    opponent: Any = match.entry_b
    services.entry_drop_with_bye(actor=SYSTEM, entry=absent, reason="no-show")
    match.refresh_from_db()
    assert (match.entry_a_id, match.entry_b_id) == (opponent.pk, None)
    assert not RoundSeat.objects.filter(round=rnd, entry=absent).exists()
    absent.refresh_from_db()
    assert absent.dropped_after_round == 0
    action = TournamentAction.objects.get(kind=A.DROP_BYE)
    assert action.entry == absent and action.params["opponent"] == opponent.pk
    finish_round(rnd)  # the bye needs no games


def test_no_show_in_a_draft_round_pairs_again_without_the_entry() -> None:
    t, entries = _running()
    rnd = services.round_pair_next(actor=SYSTEM, tournament=t)
    new = services.entry_drop_and_repair(actor=SYSTEM, entry=entries[0], reason="no-show")
    assert new is not None and new.number == 1
    seated = set(RoundSeat.objects.filter(round=new).values_list("entry_id", flat=True))
    assert entries[0].pk not in seated and len(seated) == 7
    assert not Round.objects.filter(pk=rnd.pk).exists()
    assert TournamentAction.objects.get(kind=A.DROP_REPAIRED).entry == entries[0]


def test_readd_after_a_pairing_needs_the_choice_for_the_missed_round() -> None:
    t, entries = _running()
    services.entry_drop(entry=entries[0])
    services.entry_readd(actor=SYSTEM, entry=entries[0], reason="dropped by mistake")
    entries[0].refresh_from_db()
    assert entries[0].dropped_after_round is None
    services.entry_drop(entry=entries[1])
    services.round_pair_next(actor=SYSTEM, tournament=t)
    with pytest.raises(ValidationFailed) as exc:
        services.entry_readd(actor=SYSTEM, entry=entries[1])
    assert exc.value.code == "missed_choice_required"


# --- the finished event is locked ------------------------------------------------------------


def test_finished_event_is_locked_until_reopened_with_a_reason() -> None:
    t, _ = _running(
        4,
    )
    user: Any = staff_user(t)
    t.planned_rounds = 1
    t.save()
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t)
    )
    finish_round(rnd)
    t = services.tournament_finish(actor=SYSTEM, tournament=t)
    match: Any = rnd.matches.first()
    game = match.games.get(number=1)
    with pytest.raises(InvalidState) as exc:
        services.game_correct(
            actor=SYSTEM,
            game=selectors.game_at(match=match, number=1),
            winner_entry=match.entry_b_id,
            first_entry=game.first_id,
            reason="slip misread",
        )
    assert exc.value.code == "tournament_finished"
    with pytest.raises(ValidationFailed):
        services.tournament_reopen(actor=SYSTEM, tournament=t, reason="")
    t = services.tournament_reopen(tournament=t, actor=user, reason="slip misread at table 1")
    assert t.status == Tournament.Status.RUNNING
    assert TournamentAction.objects.get(kind=A.REOPENED).by == user
    services.game_correct(
        game=selectors.game_at(match=match, number=1),
        winner_entry=match.entry_b_id,
        first_entry=game.first_id,
        reason="slip misread",
        actor=user,
    )
    assert game.corrections.get().reason == "slip misread"


# --- the format decides the kind -------------------------------------------------------------


def test_the_pair_format_makes_a_pair_event() -> None:
    ensure_format("hkk-paros")
    t = services.tournament_create(owner=None, name="HKK Páros", format_slug="hkk-paros")
    assert t.kind == Tournament.Kind.PAIR
    with pytest.raises(ValidationFailed) as exc:
        services.tournament_create(
            owner=None, name="x", format_slug="hkk-paros", kind=Tournament.Kind.INDIVIDUAL
        )
    assert exc.value.code == "kind_mismatch" and "kind" in exc.value.fields
    ensure_format("hkk")
    assert services.tournament_create(owner=None, name="y", format_slug="hkk").kind == "individual"


# --- details, cap, template ----------------------------------------------------------------------


def test_player_cap_refuses_registration_past_it() -> None:
    t, _ = make_tournament(entries=2, decks=False)
    t = services.tournament_set_details(actor=SYSTEM, tournament=t, max_entries=2, venue="Budapest")
    with pytest.raises(InvalidState) as exc:
        services.entry_register_player(tournament=t, player_name="P3")
    assert exc.value.code == "event_full"
    with pytest.raises(ValidationFailed):
        services.tournament_set_details(actor=SYSTEM, tournament=t, max_entries=1)


def test_duplicate_copies_settings_not_entries() -> None:
    owner: Any = UserFactory()
    t, _ = make_tournament(entries=2, decks=False, planned_rounds=4)
    t = services.tournament_set_details(actor=SYSTEM, tournament=t, venue="Szeged", max_entries=16)
    copy = services.tournament_duplicate(tournament=t, owner=owner, name="Next month")
    assert (copy.name, copy.owner, copy.status) == ("Next month", owner, Tournament.Status.DRAFT)
    assert (copy.venue, copy.max_entries, copy.planned_rounds) == ("Szeged", 16, 4)
    assert copy.format_id == t.format_id and not copy.entries.exists()


# --- the desk -----------------------------------------------------------------------------------


def test_check_in_then_drop_the_absent() -> None:
    t, entries = make_tournament(entries=4, decks=False)
    user: Any = staff_user(t)
    for e in entries[:3]:
        services.entry_check_in(actor=SYSTEM, entry=e)
    dropped = services.entries_drop_not_checked_in(tournament=t, actor=user)
    assert [e.pk for e in dropped] == [entries[3].pk]
    assert Entry.objects.get(pk=entries[3].pk).dropped_after_round == 0
    assert TournamentAction.objects.get(kind=A.NOT_CHECKED_IN_DROPPED).by == user


def test_names_are_normalised_for_the_duplicate_warning() -> None:
    assert normalise_name("  Kovács   PÉTER ") == "kovacs peter"
    assert duplicates(["Kovács Péter", "x", "kovacs peter"]) == {"kovacs peter": [0, 2]}


@pytest.mark.usefixtures("hkk_catalogue")
def test_import_previews_then_saves_all_or_nothing() -> None:
    t, _ = make_tournament(entries=0)
    deck = hkk_deck(seed=3).replace('"', "'")
    text = f'név,e-mail,pakli\nKovács Péter,kp@example.com,"{deck}"\nNagy Anna,,\nkovacs peter,,\n'
    preview = services.entries_import(actor=SYSTEM, tournament=t, text=text)
    assert preview.ok and not preview.saved and not t.entries.exists()
    assert preview.rows[0].deck_legal is True
    assert preview.rows[2].warnings  # same normalised name as line 2
    bad = services.entries_import(
        actor=SYSTEM, tournament=t, text=text + ",no-name@example.com\n", dry_run=False
    )
    assert not bad.ok and not bad.saved and not t.entries.exists()
    assert bad.rows[-1].errors
    done = services.entries_import(actor=SYSTEM, tournament=t, text=text, dry_run=False)
    assert done.saved and t.entries.count() == 3
    assert done.rows[0].entry is not None
    kovacs = Entry.objects.get(pk=done.rows[0].entry)
    (stored,) = DeckSubmission.objects.filter(member__entry=kovacs)
    assert (stored.version, stored.is_current, stored.legal) == (1, True, True)
    assert stored.status == "legal" and stored.data
    assert stored.member.player.email == "kp@example.com"


def test_claim_code_links_the_player_to_an_account() -> None:
    t, (entry,) = make_tournament(entries=1, decks=False)
    player = services.player_claim_code(actor=SYSTEM, entry=entry)
    assert len(player.claim_code) == 8
    user: Any = UserFactory()
    claimed = services.player_claim(user=user, code=player.claim_code.lower())
    assert claimed.user == user and claimed.claim_code == ""
    with pytest.raises(Exception) as exc:
        services.player_claim(user=UserFactory(), code=player.claim_code)
    assert getattr(exc.value, "code", "") == "claim_code_unknown"


def test_invitation_mails_the_claim_link() -> None:
    t, (entry,) = make_tournament(entries=1, decks=False)
    Player.objects.filter(memberships__entry=entry).update(email="p1@example.com")
    player = services.player_invite(
        actor=SYSTEM, entry=entry, claim_url="https://x/claim/?code=ABC"
    )
    assert len(mail.outbox) == 1 and player.claim_code in mail.outbox[0].body
