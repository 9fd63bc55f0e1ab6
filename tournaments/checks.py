"""System checks (Django's check framework) that fail at start-up when the registries and the
stored data drift apart: every first-player policy, tiebreaker and game the data names has a
registry entry, and every entry is whole.

Registries: ``tournaments.domain.first_player_policies.POLICIES``,
``tournaments.domain.standings.TIEBREAKERS``, ``tournaments.domain.games.GAMES``. Stored data:
``Tournament.match_structure`` / ``tiebreakers`` and
``decks.Format.match_structure`` / ``default_tiebreakers`` / game.

Errors (``Error.id``):

* ``tournaments.E001``: a registry entry without its label, rule, source or column, or a game
  entry naming a tiebreaker that is not registered.
* ``tournaments.E002``: a tournament names a tiebreaker with no entry, or stores a match
  structure that is not valid (one naming a first-player policy with no entry among them).
* ``tournaments.E003``: a format names a policy or tiebreaker with no entry, stores an invalid
  match structure, or belongs to a game with no entry in ``GAMES``.

The stored-data checks need the tables: before the first ``migrate`` (or with the database
down) only the registries are checked.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from typing import Any

from django.core.checks import CheckMessage, Error
from django.db import DatabaseError

from tournaments.domain.first_player_policies import POLICIES
from tournaments.domain.games import GAMES
from tournaments.domain.match_structure import InvalidStructure, MatchStructure
from tournaments.domain.standings import TIEBREAKERS


def _entry_errors() -> list[CheckMessage]:
    errors: list[CheckMessage] = []
    for code, policy in POLICIES.items():
        if policy.code != code or not (
            policy.label and policy.rule and policy.source and policy.section > 0
        ):
            errors.append(
                Error(
                    f"First-player policy {code!r} lacks its code, label, rule or source.",
                    id="tournaments.E001",
                )
            )
    for code, tb in TIEBREAKERS.items():
        if tb.code != code or not (tb.label and tb.column):
            errors.append(
                Error(
                    f"Tiebreaker {code!r} lacks its code, label or column.", id="tournaments.E001"
                )
            )
    for code, game in GAMES.items():
        unknown = [c for c in game.tiebreakers if c not in TIEBREAKERS]
        if game.code != code or not game.label or unknown:
            errors.append(
                Error(
                    f"Game {code!r} lacks its code or label, or names unknown tiebreakers "
                    f"{unknown}.",
                    id="tournaments.E001",
                )
            )
    return errors


def _stored_problems(structure: Any, tiebreakers: Any, *, structure_required: bool) -> list[str]:
    """What is wrong with one row's match structure JSON (its policy code among it) and
    tiebreaker list."""
    problems = []
    if structure or structure_required:
        try:
            MatchStructure.from_dict(structure if isinstance(structure, dict) else {})
        except InvalidStructure as exc:
            problems.append(f"match structure is not valid ({exc.code}: {exc.params})")
    unknown = [c for c in (tiebreakers or []) if not isinstance(c, str) or c not in TIEBREAKERS]
    if unknown or not isinstance(tiebreakers, list | None):
        problems.append(f"tiebreakers {unknown or tiebreakers!r} have no registry entry")
    return problems


def _tournament_errors() -> Iterable[CheckMessage]:
    from tournaments.models import Tournament

    rows = Tournament.objects.order_by().values_list("match_structure", "tiebreakers").distinct()
    for structure, tiebreakers in rows:
        for problem in _stored_problems(structure, tiebreakers, structure_required=True):
            yield Error(
                f"Stored tournaments: {problem}.",
                hint="Register the entry, or correct the tournaments in the admin.",
                id="tournaments.E002",
            )


def _format_errors() -> Iterable[CheckMessage]:
    from decks.models import Format

    rows = Format.objects.order_by("slug").values_list(
        "slug", "game__slug", "match_structure", "default_tiebreakers"
    )
    for slug, game, structure, tiebreakers in rows:
        problems = _stored_problems(structure, tiebreakers, structure_required=False)
        if game not in GAMES:
            problems.append(f"its game {game!r} has no entry in tournaments.domain.games.GAMES")
        for problem in problems:
            yield Error(
                f"Format {slug!r}: {problem}.",
                hint="Register the entry, or correct the format in the admin.",
                id="tournaments.E003",
            )


def registry_drift(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """The check registered by ``TournamentsConfig.ready``: the errors listed in the module
    docstring (an empty list when all is consistent)."""
    errors = _entry_errors()
    # No tables yet (before the first migrate) or no database: the registries only.
    with contextlib.suppress(DatabaseError):
        errors += [*_tournament_errors(), *_format_errors()]
    return errors
