"""The permission matrix: every endpoint of the tournaments API against every role, checked on
the object.

Roles: anonymous, a signed-in outsider, the player the request is about, a player of another
entry of the same event, a judge and a co-organiser of this event, its owner, and a judge and
the owner of *another* event. Each case builds its event in the stage the endpoint needs,
sends one request as that role and asserts the status: the allowed roles get the success
status; the others 403 (anonymous: 401/403), or 404 where the object is hidden from them
(drafts, draft rounds, private events). ``test_matrix_covers_every_endpoint`` fails when an
endpoint is added without a row here.
"""

from __future__ import annotations

import pytest
from django.urls import URLPattern

from tests.api.tournaments.event_day_cases import ORGANISER_DAY_CASES
from tests.api.tournaments.helpers import BASE
from tests.api.tournaments.permission_beyond import BEYOND_CASES
from tests.api.tournaments.permission_event_day import EVENT_DAY_CASES
from tests.api.tournaments.permission_world import (
    ANON,
    CO_ORGANISER,
    DRAFT,
    DRAFT_ROUND,
    EVERYONE,
    JUDGE,
    JUDGES,
    MANAGERS,
    OTHER_PLAYER,
    OUTSIDERS,
    OWNER,
    PLAYED,
    PLAYER,
    PLAYERS,
    READ,
    REG,
    ROLES,
    ROUND_DONE,
    RUN,
    SIGNED_IN,
    STAFF,
    Case,
    World,
    add_deck_check,
    build,
    client_for,
    create_newbie,
    game_one,
    hkk_games,
    prepare_game3,
    record_report,
    submit_unverified,
    t_url,
)
from tests.factories import ILLEGAL_DECK
from tournaments.api import urls as api_urls
from tournaments.models import DeckSubmission

pytestmark = pytest.mark.django_db


DRAFT_HIDDEN = PLAYERS | OUTSIDERS  # a draft is visible to its staff only


