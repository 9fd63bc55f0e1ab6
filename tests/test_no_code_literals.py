"""No code outside the domain compares a first-player policy, game, later-games, tiebreaker,
preset or format code to a string literal: such rules live in the registries
(``tournaments.domain.first_player_policies``, ``tournaments.domain.games``,
``tournaments.domain.standings``, ``tournaments.domain.match_structure``) and are asked there.

The scan reads every module of ``tournaments`` and ``decks`` except ``domain/`` and
``migrations/`` with :mod:`ast` and reports each comparison (``==``, ``!=``, ``in``,
``not in``) with a string literal that is a registered code, with a member of a code
enumeration (``PolicyCode.HKK``), or with any string literal when the other side is named like
a code (``slug``, ``game``, ``policy`` …: the old ``"core" in fmt.slug`` sniff).
"""

from __future__ import annotations

import ast
from pathlib import Path

from django.conf import settings

from tournaments.domain.first_player_policies import POLICIES, LaterGames
from tournaments.domain.games import GAMES
from tournaments.domain.match_structure import PRESETS
from tournaments.domain.standings import TIEBREAKERS

ROOT = Path(settings.BASE_DIR)
#: Names of values that hold a code: a literal compared with them is a rule outside its home.
CODE_NAMES = frozenset(
    {"slug", "format_slug", "game", "game_slug", "policy", "first_player_policy", "later_games"}
)


def _codes() -> frozenset[str]:
    return frozenset({*POLICIES, *GAMES, *TIEBREAKERS, *PRESETS, *(str(v) for v in LaterGames)})


def _literals(node: ast.expr) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return [s for elt in node.elts for s in _literals(elt)]
    if isinstance(node, ast.Call) and getattr(node.func, "id", "") in {"frozenset", "set"}:
        return [s for arg in node.args for s in _literals(arg)]
    return []


#: Enumerations of codes: comparing with a member is a literal comparison spelled differently.
CODE_ENUMS = frozenset({"PolicyCode", "LaterGames"})


def _enum_members(node: ast.expr) -> list[str]:
    return [
        n.attr
        for n in ast.walk(node)
        if isinstance(n, ast.Attribute)
        and isinstance(n.value, ast.Name)
        and n.value.id in CODE_ENUMS
    ]


def _names(node: ast.expr) -> set[str]:
    return {
        n.id if isinstance(n, ast.Name) else n.attr
        for n in ast.walk(node)
        if isinstance(n, ast.Name | ast.Attribute)
    }


def literal_comparisons(root: Path) -> list[str]:
    """``path:line: source`` of every offending comparison under ``root/{tournaments,decks}``
    (``domain/`` and ``migrations/`` left out)."""
    codes = _codes()
    found: list[tuple[str, int, str | None]] = []
    for package in ("tournaments", "decks"):
        for path in sorted((root / package).rglob("*.py")):
            if {"domain", "migrations"} & set(path.relative_to(root).parts):
                continue
            source = path.read_text(encoding="utf-8")
            for node in ast.walk(ast.parse(source)):
                if not isinstance(node, ast.Compare):
                    continue
                if not all(
                    isinstance(op, ast.Eq | ast.NotEq | ast.In | ast.NotIn) for op in node.ops
                ):
                    continue
                sides = [node.left, *node.comparators]
                literals = [s for side in sides for s in _literals(side)]
                named = set().union(*(_names(side) for side in sides)) & CODE_NAMES
                members = [m for side in sides for m in _enum_members(side)]
                if set(literals) & codes or (literals and named) or members:
                    where = path.relative_to(root)
                    found.append((str(where), node.lineno, ast.get_source_segment(source, node)))
    return [f"{where}:{line}: {text}" for where, line, text in sorted(found)]


def test_no_policy_game_or_format_code_is_compared_to_a_literal_outside_the_domain():
    assert literal_comparisons(ROOT) == []


def test_the_scan_finds_such_a_comparison(tmp_path):
    module = tmp_path / "tournaments" / "pages" / "x.py"
    module.parent.mkdir(parents=True)
    module.write_text(
        'def f(s, fmt):\n    return s.policy != "hkk" or "core" in fmt.slug\n'
        "def g(s):\n    return s.policy == PolicyCode.WOW\n",
        encoding="utf-8",
    )
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "ok.py").write_text('x = {"a": 1}\nok = x == "a"\n', encoding="utf-8")
    assert [f.split(": ", 1)[0] for f in literal_comparisons(tmp_path)] == [
        "tournaments/pages/x.py:2",
        "tournaments/pages/x.py:2",
        "tournaments/pages/x.py:4",
    ]
    assert '"core" in fmt.slug' in literal_comparisons(tmp_path)[0]
