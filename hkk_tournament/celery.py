"""The Celery application.

With no ``CELERY_BROKER_URL`` the settings turn on eager mode, so tasks run in-process; with one,
``celery -A hkk_tournament worker`` consumes them from the broker.

``HKK_WORKER_NICE`` (default empty: unchanged): the worker's CPU niceness, -20 (first) to 19
(last), set when the worker starts (``worker_init``, before it forks its pool processes, which
inherit it; ``hkk_tournament.priority``). At an event give it ``10`` like the public pool: the
recomputes and page renderings then yield the CPU to the staff pool's writes. An invalid value
stops the worker with a message naming it.
"""

from __future__ import annotations

import os
from typing import Any

from celery import Celery
from celery.signals import worker_init

from hkk_tournament.priority import NicenessError, apply_niceness, niceness_from_environment

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hkk_tournament.settings")

app = Celery("hkk_tournament")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

#: The environment variable of the worker's niceness.
WORKER_NICE = "HKK_WORKER_NICE"


@worker_init.connect
def worker_niceness(**_kwargs: Any) -> None:
    """Apply ``HKK_WORKER_NICE`` to the starting worker (module docstring). Celery only logs
    what a signal handler raises, so a refused value ends the worker here (``SystemExit``
    with the message) instead of letting it run at the wrong priority."""
    try:
        apply_niceness(WORKER_NICE, niceness_from_environment(WORKER_NICE))
    except NicenessError as exc:
        raise SystemExit(f"celery worker: {exc}") from None
