"""CPU priority of the app's processes: at an event the public pool (and the task worker's
rendering and recomputes) run at a lower scheduling priority than the staff pool, so that on a
busy machine the judges' result slips, games and clock get the CPU first and the public reads
wait (and are shed, ``hkk_tournament/web/shedding.py``) instead (docs/production.md, "Two
pools").

The priority is a Unix niceness, read from an environment variable: ``GUNICORN_NICE`` for a
Gunicorn pool (``gunicorn.conf.py`` applies it in the master's ``on_starting`` hook, before it
forks any worker, so every worker and every recycled worker inherits it), ``HKK_WORKER_NICE``
for the Celery worker's pool processes (``hkk_tournament/celery.py``, ``worker_process_init``).
Empty or unset: the priority is left as the process got it (e.g. systemd's ``Nice=``).

Standard library only: ``gunicorn.conf.py`` imports it before Django is set up.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = [
    "MAX_NICE",
    "MIN_NICE",
    "NicenessError",
    "apply_niceness",
    "apply_session_niceness",
    "niceness_from_environment",
    "parse_niceness",
]

#: The range of a Linux niceness: -20 (first) to 19 (last).
MIN_NICE = -20
MAX_NICE = 19


class NicenessError(ValueError):
    """A niceness setting that cannot be applied (not an integer, out of range, or below the
    current niceness without the privilege to raise a priority). Its message names the
    variable and the value."""


def parse_niceness(name: str, text: str | None) -> int | None:
    """The niceness that ``text`` (the value of the environment variable ``name``) asks for:
    an integer from :data:`MIN_NICE` to :data:`MAX_NICE` (surrounding blanks ignored);
    ``None`` when ``text`` is unset or empty (leave the priority alone).

    Raises:
        NicenessError: ``text`` is not an integer or lies outside that range.
    """
    if text is None or not text.strip():
        return None
    try:
        value = int(text.strip())
    except ValueError:
        raise NicenessError(
            f"{name}={text!r} is not a niceness: give an integer from {MIN_NICE} (first) to "
            f"{MAX_NICE} (last), e.g. {name}=10 to run after the staff pool, or leave it empty"
        ) from None
    if not MIN_NICE <= value <= MAX_NICE:
        raise NicenessError(
            f"{name}={value} is out of range: a niceness lies from {MIN_NICE} (first) to "
            f"{MAX_NICE} (last)"
        )
    return value


def niceness_from_environment(name: str) -> int | None:
    """:func:`parse_niceness` of the environment variable ``name`` (same errors)."""
    return parse_niceness(name, os.environ.get(name))


def apply_niceness(name: str, value: int | None) -> int:
    """Set this process's niceness to ``value`` (absolute, not an increment: the same value
    whatever the starting one; children forked afterwards inherit it), and to its session's
    autogroup when it leads the session (:func:`apply_session_niceness`); ``None`` changes
    nothing. Returns the niceness now in force.

    Raises:
        NicenessError: ``value`` is below the current niceness and the process may not raise
            its priority (not root, no ``CAP_SYS_NICE``; under systemd use ``Nice=`` instead).
    """
    if value is not None:
        try:
            os.setpriority(os.PRIO_PROCESS, 0, value)
        except PermissionError:
            current = os.getpriority(os.PRIO_PROCESS, 0)
            raise NicenessError(
                f"{name}={value}: this process (niceness {current}) may not raise its own "
                "priority; start it with a lower niceness (systemd Nice=) or leave "
                f"{name} at {current} or above"
            ) from None
        apply_session_niceness(value)
    return os.getpriority(os.PRIO_PROCESS, 0)


#: Where Linux shows and sets the niceness of this process's *autogroup* (the scheduling group
#: of its session when ``kernel.sched_autogroup_enabled`` is 1: sched(7), "The autogroup
#: feature").
AUTOGROUP = Path("/proc/self/autogroup")


def apply_session_niceness(value: int, autogroup: Path = AUTOGROUP) -> bool:
    """Give ``value`` to this process's autogroup too when the process leads its own session
    (started by ``setsid``, a supervisor or a service manager without CPU control groups): with
    autogroups the kernel first shares the CPU equally between sessions and applies a
    process's niceness only within its session, so a pool at niceness 10 alone in its session
    would still get as much CPU as the staff pool in another (measured: result slips at p99
    714 ms instead of 85 ms with the public reads at twice their capacity, README "Big
    events"). A process that does not lead its session (started from a shell beside the other
    pools) shares its autogroup with them and leaves it alone; so does a system without
    autogroups (no such file, or the feature off: the write then has no effect). Returns
    whether the autogroup's niceness was set; a refusal (raising a priority needs
    ``CAP_SYS_NICE``) leaves it as it was and returns ``False``."""
    if os.getsid(0) != os.getpid():
        return False
    try:
        autogroup.write_text(f"{value}\n", encoding="ascii")
    except OSError:
        return False
    return True
