"""Gunicorn's access log as one JSON object per line (``logger_class`` in gunicorn.conf.py).

Each line: ``time`` (ISO 8601, local zone), ``level`` (``INFO``), ``logger``
(``gunicorn.access``), ``message`` (``"GET /path 200"``), ``method``, ``path`` (no query
string), ``status`` (int), ``bytes`` (body bytes sent, int or ``None``), ``duration_ms``
(float, the whole request in the worker), ``request_id`` (the ``X-Request-ID`` the app
returned, or ``None``), ``remote_addr`` (the peer: the reverse proxy when there is one) and
``user_agent``. Django's own line for the same request (``hkk_tournament.request``) carries the
same ``request_id`` plus the user.
"""

from __future__ import annotations

import json
import time
from typing import Any

from gunicorn.glogging import Logger  # type: ignore[import-untyped]


def _status(value: Any) -> Any:
    text = str(value).split(None, 1)[0] if value is not None else ""
    return int(text) if text.isdigit() else value


def _header(headers: Any, name: str) -> str | None:
    items = headers.items() if hasattr(headers, "items") else headers
    for key, value in items or ():
        if str(key).lower() == name:
            return str(value)
    return None


def access_record(resp: Any, environ: dict[str, Any], request_time: Any) -> dict[str, Any]:
    """The JSON-ready fields of one access log line (module docstring)."""
    method = environ.get("REQUEST_METHOD", "-")
    path = environ.get("PATH_INFO", "-")
    status = _status(getattr(resp, "status", None))
    duration_ms = round(request_time.total_seconds() * 1000, 2)
    sent = getattr(resp, "sent", None)
    return {
        "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "level": "INFO",
        "logger": "gunicorn.access",
        "message": f"{method} {path} {status}",
        "method": method,
        "path": path,
        "status": status,
        "bytes": sent if isinstance(sent, int) else None,
        "duration_ms": duration_ms,
        "request_id": _header(getattr(resp, "headers", None), "x-request-id"),
        "remote_addr": environ.get("REMOTE_ADDR"),
        "user_agent": environ.get("HTTP_USER_AGENT"),
    }


class JsonAccessLogger(Logger):
    """Gunicorn ``Logger`` whose access log lines are JSON (see :func:`access_record`)."""

    def access(self, resp: Any, req: Any, environ: dict[str, Any], request_time: Any) -> None:
        if not self.access_log_enabled:
            return
        try:
            line = json.dumps(access_record(resp, environ, request_time), default=str)
            self.access_log.info("%s", line)
        except Exception:
            self.exception("Writing the JSON access log line failed")
