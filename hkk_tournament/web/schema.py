"""OpenAPI pieces shared by every API: the error body and the schema class that documents it.

- :class:`ErrorResponseSerializer` describes the one error body of the API
  (``hkk_tournament.errors.error_body``)::

      {"error": {"code": str, "message": str, "fields": {field: [str]}, "params": {...}}}

  Views may name it in ``extend_schema(responses={404: ErrorResponseSerializer, ...})``; they
  need not, see below.
- :class:`ErrorAwareAutoSchema` (settings ``REST_FRAMEWORK["DEFAULT_SCHEMA_CLASS"]``) gives every
  operation a ``default`` response with that body, and gives every declared 4xx/5xx response
  that body too (keeping its description), so the schema never promises another error shape.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import Direction
from rest_framework import serializers


class ErrorSerializer(serializers.Serializer):
    """The inside of an error body: code, translated message, field messages, message values."""

    class Meta:
        ref_name = "Error"

    code = serializers.CharField(
        help_text=_("Stable machine-readable code, e.g. game_already_recorded or not_found.")
    )
    message = serializers.CharField(help_text=_("Translated message (Accept-Language)."))
    # Declared fields leave the class body (DRF's metaclass), so this does not hide ``fields``.
    fields = serializers.DictField(  # type: ignore[assignment]
        child=serializers.ListField(child=serializers.CharField()),
        help_text=_("Messages per input field; nested fields joined with dots (games.0.winner)."),
    )
    params = serializers.DictField(
        help_text=_("Values the message was built from, e.g. max_bytes or cooloff_minutes.")
    )


class ErrorResponseSerializer(serializers.Serializer):
    """Body of every API error response (any 4xx or 5xx status): ``{"error": {...}}``."""

    class Meta:
        ref_name = "ErrorResponse"

    error = ErrorSerializer()


class ErrorAwareAutoSchema(AutoSchema):
    """drf-spectacular's ``AutoSchema`` with the error body on every operation (see module)."""

    def _get_response_bodies(self, direction: Direction = "response") -> dict[str, Any]:
        responses: dict[str, Any] = super()._get_response_bodies(direction)
        if direction != "response":
            return responses
        for status_code, response in list(responses.items()):
            if status_code.isdigit() and int(status_code) >= 400:
                error = self._get_response_for_code(ErrorResponseSerializer, status_code)
                error["description"] = response.get("description") or error["description"]
                responses[status_code] = error
        if "default" not in responses:
            responses["default"] = self._get_response_for_code(ErrorResponseSerializer, "default")
            responses["default"]["description"] = str(_("Error (any other status)."))
        return responses
