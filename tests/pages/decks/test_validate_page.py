"""The deck-check page at ``/`` (``decks:validate``)."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from tests.services.decks.test_validation import EXAMPLES

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalogue")]


def example(name: str) -> str:
    return (EXAMPLES / name).read_text(encoding="utf-8")


@pytest.fixture
def client_en():
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def line_item(html: str, number: int) -> str:
    """The ``<li id="line-N">`` element of the rendered list (up to the next line item)."""
    match = re.search(
        rf'<li class="deckline[^"]*" id="line-{number}".*?(?=<li class="deckline|</ol>)',
        html,
        re.S,
    )
    assert match, f"line {number} not rendered"
    return match.group(0)


def test_url_name():
    assert reverse("decks:validate") == "/"


def test_page_is_hungarian_by_default_with_a_labelled_form():
    response = Client().get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<html lang="hu">' in html
    assert response.headers["Content-Language"] == "hu"
    assert 'name="csrfmiddlewaretoken"' in html
    assert 'enctype="multipart/form-data"' in html
    for field in ("format", "text", "file"):
        assert f'<label for="id_{field}">' in html
    assert '<option value="hkk-hagyomanyos"' in html
    assert '<option value="wow-constructed"' in html
    assert 'name="viewport"' in html  # responsive base


def test_page_switches_to_english(client_en):
    html = client_en.get("/").content.decode()
    assert '<html lang="en">' in html
    assert "Deck list" in html
    assert "Check deck" in html


def test_language_switch_view_sets_english():
    client = Client()
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert response.status_code == 302
    assert '<html lang="en">' in client.get("/").content.decode()


def test_inactive_formats_are_not_offered():
    from decks.models import Format

    Format.objects.filter(slug="hkk-retro").update(is_active=False)
    html = Client().get("/").content.decode()
    assert '<option value="hkk-retro"' not in html


def test_legal_paste_shows_legal_badge_and_summary(client_en):
    response = client_en.post("/", {"format": "hkk", "text": example("hkk-legal.txt")})
    assert response.status_code == 200
    html = response.content.decode()
    assert 'class="badge badge-legal"' in html
    assert "badge-illegal" not in html
    assert "52 cards" in html
    assert "Ősi rúna" in html
    assert "A legfőbb követő" in html
    assert 'class="issue ' not in html


def test_errors_are_shown_next_to_their_lines(client_en):
    response = client_en.post("/", {"format": "hkk", "text": example("hkk-illegal.txt")})
    html = response.content.decode()
    assert 'class="badge badge-illegal"' in html
    # line 5 is "4 Gigaököl", line 12 the misspelt name, line 16 the rule card in the sideboard
    assert "4 Gigaököl" in line_item(html, 5)
    assert 'data-code="too_many_copies"' in line_item(html, 5)
    typo = line_item(html, 12)
    # The bundled HKK catalogue is partial: the name is reported, but is not an error.
    assert 'data-code="card_not_in_catalogue"' in typo
    assert "Óriás skorpió" in typo
    assert 'data-code="rule_card_in_sideboard"' in line_item(html, 16)
    assert "data-code" not in line_item(html, 6)  # "3 Garokk" is fine
    # deck-level errors are above the list, not on a line
    general = html.split('<ol class="decklines">')[0]
    assert 'data-code="deck_too_small"' in general


def test_upload_a_txt_file(client_en):
    upload = SimpleUploadedFile(
        "deck.txt", example("wow-legal.txt").encode("utf-8"), content_type="text/plain"
    )
    response = client_en.post("/", {"format": "wow-constructed", "text": "", "file": upload})
    html = response.content.decode()
    assert response.status_code == 200
    assert 'class="badge badge-legal"' in html
    assert "Gorebelly" in html
    assert "4 Battle Shout" in line_item(html, 7)


def test_uploaded_windows_1250_file_is_decoded(client_en):
    upload = SimpleUploadedFile("deck.txt", example("hkk-legal.txt").encode("cp1250"))
    html = client_en.post("/", {"format": "hkk", "file": upload}).content.decode()
    assert 'class="badge badge-legal"' in html


def test_upload_wins_over_pasted_text(client_en):
    upload = SimpleUploadedFile("deck.txt", example("hkk-legal.txt").encode("utf-8"))
    html = client_en.post(
        "/", {"format": "hkk", "text": "4 Garokk", "file": upload}
    ).content.decode()
    assert 'class="badge badge-legal"' in html


def test_binary_upload_is_a_form_error(client_en):
    upload = SimpleUploadedFile("deck.txt", b"\x00\x01\x02PNG")
    response = client_en.post("/", {"format": "hkk", "file": upload})
    html = response.content.decode()
    assert "not a plain text file" in html
    assert "badge" not in html


def test_empty_submission_is_a_form_error(client_en):
    response = client_en.post("/", {"format": "hkk", "text": "   "})
    html = response.content.decode()
    assert response.status_code == 200
    assert "Paste a deck list or choose a file." in html
    assert "badge" not in html


def test_unknown_format_choice_is_a_form_error(client_en):
    response = client_en.post("/", {"format": "nope", "text": "3 Garokk"})
    html = response.content.decode()
    assert "Select a valid choice" in html
    assert "badge" not in html


def test_submitted_text_is_kept_in_the_form(client_en):
    html = client_en.post("/", {"format": "hkk", "text": "3 Garokk\n"}).content.decode()
    assert "3 Garokk" in html.split("</textarea>")[0]


def test_csrf_is_enforced():
    client = Client(enforce_csrf_checks=True)
    response = client.post("/", {"format": "hkk", "text": "3 Garokk"})
    assert response.status_code == 403


def test_html_is_escaped(client_en):
    html = client_en.post(
        "/", {"format": "hkk", "text": "1 <script>alert(1)</script>"}
    ).content.decode()
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;" in html


def test_blue_moon_leader_and_inquisitor_are_shown(client_en):
    text = "Leader: Hoax leader\nInquisitor: Razor-Mind Royal Inspector\n1 Ciklarethas the Bitter\n"
    html = client_en.post("/", {"format": "bluemoon-advanced", "text": text}).content.decode()
    summary = html.split('<dl class="summary">')[1].split("</dl>")[0]
    assert "<dt>Leader</dt><dd>Hoax leader</dd>" in summary
    assert "<dt>Inquisitor</dt><dd>Razor-Mind Royal Inspector</dd>" in summary
    assert 'data-code="deck_wrong_size"' in html


def test_oversized_post_is_413_with_a_message_not_500(client_en, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    response = client_en.post("/", {"format": "hkk", "text": "3 Garokk\n" * 5_000})
    assert response.status_code == 413
    assert "The submitted list is too large (at most 9 KB)." in response.content.decode()


def test_oversized_upload_is_a_form_error(client_en, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    upload = SimpleUploadedFile("deck.txt", b"3 Garokk\n" * 5_000)
    response = client_en.post("/", {"format": "hkk", "file": upload})
    assert response.status_code == 200
    html = response.content.decode()
    assert "The file is too large (at most 9 KB)." in html
    assert "badge" not in html


def test_home_game_formats_come_first_and_the_standard_hkk_format_is_preselected():
    html = Client().get("/").content.decode()
    select = re.search(r'<select name="format".*?</select>', html, re.S).group(0)
    options = re.findall(r'<option value="([^"]+)"', select)
    games = ["hkk" if slug.startswith("hkk") else slug.split("-")[0] for slug in options]
    first_other = next(i for i, game in enumerate(games) if game != "hkk")
    assert all(game != "hkk" for game in games[first_other:]), options
    assert re.search(r'<option value="hkk-hagyomanyos" selected>', select)
