"""The Celery application.

With no ``CELERY_BROKER_URL`` the settings turn on eager mode, so tasks run in-process; with one,
``celery -A hkk_tournament worker`` consumes them from the broker.
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hkk_tournament.settings")

app = Celery("hkk_tournament")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
