"""Rebuild ``cards.csv`` and ``prints.csv`` of this folder from a WoWTCG-Tracker checkout.

Usage: ``python decks/data/wowtcg/tracker/make_tables.py ASSETS_DIR`` where ``ASSETS_DIR`` holds
``cards.json`` and ``prints.json`` of github.com/WoWTCG-Tracker/wowtcg-tracker-api @
50e7613b7cdcf01cd5d11a32cd6c5fdb390decf1 (``assets/``; GPL-3.0, see ``LICENSE-GPL-3.0.txt``).

Facts only: the printed card text (``card_print_text_front`` / ``_back``) is read for one fact,
the bold "… Hero Required" line, whose tokens go to ``hero_required``; no text is written.
Stdlib only; the output is sorted and stable, so a rerun on the same commit changes nothing.
"""

from __future__ import annotations

import csv
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
_REQUIRED = re.compile(r"^\s*(.+?)\s+Hero Required", re.MULTILINE)


def _tokens(text: str | None) -> list[str]:
    found: list[str] = []
    for match in _REQUIRED.finditer(text or ""):
        for raw in re.split(r",|\bor\b", match.group(1)):
            token = raw.strip().strip("[]").strip()
            if token and token not in found:
                found.append(token)
    return found


def main(assets: Path) -> None:
    """Write ``cards.csv`` (one row per card name) and ``prints.csv`` (one row per printing)."""
    cards = json.loads((assets / "cards.json").read_text(encoding="utf-8"))
    prints = json.loads((assets / "prints.json").read_text(encoding="utf-8"))
    required: dict[str, list[str]] = {}
    for row in prints:
        for token in _tokens(row["card_print_text_front"]):
            required.setdefault(row["card_name"], [])
            if token not in required[row["card_name"]]:
                required[row["card_name"]].append(token)
    with open(HERE / "cards.csv", "w", encoding="utf-8", newline="") as handle:
        out = csv.writer(handle, lineterminator="\n")
        out.writerow(
            [
                "name",
                "category",
                "cost",
                "classes",
                "types",
                "attack_type",
                "legalities",
                "hero_required",
            ]
        )
        for name in sorted(cards):
            card = cards[name]
            out.writerow(
                [
                    name,
                    card["card_category"],
                    card["card_mana_cost"] or "",
                    "|".join(dict.fromkeys(card["card_classes"])),
                    "|".join(card["card_types"]),
                    card["card_attack_type"] or "",
                    "|".join(sorted(card["card_legalities"])),
                    "|".join(required.get(name, [])),
                ]
            )
    with open(HERE / "prints.csv", "w", encoding="utf-8", newline="") as handle:
        out = csv.writer(handle, lineterminator="\n")
        out.writerow(["name", "set", "number", "rarity"])
        for row in prints:
            out.writerow(
                [
                    row["card_name"],
                    row["card_print_expansion_name"],
                    row["card_print_id_in_exapansion"],
                    row["card_print_rarity"],
                ]
            )


if __name__ == "__main__":
    main(Path(sys.argv[1]))
