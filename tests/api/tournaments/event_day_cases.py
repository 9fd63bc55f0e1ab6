"""Rows of the permission matrix (``test_api_permissions``) for the organiser's event-day
endpoints: round fixes, the desk, people, the finished-event lock, details and templates."""

from __future__ import annotations

from tests.api.tournaments.helpers import BASE
from tests.api.tournaments.permission_world import (
    DRAFT_ROUND,
    MANAGERS,
    REG,
    ROUND_DONE,
    RUN,
    SIGNED_IN,
    Case,
    World,
    t_url,
)
from tournaments import services
from tournaments.models import TournamentAction
from tournaments.permissions import SYSTEM


def delete_and_republish(w: World) -> None:
    """A die roll at the player's table, round 1 unpublished deleting it (``w.extra["deleted"]``:
    the action) and published again."""
    services.match_set_die_roll(actor=SYSTEM, match=w.match, winner_entry=w.a)
    rnd = services.round_unpublish(
        actor=SYSTEM, round=w.match.round, reason="tables", delete_results=True
    )
    services.round_publish(actor=SYSTEM, round=rnd)
    w.extra["deleted"] = TournamentAction.objects.get(tournament=w.t, kind="round_unpublished").pk


ORGANISER_DAY_CASES = [
    Case(
        "tournaments-round-discard",
        "post",
        DRAFT_ROUND,
        t_url("rounds/1/discard/"),
        MANAGERS,
        200,
        body=lambda w: {"reason": "wrong tables", "pair_again": True},
    ),
    Case(
        "tournaments-round-unpublish",
        "post",
        RUN,
        t_url("rounds/1/unpublish/"),
        MANAGERS,
        200,
        body=lambda w: {"reason": "table numbers"},
    ),
    Case(
        "tournaments-entry-drop-after-pairing",
        "post",
        RUN,
        lambda w: f"{BASE}{w.t.pk}/entries/{w.entry.pk}/drop-after-pairing/",
        MANAGERS,
        200,
        body=lambda w: {"fix": "bye", "reason": "no-show"},
    ),
    Case(
        "tournaments-entry-readd",
        "post",
        REG,
        lambda w: f"{BASE}{w.t.pk}/entries/{w.entry.pk}/readd/",
        MANAGERS,
        409,  # not_dropped: the role check comes first
        body=lambda w: {},
    ),
    Case(
        "tournaments-entry-check-in",
        "post",
        REG,
        lambda w: f"{BASE}{w.t.pk}/entries/{w.entry.pk}/check-in/",
        MANAGERS,
        200,
        body=lambda w: {"checked_in": True},
    ),
    Case(
        "tournaments-entry-claim-code",
        "post",
        REG,
        lambda w: f"{BASE}{w.t.pk}/entries/{w.entry.pk}/claim-code/",
        MANAGERS,
        200,
        body=lambda w: {},
    ),
    Case("tournaments-claim-codes", "post", REG, t_url("claim-codes/"), MANAGERS, 200),
    Case("tournaments-invitations", "post", REG, t_url("invitations/"), MANAGERS, 200),
    Case("tournaments-drop-absent", "post", REG, t_url("check-in/drop-absent/"), MANAGERS, 200),
    Case(
        "tournaments-entries-import",
        "post",
        REG,
        t_url("entries/import/"),
        MANAGERS,
        200,
        body=lambda w: {"text": "Új Zoé\n"},
    ),
    Case(
        "claim",
        "post",
        REG,
        lambda w: "/api/claim/",
        SIGNED_IN,
        404,  # claim_code_unknown
        body=lambda w: {"code": "NOSUCHCODE"},
    ),
    Case(
        "tournaments-reopen",
        "post",
        ROUND_DONE,
        t_url("reopen/"),
        MANAGERS,
        409,  # not finished yet
        body=lambda w: {"reason": "slip"},
    ),
    Case(
        "tournaments-details",
        "patch",
        REG,
        t_url("details/"),
        MANAGERS,
        200,
        body=lambda w: {"venue": "Pécs"},
    ),
    Case("tournaments-duplicate", "post", REG, t_url("duplicate/"), MANAGERS, 201),
    Case("tournaments-actions", "get", REG, t_url("actions/"), MANAGERS, 200),
    Case(
        "tournaments-actions-restore",
        "post",
        RUN,
        lambda w: f"{BASE}{w.t.pk}/actions/{w.extra['deleted']}/restore/",
        MANAGERS,
        201,
        prepare=delete_and_republish,
    ),
]
