"""Security headers on every response: Content-Security-Policy (django-csp), Referrer-Policy,
Permissions-Policy; and templates that keep to the policy (no inline scripts or handlers)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings as django_settings

pytestmark = pytest.mark.django_db

BASE_DIR = Path(django_settings.BASE_DIR)


def _directives(header: str) -> dict[str, list[str]]:
    parsed = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            parsed[words[0]] = words[1:]
    return parsed


@pytest.mark.parametrize("url", ["/accounts/login/", "/api/formats/", "/nincs-ilyen/", "/"])
def test_every_response_carries_the_security_headers(client, url):
    response = client.get(url)
    csp = _directives(response["Content-Security-Policy"])
    assert csp["default-src"] == ["'self'"]
    assert csp["script-src"][0] == "'self'"
    assert not [source for source in csp["script-src"] if source.startswith("'sha256-")]
    assert csp["object-src"] == ["'none'"]
    assert csp["frame-ancestors"] == ["'none'"]
    for sources in csp.values():
        assert "'unsafe-inline'" not in sources
        assert "'unsafe-eval'" not in sources
        assert not [s for s in sources if s.startswith(("http:", "https:", "*"))]
    assert response["Referrer-Policy"] == "same-origin"
    policy = response["Permissions-Policy"]
    for feature in ("camera=()", "microphone=()", "geolocation=()"):
        assert feature in policy
    assert response["X-Content-Type-Options"] == "nosniff"


def test_report_only_mode_sends_the_same_policy_without_enforcing(client, settings):
    settings.CONTENT_SECURITY_POLICY_REPORT_ONLY = settings.CONTENT_SECURITY_POLICY
    del settings.CONTENT_SECURITY_POLICY
    response = client.get("/accounts/login/")
    assert "Content-Security-Policy" not in response
    assert "default-src 'self'" in response["Content-Security-Policy-Report-Only"]


def test_swagger_ui_is_served_from_our_own_origin_with_a_nonce(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    nonce = re.search(r'<style nonce="([^"]+)"', html).group(1)
    assert f"'nonce-{nonce}'" in _directives(response["Content-Security-Policy"])["style-src"]
    assert "cdn" not in html.lower()
    assert "<script>" not in html  # every script has a src
    scripts = re.findall(r'<script src="([^"]+)"', html)
    assert any("swagger-ui-bundle.js" in s for s in scripts)
    assert all(s.startswith("/") for s in scripts)
    init = client.get("/api/docs/?script=")
    assert init.status_code == 200
    assert init["Content-Type"].startswith("application/javascript")
    for static in [s for s in scripts if s.startswith("/static/")]:
        assert client.get(static).status_code == 200, static


def test_the_language_switch_works_without_an_inline_handler(client):
    html = client.get("/accounts/login/").content.decode()
    assert '<select id="lang-select" name="language" data-autosubmit>' in html
    assert '<script src="/static/js/site.js" defer></script>' in html
    assert client.get("/static/js/site.js").status_code == 200


# --- templates keep to the policy -------------------------------------------------------------

INLINE = [
    ("inline <script>", re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*\bnonce=)[^>]*>", re.I)),
    ("event handler attribute", re.compile(r"\son[a-z]+\s*=\s*[\"']", re.I)),
    ("style attribute", re.compile(r"\sstyle\s*=\s*[\"']", re.I)),
    ("javascript: URL", re.compile(r"javascript:", re.I)),
]

#: Inline scripts, handlers and styles allowed in templates: none (the print buttons use
#: ``data-print``, handled by hkk_tournament/static/js/site.js).
KNOWN: dict[tuple[str, str], int] = {}


def _templates() -> list[Path]:
    roots = [BASE_DIR / "templates", *BASE_DIR.glob("*/templates")]
    return sorted(p for root in roots for p in root.rglob("*.html"))


def test_templates_have_no_inline_scripts_handlers_or_styles():
    found: dict[tuple[str, str], int] = {}
    for template in _templates():
        text = template.read_text(encoding="utf-8")
        for name, pattern in INLINE:
            count = len(pattern.findall(text))
            if count:
                found[(str(template.relative_to(BASE_DIR)), name)] = count
    assert found == KNOWN
