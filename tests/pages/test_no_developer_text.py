"""The Hungarian pages and printouts carry no developer text: no source path (``docs/``,
``.md``, ``manage.py``), no setting name (``UPPER_SNAKE``) and no common English word.

A realistic HKK event (two rounds recorded, a no-show dropped with a bye for the opponent,
finished and reopened with a reason) and a WoW TCG event (best of three, one match recorded)
are rendered in Hungarian for every role: the
public pages, the player's, the judge's and the organiser's, plus the three PDFs (their text
extracted with pypdf). The rules page is the one exception: it *is* the source document and
says so (it is marked ``lang="en"``).
"""

from __future__ import annotations

import io
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from tests.factories import (
    UserFactory,
    hkk_catalogue,  # noqa: F401 (fixture)
    make_tournament,
)
from tournaments import services
from tournaments.models import Tournament
from tournaments.permissions import SYSTEM

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("hkk_catalogue")]

#: Developer text: a path into the repository, a management command, a setting name.
FORBIDDEN = re.compile(r"docs/|\.md\b|manage\.py|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b")
#: Common English words that a Hungarian page never needs (whole words, any case; none of
#: them is also a Hungarian word).
ENGLISH = re.compile(
    r"\b(the|and|of|with|from|your|you|this|that|for|not|all|new|edit|print|source|rules?|"
    r"round|table|games?|best|winner|players?|draw|match|entry|entries|event|standings|"
    r"pairings|dropped|waived|none|yes|first|policy|chooses|submit|save|deck|status|bye|"
    r"report|result|score|clock|minutes|name|code|drop|check|finish|start|won|lost|points|"
    r"back|open|organiser|judge|penalty|history|reason|search|page|next|previous)\b",
    re.IGNORECASE,
)
#: English a Hungarian page may carry: a game's own name, and the English section headings a
#: deck list may use (the help text of the list field names them as accepted input).
ALLOWED = ("World of Warcraft", "Deck:, Sideboard:, Rule card:, Follower:,")
#: Attributes whose text a user reads or hears.
READ_ATTRIBUTES = {"aria-label", "title", "placeholder", "alt"}


class _VisibleText(HTMLParser):
    """The text a user reads: text nodes and read attributes, without scripts, styles, the
    ``<head>`` and anything inside an element marked ``lang="en"``."""

    SKIP = {"script", "style", "head", "template"}
    VOID = {"br", "img", "input", "meta", "link", "hr", "source", "wbr", "col", "area"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[tuple[str, bool]] = []
        self.parts: list[str] = []

    def _skipping(self) -> bool:
        return any(skip for _, skip in self.stack)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        skip = tag in self.SKIP or attributes.get("lang") == "en"
        if not skip and not self._skipping():
            self.parts += [v for k, v in attrs if k in READ_ATTRIBUTES and v]
        if tag not in self.VOID:
            self.stack.append((tag, skip))

    def handle_endtag(self, tag: str) -> None:
        for index in range(len(self.stack) - 1, -1, -1):
            if self.stack[index][0] == tag:
                del self.stack[index:]
                return

    def handle_data(self, data: str) -> None:
        if not self._skipping() and data.strip():
            self.parts.append(data.strip())


def visible_text(html: str) -> str:
    parser = _VisibleText()
    parser.feed(html)
    return "\n".join(parser.parts)


def pdf_text(content: bytes) -> str:
    return "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(content)).pages)


def offences(text: str) -> list[str]:
    """Each line of ``text`` holding developer text or an English word, with the culprit."""
    found = []
    for allowed in ALLOWED:
        text = text.replace(allowed, "")
    for line in text.splitlines():
        for pattern in (FORBIDDEN, ENGLISH):
            hit = pattern.search(line)
            if hit:
                found.append(f"{hit.group(0)!r} in {line.strip()[:160]!r}")
    return found


def _client(user=None) -> Client:
    c = Client()
    c.cookies["django_language"] = "hu"
    if user is not None:
        c.force_login(user)
    return c


def _hkk_event(users) -> Tournament:
    t, entries = make_tournament(entries=6, decks=False, owner=users["szervezo"])
    Tournament.objects.filter(pk=t.pk).update(name="Tavaszi verseny", venue="Budapest")
    t.refresh_from_db()
    mine = services.entry_self_register(tournament=t, user=users["jatekos"])
    services.entry_override_deck(actor=SYSTEM, entry=mine, reason="kézi ellenőrzés")
    services.staff_appoint(tournament=t, user=users["biro"], role="judge", actor=users["szervezo"])
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    for number in (1, 2):
        rnd = services.round_publish(
            actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t, seed=number)
        )
        if number == 2:
            paired = rnd.matches.filter(entry_b__isnull=False).order_by("table")[0]
            assert paired.entry_b is not None
            services.entry_drop_with_bye(
                entry=paired.entry_b, actor=users["szervezo"], reason="nem jelent meg"
            )
        for m in rnd.matches.filter(entry_b__isnull=False, games__isnull=True):
            services.match_result_record(
                actor=SYSTEM, match=m, result="2-1-0", die_roll_winner=m.entry_a
            )
        services.round_finish(actor=SYSTEM, round=rnd)
    t = services.tournament_finish(actor=SYSTEM, tournament=t)
    t = services.tournament_reopen(tournament=t, actor=users["szervezo"], reason="elírt eredmény")
    return t


