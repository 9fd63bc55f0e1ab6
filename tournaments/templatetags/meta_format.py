"""Template filters of the meta statistics: exact shares shown in the active language's number
format (Hungarian decimal comma; ``selectors.meta.percent_text``)."""

from __future__ import annotations

from fractions import Fraction

from django import template

from tournaments.selectors.meta import decimal_text, percent_text

register = template.Library()


@register.filter
def meta_percent(value: Fraction) -> str:
    """``Fraction(9, 38)`` → ``"23,68 %"`` (Hungarian)."""
    return percent_text(value)


@register.filter
def meta_decimal(value: Fraction) -> str:
    """``Fraction(3, 2)`` → ``"1,50"`` (Hungarian)."""
    return decimal_text(value)
