"""A test-controlled gate loaded into a real worker subprocess (``celery worker -I`` this module).

With ``HKK_TEST_GATE_DIR`` set, every task run appends ``<phase> <task id>`` to ``runs`` in
that folder and, at ``HKK_TEST_GATE_AT`` (``prerun``: before the task's body; ``postrun``: after
the task committed its work but before the message is acknowledged), waits until a file
``open`` appears there. The test SIGKILLs the worker while it waits. Without the variable the
module does nothing.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from celery.signals import task_postrun, task_prerun

_DIR = os.environ.get("HKK_TEST_GATE_DIR")
_AT = os.environ.get("HKK_TEST_GATE_AT", "prerun")


def _gate(phase: str, task_id: str | None) -> None:
    if not _DIR:
        return
    folder = Path(_DIR)
    with (folder / "runs").open("a") as runs:
        runs.write(f"{phase} {task_id}\n")
    if phase == _AT:
        while not (folder / "open").exists():
            time.sleep(0.05)


@task_prerun.connect
def _before(task_id: str | None = None, **_: Any) -> None:
    _gate("prerun", task_id)


@task_postrun.connect
def _after(task_id: str | None = None, **_: Any) -> None:
    _gate("postrun", task_id)
