"""Compile ``locale/*/LC_MESSAGES/*.po`` into ``.mo`` files with polib (pure Python).

Django's ``compilemessages`` needs GNU gettext's ``msgfmt``, which a fresh machine may lack; the
install step (``make run`` / ``make test``) runs ``python -m hkk_tournament.compile_translations``
instead. A ``.mo`` file is rewritten only when its ``.po`` file is newer.
"""

from __future__ import annotations

import sys
from pathlib import Path

import polib

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"


def compile_all(locale_dir: Path = LOCALE_DIR) -> int:
    """Compile every ``.po`` under ``locale_dir``; return how many ``.mo`` files were written."""
    written = 0
    for po_path in sorted(locale_dir.glob("*/LC_MESSAGES/*.po")):
        mo_path = po_path.with_suffix(".mo")
        if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
            continue
        polib.pofile(str(po_path)).save_as_mofile(str(mo_path))
        written += 1
    return written


if __name__ == "__main__":
    count = compile_all()
    print(f"compiled {count} translation file(s)", file=sys.stderr)
