"""PDF printouts: pairings by table and by name, standings and result slips are
real PDFs, drawn with a TrueType font that has Hungarian's ő and ű (DejaVu Sans, else Vera with
ő/ű printed as ö/ü), and the slips name the holder of the right to go first per game."""

from __future__ import annotations

import base64
import contextlib
import itertools
import re
import zlib
from dataclasses import replace

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from reportlab.pdfbase import pdfmetrics

from tests.factories import UserFactory
from tournaments import services
from tournaments.domain import first_player as fp
from tournaments.domain.match import MatchState
from tournaments.domain.match_structure import MatchStructure
from tournaments.domain.types import GameRecord
from tournaments.models import Round, Tournament
from tournaments.pages import printouts
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db

NAMES = ("Őrös Győző", "Bűvös Űrhajó", "Kiss Ádám", "Nagy Éva")


@pytest.fixture
def organiser():
    return UserFactory(username="organiser")


@pytest.fixture
def event(organiser) -> tuple[Tournament, Round]:
    t = services.tournament_open_registration(
        actor=SYSTEM,
        tournament=services.tournament_create(
            owner=organiser, name="Őszi Kupa – Győr", format_slug="hkk"
        ),
    )
    for name in NAMES:
        services.entry_override_deck(
            actor=SYSTEM,
            entry=services.entry_register_player(tournament=t, player_name=name),
            reason="test",
        )
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t, seed=5)
    )
    return t, rnd


@pytest.fixture
def client(organiser) -> Client:
    c = Client()
    c.force_login(organiser)
    c.cookies["django_language"] = "hu"
    return c


def _uncompressed(pdf: bytes) -> bytes:
    """The PDF with every Flate (or ASCII85 + Flate) stream inflated, to look at the fonts and
    the text operators."""
    out = [pdf]
    start = 0
    while (i := pdf.find(b"stream\n", start)) != -1:
        j = pdf.find(b"endstream", i)
        raw = pdf[i + 7 : j].strip(b"\r\n")
        with contextlib.suppress(zlib.error, ValueError):
            if raw.endswith(b"~>"):  # ReportLab's page streams: ASCII85, then Flate
                raw = base64.a85decode(raw.removeprefix(b"<~").removesuffix(b"~>"))
            out.append(zlib.decompress(raw))
        start = j + len(b"endstream")
    return b"\n".join(out)


def _literal(raw: bytes) -> bytes:
    """A PDF literal string's bytes (octal and backslash escapes resolved)."""
    out = bytearray()
    i = 0
    while i < len(raw):
        c = raw[i]
        if c == 0x5C:  # backslash
            octal = re.match(rb"[0-7]{1,3}", raw[i + 1 : i + 4])
            if octal:
                out.append(int(octal.group(), 8))
                i += 1 + len(octal.group())
                continue
            escaped = raw[i + 1 : i + 2]
            out += {b"n": b"\n", b"r": b"\r", b"t": b"\t"}.get(escaped, escaped)
            i += 2
            continue
        out.append(c)
        i += 1
    return bytes(out)


def pdf_text(pdf: bytes) -> str:
    """The text drawn in ``pdf``: every ``(...) Tj`` string decoded through each embedded
    ToUnicode map (ReportLab's TrueType subsets keep ASCII and give other letters low codes);
    the decodings are joined, so a name appears when its map decodes it correctly."""
    data = _uncompressed(pdf)
    maps = []
    for block in re.findall(rb"beginbfchar(.*?)endbfchar", data, re.S):
        pairs = re.findall(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block)
        maps.append({int(a, 16): int(b, 16) for a, b in pairs})
    strings = [_literal(x) for x in re.findall(rb"\(((?:[^()\\]|\\.)*)\) Tj", data)]
    lines = []
    for cmap in maps:
        for raw in strings:
            lines.append("".join(chr(cmap.get(b) or b) for b in raw))
    return "\n".join(lines)


@pytest.mark.parametrize(
    "name, args, query",
    [
        ("print-pairings", "round", ""),
        ("print-pairings", "round", "?by=name"),
        ("print-slips", "round", ""),
        ("print-standings", "tournament", ""),
    ],
)
def test_each_printout_is_a_pdf_in_a_hungarian_capable_font(client, event, name, args, query):
    t, rnd = event
    url = reverse(f"tournaments:{name}", args=[t.pk, rnd.number] if args == "round" else [t.pk])
    r = client.get(url + query)
    assert r.status_code == 200
    assert r["Content-Type"] == "application/pdf"
    assert r["Content-Disposition"].startswith("inline; filename=")
    body = r.content
    assert body.startswith(b"%PDF-") and body.rstrip().endswith(b"%%EOF")
    assert len(body) > 1500
    fonts = printouts.pdf_fonts()
    assert fonts.hungarian, "DejaVu Sans is expected on this machine (fonts-dejavu-core)"
    assert b"DejaVuSans" in _uncompressed(body)  # the embedded TrueType subset
    # Text is only ever drawn in TrueType subsets (/F2+0 …), never in the standard fonts.
    blocks = re.findall(rb"BT (.*?) ET", _uncompressed(body), re.S)
    drawn = [b for b in blocks if b" Tj" in b]
    assert drawn and all(re.search(rb"/F\d+\+\d+ [\d.]+ Tf", b) for b in drawn)


