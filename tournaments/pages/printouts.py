"""Printable PDFs of a tournament, drawn with ReportLab and served by the pages of
``organiser_rounds``: pairings by table and by name, standings (docs/rules.md §15 (Match points
and tiebreakers)), and result slips (one per table, with the holder of the right to go first in
each game, §6 (HKK first-player rights), and boxes to fill in, §16 (Deck checks, penalties and
result reporting)).

Fonts: ReportLab's standard Helvetica has no "ő"/"ű", so a TrueType font is registered: DejaVu
Sans, bundled in ``tournaments/fonts`` (or the system's copy), else ReportLab's bundled Bitstream
Vera. Vera lacks "ő/ű/Ő/Ű" too; with it those letters are printed as "ö/ü/Ö/Ü" (readable rather
than empty boxes). ``FONT_CANDIDATES`` lists where DejaVu is looked for.
"""

from __future__ import annotations

import io
import os
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import reportlab
import segno
from django.utils import timezone
from django.utils.translation import gettext as _
from reportlab.graphics.shapes import Drawing, Rect
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import (
    KeepTogether,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)
from reportlab.platypus.flowables import HRFlowable

from tournaments import selectors, services
from tournaments.domain import first_player as fp
from tournaments.models import Match, Round, Tournament

#: Directories searched for DejaVuSans.ttf / DejaVuSans-Bold.ttf, in order: the copy bundled
#: with the app (``tournaments/fonts``, so no system package is needed), then system folders.
FONT_CANDIDATES: tuple[str, ...] = (
    os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fonts"),
    "/usr/share/fonts/truetype/dejavu",
    "/usr/share/fonts/dejavu",
    "/usr/share/fonts/TTF",
    "/usr/local/share/fonts",
)

#: Replacements when the font lacks a letter (Vera has no double acute).
FALLBACK_LETTERS = {"ő": "ö", "ű": "ü", "Ő": "Ö", "Ű": "Ü", "\u25a1": "[ ]"}

BOX = "\u25a1"  # □


@dataclass(frozen=True)
class PdfFonts:
    """The registered font names and whether they cover Hungarian's ő and ű."""

    regular: str
    bold: str
    hungarian: bool


@lru_cache(maxsize=1)
def pdf_fonts() -> PdfFonts:
    """Register (once per process) and return the fonts the printouts use."""
    for folder in FONT_CANDIDATES:
        regular = os.path.join(folder, "DejaVuSans.ttf")
        bold = os.path.join(folder, "DejaVuSans-Bold.ttf")
        if os.path.exists(regular):
            pdfmetrics.registerFont(TTFont("DejaVuSans", regular))
            bold_name = "DejaVuSans"
            if os.path.exists(bold):
                pdfmetrics.registerFont(TTFont("DejaVuSans-Bold", bold))
                bold_name = "DejaVuSans-Bold"
            return PdfFonts("DejaVuSans", bold_name, True)
    vera = os.path.join(os.path.dirname(reportlab.__file__), "fonts")
    pdfmetrics.registerFont(TTFont("Vera", os.path.join(vera, "Vera.ttf")))
    pdfmetrics.registerFont(TTFont("VeraBd", os.path.join(vera, "VeraBd.ttf")))
    return PdfFonts("Vera", "VeraBd", False)


def _text(value: Any) -> str:
    """``value`` as PDF-safe text in the chosen font (XML-escaped for Paragraphs)."""
    text = str(value if value is not None else "")
    if not pdf_fonts().hungarian:
        text = "".join(FALLBACK_LETTERS.get(c, c) for c in text)
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _styles() -> dict[str, ParagraphStyle]:
    fonts = pdf_fonts()
    return {
        "title": ParagraphStyle("title", fontName=fonts.bold, fontSize=16, leading=20),
        "h2": ParagraphStyle("h2", fontName=fonts.bold, fontSize=12, leading=15, spaceAfter=2),
        "body": ParagraphStyle("body", fontName=fonts.regular, fontSize=10, leading=13),
        "small": ParagraphStyle(
            "small", fontName=fonts.regular, fontSize=8, leading=10, textColor=colors.grey
        ),
        "cell": ParagraphStyle("cell", fontName=fonts.regular, fontSize=10, leading=12),
        "head": ParagraphStyle("head", fontName=fonts.bold, fontSize=10, leading=12),
    }


#: Cell padding ReportLab's ``Table`` adds left and right (points), and the smallest font.
CELL_PADDING = 6
MIN_FONT_SIZE = 6.0


