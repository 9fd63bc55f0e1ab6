"""CSV in and out: the one safe writer for every CSV the application writes, and the reader of
the CSV files people save (Excel, LibreOffice, Notepad), row by row with per-row errors.

Writing: :class:`SafeCsvWriter` (and :func:`csv_text`) put every cell through
:func:`csv_safe_cell`, so a name or a note such as ``=HYPERLINK(…)`` reaches a spreadsheet as
text, never as a formula (OWASP "CSV Injection"). Nothing else in the application may call
``csv.writer`` (a test enumerates the CSV writers).

Reading: :func:`decode_csv_bytes` finds the encoding (UTF-8 with or without a byte-order mark,
UTF-16 with one, else Windows-1250 or ISO-8859-2 as ``charset-normalizer`` judges: what Hungarian
Excel and older editors save); :func:`read_csv_rows` accepts any line ending (``\\r\\n``,
``\\n``, a bare ``\\r``), sniffs the delimiter (comma, semicolon or tab) and gives each row its
first line number and, for a row it cannot read (a quote not closed, text after a closing
quote, a cell over the size limit), a translated error instead of the cells, then goes on with
the following lines: a bad quote never swallows the rows after it.
"""

from __future__ import annotations

import codecs
import csv
import io
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from charset_normalizer import from_bytes
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from hkk_tournament.errors import ValidationFailed

#: First characters that make a spreadsheet read a cell as a formula (OWASP "CSV Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

#: Delimiters :func:`sniff_delimiter` chooses from.
DELIMITERS = ",;\t"

#: 8-bit encodings tried (by ``charset-normalizer``) when the bytes are not UTF-8.
EIGHT_BIT_ENCODINGS = ("cp1250", "iso8859_2")

#: Names shown for the encodings :func:`decode_csv_bytes` returns.
ENCODING_LABELS = {
    "utf_8": "UTF-8",
    "utf_8_sig": "UTF-8",
    "utf_16": "UTF-16",
    "cp1250": "Windows-1250",
    "iso8859_2": "ISO-8859-2 (Latin-2)",
}


def csv_safe_cell(value: Any) -> Any:
    """``value`` made safe for a spreadsheet: a text cell starting with ``=``, ``+``, ``-``,
    ``@``, a tab or a carriage return gets a leading ``'`` so Excel, LibreOffice and Google
    Sheets show it as text instead of running it as a formula (OWASP "CSV Injection").
    Numbers and other non-text values are returned unchanged."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


class SafeCsvWriter:
    """A ``csv.writer`` (comma, ``\\r\\n``) into ``out`` whose every cell goes through
    :func:`csv_safe_cell`."""

    def __init__(self, out: io.StringIO) -> None:
        self._writer = csv.writer(out)

    def writerow(self, row: Iterable[Any]) -> None:
        """Write one row; text cells are neutralised (:func:`csv_safe_cell`)."""
        self._writer.writerow([csv_safe_cell(cell) for cell in row])


def csv_text(rows: Iterable[Iterable[Any]]) -> str:
    """The CSV text of ``rows`` (the first one usually the header), written with
    :class:`SafeCsvWriter`."""
    out = io.StringIO()
    writer = SafeCsvWriter(out)
    for row in rows:
        writer.writerow(row)
    return out.getvalue()


# --- reading ----------------------------------------------------------------------------------


def decode_csv_bytes(data: bytes) -> tuple[str, str]:
    """``(text, encoding label)`` of an uploaded CSV file.

    A UTF-8 or UTF-16 byte-order mark decides; else bytes that are valid UTF-8 are UTF-8; else
    ``charset-normalizer`` picks the likelier of :data:`EIGHT_BIT_ENCODINGS` (Windows-1250,
    ISO-8859-2; both hold every Hungarian letter). The label is one of
    :data:`ENCODING_LABELS`.

    Raises ``ValidationFailed("csv_encoding")`` when no supported encoding reads the bytes.
    """
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return data.decode("utf_16"), ENCODING_LABELS["utf_16"]
        except UnicodeDecodeError:
            pass
    else:
        try:
            return data.decode("utf_8_sig"), ENCODING_LABELS["utf_8"]
        except UnicodeDecodeError:
            pass
        matches = [
            m
            for m in from_bytes(data, cp_isolation=list(EIGHT_BIT_ENCODINGS))
            if m.encoding in ENCODING_LABELS
        ]
        if matches:
            best = min(matches, key=lambda m: (m.chaos, _odd_characters(str(m))))
            return str(best), ENCODING_LABELS[best.encoding]
    raise ValidationFailed(
        "csv_encoding",
        _("The file's character encoding is not supported: save it as UTF-8 CSV and try again."),
        {},
    )


def _odd_characters(text: str) -> int:
    """Symbols (``©``, ``®``, ``±`` …) and control characters in ``text``: where Windows-1250
    and ISO-8859-2 differ, the wrong one of the two shows such characters instead of letters
    (``©imon`` for ``Šimon``), so fewer of them breaks a tie of ``charset-normalizer``."""
    return sum(
        1
        for c in text
        if c not in "\t\n\r" and unicodedata.category(c)[0] in "SC" and ord(c) > 0x7F
    )


def sniff_delimiter(text: str) -> str:
    """The delimiter of CSV ``text``: one of :data:`DELIMITERS`, judged by ``csv.Sniffer`` on
    the first lines; when the sniffer cannot tell, the one found most often in the first line
    (a comma when none is)."""
    lines = [line for line in text[:8192].split("\n") if line.strip()][:20]
    try:
        return csv.Sniffer().sniff("\n".join(lines), delimiters=DELIMITERS).delimiter
    except csv.Error:
        first = lines[0] if lines else ""
        counts = {d: first.count(d) for d in DELIMITERS}
        best = max(DELIMITERS, key=lambda d: counts[d])
        return best if counts[best] else ","


@dataclass
class CsvRow:
    """One row of a CSV file: ``line`` (1-based, where it starts), its ``cells``, and the
    translated ``error`` when it could not be read (then ``cells`` is empty)."""

    line: int
    cells: list[str] = field(default_factory=list)
    error: str = ""


def _unreadable(exc: csv.Error) -> str:
    if "field limit" in str(exc):
        return gettext("A cell of this row is too long.")
    return gettext(
        "This row cannot be read: a quotation mark is not closed, or text follows a closing one."
    )


def _lines(lines: Sequence[str], start: int) -> Iterator[str]:
    for i in range(start, len(lines)):
        yield lines[i] + "\n"


def read_csv_rows(text: str, delimiter: str | None = None) -> list[CsvRow]:
    """Every row of CSV ``text`` (any line ending; ``delimiter`` sniffed when not given,
    :func:`sniff_delimiter`; double quotes quote, ``""`` is a quote inside them; a quoted cell
    may span lines).

    A row that cannot be read (``csv.Error``: a quote not closed by the end of the file, text
    after a closing quote, a cell over ``csv.field_size_limit()``) becomes a :class:`CsvRow`
    with only its ``error``; reading goes on with the line after that row's first line when the
    row spanned several (so an unclosed quote swallows nothing), else with the next line.
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    delimiter = delimiter or sniff_delimiter(text)
    rows: list[CsvRow] = []
    start = 0
    while start < len(lines):
        reader = csv.reader(_lines(lines, start), delimiter=delimiter, strict=True)
        done = 0
        try:
            for cells in reader:
                rows.append(CsvRow(line=start + done + 1, cells=cells))
                done = reader.line_num
            break
        except csv.Error as exc:
            first = start + done
            rows.append(CsvRow(line=first + 1, error=_unreadable(exc)))
            start = first + 1
    return rows
