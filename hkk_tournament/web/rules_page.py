"""The rules page: docs/rules.md (the rules the app enforces and their sources) rendered as a
page of the app, so that the sources shown on judge screens, player pages and slips can link to
a readable document instead of naming a file. Each ``## §N title`` heading gets the anchor
``sN`` (``/rules/#s6``).

The Markdown is rendered server-side by markdown-it-py (CommonMark plus tables) with raw HTML
disabled, so the page carries no inline script or style (CSP-safe).
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.http import require_GET
from markdown_it import MarkdownIt

#: The document rendered (part of the repository; a missing file is a server error).
RULES_PATH = Path(settings.BASE_DIR) / "docs" / "rules.md"

_SECTION = re.compile(r"^§(\d+)\b")


def section_anchor(number: int) -> str:
    """The fragment id of section ``number`` on the rules page (``6`` → ``"s6"``)."""
    return f"s{number}"


@lru_cache(maxsize=4)
def _render(mtime_ns: int) -> SafeString:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")
    tokens = md.parse(RULES_PATH.read_text(encoding="utf-8"))
    for index, token in enumerate(tokens):
        if token.type != "heading_open" or index + 1 >= len(tokens):
            continue
        match = _SECTION.match(tokens[index + 1].content)
        if match:
            token.attrSet("id", section_anchor(int(match.group(1))))
    return mark_safe(md.renderer.render(tokens, md.options, {}))  # raw HTML is disabled


def rules_html() -> SafeString:
    """docs/rules.md as HTML (headings of sections carry ``id="sN"``); re-rendered only when the
    file changes. Raises ``OSError`` if the file is missing."""
    return _render(RULES_PATH.stat().st_mtime_ns)


@require_GET
def rules(request: HttpRequest) -> HttpResponse:
    """GET /rules/: the rules the app enforces and where they come from, for anyone."""
    return render(request, "rules.html", {"rules_html": rules_html()})
