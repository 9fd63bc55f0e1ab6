"""System checks of the accounts app (``manage.py check``, also run by ``migrate`` and
``runserver``).

``accounts.E001``: with ``DEBUG`` off the console mail backend is refused: it prints every
password-reset link and invitation code into the server log.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Error, Tags, register

CONSOLE_BACKEND = "django.core.mail.backends.console.EmailBackend"


@register(Tags.security)
def console_mail_in_production(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    """One ``accounts.E001`` error when ``DEBUG`` is off and ``EMAIL_BACKEND`` is the console
    backend; no errors otherwise."""
    if settings.DEBUG or settings.EMAIL_BACKEND != CONSOLE_BACKEND:
        return []
    return [
        Error(
            "The console e-mail backend prints password-reset links and claim codes into the log.",
            hint="Set EMAIL_HOST (SMTP) or leave it unset (no mail is sent; codes are shown to "
            "the organiser on screen).",
            id="accounts.E001",
        )
    ]
