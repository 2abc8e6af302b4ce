"""The replay table (DESIGN.md §5 "Replay"): every recorded call of every tool, with what replay
needs to never answer against the state:

* ``initial``: the call finished before the capture's first write began, so its answer shows
  the state serving starts from (a later one shows the capture's own writes);
* ``reads_types``: the state types a read tool's answers may show: its path is a type's
  collection path or lies below it (segment by segment, parameters matching any segment), or
  one of its answers names an initial entity of the type by its identity;
* ``neutral_query``: the query parameters two recordings of a tool prove change nothing.
"""

from __future__ import annotations

from bisect import bisect_right
from datetime import datetime
from typing import Any
from urllib.parse import unquote_plus

from capenv.interpreter.bundle.jsonvalue import dumps
from capenv.interpreter.bundle.models import EntityType, RecordedCall, ReplayTable, ViewResult
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.values import same_json
from capenv.interpreter.evidence.records import Evidence, Record
from capenv.interpreter.manifest.models import Manifest, Tool

from .negotiation import accept_of, usual_accepts
from .recordings import recording_of

# an initial entity's id names it in another answer only when it cannot be a coincidence
MIN_NAMING_ID = 4


def replay_table(evidence: Evidence, manifest: Manifest, view: ViewResult | None = None) -> ReplayTable:
    records = {r.ordinal: r for r in evidence.records}
    first_write = _first_write_start(view, records)
    tools: dict[str, tuple[RecordedCall, ...]] = {}
    usual = usual_accepts(manifest, records)
    default_accept = {name: accept for name, accept in usual.items()}
    for tool in manifest.tools:
        calls = []
        accepts = {ordinal: accept_of(records[ordinal]) for ordinal in tool.record_ordinals}
        negotiated = tool.name in usual
        for ordinal in tool.record_ordinals:
            record = records[ordinal]
            calls.append(RecordedCall(
                accept=accepts[ordinal] if negotiated else None,
                ordinal=ordinal, method=record.method, path=record.path, query=record.query,
                request_body=record.request.json_value if record.request.is_json else None,
                request_is_json=record.request.is_json,
                request_text=None if record.request.is_json else record.request.text,
                response=recording_of(record), initial=first_write is None or record.finished_at <= first_write))
        tools[tool.name] = tuple(calls)
    if view is None:
        return ReplayTable(tools=tools, default_accept=default_accept)
    readers = [t for t in manifest.tools if not t.changes_state or t.name in {p.tool for p in view.read_only_posts}]
    reach = {t.name: found for t in readers if (found := _reads_types(t, view, records))}
    neutral = {t.name: found for t in manifest.tools if (found := _neutral(tools[t.name]))}
    return ReplayTable(tools=tools, reads_types=reach, neutral_query=neutral, default_accept=default_accept)



def _first_write_start(view: ViewResult | None, records: dict[int, Record]) -> datetime | None:
    if view is None or view.window.first_write_ordinal is None:
        return None
    return records[view.window.first_write_ordinal].started_at


def _segments(template: str) -> list[str]:
    return [s for s in split_path(template) if s]


def _at_or_below(template: str, collection: str) -> bool:
    """The tool's path is the collection's or lies below it (a path above it, such as an API
    root, reads the type only when its answers name the type's entities)."""
    mine, theirs = _segments(template), _segments(collection)
    return len(mine) >= len(theirs) and all(
        x == y or x.startswith("{") or y.startswith("{") for x, y in zip(mine, theirs))


def _reads_types(tool: Tool, view: ViewResult, records: dict[int, Record]) -> tuple[str, ...]:
    found = []
    held = _initial_ids(view)
    for entity_type in view.types:
        if _at_or_below(tool.template, entity_type.collection_template) or _names_held(
                tool, entity_type, held.get(entity_type.name, set()), records):
            found.append(entity_type.name)
    return tuple(found)


def _initial_ids(view: ViewResult) -> dict[str, set[str]]:
    ids: dict[str, set[str]] = {}
    for collection in view.state.collections:
        ids.setdefault(collection.type, set()).update(
            str(e.id) for e in collection.entities if len(str(e.id)) >= MIN_NAMING_ID)
    return ids


