"""Claims racing on PostgreSQL: a claim waits for a staff appointment of the same user in the
same event (the tournament row lock) and then refuses; two people claiming one code at once
leave exactly one owner."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.db import connection, connections, transaction

from hkk_tournament.errors import ApplicationError, NotFound, PermissionDenied
from tests.factories import UserFactory, make_tournament
from tournaments import services
from tournaments.models import Player
from tournaments.permissions import SYSTEM

pytestmark = [
    pytest.mark.postgres_only,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="needs PostgreSQL row locks and concurrent connections (SQLite serialises writers)",
    ),
]


def _in_thread(fn: Any, outcomes: list[Any], i: int) -> threading.Thread:
    def worker() -> None:
        try:
            outcomes[i] = fn()
        except ApplicationError as exc:
            outcomes[i] = exc
        finally:
            connections.close_all()

    thread = threading.Thread(target=worker)
    thread.start()
    return thread


def test_a_claim_during_a_staff_appointment_waits_and_refuses() -> None:
    owner: Any = UserFactory(username="tulaj")
    t, (entry,) = make_tournament(entries=1, decks=False, owner=owner)
    code = services.player_claim_code(actor=SYSTEM, entry=entry).claim_code
    judge: Any = UserFactory(username="biro")
    appointed = threading.Event()
    outcomes: list[Any] = [None, None]

    def appoint() -> object:
        with transaction.atomic():
            role = services.staff_appoint(tournament=t, user=judge, role="judge", actor=owner)
            appointed.set()
            time.sleep(0.5)  # the claim arrives while the appointment is not yet committed
        return role

    waited: list[float] = []

    def claim() -> object:
        appointed.wait(timeout=10)
        started = time.monotonic()
        try:
            return services.player_claim(user=judge, code=code)
        finally:
            waited.append(time.monotonic() - started)

    threads = [_in_thread(appoint, outcomes, 0), _in_thread(claim, outcomes, 1)]
    for thread in threads:
        thread.join(timeout=30)
    assert isinstance(outcomes[1], PermissionDenied), outcomes
    assert outcomes[1].code == "staff_cannot_claim"
    assert waited[0] >= 0.3  # it waited for the appointment's lock
    assert Player.objects.get(claim_code=code).user_id is None


def test_two_people_claim_one_code_at_once() -> None:
    t, (entry,) = make_tournament(entries=1, decks=False)
    code = services.player_claim_code(actor=SYSTEM, entry=entry).claim_code
    users = [UserFactory(username="elso"), UserFactory(username="masodik")]
    barrier = threading.Barrier(2)
    outcomes: list[Any] = [None, None]

    def claimer(user: Any) -> Any:
        def run() -> object:
            barrier.wait(timeout=10)
            return services.player_claim(user=user, code=code)

        return run

    threads = [_in_thread(claimer(u), outcomes, i) for i, u in enumerate(users)]
    for thread in threads:
        thread.join(timeout=30)
    players = [o for o in outcomes if isinstance(o, Player)]
    refused = [o for o in outcomes if isinstance(o, NotFound)]
    assert len(players) == 1 and len(refused) == 1, outcomes
    assert refused[0].code == "claim_code_unknown"
    assert Player.objects.get(memberships__entry=entry).user_id == players[0].user_id
