"""No page or script shows a deck list's verdict from the boolean ``legal``.

A list has three verdicts: legal, illegal and unverified (nothing checked is broken, but a card
the partial catalogue lacks or an unknown fact left a rule unchecked; docs/rules.md §17 (Card
data sources and coverage)). ``legal`` is false for an unverified list, so a template or script
that branches on it shows an unverified list as illegal. Every template (``templates/`` and the
apps' ``templates/``) and every script of the apps' ``static/`` folders is scanned: template
tags and variables may not name ``legal`` (``s.legal``, ``r.deck_legal``, ``validator_legal`` …)
outside string literals, scripts may not read a ``.legal`` / ``["legal"]`` property. The verdict
to show is ``status`` / ``verdict`` / ``deck_status``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SKIPPED_DIRS = {".venv", "node_modules", ".git", "staticfiles"}

_TEMPLATE_CODE_RE = re.compile(r"\{%(.*?)%\}|\{\{(.*?)\}\}", re.S)
_STRING_RE = re.compile(r"\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'")
# An identifier (or the last part of a dotted one) that is a legality flag: legal, deck_legal,
# validator_legal, is_legal …; "illegal" and "tLegal" are other words.
_FLAG_RE = re.compile(r"(?<![\w])(?:[\w]+\.)*(?:\w+_)?legal\b")
_JS_COMMENT_RE = re.compile(r"/\*.*?\*/|(?<![:\"'\\])//[^\n]*", re.S)
_JS_FLAG_RE = re.compile(r"\.\s*legal\b|\[\s*[\"']legal[\"']\s*\]")


def _files(pattern: str, folder: str) -> list[Path]:
    found = []
    for path in ROOT.rglob(pattern):
        parts = set(path.relative_to(ROOT).parts)
        if parts & SKIPPED_DIRS or folder not in path.relative_to(ROOT).parts:
            continue
        found.append(path)
    return sorted(found)


def template_flags(source: str) -> list[str]:
    """The template tags/variables of ``source`` that name a legality flag (string literals
    and comments removed first)."""
    source = re.sub(r"\{#.*?#\}", "", source, flags=re.S)
    source = re.sub(r"\{%\s*comment\s*%\}.*?\{%\s*endcomment\s*%\}", "", source, flags=re.S)
    hits = []
    for match in _TEMPLATE_CODE_RE.finditer(source):
        code = _STRING_RE.sub('""', match.group(1) or match.group(2) or "")
        if _FLAG_RE.search(code):
            hits.append(match.group(0).strip())
    return hits


def script_flags(source: str) -> list[str]:
    """The lines of a script that read a ``legal`` property (comments removed first)."""
    code = _JS_COMMENT_RE.sub("", source)
    return [line.strip() for line in code.splitlines() if _JS_FLAG_RE.search(line)]


def test_the_scanners_find_what_they_must_and_only_that():
    assert template_flags("{% if s.legal %}x{% endif %}") == ["{% if s.legal %}"]
    assert template_flags("{% elif r.deck_legal %}") == ["{% elif r.deck_legal %}"]
    assert template_flags("{{ sub.validator_legal|yesno:'a,b' }}") != []
    assert template_flags("{% if legal %}") != []
    assert template_flags('{% if s.verdict == "legal" %}{{ e.deck_status }}') == []
    assert template_flags("{% translate 'Pair without a legal list' %}") == []
    assert template_flags("{# if s.legal #}{% if illegal_count %}") == []
    assert script_flags('badge(data.legal ? "ok" : "bad");') != []
    assert script_flags('var ok = data["legal"];') != []
    assert script_flags("var VERDICTS = { legal: 1, unverified: 2 };") == []
    assert script_flags("out.dataset.state = data.status; // not data.legal") == []
    assert script_flags("t.tLegal; t.tIllegal;") == []


TEMPLATES = _files("*.html", "templates") + _files("*.txt", "templates")
SCRIPTS = _files("*.js", "static")


def test_there_is_something_to_scan():
    names = {p.name for p in TEMPLATES} | {p.name for p in SCRIPTS}
    assert {"_submission.html", "my_deck.html", "import.html", "deck_live.js"} <= names


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_template_shows_a_verdict_from_the_legal_flag(path):
    assert template_flags(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_script_shows_a_verdict_from_the_legal_flag(path):
    assert script_flags(path.read_text(encoding="utf-8")) == []
