"""System checks (Django's check framework) of the ``decks`` registries: every deck section a
rule set names has an entry in ``decks.domain.sections.DECK_SECTIONS``, and every entry is
whole (``decks.domain.formats.section_drift``).

Errors (``Error.id``): ``decks.E001`` one per problem.
"""

from __future__ import annotations

from typing import Any

from django.core.checks import CheckMessage, Error

from decks.domain.formats import section_drift


def deck_section_drift(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """The check registered by ``DecksConfig.ready``: one ``decks.E001`` per problem."""
    return [
        Error(f"{problem}.", hint="Register the section or correct the rule set.", id="decks.E001")
        for problem in section_drift()
    ]