def _longest_word(value: Any, font: str, size: float) -> float:
    """Width in points of the widest single word of ``value`` (``stringWidth``)."""
    words = str(value if value is not None else "").split() or [""]
    return max(pdfmetrics.stringWidth(w, font, size) for w in words)


def fit_columns(
    rows: Sequence[Sequence[Any]], widths: Sequence[float], *, header: bool = True
) -> tuple[list[float], float]:
    """Column widths and font size so that no word is broken across lines.

    Each column needs its widest word (header words in bold) plus the cell padding, measured
    with ReportLab's ``stringWidth``. Columns narrower than that take width from columns with
    room to spare (the total stays the same); if that is not enough, the font shrinks (from
    10 pt down to ``MIN_FONT_SIZE``). Returns ``(widths, font size)``.
    """
    fonts = pdf_fonts()
    total = sum(widths)
    size = 10.0
    while True:
        need = [
            max(
                _longest_word(
                    _plain(row[c]), fonts.bold if header and i == 0 else fonts.regular, size
                )
                for i, row in enumerate(rows)
            )
            + 2 * CELL_PADDING
            + 1
            for c in range(len(widths))
        ]
        if sum(need) <= total or size <= MIN_FONT_SIZE:
            break
        size = max(MIN_FONT_SIZE, size - 0.5)
    out = list(widths)
    short = {c: need[c] - out[c] for c in range(len(out)) if need[c] > out[c]}
    for c, missing in short.items():
        out[c] += missing
        for d in sorted(range(len(out)), key=lambda d: need[d] - out[d]):
            if missing <= 0:
                break
            if d in short:
                continue
            spare = out[d] - need[d]
            if spare > 0:
                take = min(spare, missing)
                out[d] -= take
                missing -= take
    return out, size


def _plain(value: Any) -> str:
    text = str(value if value is not None else "")
    if not pdf_fonts().hungarian:
        text = "".join(FALLBACK_LETTERS.get(c, c) for c in text)
    return text


def _table(rows: Sequence[Sequence[Any]], widths: Sequence[float], header: bool = True) -> Table:
    """A grid table whose columns never break a word (:func:`fit_columns`)."""
    st = _styles()
    fitted, size = fit_columns(rows, widths, header=header)
    cell = ParagraphStyle("cell-fit", parent=st["cell"], fontSize=size, leading=size * 1.2)
    head = ParagraphStyle("head-fit", parent=st["head"], fontSize=size, leading=size * 1.2)
    data = [
        [Paragraph(_text(value), head if header and i == 0 else cell) for value in row]
        for i, row in enumerate(rows)
    ]
    table = Table(data, colWidths=fitted, repeatRows=1 if header else 0)
    # One TableStyle command: (name, first cell, last cell, *values).
    style: list[tuple[str, tuple[int, int], tuple[int, int], *tuple[Any, ...]]] = [
        ("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
    ]
    if header:
        style.append(("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e3e6ea")))
    table.setStyle(TableStyle(style))
    return table


def _document(title: str, subtitle: str, flowables: list[Any]) -> bytes:
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(
        buffer,
        pagesize=A4,
        leftMargin=15 * mm,
        rightMargin=15 * mm,
        topMargin=15 * mm,
        bottomMargin=15 * mm,
        title=title,
        author="HKK Tournament",
    )
    st = _styles()
    printed = timezone.localtime().strftime("%Y-%m-%d %H:%M")
    story: list[Any] = [
        Paragraph(_text(title), st["title"]),
        Paragraph(_text(subtitle), st["body"]),
        Paragraph(_text(_("Printed at %(time)s") % {"time": printed}), st["small"]),
        Spacer(1, 4 * mm),
        *flowables,
    ]
    doc.build(story)
    return buffer.getvalue()


def _round_title(rnd: Round) -> str:
    return _("Round %(number)s") % {"number": rnd.number}


# --- pairings -----------------------------------------------------------------------------


def pairings_pdf(*, round: Round, by_name: bool = False) -> bytes:
    """The pairings of ``round``: by table (table, entry A, entry B) or, with ``by_name``,
    alphabetically (entry, table, seat, opponent) for the wall."""
    tournament = round.tournament
    views = selectors.round_match_views(round=round)
    if by_name:
        rows: list[list[Any]] = [[_("Entry"), _("Table"), _("Seat"), _("Opponent")]]
        for r in selectors.pairings_by_name(views):
            rows.append([r["name"], r["table"], r["seat"], r["opponent_name"] or _("bye")])
        table = _table(rows, [70 * mm, 20 * mm, 15 * mm, 75 * mm])
        heading = _("Pairings by name")
    else:
        rows = [[_("Table"), _("Entry A"), _("Entry B")]]
        for v in views:
            rows.append([v.table, v.a_name, v.b_name if not v.is_bye else _("bye")])
        table = _table(rows, [20 * mm, 80 * mm, 80 * mm])
        heading = _("Pairings by table")
    return _document(tournament.name, f"{_round_title(round)} · {heading}", [table])