def test_the_registered_font_has_the_hungarian_letters():
    fonts = printouts.pdf_fonts()
    face = pdfmetrics.getFont(fonts.regular).face
    for letter in "őűŐŰáéíóöúü" + printouts.BOX:
        assert ord(letter) in face.charToGlyph, letter
    assert printouts._text("Győző & Űr <b>") == "Győző &amp; Űr &lt;b&gt;"


def test_without_dejavu_vera_is_used_and_o_u_double_acute_fall_back(monkeypatch):
    monkeypatch.setattr(printouts, "FONT_CANDIDATES", ("/nonexistent",))
    printouts.pdf_fonts.cache_clear()
    try:
        fonts = printouts.pdf_fonts()
        assert fonts == printouts.PdfFonts("Vera", "VeraBd", False)
        assert printouts._text("Őrös Győző, Bűvös Űr") == "Örös Gyözö, Büvös Ür"
        face = pdfmetrics.getFont("Vera").face
        assert all(ord(c) in face.charToGlyph for c in printouts._text("Őrös Győző Űr"))
    finally:
        printouts.pdf_fonts.cache_clear()


def test_pairings_standings_and_slips_print_every_hungarian_name(event):
    t, rnd = event
    for pdf in (
        printouts.pairings_pdf(round=rnd),
        printouts.pairings_pdf(round=rnd, by_name=True),
        printouts.standings_pdf(tournament=t),
        printouts.result_slips_pdf(round=rnd),
    ):
        text = pdf_text(pdf)
        for name in NAMES:
            assert name in text
        assert "Őszi Kupa – Győr" in text


def test_pairings_by_name_are_alphabetical(event):
    t, rnd = event
    cells = pdf_text(printouts.pairings_pdf(round=rnd, by_name=True)).split("\n")
    names = [x for x in cells if x in NAMES]
    # Rows are (entry, table, seat, opponent): every other name cell is an entry.
    assert names[::2] == sorted(NAMES, key=str.casefold)


def test_slip_names_the_right_holder_of_each_game(event):
    t, rnd = event
    m = rnd.matches.order_by("table").first()
    names = {e.pk: e.name for e in t.entries.all()}
    before = printouts._holder_texts(m, t, names)
    assert len(before) == 3
    assert "1" in before[0] and "A" in before[0] and printouts.BOX in before[0]
    services.match_set_die_roll(actor=SYSTEM, match=m, winner_entry=m.entry_b_id)
    m.refresh_from_db()
    after = printouts._holder_texts(m, t, names)
    assert names[m.entry_b_id] in after[0] and "(B)" in after[0]
    assert names[m.entry_a_id] in after[1] and "(A)" in after[1]  # player 2 in game 2
    assert names[m.entry_b_id] in after[2]  # player 1 again in game 3
    pdf = printouts.result_slips_pdf(round=rnd)
    assert pdf.startswith(b"%PDF-")


def _domain_holders(state: MatchState, structure: MatchStructure, game: int) -> set[int | None]:
    """The holder of ``game`` after every sequence of earlier results, by the domain."""
    outcomes = (state.a, state.b, None) if structure.game_draws else (state.a, state.b)
    holders: set[int | None] = set()
    for winners in itertools.product(outcomes, repeat=game - 1):
        with contextlib.suppress(fp.InconsistentGame):
            after = state
            for winner in winners:
                holder = fp.next_right(after, structure).holder
                assert holder is not None
                score = 1 if structure.scored and winner is not None else None
                record = GameRecord(len(after.games) + 1, holder, False, holder, winner, score)
                fp.validate_game(fp.next_right(after, structure), record, after, structure)
                after = replace(after, games=(*after.games, record))
            holders.add(fp.next_right(after, structure).holder)
    return holders


STRUCTURES = {
    "hkk": {"policy": "hkk", "games_per_match": 3, "ends_when_decided": False},
    "hkk_one_game": {"policy": "hkk", "games_per_match": 1, "ends_when_decided": True},
    "wow_loser": {"policy": "wow", "games_per_match": 3, "ends_when_decided": True},
    "wow_alternate": {
        "policy": "wow",
        "games_per_match": 5,
        "ends_when_decided": False,
        "later_games": "alternate",
    },
    "loser_chooses_all_played": {
        "policy": "loser_chooses",
        "games_per_match": 3,
        "ends_when_decided": False,
    },
    "blue_moon": {
        "policy": "blue_moon",
        "games_per_match": 3,
        "ends_when_decided": True,
        "game_draws": False,
        "game_score_unit": "crystals",
        "game_score_max": 7,
    },
}


