"""The one error ingest raises for bad input (DESIGN.md §3: a clear message, never a traceback)."""

from __future__ import annotations

import json
from typing import Any

from capenv.interpreter.bundle.excerpt import excerpt

_SHOWN_VALUE_CHARS = 60
"""How much of an offending value a message quotes; enough to recognise it, short enough for one line."""


class CaptureError(Exception):
    """A capture that cannot be read as evidence.

    ``file`` is the path as given, ``entry_index`` the 0-based index of the HAR entry at fault
    (``None`` when the problem is not one entry's), ``problem`` what is wrong. ``str()`` is one
    line: ``captures/x.har: entry 12: startedDateTime "foo" is not an ISO-8601 date``.
    Entry indexes are 0-based, like ``Record.entry_index`` and the captures' READMEs.
    """

    def __init__(self, file: str, entry_index: int | None, problem: str) -> None:
        self.file = file
        self.entry_index = entry_index
        self.problem = one_line(problem)
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.file}: " if self.entry_index is None else f"{self.file}: entry {self.entry_index}: "
        return where + self.problem

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.file, self.entry_index, self.problem))


class EntryProblem(ValueError):
    """Raised inside entry normalisation; ``har`` adds the file and the entry index.

    ``body_only`` marks a problem confined to a body (bad base64, say): such an entry may be
    skipped with a warning when its origin is not the primary one, because skipping it cannot
    change a verdict about the application.
    """

    def __init__(self, problem: str, *, body_only: bool = False) -> None:
        super().__init__(problem)
        self.problem = problem
        self.body_only = body_only


def one_line(text: str) -> str:
    """Collapse line breaks so every message stays one line."""
    return " ".join(text.split()) if ("\n" in text or "\r" in text) else text


def show(value: Any) -> str:
    """A value quoted for a message: JSON spelling (escapes keep it one line), cut when long."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return excerpt(text, _SHOWN_VALUE_CHARS)