def _wow_event(users) -> Tournament:
    t, _ = make_tournament(
        entries=4, decks=False, owner=users["szervezo"], format_slug="wow-constructed"
    )
    Tournament.objects.filter(pk=t.pk).update(name="Azeroth kupa")
    services.staff_appoint(tournament=t, user=users["biro"], role="judge", actor=users["szervezo"])
    t = services.tournament_start(actor=SYSTEM, tournament=Tournament.objects.get(pk=t.pk))
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t, seed=5)
    )
    m = rnd.matches.filter(entry_b__isnull=False).order_by("table")[0]
    services.match_result_record(actor=SYSTEM, match=m, result="2-0", die_roll_winner=m.entry_b)
    return t


def _urls(t: Tournament, *, entry_id: int) -> list[tuple[str, str]]:
    """(role, url) of the pages of ``t`` with its first published round."""
    rnd = t.rounds.order_by("number").first()
    assert rnd is not None
    table = rnd.matches.filter(entry_b__isnull=False).order_by("table")[0].table
    args = [t.pk]
    round_args = [t.pk, rnd.number]
    return [
        ("anonymous", reverse("tournaments:list")),
        ("anonymous", reverse("tournaments:detail", args=args)),
        ("anonymous", reverse("tournaments:round", args=round_args)),
        ("anonymous", reverse("tournaments:round-by-name", args=round_args)),
        ("anonymous", reverse("tournaments:standings", args=args)),
        ("anonymous", reverse("tournaments:live", args=args)),
        ("anonymous", reverse("tournaments:round-projector", args=round_args)),
        ("anonymous", reverse("decks:validate")),
        ("jatekos", reverse("tournaments:my-events")),
        ("jatekos", reverse("tournaments:detail", args=args)),
        ("biro", reverse("tournaments:judge", args=args)),
        ("biro", reverse("tournaments:match", args=[*round_args, table])),
        ("biro", reverse("tournaments:round", args=round_args)),
        ("biro", reverse("tournaments:deck-checks", args=round_args)),
        ("biro", reverse("tournaments:penalties", args=args)),
        ("szervezo", reverse("tournaments:dashboard")),
        ("szervezo", reverse("tournaments:create")),
        ("szervezo", reverse("tournaments:detail", args=args)),
        ("szervezo", reverse("tournaments:round", args=round_args)),
        ("szervezo", reverse("tournaments:match", args=[*round_args, table])),
        ("szervezo", reverse("tournaments:staff", args=args)),
        ("szervezo", reverse("tournaments:claim-codes", args=args)),
        ("szervezo", reverse("tournaments:entry-drop", args=[t.pk, entry_id])),
        ("szervezo", reverse("tournaments:entry-deck", args=[t.pk, entry_id])),
        ("szervezo", reverse("tournaments:history", args=args)),
        ("szervezo", reverse("tournaments:finish", args=args)),
    ]


