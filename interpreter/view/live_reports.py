"""Document reads whose answers hold the application's own now (``view-live-reports``): Node-RED's
``/diagnostics`` answers ``{"time": {"utc": "<the read's time>"}, "nodejs": {"memoryUsage": …}}``,
a health check its latest heartbeat. Such an answer is computed at each read: a recording, or a
state built from it, would answer an old now, so serving refuses those reads and says why.

A read tool counts when no entity view reads it (a document, or a tool with no view: entity views
keep their clocks by ``view-volatile-members``) and one of its successful JSON recordings holds a
clock the table finds at the read's own time, after the last write before it, where each other
recording holding a clock there holds it at its own read's time too (a start time stays put).
"""

from __future__ import annotations

from bisect import bisect_left
from datetime import datetime
from typing import Any, Iterator

from capenv.interpreter.bundle.models import ViewResult
from capenv.interpreter.bundle.pointers import MISSING, resolve_text, spell
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.manifest.models import Manifest
from capenv.interpreter.predicates.clock_formats import parse_instant, seconds_between
from capenv.interpreter.predicates.live_reports import LiveReportContext
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

TABLE = "view-live-reports"
DOCUMENT_KINDS = frozenset({"document", "none"})


def live_reports(manifest: Manifest, view: ViewResult | None, records: dict[int, Record],
                 ruleset: RuleSet) -> tuple[dict[str, str], tuple[TraceEvent, ...]]:
    """Per read tool answering its own now: why (the pointer and the read), and the traces."""
    writes = sorted((r.finished_at, r.ordinal) for r in records.values() if r.changes_state and r.primary)
    ends = [end for end, _ in writes]
    found: dict[str, str] = {}
    traces: list[TraceEvent] = []
    for tool in manifest.tools:
        if tool.changes_state or tool.method != "GET":
            continue
        read_view = view.view(tool.name) if view is not None else None
        if read_view is not None and read_view.kind not in DOCUMENT_KINDS:
            continue
        reads = [records[o] for o in tool.record_ordinals
                 if records[o].succeeded and records[o].response.is_json]
        for record in reads:
            events: list[TraceEvent] = []
            hit = _first_live_clock(record, _last_write(ends, record), ruleset, events)
            if hit is not None and all(_live_or_absent(other, hit, _last_write(ends, other), ruleset)
                                       for other in reads if other is not record):
                traces.extend(events)
                found[tool.name] = (f"its answer at {hit} holds the time of the read itself (record "
                                    f"{record.ordinal}): the application computes it at each read")
                break
    return found, tuple(traces)


def _last_write(ends: list[datetime], record: Record) -> datetime | None:
    before = bisect_left(ends, record.started_at)
    return ends[before - 1] if before else None


def _live_or_absent(record: Record, pointer: str, last_write: datetime | None, ruleset: RuleSet) -> bool:
    """Another recording of the tool holds no clock at ``pointer``, or one at its own read time
    too: a clock another read shows unmoved (a start time) is no now."""
    value = resolve_text(record.response.json_value, pointer)
    instant = None if value is MISSING or isinstance(value, bool) else parse_instant(value)
    if instant is None:
        return True
    return bool(evaluate(ruleset, TABLE, _context(pointer, instant, record, last_write),
                         subject=f"record {record.ordinal} {pointer}").yields.get("live"))


def _context(pointer: str, instant: datetime, record: Record, last_write: datetime | None) -> LiveReportContext:
    dated = parse_instant(record.header("date") or "")
    return LiveReportContext(
        pointer=pointer, seconds_from_read=round(seconds_between(instant, record.started_at), 3),
        seconds_after_write=None if last_write is None else round(seconds_between(instant, last_write), 3),
        seconds_from_date=None if dated is None else round(seconds_between(instant, dated), 3))


def _first_live_clock(record: Record, last_write: datetime | None, ruleset: RuleSet,
                      traces: list[TraceEvent]) -> str | None:
    for pointer, value in _leaves(record.response.json_value, ()):
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            continue
        instant = parse_instant(value)
        if instant is None:
            continue
        decision = evaluate(ruleset, TABLE, _context(pointer, instant, record, last_write),
                            subject=f"record {record.ordinal} {pointer}")
        if decision.yields.get("live"):
            traces.extend(decision.events)
            return pointer
    return None


def _leaves(value: Any, tokens: tuple[str, ...]) -> Iterator[tuple[str, Any]]:
    if isinstance(value, dict):
        for key, member in value.items():
            yield from _leaves(member, tokens + (str(key),))
    elif isinstance(value, list):
        for index, member in enumerate(value):
            yield from _leaves(member, tokens + (str(index),))
    else:
        yield spell(tokens), value
