"""Whether a write tool's calls carried a precondition the application checks (the
``write-preconditions`` table: a conditional header, or a body member carrying the entity's
version, or a query parameter carrying a value the entity held, such as its revision): a tool
every successful call of which sent one gets no plan
(``precondition-header``), since serving cannot check an ETag it does not hold and would apply a
stale call the application refuses (412), or one without it that it may refuse (428); every other
plan lists the headers serving refuses a call for carrying (``WritePlan.unchecked_headers``)."""

from __future__ import annotations

import bisect
from typing import Any, Callable
from urllib.parse import unquote

from capenv.interpreter.bundle.jsonvalue import dumps
from capenv.interpreter.bundle.json_patch import read_patch
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.write_preconditions import TagSighting, WritePreconditionContext
from capenv.interpreter.rules_engine import Decision, RuleSet, evaluate

TABLE = "write-preconditions"


def precondition_decision(tool_name: str, calls: list[Record], ruleset: RuleSet,
                          records: dict[int, Record] | None = None,
                          patch_ops: tuple[str, ...] = (),
                          body_of: Callable[[Record], Any] | None = None) -> Decision | None:
    """The table's decision on the headers, body members and query values the tool's successful
    calls sent (None without the table). ``records``: the whole capture, where the last read of a
    call's own path shows what the entity held when the call began; ``patch_ops``: the bodies are
    JSON Patches of these operations, whose members are the ones they set; ``body_of``: a call's
    body as the plan's members read it (inside its envelope: {"posts": [{…}]}), else the body whole."""
    if TABLE not in ruleset.tables:
        return None
    sent: dict[str, list[int]] = {}
    members: dict[str, list[int]] = {}
    held_query: list[tuple[str, str, str, int]] = []
    succeeded = [call for call in calls if call.succeeded]
    for call in succeeded:
        for name, _ in call.request_headers:
            sent.setdefault(name.lower(), []).append(call.ordinal)
        body = call.request.json_value if call.request.is_json else None
        body = body_of(call) if body_of is not None else read_patch(body, patch_ops).members if patch_ops else body
        for name in body if isinstance(body, dict) else ():
            members.setdefault(name, []).append(call.ordinal)
        held_query += [(name, member, value, call.ordinal)
                       for name, member, value in held_query_values(call, records or {})]
    return evaluate(ruleset, TABLE, WritePreconditionContext(calls=len(succeeded), sent=sent, members=members,
                                                             held_query=tuple(held_query),
                                                             tags=tag_sightings(calls, records or {})),
                    subject=f"{tool_name} headers")


def tag_sightings(calls: list[Record], records: dict[int, Record]) -> dict[str, tuple[TagSighting, ...]]:
    """Per request header (lower case), each call of the tool sending it (a failed one too: a
    stale tag's 412 is what shows the check) with the ``ETag`` and the scalar members of the last
    successful read of the call's own path before it began, from which its tag may be derived."""
    found: dict[str, list[TagSighting]] = {}
    paths = {call.path for call in calls}
    reads: dict[str, list[Record]] = {}
    for record in records.values():
        if record.path in paths and record.method == "GET" and record.succeeded and record.response.is_json:
            reads.setdefault(record.path, []).append(record)
    by_end = {path: sorted(held, key=lambda r: r.finished_at) for path, held in reads.items()}  # stable
    ends = {path: [r.finished_at for r in held] for path, held in by_end.items()}
    for call in calls:
        read = _last_finished(by_end.get(call.path, []), ends.get(call.path, []), call.started_at)
        held = scalar_members(read.response.json_value) if read is not None and read.response.is_json else {}
        read_tag = read.header("etag") if read is not None else None  # once per call, not per header
        for name, value in call.request_headers:
            found.setdefault(name.lower(), []).append(TagSighting(
                record=call.ordinal, status=call.status, sent=value, held=held, read_tag=read_tag))
    return {name: tuple(sightings) for name, sightings in found.items()}


def _last_finished(reads: list[Record], ends: list[Any], moment: Any) -> Record | None:
    """The read (``reads`` sorted by end) that finished last at or before ``moment``; of reads
    finishing at the same instant, the first in record order."""
    index = bisect.bisect_right(ends, moment)
    return reads[bisect.bisect_left(ends, ends[index - 1])] if index else None


def scalar_members(body: Any, depth: int = 2) -> dict[str, str]:
    """The string and number members of ``body`` as text, down to ``depth`` objects (an entity
    wrapped in an envelope member or a one-element array), the shallowest of each name."""
    found: dict[str, str] = {}
    level = [body]
    for _ in range(depth):
        nested: list[Any] = []
        for item in level:
            if isinstance(item, list) and len(item) == 1:
                item = item[0]
            if not isinstance(item, dict):
                continue
            for name, value in item.items():
                if isinstance(value, (dict, list)):
                    nested.append(value)
                elif value is not None and not isinstance(value, bool) and name not in found:
                    found[name] = value if isinstance(value, str) else dumps(value).decode()
        level = nested
    return found


def held_query_values(call: Record, records: dict[int, Record]) -> list[tuple[str, str, str]]:
    """The call's query parameters whose value a string member of the entity at the call's own path
    held when the call began (the last successful JSON read of that path finished before it), as
    (parameter, member, value): a client sending back a value it read (a revision, ``?rev=1-c093…``).
    A value that is a segment of the path (the entity's own id) names the entity, not its state."""
    if not call.query:
        return []
    read = max((r for r in records.values() if r.method == "GET" and r.path == call.path and r.succeeded
                and r.finished_at <= call.started_at and r.response.is_json
                and isinstance(r.response.json_value, dict)), key=lambda r: r.finished_at, default=None)
    if read is None:
        return []
    held = {value: name for name, value in read.response.json_value.items() if isinstance(value, str)}
    segments = {unquote(segment) for segment in call.path.split("/")}
    return [(name, held[value], value) for name, value in call.query if value in held and value not in segments]