# --- standings ----------------------------------------------------------------------------


def standings_pdf(*, tournament: Tournament) -> bytes:
    """The current standings: rank, entry, match and game points, tiebreakers, matches."""
    rows_ = selectors.standing_views(
        tournament=tournament, rows=services.standings_compute(tournament=tournament)
    )
    columns = selectors.tiebreaker_columns(tournament)
    codes = [code for code, _label in columns]
    head = [_("Rank"), _("Entry"), _("Match points"), _("Game points")]
    head += [label for _code, label in columns] + [_("Matches")]
    rows: list[list[Any]] = [head]
    for r in rows_:
        dropped = _("dropped")
        name = r.name + (f" ({dropped})" if r.dropped else "")
        rows.append(
            [f"{r.rank}.", name, r.match_points, r.game_points]
            + [tb.display for tb in r.shown_tiebreakers]
            + [r.matches_played]
        )
    free = 180 * mm - 15 * mm - 60 * mm
    other = free / (len(codes) + 3)
    widths = [15 * mm, 60 * mm] + [other] * (len(codes) + 3)
    return _document(tournament.name, _("Standings"), [_table(rows, widths)])


# --- result slips -------------------------------------------------------------------------


def _holder_texts(match: Match, tournament: Tournament, names: dict[int, str]) -> list[str]:
    """Per game of the match structure, who holds the right to go first or chooses who starts,
    as the policy's own rule gives it (``first_player.slip_lines``): the player with a known
    name where the die roll is recorded, a die roll to tick, or the policy's slip text when the
    holder depends on the earlier results (docs/rules.md §6 (HKK first-player rights), §11 (WoW
    TCG matches and first player), §13 (Blue Moon matches))."""
    a, b = match.entry_a_id, match.entry_b_id
    p1 = match.die_roll_winner_id
    players = {1: p1, 2: (b if p1 == a else a) if p1 is not None else None}
    structure = tournament.structure
    texts = []
    for line in fp.slip_lines(structure, reroll_game3=match.reroll_game3_agreed):
        entry = players.get(line.player or 0)
        if line.needs_roll:
            texts.append(_("new die roll (agreed): %(box)s A  %(box)s B") % {"box": BOX})
        elif line.player is None:
            texts.append(_(structure.rules.slip_text) % {"previous": line.game - 1})
        elif entry is not None:
            seat = "A" if entry == a else "B"
            texts.append(
                _("player %(player)s: %(name)s (%(seat)s)")
                % {"player": line.player, "name": names.get(entry, ""), "seat": seat}
            )
        elif line.game == 1:
            texts.append(
                _("player %(player)s (die roll winner: %(box)s A  %(box)s B)")
                % {"player": line.player, "box": BOX}
            )
        else:
            texts.append(_("player %(player)s") % {"player": line.player})
    return texts


def _slip(m: Match, rnd: Round, names: dict[int, str]) -> KeepTogether:
    """The slip of one table: heading, both entries, per game the right holder and the boxes,
    and the signature lines, kept on one page."""
    tournament = rnd.tournament
    st = _styles()
    a_name = names.get(m.entry_a_id, "")
    b_name = names.get(m.entry_b_id, "") if m.entry_b_id is not None else ""  # byes have no slip
    head = Paragraph(
        _text(
            _("Table %(table)s") % {"table": m.table}
            + f" · {_round_title(rnd)} · {tournament.name}"
        ),
        st["h2"],
    )
    players = Paragraph(_text(f"A: {a_name}    B: {b_name}"), st["body"])
    structure = tournament.structure
    summary = selectors.policy_summary(structure)
    policy = Paragraph(
        _text(
            f"{summary.name}: {summary.rule} "
            f"({_('source')}: {selectors.policy_source_text(summary)})"
        ),
        st["body"],
    )
    chooses = fp.right_mode(structure) == fp.RightMode.CHOOSES
    rows: list[list[Any]] = [
        [
            _("Game"),
            _("Chooses who starts") if chooses else _("Right to go first"),
            _("Let the other start") if chooses else _("Waived"),
            _("Went first"),
            _("Winner"),
        ]
    ]
    draw = _("draw")
    winner_boxes = f"{BOX} A   {BOX} B"
    if structure.game_draws:
        winner_boxes += f"   {BOX} {draw}"
    if structure.scored:
        unit = selectors.unit_label(structure.game_score_unit)
        winner_boxes += f"   {unit} (1–{structure.game_score_max}): ____"
    for number, holder in enumerate(_holder_texts(m, tournament, names), start=1):
        rows.append([number, holder, BOX, f"{BOX} A   {BOX} B", winner_boxes])
    table = _table(rows, [14 * mm, 70 * mm, 16 * mm, 30 * mm, 50 * mm])
    sign = Paragraph(
        _text(_("Signature A: %(line)s    Signature B: %(line)s") % {"line": "_" * 22}),
        st["body"],
    )
    return KeepTogether(
        [
            head,
            players,
            policy,
            Spacer(1, 2 * mm),
            table,
            Spacer(1, 4 * mm),
            sign,
            Spacer(1, 3 * mm),
            HRFlowable(width="100%", dash=(3, 3), color=colors.grey),
            Spacer(1, 5 * mm),
        ]
    )


