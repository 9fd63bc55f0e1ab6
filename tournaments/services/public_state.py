"""Keeping the shared public state current (``tournaments.selectors.shared_state``): every write
that changes what it holds replaces the event's generation token.

Hooked writes: the live push (:func:`tournaments.services.push.push_event`: a round published,
unpublished or finished, a standings version, the clock; a recorded result changes none of the
state's facts and is left out), and every ``save`` or ``delete`` of ``Tournament``, ``Round``
and ``StandingsSnapshot`` (model signals, connected by ``TournamentsConfig.ready``). A
``queryset.update()`` of those models bypasses the signals: the services that run one call
:func:`public_state_changed` themselves (today only the standings recompute, which also pushes).
A write that bypasses all of this (raw SQL, a shell) shows after at most
``selectors.shared_state.STATE_SECONDS``.

The token is replaced twice: at once (so the writing request, and a test inside one
transaction, reads its own write) and again after the commit (``transaction.on_commit``), so a
state read between the first replacement and the commit, from the old data, is never taken
for current.
"""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save

from tournaments.models import Round, StandingsSnapshot, Tournament
from tournaments.selectors.shared_state import TOKEN_SECONDS, new_token, token_key

#: ``StandingsSnapshot`` fields whose change alone leaves the public state as it was (the
#: recompute request mark is written by every result).
_SNAPSHOT_QUIET_FIELDS = frozenset({"recompute_requested_at"})


def _replace(tournament_id: int) -> None:
    cache.set(token_key(tournament_id), new_token(), TOKEN_SECONDS)


def public_state_changed(tournament_id: int) -> None:
    """Mark ``tournament_id``'s public state as changed: its generation token is replaced now
    and again once the current transaction commits (at once outside a transaction). Raises
    nothing (a cache that is down is ignored: the state then expires on its own)."""
    _replace(tournament_id)
    transaction.on_commit(lambda: _replace(tournament_id))


def _tournament_written(sender: Any, instance: Tournament, **kwargs: Any) -> None:
    public_state_changed(instance.pk)


def _round_written(sender: Any, instance: Round, **kwargs: Any) -> None:
    public_state_changed(instance.tournament_id)


def _snapshot_written(sender: Any, instance: StandingsSnapshot, **kwargs: Any) -> None:
    fields = kwargs.get("update_fields")
    if fields and set(fields) <= _SNAPSHOT_QUIET_FIELDS:
        return
    public_state_changed(instance.tournament_id)


def connect_signals() -> None:
    """Connect the ``post_save`` / ``post_delete`` receivers of ``Tournament``, ``Round`` and
    ``StandingsSnapshot`` (called once by ``TournamentsConfig.ready``; idempotent)."""
    for model, receiver in (
        (Tournament, _tournament_written),
        (Round, _round_written),
        (StandingsSnapshot, _snapshot_written),
    ):
        uid = f"public-state-{model.__name__}"
        post_save.connect(receiver, sender=model, dispatch_uid=uid + "-save")
        post_delete.connect(receiver, sender=model, dispatch_uid=uid + "-delete")
