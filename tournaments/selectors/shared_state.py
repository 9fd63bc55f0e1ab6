"""An event's *public state* kept in the shared cache: what an anonymous visitor's shared pages
and API answers are versioned by, readable without a database query.

The state (:class:`PublicState`) holds whether the event is public, its status, its published
and finished rounds with their clock facts, and its standings snapshot's version and time. It
is stored under :func:`state_key` together with the *generation token* it was read under
(:func:`token_key`); writers replace the token after every commit that changes the state
(``tournaments.services.public_state``), so a stored state is current exactly while its token
is the current one.

Reading (:func:`public_state`) is race-free: the token and the state come in one
``get_many``; when the state's token differs from the current one, the token is read *before*
the database (a missing token is created with ``add``, so concurrent readers agree on one), and
the state read from the database is stored with that token. A writer that commits after the
token was read replaces it, so a state read too early never passes for current.

``STATE_SECONDS`` bounds the damage of a write that bypassed the hooks (raw SQL, a shell): a
state is kept at most that long, then read again from the database.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core.cache import cache

from tournaments.models import Round, StandingsSnapshot, Tournament

#: Seconds a stored state is trusted at most (a safety net for writes that bypass the hooks).
STATE_SECONDS = 60
#: Seconds a generation token lives unless replaced (a lost token only costs one re-read).
TOKEN_SECONDS = 24 * 3600


@dataclass(frozen=True)
class RoundFacts:
    """A published or finished round as the shared pages see it: ``pk``, ``number``,
    ``status`` and the clock facts under ``Round``'s own field names (so ``clock_*`` readers
    accept either)."""

    pk: int
    number: int
    status: str
    clock_minutes: int
    clock_started_at: datetime | None
    clock_paused_at: datetime | None
    clock_paused_seconds: int
    clock_extension_seconds: int


@dataclass(frozen=True)
class SnapshotFacts:
    """The standings snapshot's identity (``tournament_id``, ``version``, ``computed_at``):
    what ``selectors.snapshot_tag`` reads, under ``StandingsSnapshot``'s field names."""

    tournament_id: int
    version: int
    computed_at: datetime


@dataclass(frozen=True)
class PublicState:
    """One event's public state, read under generation ``token``: ``is_public``, ``status``
    (``Tournament.Status``), ``rounds`` (published and finished, by number) and ``snapshot``
    (``None`` before the first recompute)."""

    token: str
    tournament_id: int
    is_public: bool
    status: str
    rounds: tuple[RoundFacts, ...]
    snapshot: SnapshotFacts | None

    @property
    def anonymous_visible(self) -> bool:
        """Whether an anonymous visitor may see the event (public and not a draft)."""
        return self.is_public and self.status != Tournament.Status.DRAFT

    @property
    def current_round(self) -> RoundFacts | None:
        """The latest published or finished round (``selectors.current_round``)."""
        return self.rounds[-1] if self.rounds else None

    def round(self, number: int) -> RoundFacts | None:
        """Round ``number`` if it is published or finished, else ``None``."""
        return next((r for r in self.rounds if r.number == number), None)


def token_key(tournament_id: int) -> str:
    """Cache key of the event's generation token."""
    return f"public-state-token:{tournament_id}"


def state_key(tournament_id: int) -> str:
    """Cache key of the event's stored :class:`PublicState`."""
    return f"public-state:{tournament_id}"


def new_token() -> str:
    """A fresh generation token (random, 32 hex digits)."""
    return uuid.uuid4().hex


def round_facts(rnd: Round) -> RoundFacts:
    """``rnd``'s facts (no query)."""
    return RoundFacts(
        pk=rnd.pk,
        number=rnd.number,
        status=rnd.status,
        clock_minutes=rnd.clock_minutes,
        clock_started_at=rnd.clock_started_at,
        clock_paused_at=rnd.clock_paused_at,
        clock_paused_seconds=rnd.clock_paused_seconds,
        clock_extension_seconds=rnd.clock_extension_seconds,
    )


def _read(tournament_id: int, token: str) -> PublicState | None:
    """The state from the database (three small queries), ``None`` for no such event."""
    row = Tournament.objects.filter(pk=tournament_id).values("is_public", "status").first()
    if row is None:
        return None
    rounds = Round.objects.filter(tournament_id=tournament_id).exclude(status=Round.Status.DRAFT)
    snapshot = (
        StandingsSnapshot.objects.filter(tournament_id=tournament_id, version__gt=0)
        .only("tournament_id", "version", "computed_at")
        .first()
    )
    return PublicState(
        token=token,
        tournament_id=tournament_id,
        is_public=row["is_public"],
        status=row["status"],
        rounds=tuple(round_facts(r) for r in rounds.order_by("number")),
        snapshot=SnapshotFacts(snapshot.tournament_id, snapshot.version, snapshot.computed_at)
        if snapshot is not None
        else None,
    )


def public_state(
    tournament_id: int, *, also: Iterable[str] = (), need_also: bool = False
) -> tuple[PublicState | None, dict[str, Any]]:
    """``(state, values)``: ``tournament_id``'s current :class:`PublicState` (``None`` for no
    such event) and the values of the cache keys ``also`` (e.g. a stored page), read in the
    same ``get_many``. No query when the stored state is current; else the protocol of the
    module docstring (three queries). ``need_also``: when a key of ``also`` holds nothing the
    state is not read from the database (``None``: the caller has nothing to answer with
    anyway). With the cache down the state is read every time."""
    extra = list(also)
    tkey, skey = token_key(tournament_id), state_key(tournament_id)
    values = cache.get_many([tkey, skey, *extra])
    token, state = values.get(tkey), values.get(skey)
    found = {k: values[k] for k in extra if k in values}
    if isinstance(state, PublicState) and token is not None and state.token == token:
        return state, found
    if need_also and len(found) < len(extra):
        return None, found
    if token is None:
        candidate = new_token()
        token = candidate if cache.add(tkey, candidate, TOKEN_SECONDS) else cache.get(tkey)
    state = _read(tournament_id, token or "")
    if state is not None and token is not None:
        cache.set(skey, state, STATE_SECONDS)
    return state, found
