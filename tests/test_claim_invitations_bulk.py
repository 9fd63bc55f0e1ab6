"""Claim codes and e-mail invitations for every player without an account in one action
(issue 21, item 2): one mail per player with an address, the count of sent and skipped shown;
expired codes shown as expired on the claim-codes page, with a new code one click away."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from hkk_tournament.errors import InvalidState, PermissionDenied
from tests.factories import UserFactory, make_tournament
from tournaments import services
from tournaments.models import Player
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db
LOCMEM = "django.core.mail.backends.locmem.EmailBackend"
DUMMY = "django.core.mail.backends.dummy.EmailBackend"


def _event(n: int = 4) -> tuple[Any, Any, list[Any]]:
    owner = UserFactory()
    t, entries = make_tournament(entries=n, decks=False, owner=owner)
    for i, entry in enumerate(entries):  # every other player has an e-mail address
        if i % 2 == 0:
            Player.objects.filter(memberships__entry=entry).update(email=f"p{i}@example.org")
    return t, owner, entries


def _client(user: Any) -> Client:
    client = Client()
    client.cookies["django_language"] = "hu"
    client.force_login(user)
    return client


def test_one_call_makes_every_code_and_mails_those_with_an_address(settings) -> None:
    settings.EMAIL_BACKEND = LOCMEM
    t, owner, entries = _event(5)
    count = services.player_invite_all(
        actor=owner, tournament=t, claim_url="https://desk.example/claim/"
    )
    assert (count.sent, count.skipped) == (3, 2)
    codes = dict(
        Player.objects.filter(memberships__tournament=t).values_list("email", "claim_code")
    )
    assert all(len(code) == 8 for code in codes.values())
    assert sorted(m.to[0] for m in mail.outbox) == [
        "p0@example.org",
        "p2@example.org",
        "p4@example.org",
    ]
    for message in mail.outbox:
        code = codes[message.to[0]]
        assert f"https://desk.example/claim/?code={code}" in message.body


def test_only_organisers_invite_and_a_server_without_mail_refuses(settings) -> None:
    settings.EMAIL_BACKEND = LOCMEM
    t, _owner, _entries = _event(2)
    with pytest.raises(PermissionDenied) as refused:
        services.player_invite_all(actor=UserFactory(), tournament=t, claim_url="https://x/")
    assert refused.value.code == "not_organiser" and not mail.outbox
    settings.EMAIL_BACKEND = DUMMY
    with pytest.raises(InvalidState) as no_mail:
        services.player_invite_all(actor=_owner, tournament=t, claim_url="https://x/")
    assert no_mail.value.code == "mail_unavailable"


def test_the_page_button_sends_and_counts_and_the_api_answers_the_counts(settings) -> None:
    settings.EMAIL_BACKEND = LOCMEM
    t, owner, _entries = _event(4)
    client = _client(owner)
    page = client.get(reverse("tournaments:claim-codes", args=[t.pk])).content.decode()
    assert 'data-testid="invite-all"' in page
    response = client.post(reverse("tournaments:invite-all", args=[t.pk]), follow=True)
    text = response.content.decode()
    assert "Elküldött meghívók: 2; e-mail-cím nélküli játékosok: 2." in text
    assert len(mail.outbox) == 2
    api = Client()
    api.force_login(owner)
    answer = api.post(f"/api/tournaments/{t.pk}/invitations/")
    assert answer.status_code == 200 and answer.json() == {"sent": 2, "skipped": 2}
    outsider = Client()
    stranger: Any = UserFactory()
    outsider.force_login(stranger)
    assert outsider.post(f"/api/tournaments/{t.pk}/invitations/").status_code in (403, 404)


def test_without_mail_the_page_offers_no_invitation_button(settings) -> None:
    settings.EMAIL_BACKEND = DUMMY
    t, owner, _entries = _event(2)
    page = _client(owner).get(reverse("tournaments:claim-codes", args=[t.pk])).content.decode()
    assert 'data-testid="invite-all"' not in page and 'data-testid="claim-codes-all"' in page


def test_expired_codes_are_shown_as_expired_with_a_new_code_button() -> None:
    t, owner, entries = _event(2)
    old = services.player_claim_code(actor=SYSTEM, entry=entries[0]).claim_code
    services.player_claim_code(actor=SYSTEM, entry=entries[1])
    Player.objects.filter(claim_code=old).update(
        claim_code_expires_at=timezone.now() - timedelta(minutes=1)
    )
    client = _client(owner)
    page = client.get(reverse("tournaments:claim-codes", args=[t.pk])).content.decode()
    assert f'data-testid="expired-{entries[0].pk}"' in page
    assert f'data-testid="expired-{entries[1].pk}"' not in page
    assert 'data-testid="expired-count"' in page and "lejárt" in page
    client.post(reverse("tournaments:claim-code", args=[t.pk, entries[0].pk]))
    page = client.get(reverse("tournaments:claim-codes", args=[t.pk])).content.decode()
    new = Player.objects.get(memberships__entry=entries[0]).claim_code
    assert new != old and new in page and 'data-testid="expired-' not in page
