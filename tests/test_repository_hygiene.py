"""Repository hygiene: no citations of internal working material, no oversized modules.

No database. Code, tests and docs cite rules as "docs/rules.md §N (title)" or name the original
public document by title (CONTRIBUTING.md); they never point at the reference material the team
works from, and no Python module outside the migrations grows past ``MAX_MODULE_LINES``.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Directories and top-level files whose text is checked for forbidden citations.
CHECKED = (
    "accounts",
    "decks",
    "tournaments",
    "hkk_tournament",
    "tests",
    "docs",
    "bench",
    "templates",
    "README.md",
    "CONTRIBUTING.md",
)

#: Files that may keep the old wording: the migrations that first seeded it (already applied
#: on existing installs, so never edited) and the migration that rewrites it.
ALLOWED = frozenset(
    {
        "decks/migrations/0001_initial.py",
        "decks/migrations/0006_relabel_sources.py",
        "tests/test_repository_hygiene.py",
    }
)

SKIPPED_DIRS = frozenset({"__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache"})

# The forbidden strings are assembled from pieces so that this file never matches itself.
_MD = "." + "md"
FORBIDDEN = (
    ("a path into the shared reference tree", re.compile(re.escape(".." + "/shared"))),
    ("the internal rules specification", re.compile(re.escape("RULES" + _MD))),
    ("the internal style guide", re.compile(re.escape("STYLE" + _MD))),
    ("the internal tournament-practice notes", re.compile(re.escape("TOURNAMENT" + "-PRACTICE"))),
    ("a work marker: h and a number in brackets", re.compile(r"\(" + "h" + r"[0-9]+\)")),
    ("a seed file number", re.compile("seed" + r" 00[0-9]")),
    ("a seed document label", re.compile(r"\b" + "S" + r"00[0-4]\b")),
)

#: Budgets that reward cohesion: a function over this many lines of code (its docstring not
#: counted) does several things; a service with more keyword parameters than this wants a value
#: object or splitting by meaning. Module length is not limited: a module is as long as its subject.
MAX_FUNCTION_LINES = 60
MAX_SERVICE_PARAMETERS = 8

#: Directories never checked for function size.
NOT_PROJECT_CODE = frozenset({".venv", ".git", "var", "node_modules", *SKIPPED_DIRS})


def _relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _checked_files() -> Iterator[Path]:
    for name in CHECKED:
        top = ROOT / name
        if top.is_file():
            yield top
            continue
        assert top.is_dir(), f"{name} is missing"
        for path in sorted(top.rglob("*")):
            if path.is_file() and not SKIPPED_DIRS.intersection(path.relative_to(ROOT).parts):
                yield path


def _text(path: Path) -> str | None:
    """The file's text, or None for a binary file (compiled catalogues, images)."""
    data = path.read_bytes()
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _python_modules() -> Iterator[Path]:
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT).parts
        if NOT_PROJECT_CODE.intersection(parts) or "migrations" in parts:
            continue
        yield path


def test_no_file_cites_internal_working_material():
    found = []
    for path in _checked_files():
        relative = _relative(path)
        text = _text(path)
        if relative in ALLOWED or text is None:
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            for what, pattern in FORBIDDEN:
                match = pattern.search(line)
                if match:
                    found.append(f"{relative}:{number}: {what} ({match.group(0)!r})")
    assert found == [], "cite docs/rules.md or the public document instead:\n" + "\n".join(found)


def test_the_checks_see_the_files_they_are_meant_to():
    checked = {_relative(path) for path in _checked_files()}
    assert {"README.md", "docs/rules.md", "decks/domain/bluemoon.py"} <= checked
    modules = {_relative(path) for path in _python_modules()}
    assert "decks/domain/bluemoon.py" in modules
    assert not any("/migrations/" in name or name.startswith(".venv/") for name in modules)


def test_the_forbidden_patterns_match_what_they_describe():
    samples = [
        "see " + ".." + "/shared/x",
        "RULES" + _MD + " §1",
        "STYLE" + _MD,
        "TOURNAMENT" + "-PRACTICE",
        "done (" + "h8)",
        "seed" + " 000",
        "S" + "004 item 1",
    ]
    for sample, (what, pattern) in zip(samples, FORBIDDEN, strict=True):
        assert pattern.search(sample), what
    assert not any(
        pattern.search("docs/rules.md §12 (Blue Moon decks)") for _, pattern in FORBIDDEN
    )


def _code_lines(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """Lines of a function, its docstring excluded."""
    lines = (node.end_lineno or node.lineno) - node.lineno + 1
    body = node.body
    if (
        body
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    ):
        lines -= (body[0].end_lineno or body[0].lineno) - body[0].lineno + 1
    return lines


def _functions() -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    for path in _python_modules():
        relative = _relative(path)
        if relative.startswith(("tests/", "bench/")):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                yield f"{relative}:{node.name}", node


def test_no_function_outside_tests_and_migrations_is_over_the_budget():
    found = []
    for name, node in _functions():
        lines = _code_lines(node)
        allowed = MAX_FUNCTION_LINES
        if lines > allowed:
            found.append(f"{name}:{node.lineno}: {lines} lines of code (budget {allowed})")
    assert found == [], "split these functions by meaning:\n" + "\n".join(found)


def test_no_service_takes_more_than_the_parameter_budget():
    found = []
    for name, node in _functions():
        if "/services/" not in name or node.name.startswith("_"):
            continue
        arguments = node.args
        count = len(arguments.posonlyargs) + len(arguments.args) + len(arguments.kwonlyargs)
        allowed = MAX_SERVICE_PARAMETERS
        if count > allowed:
            found.append(f"{name}:{node.lineno}: {count} parameters (budget {allowed})")
    assert found == [], "group these parameters or split the service:\n" + "\n".join(found)


def test_the_budgets_measure_what_they_describe():
    tree = ast.parse('def f():\n    """Doc.\n\n    More."""\n    a = 1\n    return a\n')
    node = tree.body[0]
    assert isinstance(node, ast.FunctionDef)
    assert _code_lines(node) == 3
