"""URL path converters for database ids and small numbers, bounded to their column's range.

Django's ``<int:…>`` accepts any number of digits, so ``/api/tournaments/99999999999999999999/``
reached the database and failed there (``DataError`` on PostgreSQL, ``OverflowError`` on
SQLite). These converters refuse a number beyond the column instead: the URL does not match and
the answer is an ordinary 404.

- ``<id:…>``: a ``BigAutoField`` primary key, 1 … 2^63 − 1.
- ``<userid:…>``: a ``django.contrib.auth`` user id (``AutoField``), 1 … 2^31 − 1.
- ``<small:…>``: a ``PositiveSmallIntegerField`` such as a round or table number, 0 … 32767.
"""

from __future__ import annotations

from django.urls import register_converter

BIGINT_MAX = 2**63 - 1
#: The largest database id (``BigAutoField``); serializers bound id fields with it.
ID_MAX = BIGINT_MAX
INT_MAX = 2**31 - 1
SMALLINT_MAX = 32767


class _BoundedInt:
    regex = "[0-9]{1,19}"
    maximum = BIGINT_MAX

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > self.maximum:
            raise ValueError(f"{value} is beyond {self.maximum}")
        return number

    def to_url(self, value: int) -> str:
        return str(int(value))


class IdConverter(_BoundedInt):
    """A ``BigAutoField`` primary key."""

    maximum = BIGINT_MAX


class UserIdConverter(_BoundedInt):
    """A user id (``AutoField``)."""

    regex = "[0-9]{1,10}"
    maximum = INT_MAX


class SmallConverter(_BoundedInt):
    """A round or table number (``PositiveSmallIntegerField``)."""

    regex = "[0-9]{1,5}"
    maximum = SMALLINT_MAX


register_converter(IdConverter, "id")
register_converter(UserIdConverter, "userid")
register_converter(SmallConverter, "small")