def result_slips_pdf(*, round: Round) -> bytes:
    """One slip per table (byes have none): both entries, then per game the right holder and
    boxes for "waived", who went first and the winner, and lines to sign."""
    tournament = round.tournament
    names = selectors.names_by_entry(tournament)
    matches = list(round.matches.filter(entry_b__isnull=False).order_by("table"))
    flow: list[Any] = [_slip(m, round, names) for m in matches]
    if not matches:
        flow.append(Paragraph(_text(_("No tables to play in this round.")), _styles()["body"]))
    slips = _("Result slips")
    return _document(tournament.name, f"{_round_title(round)} · {slips}", flow)


# --- claim codes --------------------------------------------------------------------------


def qr_drawing(url: str, size: float) -> Drawing:
    """A QR code of ``url`` (segno, error correction M, 4-module quiet zone) as a vector
    ReportLab drawing ``size`` points wide and high: one black square per dark module."""
    qr = segno.make_qr(url, error="m")
    matrix = [list(row) for row in qr.matrix_iter(border=4)]
    module = size / len(matrix)
    drawing = Drawing(size, size)
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                top = size - (y + 1) * module
                square = Rect(x * module, top, module, module)
                square.fillColor = colors.black
                square.strokeColor = None
                drawing.add(square)
    return drawing


def claim_sheet_pdf(*, tournament: Tournament, claim_url: str) -> bytes:
    """An A4 sheet to cut up: per player without an account, name, entry, round-1 table (when
    round 1 exists), the one-time claim code and a QR code of ``claim_url`` (absolute, the
    code appended as ``?code=``). Players without a code yet, or whose code expired, are
    listed without one (an expired code is marked: the organiser makes new ones first)."""
    st = _styles()
    code_style = ParagraphStyle("code", parent=st["title"], fontSize=18, leading=22)
    cards: list[Any] = []
    for row in selectors.claim_codes(tournament=tournament):
        lines = [Paragraph(_text(row["player"].shown_name), st["h2"])]
        if row["entry"].name != row["player"].display_name:
            lines.append(Paragraph(_text(row["entry"].shown_name), st["body"]))
        if row["table"] is not None:
            table = _("bye") if row["bye"] else row["table"]
            lines.append(
                Paragraph(_text(_("Round 1, table: %(table)s") % {"table": table}), st["body"])
            )
        code = "" if row["expired"] else row["code"]
        lines.append(Paragraph(_text(code or "–"), code_style))
        if row["expired"]:
            lines.append(Paragraph(_text(_("The code has expired.")), st["body"]))
        qr: Any = qr_drawing(f"{claim_url}?code={code}", 32 * mm) if code else ""
        card = Table([[lines, qr]], colWidths=[140 * mm, 40 * mm])
        card.setStyle(
            TableStyle(
                [
                    ("BOX", (0, 0), (-1, -1), 0.4, colors.grey),
                    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ]
            )
        )
        cards.append(KeepTogether([card, Spacer(1, 3 * mm)]))
    intro = _(
        "Sign in or create an account, open %(url)s (or scan the code) and enter your code: "
        "you will see your table and can report your results."
    ) % {"url": claim_url}
    flowables: list[Any] = [Paragraph(_text(intro), st["body"]), Spacer(1, 4 * mm), *cards]
    return _document(tournament.name, _("Claim codes"), flowables)