CASES = [
    # tournaments
    Case("tournaments-list", "get", REG, lambda w: BASE, EVERYONE, 200, **READ),
    Case(
        "tournaments-list",
        "post",
        REG,
        lambda w: BASE,
        SIGNED_IN,
        201,
        body=lambda w: {"name": "Mine", "format": "hkk"},
    ),
    Case("tournaments-detail", "get", REG, t_url(), EVERYONE, 200, **READ),
    Case(
        "tournaments-detail",
        "get",
        DRAFT,
        t_url(),
        STAFF,
        200,
        hidden=DRAFT_HIDDEN | {ANON},
        label="draft",
        **READ,
    ),
    Case(
        "tournaments-open-registration",
        "post",
        DRAFT,
        t_url("open-registration/"),
        MANAGERS,
        200,
        hidden=DRAFT_HIDDEN,
    ),
    Case("tournaments-start", "post", REG, t_url("start/"), MANAGERS, 200),
    Case("tournaments-finish", "post", ROUND_DONE, t_url("finish/"), MANAGERS, 200),
    # entries, self-registration and deck lists
    Case("tournaments-entries", "get", REG, t_url("entries/"), EVERYONE, 200, **READ),
    Case(
        "tournaments-entries",
        "post",
        REG,
        t_url("entries/"),
        MANAGERS,
        201,
        body=lambda w: {"players": ["Newcomer"]},
    ),
    Case(
        "tournaments-register",
        "post",
        REG,
        t_url("register/"),
        SIGNED_IN,
        201,
        body=lambda w: {},
        special={PLAYER: 409, OTHER_PLAYER: 409},  # already registered
    ),
    Case(
        "tournaments-entry-decks",
        "post",
        REG,
        lambda w: f"{BASE}{w.t.pk}/entries/{w.entry.pk}/decks/",
        MANAGERS | {PLAYER},
        201,
        body=lambda w: {"text": ILLEGAL_DECK},
    ),
    Case(
        "tournaments-entry-decks",
        "post",
        RUN,
        lambda w: f"{BASE}{w.t.pk}/entries/{w.entry.pk}/decks/",
        frozenset(),
        201,
        body=lambda w: {"text": ILLEGAL_DECK},
        special={PLAYER: 409, CO_ORGANISER: 409, OWNER: 409},  # lists_locked
        label="locked",
    ),
    Case(
        "tournaments-entry-decks",
        "get",
        REG,
        lambda w: f"{BASE}{w.t.pk}/entries/{w.entry.pk}/decks/",
        JUDGES | {PLAYER},
        200,
    ),
    Case(
        "tournaments-entry-deck-approve",
        "post",
        REG,
        lambda w: (
            f"{BASE}{w.t.pk}/entries/{w.entry.pk}/decks/"
            f"{DeckSubmission.objects.get(member__entry=w.entry, is_current=True).pk}/approve/"
        ),
        MANAGERS,
        200,
        body=lambda w: {"reason": "printed card seen"},
        prepare=submit_unverified,
    ),
    Case(
        "tournaments-entry-override",
        "post",
        REG,
        lambda w: f"{BASE}{w.t.pk}/entries/{w.entry.pk}/override/",
        MANAGERS,
        200,
        body=lambda w: {"reason": "lost list"},
    ),
    Case(
        "tournaments-entry-drop",
        "post",
        REG,
        lambda w: f"{BASE}{w.t.pk}/entries/{w.entry.pk}/drop/",
        MANAGERS,
        200,
        body=lambda w: {},
    ),
    # rounds
    Case("tournaments-rounds", "get", RUN, t_url("rounds/"), EVERYONE, 200, **READ),
    Case("tournaments-rounds", "post", ROUND_DONE, t_url("rounds/"), MANAGERS, 201),
    Case("tournaments-round", "get", RUN, t_url("rounds/1/"), EVERYONE, 200, **READ),
    Case(
        "tournaments-round",
        "get",
        DRAFT_ROUND,
        t_url("rounds/1/"),
        MANAGERS,
        200,
        hidden=EVERYONE - MANAGERS,
        label="draft",
        **READ,
    ),
    Case(
        "tournaments-round-swap",
        "post",
        DRAFT_ROUND,
        t_url("rounds/1/swap/"),
        MANAGERS,
        200,
        body=lambda w: {"table_x": 1, "table_y": 2, "swap": "b"},
    ),
    Case(
        "tournaments-round-publish", "post", DRAFT_ROUND, t_url("rounds/1/publish/"), MANAGERS, 200
    ),
    Case("tournaments-round-finish", "post", PLAYED, t_url("rounds/1/finish/"), MANAGERS, 200),
    Case(
        "tournaments-round-pairings-csv",
        "get",
        RUN,
        t_url("rounds/1/pairings.csv"),
        EVERYONE,
        200,
        **READ,
    ),
    # matches and games
    Case(
        "tournaments-table-games",
        "post",
        RUN,
        lambda w: f"{BASE}{w.t.pk}/rounds/1/tables/{w.match.table}/games/",
        JUDGES,
        201,
        body=game_one,
    ),
    Case(
        "tournaments-match",
        "get",
        RUN,
        lambda w: f"{BASE}{w.t.pk}/matches/{w.match.pk}/",
        EVERYONE,
        200,
        **READ,
    ),
    Case(
        "tournaments-match-die-roll",
        "post",
        RUN,
        lambda w: f"{BASE}{w.t.pk}/matches/{w.match.pk}/die-roll/",
        JUDGES,
        200,
        body=lambda w: {"winner": w.a},
    ),
    Case(
        "tournaments-match-reroll-agreement",
        "post",
        RUN,
        lambda w: f"{BASE}{w.t.pk}/matches/{w.match.pk}/reroll-agreement/",
        JUDGES,
        200,
        body=lambda w: {"agreed": True},
    ),
    Case(
        "tournaments-match-game3-roll",
        "post",
        RUN,
        lambda w: f"{BASE}{w.t.pk}/matches/{w.match.pk}/game3-roll/",
        JUDGES,
        200,
        body=lambda w: {"winner": w.b},
        prepare=prepare_game3,
    ),
    Case(
        "tournaments-match-games",
        "post",
        RUN,
        lambda w: f"{BASE}{w.t.pk}/matches/{w.match.pk}/games/",
        JUDGES,
        201,
        body=game_one,
    ),
    # result reports and disputes
    Case(
        "tournaments-match-reports",
        "post",
        RUN,
        lambda w: f"{BASE}{w.t.pk}/matches/{w.match.pk}/reports/",
        frozenset({PLAYER}),
        201,
        body=lambda w: {"games": hkk_games(w.match)},
    ),
    Case(
        "tournaments-match-reports",
        "get",
        RUN,
        lambda w: f"{BASE}{w.t.pk}/matches/{w.match.pk}/reports/",
        JUDGES | {PLAYER},
        200,
        prepare=record_report,
    ),
    Case(
        "tournaments-report-confirm",
        "post",
        RUN,
        lambda w: f"{BASE}{w.t.pk}/reports/{w.extra['report'].pk}/confirm/",
        JUDGES,
        200,
        prepare=record_report,
    ),
    Case("tournaments-disputes", "get", RUN, t_url("disputes/"), JUDGES, 200),
    # deck checks
    Case("tournaments-round-deck-checks", "get", RUN, t_url("rounds/1/deck-checks/"), JUDGES, 200),
    Case(
        "tournaments-round-deck-checks",
        "post",
        RUN,
        t_url("rounds/1/deck-checks/"),
        JUDGES,
        201,
        body=lambda w: {"entry": w.other_entry.pk},
    ),
    Case(
        "tournaments-round-deck-checks-pick",
        "post",
        RUN,
        t_url("rounds/1/deck-checks/pick/"),
        JUDGES,
        200,
        body=lambda w: {"seed": 3},
    ),
    Case(
        "tournaments-deck-check-record",
        "post",
        RUN,
        lambda w: f"{BASE}{w.t.pk}/deck-checks/{w.extra['check'].pk}/record/",
        JUDGES,
        200,
        body=lambda w: {"outcome": "problem", "penalty": "warning", "notes": "sleeves"},
        prepare=add_deck_check,
    ),
    # staff
    Case("tournaments-staff", "get", REG, t_url("staff/"), MANAGERS, 200),
    Case(
        "tournaments-staff",
        "post",
        REG,
        t_url("staff/"),
        frozenset({OWNER}),
        201,
        body=lambda w: {"username": "newbie", "role": "judge"},
        prepare=create_newbie,
    ),
    Case(
        "tournaments-staff-remove",
        "delete",
        REG,
        lambda w: f"{BASE}{w.t.pk}/staff/{w.users[JUDGE].pk}/",
        frozenset({OWNER}),
        204,
    ),
    # the caller's view, standings and export
    Case("tournaments-me", "get", RUN, t_url("me/"), SIGNED_IN, 200),
    Case("tournaments-standings", "get", RUN, t_url("standings/"), EVERYONE, 200, **READ),
    Case("tournaments-standings-csv", "get", RUN, t_url("standings.csv"), EVERYONE, 200, **READ),
    Case("tournaments-export", "get", RUN, t_url("export/"), EVERYONE, 200, **READ),
    *EVENT_DAY_CASES,
    *BEYOND_CASES,
    *ORGANISER_DAY_CASES,
]


def send(case: Case, world: World, role: str):
    client = client_for(world.users[role])
    body = case.body(world) if case.body else None
    call = getattr(client, case.method)
    if case.method == "get":
        return call(case.path(world))
    return call(case.path(world), body, content_type="application/json")


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_permission_matrix(case: Case, role: str):
    world = build(case.stage)
    if case.prepare is not None:
        case.prepare(world)
    response = send(case, world, role)
    expected = case.expected(role)
    detail = response.content[:300]
    assert response.status_code in expected, f"{case.id} as {role}: {detail!r}"


def test_matrix_covers_every_endpoint():
    """Every (URL name, method) of the tournaments API has a row in the matrix."""
    routes = set()
    for pattern in api_urls.urlpatterns:
        assert isinstance(pattern, URLPattern)
        view = pattern.callback.view_class
        for method in ("get", "post", "put", "patch", "delete"):
            if hasattr(view, method):
                routes.add((pattern.name, method))
    covered = {(c.name, c.method) for c in CASES}
    assert routes - covered == set()
    assert covered - routes == set()
