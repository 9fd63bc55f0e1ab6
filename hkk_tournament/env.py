"""Typed readers for environment variables that fail loudly on bad values.

Every setting that differs between machines comes from the environment through these helpers.
A malformed value raises ``ImproperlyConfigured`` at start-up instead of being silently replaced
by a default.
"""

from __future__ import annotations

import os

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str = "") -> str:
    """Return the variable ``name`` as a string, or ``default`` when it is unset."""
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    """Return ``name`` as a bool; accepts 1/0, true/false, yes/no, on/off (any case).

    Raises:
        ImproperlyConfigured: for any other value.
    """
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean (use 1/0, true/false, yes/no).")


def env_int(name: str, default: int) -> int:
    """Return ``name`` as an int.

    Raises:
        ImproperlyConfigured: when the value is not a whole number.
    """
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a whole number.") from None


def env_list(name: str, default: list[str]) -> list[str]:
    """Return ``name`` split on commas, blanks dropped; ``default`` when unset."""
    raw = os.environ.get(name)
    if raw is None:
        return list(default)
    return [item.strip() for item in raw.split(",") if item.strip()]
