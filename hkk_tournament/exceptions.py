"""The API's one mapping from exceptions to HTTP responses (settings ``REST_FRAMEWORK``).

``api_exception_handler`` extends DRF's default handler:

- ``RequestDataTooBig`` (body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` bytes) → 413
  ``{"detail", "code": "request_too_large", "max_bytes"}``;
- ``TooManyFieldsSent`` / ``TooManyFilesSent`` → 413 with the same shape and their own codes;
- Django's ``ValidationError`` (raised by model validation or services) → 400
  ``{"detail": [messages], "code": "invalid"}`` (or the field → messages dict);
- ``ObjectDoesNotExist`` → 404;
- everything DRF knows (``APIException``, ``Http404``, ``PermissionDenied``) as DRF answers it.

Errors DRF does not know stay unhandled (500, logged), so bugs are not disguised as 4xx.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import (
    ObjectDoesNotExist,
    RequestDataTooBig,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext as _
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback


def too_large_payload(exc: Exception) -> dict[str, Any] | None:
    """The JSON body for an over-limit request, or ``None`` if ``exc`` is not one.

    Shape: ``{"detail": str, "code": str, "max_bytes": int}`` (``max_bytes`` only for the
    body size).
    """
    if isinstance(exc, RequestDataTooBig):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        return {
            "detail": _(
                "The request body is too large: at most %(limit)d bytes (%(kib)d KiB) are accepted."
            )
            % {"limit": limit, "kib": limit // 1024},
            "code": "request_too_large",
            "max_bytes": limit,
        }
    if isinstance(exc, TooManyFieldsSent):
        return {"detail": _("The request has too many fields."), "code": "too_many_fields"}
    if isinstance(exc, TooManyFilesSent):
        return {"detail": _("The request has too many files."), "code": "too_many_files"}
    return None


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF ``EXCEPTION_HANDLER``: map ``exc`` to a JSON ``Response`` or return ``None`` (→ 500)."""
    payload = too_large_payload(exc)
    if payload is not None:
        set_rollback()
        return Response(payload, status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
    if isinstance(exc, DjangoValidationError):
        set_rollback()
        if hasattr(exc, "error_dict"):
            detail: Any = {
                field: [str(m) for m in msgs] for field, msgs in exc.message_dict.items()
            }
        else:
            detail = [str(m) for m in exc.messages]
        return Response({"detail": detail, "code": "invalid"}, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, ObjectDoesNotExist):
        set_rollback()
        return Response(
            {"detail": _("Not found."), "code": "not_found"}, status=status.HTTP_404_NOT_FOUND
        )
    return drf_exception_handler(exc, context)
