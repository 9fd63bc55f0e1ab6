"""The API's list pagination: DRF's ``?limit=&offset=`` with safe bounds.

``REST_FRAMEWORK["DEFAULT_PAGINATION_CLASS"]``. Chosen behaviour (documented in the OpenAPI
parameters and docs/production.md):

- ``limit``: default ``PAGE_SIZE`` (50); a larger value than ``HKK_API_MAX_PAGE_SIZE`` (500) is
  clamped to it (DRF's ``max_limit``), as is DRF's usual treatment of a non-number, zero or a
  negative value (the default is used);
- ``offset``: a non-number or negative value counts as 0 (DRF); a value above
  ``HKK_API_MAX_OFFSET`` (1 000 000) answers 400 ``invalid`` with ``fields["offset"]``, because
  a huge offset overflows the database's integer (500 on PostgreSQL and SQLite otherwise) and
  no list is that long.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    """Limit/offset pagination with ``limit`` ≤ ``HKK_API_MAX_PAGE_SIZE`` and ``offset`` ≤
    ``HKK_API_MAX_OFFSET`` (module docstring)."""

    def __init__(self) -> None:
        # One paginator per view call: read the bound then, so settings overrides apply.
        self.max_limit = int(settings.HKK_API_MAX_PAGE_SIZE)

    def get_offset(self, request: Request) -> int:
        offset = super().get_offset(request)
        bound = int(settings.HKK_API_MAX_OFFSET)
        if offset > bound:
            raise ValidationError(
                {self.offset_query_param: [_("At most %(bound)d.") % {"bound": bound}]}
            )
        return offset

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.limit_query_param:
                parameter["schema"]["maximum"] = self.max_limit
            elif parameter["name"] == self.offset_query_param:
                parameter["schema"]["maximum"] = int(settings.HKK_API_MAX_OFFSET)
        return parameters
