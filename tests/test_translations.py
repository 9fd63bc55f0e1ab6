"""The Hungarian catalogue (``locale/hu/LC_MESSAGES/django.po``): complete, placeholders intact,
compiled, and actually used by the pages (Hungarian is the default language).

CI has no GNU gettext, so whether every wrapped string was extracted cannot be checked here
(``make messages`` re-extracts on a developer machine); instead the key pages are rendered in
the default language and must show Hungarian, not the English msgids.
"""

from __future__ import annotations

import re
from collections import Counter
from html import unescape
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from decks.domain import codes
from decks.domain.types import Violation
from decks.messages import MESSAGES, message_for
from tests.factories import UserFactory, make_tournament
from tournaments import services
from tournaments.permissions import SYSTEM

LOCALE_DIR = Path(settings.BASE_DIR) / "locale"
PO_PATH = LOCALE_DIR / "hu" / "LC_MESSAGES" / "django.po"
MO_PATH = PO_PATH.with_suffix(".mo")

#: What must survive translation unchanged: printf-style and brace placeholders, HTML tags.
PLACEHOLDER = re.compile(
    r"%\([^)]+\)[#0\- +]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]"
    r"|%[#0\- +]*\d*(?:\.\d+)?[diouxXeEfFgGcrs]"
    r"|%%"
    r"|\{[A-Za-z_][A-Za-z0-9_]*\}"
    r"|</?[A-Za-z][^>]*>"
)


@pytest.fixture(scope="module")
def catalogue_po() -> polib.POFile:
    assert PO_PATH.exists(), f"{PO_PATH} is missing: run `make messages` and translate it"
    return polib.pofile(str(PO_PATH))


def live_entries(po: polib.POFile) -> list[polib.POEntry]:
    return [entry for entry in po if not entry.obsolete]


def forms_of(entry: polib.POEntry) -> list[tuple[str, str]]:
    """(source, translation) pairs: one for a plain entry, one per plural form otherwise."""
    if not entry.msgid_plural:
        return [(entry.msgid, entry.msgstr)]
    return [
        (entry.msgid if n == 0 else entry.msgid_plural, text)
        for n, text in sorted(entry.msgstr_plural.items())
    ]


# --- (a) the .po file is complete --------------------------------------------------------------


def test_header_declares_hungarian_with_its_plural_rule(catalogue_po):
    assert catalogue_po.metadata["Language"] == "hu"
    assert catalogue_po.metadata["Plural-Forms"] == "nplurals=2; plural=(n != 1);"
    assert catalogue_po.metadata["Content-Type"] == "text/plain; charset=UTF-8"
    assert not catalogue_po.metadata_is_fuzzy


def test_catalogue_is_not_trivially_small(catalogue_po):
    # Guards the other tests against an accidentally emptied file.
    assert len(live_entries(catalogue_po)) > 500


def test_every_entry_is_translated_and_none_is_fuzzy(catalogue_po):
    fuzzy = [e.msgid for e in live_entries(catalogue_po) if "fuzzy" in e.flags]
    untranslated = [
        e.msgid
        for e in live_entries(catalogue_po)
        if any(not text.strip() for _source, text in forms_of(e))
    ]
    assert fuzzy == []
    assert untranslated == []


def test_every_plural_entry_has_both_hungarian_forms(catalogue_po):
    plurals = [e for e in live_entries(catalogue_po) if e.msgid_plural]
    assert plurals, "the catalogue has plural entries (the deck page counts cards)"
    incomplete = [e.msgid for e in plurals if sorted(e.msgstr_plural) != [0, 1]]
    assert incomplete == []


# --- (b) placeholders survive ------------------------------------------------------------------


def test_placeholders_and_tags_match_the_msgid(catalogue_po):
    wrong = [
        (source, text)
        for entry in live_entries(catalogue_po)
        for source, text in forms_of(entry)
        if Counter(PLACEHOLDER.findall(text)) != Counter(PLACEHOLDER.findall(source))
    ]
    assert wrong == []


def test_line_structure_matches_the_msgid(catalogue_po):
    # msgfmt --check rule: same leading/trailing newline, and here the same number of lines.
    wrong = [
        source
        for entry in live_entries(catalogue_po)
        for source, text in forms_of(entry)
        if (
            text.count("\n") != source.count("\n")
            or text.startswith("\n") != source.startswith("\n")
            or text.endswith("\n") != source.endswith("\n")
        )
    ]
    assert wrong == []


def test_placeholder_check_catches_a_lost_placeholder():
    # The check above must be able to fail: a dropped or renamed placeholder is seen.
    source = "The deck has %(count)s cards; at least %(minimum)s are required."
    assert Counter(PLACEHOLDER.findall("A pakliban %(count)s lap van.")) != Counter(
        PLACEHOLDER.findall(source)
    )
    assert Counter(PLACEHOLDER.findall("Bejelentkezve mint %(user)s.")) != Counter(
        PLACEHOLDER.findall("Logged in as <strong>%(username)s</strong>.")
    )


