"""Permission-matrix rows of the API beyond one event (issue 23): meta statistics, list consent,
circuits and player profiles. The rules: reads of public circuits and statistics are open; a
circuit's owner decides its join requests; an event's organisers ask to join; only the player
changes their profile and consent."""

from __future__ import annotations

from tests.api.tournaments.permission_world import (
    CO_ORGANISER,
    EVERYONE,
    MANAGERS,
    OWNER,
    PLAYER,
    READ,
    REG,
    SIGNED_IN,
    Case,
    World,
)
from tests.services.tournaments.circuit_helpers import make_circuit
from tournaments.services import circuits as cs

BASE = "/api/"


def with_circuit(w: World) -> None:
    """A circuit of the event's game owned by the event's owner."""
    w.extra["circuit"] = make_circuit(w.users[OWNER], w.t.format.game)


def with_request(w: World) -> None:
    """The circuit and the co-organiser's pending request for the event to join it."""
    with_circuit(w)
    w.extra["link"] = cs.circuit_event_request(
        circuit=w.extra["circuit"], tournament=w.t, actor=w.users[CO_ORGANISER], tier="local"
    )


def _circuit(suffix: str = ""):
    return lambda w: f"{BASE}circuits/{w.extra['circuit'].pk}/{suffix}"


def _profile(w: World) -> str:
    return f"{BASE}players/{w.users[PLAYER].pk}/"


NOT_PLAYER = EVERYONE - {PLAYER}

BEYOND_CASES = [
    Case("meta", "get", REG, lambda w: f"{BASE}meta/?game=hkk", EVERYONE, 200, **READ),
    Case("list-consent", "get", REG, lambda w: f"{BASE}me/list-consent/", SIGNED_IN, 200),
    Case(
        "list-consent",
        "put",
        REG,
        lambda w: f"{BASE}me/list-consent/",
        SIGNED_IN,
        200,
        body=lambda w: {"share_lists": False},
    ),
    Case("circuits", "get", REG, lambda w: f"{BASE}circuits/", EVERYONE, 200, **READ),
    Case(
        "circuits",
        "post",
        REG,
        lambda w: f"{BASE}circuits/",
        SIGNED_IN,
        201,
        body=lambda w: {"game": "hkk", "name": "Kör"},
    ),
    Case("circuits-detail", "get", REG, _circuit(), EVERYONE, 200, prepare=with_circuit, **READ),
    Case(
        "circuits-standings",
        "get",
        REG,
        _circuit("standings/"),
        EVERYONE,
        200,
        prepare=with_circuit,
        **READ,
    ),
    Case(
        "circuits-events",
        "get",
        REG,
        _circuit("events/"),
        EVERYONE,
        200,
        prepare=with_circuit,
        **READ,
    ),
    Case(
        "circuits-events",
        "post",
        REG,
        _circuit("events/"),
        MANAGERS,
        201,
        prepare=with_circuit,
        body=lambda w: {"tournament": w.t.pk, "tier": "local"},
    ),
    Case(
        "circuits-events-decision",
        "post",
        REG,
        lambda w: f"{BASE}circuits/{w.extra['circuit'].pk}/events/{w.extra['link'].pk}/decision/",
        frozenset({OWNER}),
        200,
        prepare=with_request,
        body=lambda w: {"accept": True},
    ),
    Case(
        "players-profile",
        "get",
        REG,
        _profile,
        frozenset({PLAYER}),
        200,
        hidden=NOT_PLAYER,
        label="private",
        **READ,
    ),
    Case(
        "players-profile",
        "post",
        REG,
        _profile,
        frozenset({PLAYER}),
        200,
        body=lambda w: {"is_public": True},
    ),
]
