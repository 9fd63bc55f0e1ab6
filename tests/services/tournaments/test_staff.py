"""Staff appointments and players' self-registration."""

from __future__ import annotations

import pytest

from hkk_tournament.errors import Conflict, InvalidState, NotFound, ValidationFailed
from tests.factories import UserFactory, make_tournament
from tournaments import permissions, services
from tournaments.models import EntryMember, Player, StaffRole, Tournament
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner():
    return UserFactory(username="owner")


def fresh(user):
    """The user re-read (the permission predicates cache roles on the user object)."""
    return type(user).objects.get(pk=user.pk)


def test_appoint_judge_then_promote_to_co_organiser(owner):
    t, _ = make_tournament(owner=owner)
    kata = UserFactory(username="kata")
    staff = services.staff_appoint(tournament=t, user=kata, role="judge", actor=owner)
    assert (staff.role, staff.appointed_by) == ("judge", owner)
    assert permissions.can_judge(fresh(kata), t) and not permissions.can_manage(fresh(kata), t)
    again = services.staff_appoint(tournament=t, user=kata, role="organiser", actor=owner)
    assert again.pk == staff.pk and again.role == "organiser"
    assert StaffRole.objects.filter(tournament=t).count() == 1
    assert permissions.can_manage(fresh(kata), t)
    assert not permissions.can_appoint_staff(fresh(kata), t)


def test_appoint_refuses_the_owner_and_unknown_roles(owner):
    t, _ = make_tournament(owner=owner)
    with pytest.raises(ValidationFailed) as exc:
        services.staff_appoint(tournament=t, user=owner, role="judge", actor=owner)
    assert exc.value.code == "owner_is_organiser"
    with pytest.raises(ValidationFailed) as exc:
        services.staff_appoint(tournament=t, user=UserFactory(), role="player", actor=owner)
    assert exc.value.code == "invalid_role"
    assert not StaffRole.objects.exists()


def test_remove_staff(owner):
    t, _ = make_tournament(owner=owner)
    kata = UserFactory(username="kata")
    services.staff_appoint(tournament=t, user=kata, role="judge", actor=owner)
    services.staff_remove(tournament=t, user=kata, actor=owner)
    assert not StaffRole.objects.exists()
    assert not permissions.can_judge(fresh(kata), t)
    with pytest.raises(NotFound) as exc:
        services.staff_remove(tournament=t, user=kata, actor=owner)
    assert exc.value.code == "staff_not_found"


def test_roles_are_per_tournament(owner):
    t, _ = make_tournament(owner=owner)
    other, _ = make_tournament(owner=UserFactory(username="rival"))
    kata = UserFactory(username="kata")
    services.staff_appoint(tournament=t, user=kata, role="judge", actor=owner)
    assert permissions.can_judge(fresh(kata), t)
    assert not permissions.can_judge(fresh(kata), other)


def test_self_register_creates_a_linked_player(owner):
    t, _ = make_tournament(owner=owner)
    user = UserFactory(username="anna", first_name="Anna", last_name="Kiss")
    entry = services.entry_self_register(tournament=t, user=user)
    member = EntryMember.objects.select_related("player").get(entry=entry)
    assert member.player.user == user
    # stored family name first (the account's last name), shown in the language's order
    assert member.player.display_name == "Kiss Anna" == entry.name
    assert (entry.family_name, entry.given_name) == ("Kiss", "Anna")
    assert member.seat == "A" and entry.registered_round == 1
    assert permissions.player_entry_ids(user, t) == {entry.pk}


def test_self_register_uses_the_username_and_an_existing_player(owner):
    t, _ = make_tournament(owner=owner)
    user = UserFactory(username="bela")
    entry = services.entry_self_register(tournament=t, user=user)
    assert entry.name == "bela"
    other, _ = make_tournament(owner=owner)
    services.entry_self_register(tournament=other, user=user, name="Béla the Brave")
    assert Player.objects.filter(user=user).count() == 1


def test_self_register_twice_is_a_conflict(owner):
    t, _ = make_tournament(owner=owner)
    user = UserFactory(username="anna")
    services.entry_self_register(tournament=t, user=user)
    with pytest.raises(Conflict) as exc:
        services.entry_self_register(tournament=t, user=user)
    assert exc.value.code == "already_registered"
    assert t.entries.count() == 1


def test_self_register_only_while_registration_is_open(owner):
    draft = services.tournament_create(owner=owner, name="Draft", format_slug="hkk")
    user = UserFactory(username="anna")
    with pytest.raises(InvalidState) as exc:
        services.entry_self_register(tournament=draft, user=user)
    assert exc.value.code == "registration_closed"
    running, _ = make_tournament(owner=owner, entries=2, decks=False)
    services.tournament_start(actor=SYSTEM, tournament=running)
    with pytest.raises(InvalidState) as exc:
        services.entry_self_register(tournament=running, user=user)
    assert exc.value.code == "late_entry_closed"
    assert not Player.objects.filter(user=user).exists()


def test_self_register_late_follows_the_cut_off(owner):
    t, _ = make_tournament(owner=owner, entries=2, decks=False, late_entry_cutoff_round=2)
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    services.round_pair_next(actor=SYSTEM, tournament=t, seed=1)
    entry = services.entry_self_register(tournament=t, user=UserFactory(username="late"))
    assert entry.registered_round == 2


def test_self_register_pair_needs_a_partner(owner):
    t, _ = make_tournament(owner=owner, kind=Tournament.Kind.PAIR, format_slug="hkk-paros")
    anna, bela = UserFactory(username="anna"), UserFactory(username="bela")
    for partner in (None, anna):
        with pytest.raises(ValidationFailed) as exc:
            services.entry_self_register(tournament=t, user=anna, partner=partner)
        assert exc.value.code == "pair_needs_two_players"
    entry = services.entry_self_register(tournament=t, user=anna, partner=bela, name="Duó")
    seats = dict(entry.members.values_list("seat", "player__user__username"))
    assert seats == {"A": "anna", "B": "bela"} and entry.name == "Duó"
    with pytest.raises(Conflict) as exc:
        services.entry_self_register(tournament=t, user=UserFactory(username="cili"), partner=bela)
    assert exc.value.code == "already_registered"


def test_self_register_single_event_refuses_a_partner(owner):
    t, _ = make_tournament(owner=owner)
    with pytest.raises(ValidationFailed) as exc:
        services.entry_self_register(
            tournament=t, user=UserFactory(username="anna"), partner=UserFactory()
        )
    assert exc.value.code == "wrong_entry_kind"
    assert not t.entries.exists()
