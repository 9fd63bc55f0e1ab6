"""Every benchmark in ``bench/`` starts: a script (a file with a ``__main__`` block) answers
``--help`` with its usage and exit status 0; a helper module the scripts import
(``bench/recording.py``, ``bench/venue.py``) imports once Django is set up, as its script
imports it. An import placed above ``django.setup()`` (models imported before the apps are
ready) fails here instead of at the venue. Each file runs in its own process of the project's
Python, all at once, so the whole check costs about one Django start-up per core.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"

#: Imports a helper module of ``bench/`` (argument 1) after setting Django up, as the scripts do.
IMPORT_AFTER_SETUP = (
    "import os, sys; "
    "os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'hkk_tournament.settings'); "
    "sys.path[:0] = [sys.argv[2], sys.argv[3]]; "
    "import django; django.setup(); "
    "import importlib; importlib.import_module(sys.argv[1]); print('imported')"
)


def _is_script(path: Path) -> bool:
    return 'if __name__ == "__main__":' in path.read_text(encoding="utf-8")


def _command(path: Path) -> list[str]:
    if _is_script(path):
        return [sys.executable, str(path), "--help"]
    return [sys.executable, "-c", IMPORT_AFTER_SETUP, path.stem, str(BENCH), str(BENCH.parent)]


def test_every_bench_script_starts():
    files = sorted(BENCH.glob("*.py"))
    assert len([f for f in files if _is_script(f)]) >= 10  # the scripts are found at all
    running = {
        f.name: subprocess.Popen(
            _command(f),
            cwd=BENCH.parent,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for f in files
    }
    failed = {}
    for name, process in running.items():
        out, err = process.communicate(timeout=120)
        expected = f"usage: {name}" if _is_script(BENCH / name) else "imported"
        if process.returncode != 0 or expected not in out:
            failed[name] = (process.returncode, out[-300:], err[-600:])
    assert not failed, failed