def test_compiled_catalogue_is_current(catalogue_po, tmp_path):
    """The .mo Django reads is the compilation of the committed .po (``make translations``)."""
    assert MO_PATH.exists(), (
        "run `make translations` (python -m hkk_tournament.compile_translations)"
    )
    fresh = tmp_path / "django.mo"
    catalogue_po.save_as_mofile(str(fresh))
    assert MO_PATH.read_bytes() == fresh.read_bytes(), "stale django.mo: run `make translations`"


# --- (c) the pages are Hungarian by default ----------------------------------------------------


def page_text(response) -> str:
    """The visible text of a page: tags (and so class names, URLs, test ids) removed."""
    assert response.status_code == 200
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", response.content.decode(), flags=re.S)
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


@pytest.mark.django_db
@pytest.mark.usefixtures("catalogue")
def test_deck_check_page_is_hungarian_by_default():
    response = Client().get(reverse("decks:validate"))
    assert '<html lang="hu">' in response.content.decode()
    html = page_text(response)
    for hungarian in (
        "Pakliellenőrzés",
        "Paklilista",
        "Formátum",
        "Pakli ellenőrzése",
        "Versenyek",
    ):
        assert hungarian in html
    for english in ("Check deck", "Paste your deck list", "Deck list", "Tournaments", "Log in"):
        assert english not in html


@pytest.mark.django_db
@pytest.mark.usefixtures("catalogue")
def test_deck_check_result_is_hungarian_by_default():
    text = "Pakli:\n4 Gigaököl\n3 Garokk\n\nSzabálylap: Ősi rúna\n"
    html = page_text(Client().post(reverse("decks:validate"), {"format": "hkk", "text": text}))
    assert "Szabálytalan" in html
    assert "2 hiba, 0 figyelmeztetés" in html
    assert "A pakliban 7 lap van; legalább 45 szükséges." in html
    assert "„Gigaököl”: 4 példány" in html
    assert "7 lap" in html
    for english in ("Illegal", "The deck has", "copies of", "Whole deck", "Your list"):
        assert english not in html


@pytest.mark.django_db
@pytest.mark.usefixtures("catalogue")
def test_deck_check_page_still_switches_to_english():
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    html = page_text(client.get(reverse("decks:validate")))
    assert "Check deck" in html and "Pakli ellenőrzése" not in html


@pytest.mark.django_db
def test_login_page_is_hungarian_by_default():
    html = page_text(Client().get(reverse("login")))
    for hungarian in ("Bejelentkezés", "Még nincs fiókod?", "Elfelejtetted a jelszavad?"):
        assert hungarian in html
    for english in ("No account yet?", "Forgotten your password?", "Sign up"):
        assert english not in html


@pytest.mark.django_db
def test_tournament_list_is_hungarian_by_default():
    html = page_text(Client().get(reverse("tournaments:list")))
    assert "Még nincsenek versenyek." in html
    assert "There are no tournaments yet." not in html


@pytest.mark.django_db
def test_tournament_pages_are_hungarian_by_default():
    owner = UserFactory(username="szervezo")
    tournament, _ = make_tournament(entries=3, decks=False, owner=owner)
    tournament = services.tournament_start(actor=SYSTEM, tournament=tournament)
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=tournament, seed=7)
    )
    client = Client()
    client.force_login(owner)

    detail = page_text(client.get(reverse("tournaments:detail", args=[tournament.pk])))
    for hungarian in ("Nevezők", "Fordulók", "folyamatban", "A következő forduló párosítása"):
        assert hungarian in detail
    for english in ("Entries", "Pair the next round", "Finish the tournament", "running"):
        assert english not in detail

    round_html = page_text(client.get(reverse("tournaments:round", args=[tournament.pk, 1])))
    assert "Kezdés joga" in round_html
    assert "1. játszma: kockadobás dönt" in round_html
    assert "erőnyerő" in round_html  # 3 entries: one has a bye
    for english in ("Right to go first", "a die roll decides", "Pairings by name", " bye "):
        assert english not in round_html
    assert rnd.number == 1


# --- (d) domain messages render in Hungarian ---------------------------------------------------


def test_violation_message_renders_in_hungarian():
    violation = Violation(codes.TOO_MANY_COPIES, {"count": 4, "limit": 3}, "Gigaököl", 3)
    with translation.override("hu"):
        text = message_for(violation)
    assert text == (
        "„Gigaököl”: 4 példány (a pakliban és a kiegészítő pakliban együtt); "
        "legfeljebb 3 megengedett."
    )


def test_unknown_card_suggestion_renders_in_hungarian():
    violation = Violation(
        codes.UNKNOWN_CARD, {"suggestions": ["Óriás skorpió"]}, "Óriás skorpio", 12
    )
    with translation.override("hu"):
        text = message_for(violation)
    assert text == "Ismeretlen lap: „Óriás skorpio”. Erre gondoltál: Óriás skorpió?"


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_every_violation_message_has_a_hungarian_text(code):
    violation = Violation(code, {}, "Valami lap", 1)
    with translation.override("en"):
        english = message_for(violation)
    with translation.override("hu"):
        hungarian = message_for(violation)
    assert hungarian != english
    assert "%(" not in hungarian
