"""Pair self-registration without the partner's username (issue 21, item 9): the partner is
named (and mailed an invitation with a claim link) or gets a claim code through the player who
registered; claiming the code puts the partner's account in seat B."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from hkk_tournament.errors import ValidationFailed
from tests.factories import UserFactory, make_tournament
from tournaments import services
from tournaments.models import EntryMember, Tournament

pytestmark = pytest.mark.django_db
LOCMEM = "django.core.mail.backends.locmem.EmailBackend"
DUMMY = "django.core.mail.backends.dummy.EmailBackend"


def _pair_event() -> Any:
    t, _ = make_tournament(entries=0, decks=False, kind=Tournament.Kind.PAIR)
    return t


def _client(user: Any) -> Client:
    client = Client()
    client.cookies["django_language"] = "hu"
    client.force_login(user)
    return client


def _register(client: Client, t: Any, **data: str) -> str:
    response = client.post(reverse("tournaments:register", args=[t.pk]), data, follow=True)
    assert response.status_code == 200
    return response.content.decode()


def test_a_named_partner_with_an_address_gets_an_invitation_and_claims_seat_b(settings) -> None:
    settings.EMAIL_BACKEND = LOCMEM
    t = _pair_event()
    anna: Any = UserFactory(first_name="Anna", last_name="Kovács")
    page = _register(_client(anna), t, partner_name="Szabó Béla", partner_email="bela@example.org")
    assert "A társad e-mailben kap meghívót." in page
    seat_b = EntryMember.objects.select_related("player", "entry").get(tournament=t, seat="B")
    assert (seat_b.player.family_name, seat_b.player.given_name) == ("Szabó", "Béla")
    assert seat_b.player.user_id is None and seat_b.entry.name == "Kovács Anna & Szabó Béla"
    (message,) = mail.outbox
    assert message.to == ["bela@example.org"] and seat_b.player.claim_code in message.body
    bela: Any = UserFactory()
    services.player_claim(user=bela, code=seat_b.player.claim_code)
    seat_b.player.refresh_from_db()
    assert seat_b.player.user_id == bela.pk


def test_without_an_address_the_player_sees_the_code_to_hand_over(settings) -> None:
    settings.EMAIL_BACKEND = DUMMY
    t = _pair_event()
    page = _register(_client(UserFactory()), t, partner_name="Szabó Béla")
    code = EntryMember.objects.get(tournament=t, seat="B").player.claim_code
    assert len(code) == 8 and f"Add át a társadnak ezt a kódot: {code}." in page


def test_a_bad_address_or_an_individual_event_is_refused() -> None:
    t = _pair_event()
    with pytest.raises(ValidationFailed) as bad:
        services.entry_self_register(
            tournament=t, user=UserFactory(), partner_name="Szabó Béla", partner_email="nem-cím"
        )
    assert bad.value.code == "invalid_value" and not EntryMember.objects.exists()
    single, _ = make_tournament(entries=0, decks=False)
    with pytest.raises(ValidationFailed) as wrong:
        services.entry_self_register(tournament=single, user=UserFactory(), partner_name="Béla")
    assert wrong.value.code == "wrong_entry_kind"
