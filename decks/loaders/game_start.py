"""Loader for the HKK game-start effects table (``decks/data/game_start_effects.csv``).

Pure Python (no Django). Columns: ``name, kind, fixed_max_ep, ep_change, hand_change,
start_ep, horde_hand, scope, source`` (UTF-8, header row; empty number = not stated). The
bundled file ships exactly the values the HKK FAQ on rule cards and first-player rights states
(docs/rules.md §5 (HKK game start: opening hand and life points)); the rules that use them are
in :mod:`decks.domain.game_start`.
"""

from __future__ import annotations

import csv
from pathlib import Path

from decks.domain.game_start import Effect, EffectKind, Scope, normalise_name
from decks.loaders.base import DATA_DIR, CatalogueFormatError

COLUMNS: tuple[str, ...] = (
    "name",
    "kind",
    "fixed_max_ep",
    "ep_change",
    "hand_change",
    "start_ep",
    "horde_hand",
    "scope",
    "source",
)

_NUMBER_COLUMNS = ("fixed_max_ep", "ep_change", "hand_change", "start_ep", "horde_hand")

#: The bundled table.
BUNDLED_EFFECTS_CSV: Path = DATA_DIR / "game_start_effects.csv"


def _number(value: str, column: str, row: int) -> int | None:
    value = value.strip()
    if not value:
        return None
    try:
        return int(value)
    except ValueError:
        raise CatalogueFormatError(
            f"row {row}: column {column!r} must be a whole number or empty, got {value!r}"
        ) from None


def _row_to_effect(values: dict[str, str], row: int) -> Effect:
    """One stripped CSV row as an :class:`Effect`; ``row`` numbers it for error messages."""
    name = values["name"]
    if not name:
        raise CatalogueFormatError(f"row {row}: column 'name' is empty")
    try:
        kind = EffectKind(values["kind"])
    except ValueError:
        raise CatalogueFormatError(
            f"row {row}: kind must be one of {', '.join(k.value for k in EffectKind)}"
        ) from None
    try:
        scope = Scope(values["scope"])
    except ValueError:
        raise CatalogueFormatError(f"row {row}: scope must be 'everyone' or 'user'") from None
    numbers = {column: _number(values[column], column, row) for column in _NUMBER_COLUMNS}
    for column in ("fixed_max_ep", "start_ep", "horde_hand"):
        value = numbers[column]
        if value is not None and value < 0:
            raise CatalogueFormatError(f"row {row}: column {column!r} must be >= 0")
    if numbers["horde_hand"] is not None and kind is not EffectKind.HORDE_COMMANDER:
        raise CatalogueFormatError(f"row {row}: only a horde commander has horde_hand")
    return Effect(
        name=name,
        scope=scope,
        kind=kind,
        fixed_max_ep=numbers["fixed_max_ep"],
        ep_change=numbers["ep_change"],
        hand_change=numbers["hand_change"],
        start_ep=numbers["start_ep"],
        horde_hand=numbers["horde_hand"],
    )


def read_effects_csv(path: str | Path = BUNDLED_EFFECTS_CSV) -> dict[str, Effect]:
    """Read the effects table into ``{normalised name: Effect}``.

    Args:
        path: the CSV file (default: the bundled one).

    Returns:
        One :class:`~decks.domain.game_start.Effect` per row keyed by
        :func:`~decks.domain.game_start.normalise_name` of its name.

    Raises:
        CatalogueFormatError (a ``ValueError``): missing column, empty name, unknown kind or
            scope, a non-integer number, a negative ``start_ep``/``horde_hand``/
            ``fixed_max_ep``, or a name listed twice; the message names the row (header = 1).
        OSError: the file cannot be read.
    """
    effects: dict[str, Effect] = {}
    with open(path, encoding="utf-8-sig", newline="") as handle:
        reader = csv.DictReader(handle)
        header = {(name or "").strip() for name in reader.fieldnames or ()}
        missing = sorted(set(COLUMNS) - header)
        if missing:
            raise CatalogueFormatError(f"row 1: missing column(s): {', '.join(missing)}")
        for row, raw in enumerate(reader, start=2):
            values = {(k or "").strip(): (v or "").strip() for k, v in raw.items() if k}
            if not any(values.values()):
                continue
            effect = _row_to_effect(values, row)
            key = normalise_name(effect.name)
            if key in effects:
                raise CatalogueFormatError(f"row {row}: {effect.name!r} is listed twice")
            effects[key] = effect
    return effects
