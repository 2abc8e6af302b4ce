"""A format suffix glued to the last path segment (``/blog/articles/5.json``) read as spelling.

The ``path-format-suffixes`` table decides, from the whole capture, whether the application spells
its reads with a suffix that is no part of the value (Datasette's ``5.json`` is the row ``5``;
Jupyter's ``data.json`` is a file name its answers return). When it is, every primary-origin
record's path loses it (``Record.format_suffix`` keeps it), as a trailing slash is spelling and
not a segment: one template serves ``/blog/articles/5.json`` and ``/blog/articles/7.json``. The
evidence id is computed over the paths as sent, before this step.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from capenv.interpreter.bundle.trace_event import TraceEvent

from .records import Record

TABLE = "path-format-suffixes"
_SHOWN = 3  # how many read-back values the trace names (any one decides)


def last_segment_suffix(path: str) -> str:
    """``.json`` of ``/a/5.json``; empty when the last segment has no dot (or is only a suffix)."""
    last = path.rstrip("/").rsplit("/", 1)[-1]
    stem, dot, extension = last.rpartition(".")
    return "." + extension if dot and stem and extension else ""


def strip_suffix(path: str, suffix: str) -> str:
    """``/a/5.json`` -> ``/a/5`` for suffix ``.json``; a path without it is returned unchanged."""
    if suffix and not path.endswith("/") and last_segment_suffix(path) == suffix:
        return path[: -len(suffix)]
    return path


def spelled_suffix(records: tuple[Record, ...], ruleset: Any) -> tuple[tuple[Record, ...], str | None,
                                                                         tuple[TraceEvent, ...]]:
    """The records with the format suffix taken off their paths, the suffix (None when the table
    finds none) and the decision's trace."""
    from capenv.interpreter.predicates.path_suffixes import PathFormatSuffixContext
    from capenv.interpreter.rules_engine import evaluate, load_rules

    ruleset = ruleset if ruleset is not None else load_rules()
    reads = [r for r in records if r.primary and r.method == "GET" and r.succeeded and r.response.is_json]
    counts = Counter(s for s in (last_segment_suffix(r.path) for r in reads) if s)
    if not counts or TABLE not in ruleset.tables:
        return records, None, ()
    suffix, suffixed = max(counts.items(), key=lambda item: (item[1], item[0]))
    context = PathFormatSuffixContext(suffix=suffix, json_reads=len(reads), suffixed_reads=suffixed,
                                      read_back=_read_back(records, suffix),
                                      suffixed_with_items=_with_items(reads, suffix))
    decision = evaluate(ruleset, TABLE, context, subject=f"path format suffix {suffix}")
    if not decision.yields.get("spelling"):
        return records, None, decision.events
    stripped = tuple(
        r.model_copy(update={"path": strip_suffix(r.path, suffix), "format_suffix": suffix})
        if r.primary and strip_suffix(r.path, suffix) != r.path else r
        for r in records)
    return stripped, suffix, decision.events


def _with_items(reads: list[Record], suffix: str) -> int:
    """Suffixed reads whose unsuffixed path another read continues by exactly one segment."""
    parents = {r.path.rstrip("/").rsplit("/", 1)[0] for r in reads if not last_segment_suffix(r.path)}
    return sum(1 for r in reads if last_segment_suffix(r.path) == suffix
               and strip_suffix(r.path, suffix) in parents)


def _read_back(records: tuple[Record, ...], suffix: str) -> tuple[str, ...]:
    """Suffixed last segments some primary-origin answer holds whole as a string value."""
    segments = {r.path.rstrip("/").rsplit("/", 1)[-1] for r in records
                if r.primary and last_segment_suffix(r.path) == suffix}
    return answered_values(records, segments)


def answered_values(records: tuple[Record, ...], segments: set[str]) -> tuple[str, ...]:
    """Which of ``segments`` some primary-origin answer holds whole as a string value (the first
    few: any one decides)."""
    found: list[str] = []
    for record in records:
        if record.primary and record.response.is_json:
            for value in string_values(record.response.json):
                if value in segments and value not in found:
                    found.append(value)
                    if len(found) >= _SHOWN:
                        return tuple(found)
    return tuple(found)


def string_values(value: Any) -> Any:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