def _names_held(tool: Tool, entity_type: EntityType, ids: set[str], records: dict[int, Record]) -> bool:
    if not ids:
        return False
    for ordinal in tool.record_ordinals:
        record = records[ordinal]
        if record.response.is_json and _holds_id(record.response.json_value, entity_type.id_field, ids):
            return True
    return False


def _holds_id(value: Any, field: str, ids: set[str]) -> bool:
    stack = [value]
    while stack:
        current = stack.pop()
        if isinstance(current, dict):
            if field in current and str(current[field]) in ids:
                return True
            stack.extend(current.values())
        elif isinstance(current, list):
            stack.extend(current)
    return False


def _neutral(calls: tuple[RecordedCall, ...]) -> dict[str, tuple[int, int]]:
    """Parameters whose presence or value two recordings (same path and body) show change nothing.

    Each parameter is proven by the first pair of calls (in recorded order: the first call,
    then the second) whose queries differ in it alone and whose answers are the same. Calls
    are classed by their query (decoded, as a multiset) once, and the queries of two classes
    are compared once, so a tool read 1,000 times with a handful of queries compares a handful
    of queries, not half a million pairs."""
    groups: dict[tuple[str, bytes], list[RecordedCall]] = {}
    for call in calls:
        body = dumps(call.request_body) if call.request_is_json else (call.request_text or "").encode()
        groups.setdefault((call.path, body), []).append(call)
    found: dict[str, tuple[int, int]] = {}
    for group in groups.values():
        for name, pair in _first_pairs(group, found):
            found[name] = pair
    return found


def _first_pairs(group: list[RecordedCall], found: dict[str, tuple[int, int]]) -> list[tuple[str, tuple[int, int]]]:
    """For each parameter not in ``found``, the first pair of ``group`` (by the first call, then
    the second) proving it neutral, in the order a walk over every pair would find them."""
    classes: dict[_Query, list[int]] = {}
    keys = []
    for index, call in enumerate(group):
        values: dict[str, list[str]] = {}
        for n, v in call.query:
            values.setdefault(unquote_plus(n), []).append(unquote_plus(v))
        key = tuple(sorted((name, tuple(sorted(held))) for name, held in values.items()))
        keys.append(key)
        classes.setdefault(key, []).append(index)
    if len(classes) < 2:
        return []
    shapes = {key: dict(key) for key in classes}
    differs: dict[tuple[_Query, _Query], str | None] = {}
    proven: list[tuple[str, tuple[int, int]]] = []
    taken = set(found)
    for first in range(len(group)):
        mine = keys[first]
        hits: list[tuple[int, str]] = []
        for key, members in classes.items():
            if key == mine:
                continue
            name = differs.get((mine, key), _UNSEEN)
            if name is _UNSEEN:
                name = differs[(mine, key)] = _only_difference(shapes[mine], shapes[key])
            if name is None or name in taken:
                continue
            for second in members[bisect_right(members, first):]:
                if _same_answer(group[first], group[second]):
                    hits.append((second, name))
                    break
        for second, name in sorted(hits):
            if name not in taken:
                taken.add(name)
                proven.append((name, (group[first].ordinal, group[second].ordinal)))
    return proven


_UNSEEN: Any = object()
_Query = tuple[tuple[str, tuple[str, ...]], ...]
"""A decoded query as a multiset: each parameter name with its values, sorted."""


def _only_difference(a: dict[str, tuple[str, ...]], b: dict[str, tuple[str, ...]]) -> str | None:
    """The one parameter name whose values two queries (name -> sorted values) differ in, else None."""
    names = [name for name in a.keys() | b.keys() if a.get(name) != b.get(name)]
    return names[0] if len(names) == 1 else None


def _same_answer(a: RecordedCall, b: RecordedCall) -> bool:
    one, two = a.response, b.response
    if one.status != two.status or one.is_json != two.is_json:
        return False
    return same_json(one.body, two.body) if one.is_json else one.text == two.text
