"""Whether a read of a collection, whatever its query or view, held an id before a create
(write-effects, creates: "The entity must be new: … any read of the item read's collection, with
or without a query, that lists it under an identity member of its own (a body with no list counts
an identity member at any depth)").

The timeline keeps reads the view reads as item or list reads; a collection read answering an
aggregate, a search or another shape is only here. Reads are indexed by path once per timeline.
"""

from __future__ import annotations

from typing import Any

from capenv.interpreter.evidence.records import Record

from .timeline import Timeline


def collection_read_holding(timeline: Timeline, collection: str, id_field: str, key: str,
                            call: Record) -> Record | None:
    """The first successful JSON GET of ``collection`` (any query) that finished before ``call``
    began and holds ``key`` under ``id_field``, or None."""
    for record in _reads_by_path(timeline).get(collection, ()):
        if record.finished_at > call.started_at or record.ordinal == call.ordinal:
            continue
        if _holds(record.response.json_value, id_field, key):
            return record
    return None


def _reads_by_path(timeline: Timeline) -> dict[str, list[Record]]:
    if timeline.collection_reads is None:
        index: dict[str, list[Record]] = {}
        for ordinal in sorted(timeline.records):
            record = timeline.records[ordinal]
            if record.method == "GET" and record.succeeded and record.response.is_json:
                index.setdefault(record.path, []).append(record)
        timeline.collection_reads = index
    return timeline.collection_reads


def _holds(body: Any, id_field: str, key: str) -> bool:
    """A list at the root or in a member lists it under its own identity member; a body with no
    list names it under an identity member at any depth."""
    lists = [body] if isinstance(body, list) else \
        [v for v in body.values() if isinstance(v, list)] if isinstance(body, dict) else []
    if lists:
        return any(_names(member, id_field, key) for listed in lists for member in listed)
    stack = [body]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            if _names(value, id_field, key):
                return True
            stack.extend(value.values())
    return False


def _names(value: Any, id_field: str, key: str) -> bool:
    return isinstance(value, dict) and id_field in value and value[id_field] is not None \
        and str(value[id_field]) == key
