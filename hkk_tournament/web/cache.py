"""The shared cache (``HKK_CACHE_URL``) as an optimisation that never fails a request.

:class:`FailSafeRedisCache` is Django's ``RedisCache`` with every operation guarded: when Redis
refuses the connection or times out, the operation logs the error (logger
``hkk_tournament.web.cache``, level ``ERROR``, with the request id) and answers as if the cache
were empty and every write lost: ``get`` returns its default, ``get_many`` ``{}``, ``has_key``,
``add``, ``touch``, ``delete`` and ``clear`` ``False``, ``set_many`` every key (none stored),
``set`` and ``delete_many`` nothing; ``incr`` / ``decr`` raise ``ValueError`` like for a missing
key. So with the cache down:

- the live page, the standings page and the standings API render their fragments and bodies
  afresh on every request (correct, only slower);
- the API and page throttles (``hkk_tournament.web.throttling``, counters in this cache) **fail
  open**: no count can be kept, so nothing is refused for its rate. The login itself stays
  guarded by the django-axes lockout, which lives in the database.

After a failure the backend does not talk to Redis again for ``RETRY_SECONDS`` (a key of the
``CACHES`` entry, default :data:`DEFAULT_RETRY_SECONDS`, per process and Redis address), so an
unreachable server costs one connection timeout per process and window, not one per cache
operation, and the log gets one line per window. The connection and socket timeouts come
from ``OPTIONS`` (``socket_connect_timeout``, ``socket_timeout``: ``HKK_CACHE_TIMEOUT``).

``/readyz/`` does not go through this guard: it pings Redis itself
(:func:`hkk_tournament.web.health.check_cache`).
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable
from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from hkk_tournament.request_log import current_request_id

logger = logging.getLogger(__name__)

#: Seconds a process leaves an unreachable Redis alone after a failed operation.
DEFAULT_RETRY_SECONDS = 5.0

#: What an unreachable or silent Redis raises (redis-py wraps socket errors in these).
OUTAGE_ERRORS: tuple[type[BaseException], ...] = (RedisConnectionError, RedisTimeoutError, OSError)

#: ``time.monotonic()`` until which each Redis address counts as down (per process).
_down_until: dict[str, float] = {}


def _missing_key(key: Any, *args: Any, **kwargs: Any) -> Any:
    raise ValueError(f"Key {key!r} not found (the cache is unavailable).")


#: The answer of each guarded method while Redis is unreachable (called with its arguments).
FALLBACKS: dict[str, Callable[..., Any]] = {
    "get": lambda key, default=None, version=None: default,
    "get_many": lambda keys, version=None: {},
    "has_key": lambda key, version=None: False,
    "add": lambda *args, **kwargs: False,
    "set": lambda *args, **kwargs: None,
    "touch": lambda *args, **kwargs: False,
    "delete": lambda *args, **kwargs: False,
    "set_many": lambda data, *args, **kwargs: list(data),
    "delete_many": lambda *args, **kwargs: None,
    "incr": _missing_key,
    "clear": lambda: False,
}


def _guarded(name: str) -> Callable[..., Any]:
    method = getattr(RedisCache, name)
    fallback = FALLBACKS[name]

    @functools.wraps(method)
    def guarded(self: FailSafeRedisCache, *args: Any, **kwargs: Any) -> Any:
        if _down_until.get(self.address, 0.0) > time.monotonic():
            return fallback(*args, **kwargs)
        try:
            return method(self, *args, **kwargs)
        except OUTAGE_ERRORS as exc:
            _down_until[self.address] = time.monotonic() + self.retry_seconds
            logger.error(
                "cache unavailable, rendering without it for %.0f s (%s): %s",
                self.retry_seconds,
                name,
                exc,
                extra={"request_id": current_request_id()},
            )
            return fallback(*args, **kwargs)

    return guarded


class ReusingRedisCacheClient(RedisCacheClient):
    """Django's Redis cache client keeping one redis-py ``Redis`` object per connection pool
    instead of building one for every cache operation (Django's default): the object only
    holds the pool, which hands each command a connection of its own, so it is safe to share
    between threads; after a fork the pool replaces its connections itself. Building one cost
    about 6 % of a public Gunicorn worker's CPU at 200 reads a second (issue 22)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        django: Any = self  # Django's own (private, unstubbed) attributes of the client
        index = django._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            pool = django._pools.get(index)
            if pool is None:
                pool = django._pool_class.from_url(django._servers[index], **django._pool_options)
                pool = django._pools.setdefault(index, pool)
            client = self._clients.setdefault(index, django._client(connection_pool=pool))
        return client


class FailSafeRedisCache(RedisCache):
    """Django's ``RedisCache`` that answers "not cached" instead of raising while Redis is
    unreachable (module docstring). ``CACHES`` entry: ``BACKEND``, ``LOCATION`` (the
    ``redis://`` URL), ``OPTIONS`` (passed to redis-py's connection pool) and the optional
    ``RETRY_SECONDS`` (float, default :data:`DEFAULT_RETRY_SECONDS`)."""

    def __init__(self, server: str | list[str], params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = ReusingRedisCacheClient
        self.retry_seconds = float(params.get("RETRY_SECONDS", DEFAULT_RETRY_SECONDS))
        self.address = server if isinstance(server, str) else ",".join(server)

    def ping(self) -> None:
        """Ask the (first) Redis server for ``PONG``, unguarded (for ``/readyz/``).

        Raises:
            redis.exceptions.ConnectionError, redis.exceptions.TimeoutError: Redis unreachable.
        """
        self._cache.get_client(write=True).ping()


for _name in FALLBACKS:
    setattr(FailSafeRedisCache, _name, _guarded(_name))


def forget_outages() -> None:
    """Forget every Redis address marked as down (tests; a process that knows Redis is back)."""
    _down_until.clear()
