"""Claim codes and invitations: throttled failed guesses (per user and per address), expiring
and one-time codes, no claim by the event's staff; no code or reset link ever printed to a log
(system check accounts.E001, the no-mail pages); password reset throttled."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.core import mail
from django.core.checks import run_checks
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from hkk_tournament.errors import InvalidState, NotFound, PermissionDenied
from tests.factories import UserFactory, make_tournament
from tournaments import services
from tournaments.models import Player, StaffRole
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db
BASE_DIR = Path(__file__).resolve().parent.parent
VENUE = "203.0.113.7"
DUMMY = "django.core.mail.backends.dummy.EmailBackend"
CONSOLE = "django.core.mail.backends.console.EmailBackend"


def _user(username: str | None = None, **kw: Any) -> Any:
    return UserFactory(username=username, **kw) if username else UserFactory(**kw)


def _event_with_code(**kw: Any) -> tuple[Any, Any, Player]:
    t, (entry,) = make_tournament(entries=1, decks=False, **kw)
    return t, entry, services.player_claim_code(actor=SYSTEM, entry=entry)


def _guesser(n: int = 0) -> Client:
    client = Client(REMOTE_ADDR=VENUE, HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(_user(username=f"tippelo{n}"))
    return client


def _api_claim(client: Client, code: str) -> Any:
    return client.post("/api/claim/", {"code": code}, content_type="application/json")


# --- throttled guessing ---------------------------------------------------------------------


def test_400_wrong_guesses_of_one_user_are_throttled_after_10() -> None:
    _event_with_code()
    client = _guesser()
    statuses = [_api_claim(client, f"ZZZZ{n:04d}").status_code for n in range(400)]
    assert statuses.count(404) == 10 and statuses.count(429) == 390  # 10 got through
    response = _api_claim(client, "ZZZZ9999")
    error = response.json()["error"]
    assert error["code"] == "throttled" and response["Retry-After"] == str(error["params"]["wait"])
    assert 3500 < error["params"]["wait"] <= 3600  # scope "claim": 10 failures per hour
    # The page shares the count: the same user is refused there too, with a 429.
    page = client.post(reverse("tournaments:claim"), {"code": "YYYY0000"})
    assert page.status_code == 429 and "Too many requests" in page.content.decode()


def test_400_wrong_guesses_from_many_accounts_behind_one_address_are_throttled_after_100() -> None:
    _t, _entry, player = _event_with_code()
    statuses = []
    for n in range(40):  # 40 accounts × 10 guesses, all from the venue's address
        client = _guesser(n)
        statuses += [
            client.post(reverse("tournaments:claim"), {"code": f"Q{n:03d}{k:04d}"}).status_code
            for k in range(10)
        ]
    assert statuses.count(200) == 100 and statuses.count(429) == 300  # 100 got through
    # Another address is not affected: its player claims the right code.
    elsewhere = Client(REMOTE_ADDR="198.51.100.20")
    elsewhere.force_login(_user(username="jatekos"))
    assert _api_claim(elsewhere, player.claim_code).status_code == 200


def test_successful_claims_do_not_use_up_the_address_budget(settings) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "claim_address": "3/hour",
        },
    }
    t, entries = make_tournament(entries=6, decks=False)
    codes = [services.player_claim_code(actor=SYSTEM, entry=e).claim_code for e in entries]
    results = [_api_claim(_guesser(n), code).status_code for n, code in enumerate(codes)]
    assert results == [200] * 6  # six players behind one address claim their own codes


# --- expiring, one-time, never by staff -------------------------------------------------------


def test_codes_expire_after_the_configured_lifetime(settings) -> None:
    settings.HKK_CLAIM_CODE_LIFETIME = timedelta(days=7)
    _t, entry, player = _event_with_code()
    assert player.claim_code_expires_at is not None
    lifetime = player.claim_code_expires_at - timezone.now()
    assert timedelta(days=6, hours=23) < lifetime <= timedelta(days=7)
    Player.objects.filter(pk=player.pk).update(claim_code_expires_at=timezone.now())
    with pytest.raises(InvalidState) as exc:
        services.player_claim(user=_user(), code=player.claim_code)
    assert exc.value.code == "claim_code_expired"
    response = _api_claim(_guesser(), player.claim_code)
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "claim_code_expired"
    # Asking again makes a new code; the old one stays refused.
    fresh = services.player_claim_code(actor=SYSTEM, entry=entry)
    assert fresh.claim_code != player.claim_code
    assert fresh.claim_code_expires_at is not None and fresh.claim_code_expires_at > timezone.now()
    with pytest.raises(NotFound):
        services.player_claim(user=_user(), code=player.claim_code)
    assert services.player_claim(user=_user(), code=fresh.claim_code).pk == player.pk


def test_a_used_code_is_refused() -> None:
    _t, _entry, player = _event_with_code()
    services.player_claim(user=_user(), code=player.claim_code)
    player.refresh_from_db()
    assert player.claim_code == "" and player.claim_code_expires_at is None
    with pytest.raises(NotFound) as exc:
        services.player_claim(user=_user(), code=player.claim_code or "X")
    assert exc.value.code == "claim_code_unknown"


@pytest.mark.parametrize("role", ["owner", StaffRole.Role.ORGANISER, StaffRole.Role.JUDGE])
def test_the_events_staff_cannot_claim_its_players(role: str) -> None:
    owner = _user(username="tulaj")
    t, _entry, player = _event_with_code(owner=owner)
    staff = owner
    if role != "owner":
        staff = _user(username="stab")
        services.staff_appoint(tournament=t, user=staff, role=role, actor=owner)
    with pytest.raises(PermissionDenied) as exc:
        services.player_claim(user=staff, code=player.claim_code)
    assert exc.value.code == "staff_cannot_claim"
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(staff)
    response = _api_claim(client, player.claim_code)
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "staff_cannot_claim"
    player.refresh_from_db()
    assert player.user_id is None and player.claim_code  # still free for the real player
    # A judge of another event may claim it.
    other, _ = make_tournament()
    outsider = _user(username="kulsos")
    services.staff_appoint(tournament=other, user=outsider, role="judge", actor=SYSTEM)
    assert services.player_claim(user=outsider, code=player.claim_code).user_id == outsider.pk


# --- no codes or reset links in logs --------------------------------------------------------


def test_console_mail_backend_is_refused_with_debug_off(settings) -> None:
    settings.DEBUG = False
    settings.EMAIL_BACKEND = CONSOLE
    assert [e.id for e in run_checks() if str(e.id).startswith("accounts.")] == ["accounts.E001"]
    settings.EMAIL_BACKEND = DUMMY
    assert [e.id for e in run_checks() if str(e.id).startswith("accounts.")] == []
    settings.DEBUG = True
    settings.EMAIL_BACKEND = CONSOLE  # development may print mail
    assert [e.id for e in run_checks() if str(e.id).startswith("accounts.")] == []


def test_production_without_a_mail_server_prints_no_mail() -> None:
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "EMAIL_"))}
    environment.update(
        DJANGO_DEBUG="0", DJANGO_SECRET_KEY=secrets.token_urlsafe(64), DJANGO_ALLOWED_HOSTS="x"
    )
    script = "from django.conf import settings; print(settings.EMAIL_BACKEND)"
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", script],
        cwd=BASE_DIR, env=environment, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.stdout.strip().splitlines()[-1] == DUMMY, result.stderr


def test_without_mail_the_organiser_sees_the_code_instead_of_sent(settings, capsys) -> None:
    settings.EMAIL_BACKEND = DUMMY
    owner = _user(username="tulaj")
    t, (entry,) = make_tournament(entries=1, decks=False, owner=owner)
    Player.objects.filter(memberships__entry=entry).update(email="p1@example.org")
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(owner)
    response = client.post(reverse("tournaments:entry-invite", args=[t.pk, entry.pk]), follow=True)
    page = response.content.decode()
    player = Player.objects.get(memberships__entry=entry)
    assert player.claim_code and player.claim_code in page  # the printable list
    assert "sends no e-mail" in page and "The invitation is sent" not in page
    assert mail.outbox == []
    with pytest.raises(InvalidState) as exc:
        services.player_invite(actor=SYSTEM, entry=entry, claim_url="https://x/claim/")
    assert exc.value.code == "mail_unavailable"
    assert player.claim_code not in capsys.readouterr().out


def test_invitations_are_throttled_per_organiser(settings) -> None:
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**rates, "invite": "2/hour"},
    }
    owner = _user(username="tulaj")
    t, entries = make_tournament(entries=3, decks=False, owner=owner)
    Player.objects.filter(memberships__tournament=t).update(email="p@example.org")
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(owner)
    pages = [
        client.post(
            reverse("tournaments:entry-invite", args=[t.pk, e.pk]), follow=True
        ).content.decode()
        for e in entries
    ]
    assert ["The invitation is sent" in p for p in pages] == [True, True, False]
    assert "Too many requests" in pages[2]
    assert len(mail.outbox) == 2


def test_password_reset_without_mail_says_so_and_sends_nothing(settings, capsys) -> None:
    settings.EMAIL_BACKEND = CONSOLE
    _user(username="cel", email="cel@example.org")
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    response = client.post("/accounts/password_reset/", {"email": "cel@example.org"})
    assert response.status_code == 200
    assert "cannot send you a reset link" in response.content.decode()
    assert "/accounts/reset/" not in capsys.readouterr().out


# --- password reset throttled ---------------------------------------------------------------


def test_password_reset_is_throttled_per_target_and_per_address() -> None:
    _user(username="cel", email="cel@example.org")
    client = Client(REMOTE_ADDR=VENUE)  # Hungarian by default
    statuses = [
        client.post("/accounts/password_reset/", {"email": "cel@example.org"}).status_code
        for _ in range(100)
    ]
    assert statuses.count(302) == 3 and len(mail.outbox) == 3  # scope password_reset_email
    response = client.post("/accounts/password_reset/", {"email": "CEL@example.org"})
    assert response.status_code == 429 and int(response["Retry-After"]) > 3500
    assert "Túl sok jelszó-visszaállítási kérés" in response.content.decode()
    # Per address: 30 requests an hour whatever the target (100 requests above counted 3).
    others = [
        Client(REMOTE_ADDR="198.51.100.30")
        .post("/accounts/password_reset/", {"email": f"senki{n}@example.org"})
        .status_code
        for n in range(40)
    ]
    assert others.count(302) == 30 and others.count(429) == 10
