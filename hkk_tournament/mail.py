"""Whether this server can deliver e-mail at all.

Without ``EMAIL_HOST`` the settings choose Django's console backend (development: mail is
printed) or its dummy backend (production: mail is dropped). Neither reaches the person, and the
console one would print claim codes and password-reset links into the log, so features that
mail a secret ask :func:`mail_delivers` first and show the secret to the organiser instead, or
say that no mail can be sent.
"""

from __future__ import annotations

from django.conf import settings

#: Backends that never deliver a message to its recipient.
NON_DELIVERING_BACKENDS = frozenset(
    {
        "django.core.mail.backends.console.EmailBackend",
        "django.core.mail.backends.dummy.EmailBackend",
        "django.core.mail.backends.filebased.EmailBackend",
    }
)


def mail_delivers() -> bool:
    """True when ``settings.EMAIL_BACKEND`` sends mail to its recipients (SMTP, or the test
    suite's in-memory outbox); False for the console, dummy and file backends."""
    return settings.EMAIL_BACKEND not in NON_DELIVERING_BACKENDS
