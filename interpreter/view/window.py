"""The initial-recording window: reads that finished before the first write began.

State comes from the successful ones; the read gate also checks recorded absences there."""

from __future__ import annotations

from capenv.interpreter.bundle.models import InitialWindow
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.manifest.models import Manifest


def is_write(record: Record, tool_of: dict[int, str], read_only: set[str]) -> bool:
    """A call that may have changed state: a state-changing method, not a read-only POST tool,
    and not answered 4xx (a 4xx write is taken to have changed nothing)."""
    if not record.primary or not record.changes_state:
        return False
    if tool_of.get(record.ordinal) in read_only:
        return False
    return not (400 <= record.status < 500)


def initial_window(records: list[Record], manifest: Manifest, read_only: set[str]) -> InitialWindow:
    tool_of = {o: t.name for t in manifest.tools for o in t.record_ordinals}
    first = next((r for r in records if is_write(r, tool_of, read_only)), None)
    reads = [r.ordinal for r in records
             if r.primary and r.method == "GET" and r.answered
             and (first is None or r.finished_at <= first.started_at)]
    return InitialWindow(first_write_ordinal=first.ordinal if first else None,
                         first_write_started_at=first.started_at.isoformat() if first else None,
                         read_ordinals=tuple(reads))
