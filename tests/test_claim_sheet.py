"""Claim codes for every player without an account in one action, and the A4 sheet of them
(name, round-1 table, code, QR code of the claim link)."""

from __future__ import annotations

import io
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from hkk_tournament.errors import PermissionDenied
from tests.factories import UserFactory, make_tournament
from tournaments import services
from tournaments.models import Player, StaffRole
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db


def _event(n: int = 8) -> tuple[Any, Any, list[Any]]:
    owner = UserFactory()
    t, entries = make_tournament(entries=n, decks=False, owner=owner)
    return t, owner, entries


def _player(entry: Any) -> Player:
    return entry.members.select_related("player").get().player


def test_codes_for_every_unclaimed_player_keep_valid_ones_and_renew_expired_ones() -> None:
    t, owner, entries = _event()
    kept = services.player_claim_code(actor=SYSTEM, entry=entries[0])
    expired = services.player_claim_code(actor=SYSTEM, entry=entries[1])
    Player.objects.filter(pk=expired.pk).update(
        claim_code_expires_at=timezone.now() - timedelta(minutes=1)
    )
    claimed = _player(entries[2])
    services.player_claim(
        user=UserFactory(),
        code=services.player_claim_code(actor=SYSTEM, entry=entries[2]).claim_code,
    )
    claimed.refresh_from_db()

    players = services.player_claim_codes_all(actor=owner, tournament=t)

    assert len(players) == 7 and claimed.pk not in {p.pk for p in players}
    fresh = {p.pk: Player.objects.get(pk=p.pk) for p in players}
    assert all(len(p.claim_code) == 8 for p in fresh.values())
    now = timezone.now()
    assert all((p.claim_code_expires_at or now) > now for p in fresh.values())
    assert len({p.claim_code for p in fresh.values()}) == 7
    assert fresh[kept.pk].claim_code == kept.claim_code  # still valid: may already be printed
    assert fresh[expired.pk].claim_code != expired.claim_code  # expired: renewed
    claimed.refresh_from_db()
    assert claimed.claim_code == "" and claimed.user_id is not None  # untouched


def test_only_organisers_make_codes_for_everyone() -> None:
    t, owner, entries = _event(3)
    co = UserFactory()
    judge = UserFactory()
    services.staff_appoint(tournament=t, user=co, role=StaffRole.Role.ORGANISER, actor=owner)
    services.staff_appoint(tournament=t, user=judge, role=StaffRole.Role.JUDGE, actor=owner)
    for outsider in (judge, UserFactory()):
        with pytest.raises(PermissionDenied) as refused:
            services.player_claim_codes_all(actor=outsider, tournament=t)
        assert refused.value.code == "not_organiser"
    assert not Player.objects.exclude(claim_code="").exists()  # nothing made
    assert len(services.player_claim_codes_all(actor=co, tournament=t.pk)) == 3


def _client(user: Any) -> Client:
    client = Client()
    client.cookies["django_language"] = "hu"
    client.force_login(user)
    return client


def test_the_page_button_makes_every_code_and_the_sheet_lists_them_with_tables() -> None:
    t, owner, entries = _event()
    client = _client(owner)
    page = client.get(reverse("tournaments:claim-codes", args=[t.pk])).content.decode()
    assert 'data-testid="claim-codes-all"' in page
    assert reverse("tournaments:claim-sheet", args=[t.pk]) in page

    response = client.post(reverse("tournaments:claim-codes-all", args=[t.pk]))
    assert response.status_code == 302
    codes = dict(
        Player.objects.filter(memberships__tournament=t).values_list("display_name", "claim_code")
    )
    assert len(codes) == 8 and all(codes.values())
    page = client.get(reverse("tournaments:claim-codes", args=[t.pk])).content.decode()
    assert all(code in page for code in codes.values())

    services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t)
    )
    sheet = client.get(reverse("tournaments:claim-sheet", args=[t.pk]))
    assert sheet.status_code == 200 and sheet["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(sheet.content))
    text = "\n".join(page.extract_text() or "" for page in reader.pages)
    for name, code in codes.items():
        assert name in text and code in text
    for match in rnd.matches.all():
        assert f"1. forduló, asztal: {match.table}" in text
    assert "/claim/" in text


def test_judges_and_strangers_get_neither_the_button_nor_the_sheet() -> None:
    t, owner, _entries = _event(2)
    judge = UserFactory()
    services.staff_appoint(tournament=t, user=judge, role=StaffRole.Role.JUDGE, actor=owner)
    for user in (judge, UserFactory()):
        client = _client(user)
        assert client.post(reverse("tournaments:claim-codes-all", args=[t.pk])).status_code in (
            403,
            404,
        )
        assert client.get(reverse("tournaments:claim-sheet", args=[t.pk])).status_code in (
            403,
            404,
        )
    assert not Player.objects.exclude(claim_code="").exists()


def test_the_api_makes_every_code_in_one_call() -> None:
    t, owner, entries = _event(4)
    kept = services.player_claim_code(actor=SYSTEM, entry=entries[0])
    client = Client()
    client.force_login(owner)
    response = client.post(f"/api/tournaments/{t.pk}/claim-codes/")
    assert response.status_code == 200
    rows = response.json()
    assert [r["name"] for r in rows] == ["P1", "P2", "P3", "P4"]
    assert rows[0]["code"] == kept.claim_code and all(len(r["code"]) == 8 for r in rows)
    judge: Any = UserFactory()
    services.staff_appoint(tournament=t, user=judge, role=StaffRole.Role.JUDGE, actor=owner)
    client.force_login(judge)
    assert client.post(f"/api/tournaments/{t.pk}/claim-codes/").status_code == 403
