"""The ASGI application (uvicorn, docs/production.md): the live event streams
(``/tournaments/<id>/events/``, ``tournaments.pages.live_push.events_app``, with the session's
user from Channels' ``AuthMiddlewareStack``) and every other request through Django."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hkk_tournament.settings")
django_application = get_asgi_application()  # sets Django up before the imports below

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import URLRouter  # noqa: E402
from django.urls import path, re_path  # noqa: E402

from tournaments.pages.live_push import events_app  # noqa: E402

application = URLRouter(
    [
        path("tournaments/<int:tournament_id>/events/", AuthMiddlewareStack(events_app)),
        re_path(r"", django_application),  # type: ignore[arg-type]
    ]
)
