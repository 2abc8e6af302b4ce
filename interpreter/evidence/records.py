"""The normalised capture: one ``Record`` per HAR entry (DESIGN.md §3).

These models are the contract between ingest and everything after it (manifest, view,
plans, gate). They are frozen: nothing downstream edits evidence.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.bundle.trace_event import TraceEvent
from capenv.interpreter.bundle.path_spans import PathSpan

NOT_JSON: Any = type("NotJson", (), {"__repr__": lambda self: "NOT_JSON", "__bool__": lambda self: False})()
"""Marker for a body that has no JSON value (absent, not retained, not JSON, binary)."""

STATE_CHANGING_SAFE = frozenset({"GET", "HEAD", "OPTIONS"})


class Body(BaseModel):
    """A request or response body as the capture kept it."""

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)

    mime_type: str | None = None
    text: str | None = None
    """The body text, decoded (base64 undone); ``None`` when absent, not retained or not text."""
    retained: bool = True
    """False when the HAR kept no text for a body the method sends (DESIGN §3)."""
    note: str | None = None
    """Why a body was not retained, when the HAR shows more than its absence (form params only)."""
    size: int = 0
    """Bytes of the decoded body."""
    binary: bool = False
    """The decoded bytes are not UTF-8 text."""
    json_value: Any = Field(default=None, exclude=True)
    is_json: bool = False
    """True when ``text`` parsed as JSON (exact numbers); the value is ``json_value``."""
    json_error: str | None = None
    """Why a body with a JSON media type did not parse, for reasons and traces."""

    @property
    def json(self) -> Any:
        return self.json_value if self.is_json else NOT_JSON


class Record(BaseModel):
    """One HTTP exchange of the capture, normalised."""

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)

    ordinal: int
    """1-based position after a stable sort by start time."""
    entry_index: int
    """0-based index of the entry in the HAR file, for messages."""
    started_at: datetime
    finished_at: datetime
    method: str
    origin: str
    """scheme://host[:port], lower-cased scheme and host, default ports dropped."""
    path: str
    """The URL path as sent: raw spelling, percent-escapes kept; less a format suffix the
    capture shows is spelling (``format_suffix``, the ``path-format-suffixes`` table)."""
    query: tuple[tuple[str, str], ...] = ()
    """Raw (name, value) pairs in order, as sent (not percent-decoded)."""
    request_headers: tuple[tuple[str, str], ...] = ()
    request: Body = Body()
    status: int
    """0 means unanswered."""
    status_text: str = ""
    redirected: bool = False
    redirect_url: str = ""
    response_headers: tuple[tuple[str, str], ...] = ()
    response: Body = Body()
    primary: bool = False
    """True when the record's origin is the primary origin."""
    format_suffix: str = ""
    """The format suffix (``.json``) the path was sent with, taken off ``path`` as spelling."""

    @property
    def changes_state(self) -> bool:
        return self.method not in STATE_CHANGING_SAFE

    @property
    def answered(self) -> bool:
        return self.status != 0

    @property
    def succeeded(self) -> bool:
        return 200 <= self.status < 300

    def header(self, name: str, *, response: bool = True) -> str | None:
        """The first header of that name (case-insensitive), or None."""
        wanted = name.lower()
        for key, value in self.response_headers if response else self.request_headers:
            if key.lower() == wanted:
                return value
        return None


class Evidence(BaseModel):
    """A whole capture: records in ordinal order, its primary origin and its id."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    evidence_id: str
    """``ev-`` + the first 32 hex of sha256 over the canonical records."""
    source: str
    """The file the capture was read from, as given."""
    records: tuple[Record, ...]
    primary_origin: str | None
    origins: dict[str, int]
    """Record count per origin."""
    warnings: tuple[str, ...] = ()
    """Entries skipped where skipping cannot change a verdict, each with its reason."""
    timing_rule: str | None = None
    """The ``har-timings`` rule that read when each answer ended (None: HAR 1.2's ``time``)."""
    timing_trace: tuple[TraceEvent, ...] = ()
    path_spans: tuple[PathSpan, ...] = ()
    """Parameters spanning segments (``evidence.path_spans``); ``records`` hold the folded paths."""
    span_trace: tuple[TraceEvent, ...] = ()
    format_suffix: str | None = None
    """The suffix the application's paths are spelled with (``.json``), taken off every path."""
    format_trace: tuple[TraceEvent, ...] = ()
    colon_actions: tuple[str, ...] = ()
    """Verbs glued after a colon (``/notes/5:archive``) that ``records`` spell as their own segment
    (``/notes/5/:archive``, ``evidence.colon_actions``)."""
    colon_trace: tuple[TraceEvent, ...] = ()

    @property
    def primary_records(self) -> tuple[Record, ...]:
        return tuple(r for r in self.records if r.primary)
