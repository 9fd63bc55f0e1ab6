"""A schema-driven fuzzer (Schemathesis) over the whole OpenAPI schema finds no server error.

Every operation of ``/api/schema/`` gets ``EXAMPLES`` generated requests for each of three
callers signed in by API token on a seeded, running event: the organiser, a judge and a player
of the event. The requests are drawn from both Schemathesis' positive mode (what the schema
allows) and its negative mode (what it forbids: junk query values such as ``?table=²``, wrong
types, missing fields). Half of them aim at the event's real ids (tournament, entry, match,
round, table, staff user), the rest at whatever ids the fuzzer draws (huge, zero, negative).
The requests go straight to Django's WSGI application (no server, no network). Any 5xx answer
is a failure; every failing case is listed.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token
from schemathesis import GenerationMode

from tests.factories import UserFactory, make_tournament
from tournaments import services
from tournaments.models import StaffRole
from tournaments.permissions import SYSTEM

#: Generated requests per operation and caller: 46 operations × 3 callers × 20 ≈ 2,700 cases.
EXAMPLES = 20

schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _keep_the_test_connection():
    """Like Django's test ``Client``: the WSGI app must not close the test's database
    connection (and its transaction) when a request starts or finishes."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def seeded(settings):
    """A running event with a published round; tokens of its organiser, a judge and a player."""
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_CLASSES": [],
    }
    owner, judge, player_user = UserFactory(), UserFactory(), UserFactory()
    t, entries = make_tournament(entries=5, decks=False, owner=owner)
    services.staff_appoint(tournament=t, user=judge, role=StaffRole.Role.JUDGE, actor=owner)
    mine = services.entry_self_register(tournament=t, user=player_user)
    services.entry_override_deck(actor=SYSTEM, entry=mine, reason="fuzzing")
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t, seed=3)
    )
    match = rnd.matches.filter(entry_b__isnull=False).order_by("table").first()
    assert match is not None
    ids = {
        "tournament_id": t.pk,
        "entry_id": mine.pk,
        "match_id": match.pk,
        "number": rnd.number,
        "table": match.table,
        "user_id": judge.pk,
        "check_id": 1,
        "report_id": 1,
    }
    tokens = {
        role: Token.objects.get_or_create(user=user)[0].key
        for role, user in (("organiser", owner), ("judge", judge), ("player", player_user))
    }
    return {"ids": ids, "tokens": tokens}


def _cases(operation: Any) -> Any:
    """Positive and negative cases of ``operation`` (negative only where it can be generated:
    an operation with nothing to get wrong has no negative case)."""
    positive = operation.as_strategy()
    try:
        negative = operation.as_strategy(generation_mode=GenerationMode.NEGATIVE)
    except Exception:  # schemathesis refuses a mode it cannot generate for this operation
        return positive
    return st.one_of(positive, negative)


def _fuzz(
    operation: Any, token: str, ids: dict[str, int], found: list[str], statuses: Counter[int]
) -> int:
    count = 0

    @given(case=_cases(operation), aim=st.booleans())
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    def run(case: Any, aim: bool) -> None:
        nonlocal count
        count += 1
        if aim and case.path_parameters:
            for name in case.path_parameters:
                if name in ids:
                    case.path_parameters[name] = ids[name]
        response = case.call(headers={"Authorization": f"Token {token}"})
        statuses[response.status_code // 100 * 100] += 1
        if response.status_code >= 500:
            found.append(
                f"{response.status_code} {case.method} {case.formatted_path} "
                f"path={case.path_parameters} query={case.query} body={case.body!r:.200}: "
                f"{response.text[:300]}"
            )

    run()
    return count


@pytest.mark.parametrize("role", ["organiser", "judge", "player"])
def test_no_operation_answers_a_server_error(seeded, role):
    found: list[str] = []
    statuses: Counter[int] = Counter()
    cases = 0
    operations = 0
    for result in schema.get_all_operations():
        operation = result.ok()
        operations += 1
        cases += _fuzz(operation, seeded["tokens"][role], seeded["ids"], found, statuses)
    print(f"fuzzed {operations} operations with {cases} cases as {role}: {dict(statuses)}")
    assert operations >= 40
    assert found == [], "\n".join(found)