@pytest.mark.parametrize("key", sorted(STRUCTURES))
def test_slips_name_the_holder_the_domain_gives(event, key):
    """Each game's slip line names the entry the domain's ``next_right`` gives after every
    possible earlier result, or prints the policy's slip text when that entry depends on the
    results; before the die roll it leaves the roll to tick."""
    t, rnd = event
    t.match_structure = STRUCTURES[key]
    structure = MatchStructure.from_dict(STRUCTURES[key])
    m = rnd.matches.filter(entry_b__isnull=False).order_by("table").first()
    names = {m.entry_a_id: "Ágnes Első", m.entry_b_id: "Béla Második"}
    with translation.override("en"):
        before = printouts._holder_texts(m, t, names)
        assert printouts.BOX in before[0] and len(before) == structure.games_per_match
        services.match_set_die_roll(actor=SYSTEM, match=m, winner_entry=m.entry_b_id)
        m.refresh_from_db()
        texts = printouts._holder_texts(m, t, names)
        state = MatchState(m.entry_a_id, m.entry_b_id, roll_winner=m.entry_b_id)
        for game, text in enumerate(texts, start=1):
            holders = _domain_holders(state, structure, game)
            if len(holders) == 1:
                (holder,) = holders
                seat = "A" if holder == m.entry_a_id else "B"
                assert f"{names[holder]} ({seat})" in text, (game, text)
            else:
                assert text == structure.rules.slip_text % {"previous": game - 1}
                assert len(holders) > 1


def test_printouts_are_for_judges_only(event):
    t, rnd = event
    url = reverse("tournaments:print-slips", args=[t.pk, rnd.number])
    assert Client().get(url).status_code == 302
    c = Client()
    c.force_login(UserFactory(username="stranger"))
    assert c.get(url).status_code == 403
    judge = UserFactory(username="judge")
    services.staff_appoint(tournament=t, user=judge, role="judge", actor=t.owner)
    c.force_login(judge)
    assert c.get(url)["Content-Type"] == "application/pdf"


def test_hungarian_slips_are_titled_eredmenylapok(client, event):
    t, rnd = event
    r = client.get(reverse("tournaments:print-slips", args=[t.pk, rnd.number]))
    text = pdf_text(r.content)
    assert "Eredménylapok" in text
    assert "Result slips" not in text


def test_columns_are_sized_so_that_no_word_breaks():
    fonts = printouts.pdf_fonts()
    rows = [
        ["Asztal", "Kezdés joga", "Lemondott", "Kezdett", "Győztes"],
        [1, "Kiss Ádám", "□", "□ A □ B", "□ A □ B □ döntetlen"],
        [2, "Eredménylapokatvizsgáló", "□", "□ A □ B", "□ A □ B □ döntetlen"],
    ]
    widths = [8 * 2.835, 40 * 2.835, 10 * 2.835, 30 * 2.835, 50 * 2.835]
    fitted, size = printouts.fit_columns(rows, widths)
    assert abs(sum(fitted) - sum(widths)) < 0.01
    for c in range(len(widths)):
        for i, row in enumerate(rows):
            font = fonts.bold if i == 0 else fonts.regular
            for word in str(row[c]).split():
                width = pdfmetrics.stringWidth(word, font, size)
                assert width + 2 * printouts.CELL_PADDING <= fitted[c], (c, word)


def test_a_table_too_narrow_for_its_words_shrinks_the_font():
    rows = [["Mérkőzéspontok", "Játszmapontok"], ["1", "2"]]
    fitted, size = printouts.fit_columns(rows, [30.0, 30.0])
    assert size < 10


@pytest.mark.parametrize(
    ("format_slug", "top"), [("bluemoon-advanced", 7), ("bluemoon-people-basic", 4)]
)
def test_blue_moon_slips_ask_for_the_crystals_in_the_formats_range(organiser, format_slug, top):
    # Up to 7 crystals with Emissaries and Inquisitors, 4 without (Blue Moon FAQ, "End of Game").
    t = services.tournament_open_registration(
        actor=SYSTEM,
        tournament=services.tournament_create(
            owner=organiser, name="Kék Hold", format_slug=format_slug
        ),
    )
    for name in NAMES[:2]:
        services.entry_override_deck(
            actor=SYSTEM,
            entry=services.entry_register_player(tournament=t, player_name=name),
            reason="test",
        )
    t = services.tournament_start(actor=SYSTEM, tournament=t)
    rnd = services.round_publish(
        actor=SYSTEM, round=services.round_pair_next(actor=SYSTEM, tournament=t, seed=1)
    )
    with translation.override("hu"):
        text = pdf_text(printouts.result_slips_pdf(round=rnd))
    assert f"kristály (1–{top}):" in text
    assert f"A győztes pontszáma 1–{top} (kristály)." in text
