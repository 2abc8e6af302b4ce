"""Whether a read of a collection, whatever its query or view, held an id before a create
(write-effects, creates: "The entity must be new: … any read of the item read's collection, with
or without a query, that lists it under an identity member of its own (a body with no list counts
an identity member at any depth)").

The timeline keeps reads the view reads as item or list reads; a collection read answering an
aggregate, a search or another shape is only here. Reads are indexed by the keys they hold, once
per collection and id field.
"""

from __future__ import annotations

from typing import Any

from capenv.interpreter.evidence.records import Record

from .timeline import Timeline


def collection_read_holding(timeline: Timeline, collection: str, id_field: str, key: str,
                            call: Record) -> Record | None:
    """The first successful JSON GET of ``collection`` (any query) that finished before ``call``
    began and holds ``key`` under ``id_field``, or None."""
    for record in _holding(timeline, collection, id_field).get(key, ()):
        if record.finished_at <= call.started_at and record.ordinal != call.ordinal:
            return record
    return None


def _holding(timeline: Timeline, collection: str, id_field: str) -> dict[str, list[Record]]:
    """Key -> the reads of ``collection`` holding it under ``id_field``, in ordinal order; built
    once per collection and id field, since every create candidate asks (walking each read's body
    per candidate made linking quadratic)."""
    if timeline.collection_reads is None:
        timeline.collection_reads = {}
    index = timeline.collection_reads.get((collection, id_field))
    if index is None:
        index = {}
        for record in _json_gets(timeline).get(collection, ()):
            for key in _held_keys(record.response.json_value, id_field):
                index.setdefault(key, []).append(record)
        timeline.collection_reads[(collection, id_field)] = index
    return index


def _json_gets(timeline: Timeline) -> dict[str, list[Record]]:
    """Path -> its successful JSON GETs in ordinal order, gathered in one pass over the records
    (not one pass per collection asked about: Prefect's creates ask about many)."""
    if timeline.json_gets is None:
        timeline.json_gets = {}
        for ordinal in sorted(timeline.records):
            record = timeline.records[ordinal]
            if record.method == "GET" and record.succeeded and record.response.is_json:
                timeline.json_gets.setdefault(record.path, []).append(record)
    return timeline.json_gets


def _held_keys(body: Any, id_field: str) -> set[str]:
    """A list at the root or in a member lists its members under their own identity member; a
    body with no list names them under an identity member at any depth."""
    lists = [body] if isinstance(body, list) else \
        [v for v in body.values() if isinstance(v, list)] if isinstance(body, dict) else []
    if lists:
        return {key for listed in lists for member in listed if (key := _key(member, id_field)) is not None}
    keys, stack = set(), [body]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            if (key := _key(value, id_field)) is not None:
                keys.add(key)
            stack.extend(value.values())
    return keys


def _key(value: Any, id_field: str) -> str | None:
    if isinstance(value, dict) and value.get(id_field) is not None:
        return str(value[id_field])
    return None
