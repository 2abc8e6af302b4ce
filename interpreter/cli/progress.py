"""Progress on long work, on stderr: a rewritten line on a terminal, a few lines elsewhere."""

from __future__ import annotations

import sys
from typing import Callable

SHOW_FROM_ENTRIES = 2000
"""Captures with fewer entries read fast enough that progress would only be noise."""


def progress_printer(label: str, stream=None) -> Callable[[int, int], None]:
    stream = stream or sys.stderr
    tty = hasattr(stream, "isatty") and stream.isatty()
    state = {"last_tenth": -1}

    def report(done: int, total: int) -> None:
        if total < SHOW_FROM_ENTRIES:
            return
        if tty:
            end = "\n" if done >= total else ""
            stream.write(f"\r{label}: {done}/{total} entries{end}")
            stream.flush()
            return
        tenth = done * 10 // max(total, 1)
        if tenth != state["last_tenth"]:
            state["last_tenth"] = tenth
            stream.write(f"{label}: {done}/{total} entries\n")
            stream.flush()

    return report