def _pdfs(t: Tournament) -> list[str]:
    round_args = [t.pk, t.rounds.order_by("number")[0].number]
    return [
        reverse("tournaments:print-pairings", args=round_args),
        reverse("tournaments:print-slips", args=round_args),
        reverse("tournaments:print-standings", args=[t.pk]),
        reverse("tournaments:claim-sheet", args=[t.pk]),
    ]


def _unverified_check() -> str:
    """The public checker's answer to an HKK list with one name the catalogue lacks (the
    "unverified" verdict and its advice)."""
    example = Path(settings.BASE_DIR) / "examples" / "hkk-legal.txt"
    lines = example.read_text(encoding="utf-8").splitlines(keepends=True)
    text = "".join(line for line in lines if not line.startswith("#"))  # the user's own text
    assert "3 Gigaököl\n" in text
    response = _client().post(
        reverse("decks:validate"),
        {"format": "hkk", "text": text.replace("3 Gigaököl\n", "3 Gigaökööl\n")},
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert 'data-status="unverified"' in page or "unverified-note" in page, "not unverified"
    return page


def test_hungarian_pages_and_printouts_carry_no_developer_text_or_english():
    users = {name: UserFactory(username=name) for name in ("szervezo", "biro", "jatekos")}
    hkk = _hkk_event(users)
    wow = _wow_event(users)
    clients = {"anonymous": _client(), **{name: _client(user) for name, user in users.items()}}
    problems: list[str] = []
    checked = 0
    for t in (hkk, wow):
        entry_id = t.entries.order_by("id").first().pk
        player_pages = [
            ("jatekos", reverse(name, args=[t.pk]))
            for name in ("tournaments:my-match", "tournaments:my-deck")
        ]
        for role, url in _urls(t, entry_id=entry_id) + (player_pages if t == hkk else []):
            response = clients[role].get(url)
            assert response.status_code == 200, (role, url, response.status_code)
            text = visible_text(response.content.decode())
            problems += [f"{role} {url}: {o}" for o in offences(text)]
            checked += 1
        for url in _pdfs(t):
            response = clients["szervezo"].get(url)
            assert response.status_code == 200, url
            assert response["Content-Type"] == "application/pdf"
            problems += [f"PDF {url}: {o}" for o in offences(pdf_text(response.content))]
            checked += 1
    problems += [f"checker: {o}" for o in offences(visible_text(_unverified_check()))]
    checked += 1
    print(f"pages and printouts checked: {checked}")
    assert not problems, "\n".join(problems)


def test_the_check_catches_developer_text_and_english():
    """The checks themselves: a page with each kind of developer text fails."""
    html = (
        "<html><head><title>x</title></head><body><p>(forrás: docs/rules.md §6)</p>"
        '<p>Best of 3</p><p>HKK_CATALOGUE_URL</p><p lang="en">The rules</p>'
        '<button aria-label="Save">x</button><p>Kovács Anna nyert</p></body></html>'
    )
    found = "\n".join(offences(visible_text(html)))
    for culprit in ("'docs/'", "'Best'", "'HKK_CATALOGUE_URL'", "'Save'"):
        assert culprit in found, found
    assert "The rules" not in found and "Kovács" not in found
    assert not offences("Kovács Anna · 3. forduló · HKK GYIK, a szabályok 6. pontja")


def test_rules_page_has_an_anchor_per_section():
    page = _client().get(reverse("rules")).content.decode()
    for number in (1, 6, 11, 13, 17):
        assert f'id="s{number}"' in page
    assert "<script>" not in page and "style=" not in page
