"""Whether sibling path values lead to different kinds of entity (``manifest-segments`` evidence).

``/items/articles`` and ``/items/authors``: each value's reads answer objects with members of
their own (the generic collections of a CMS, each with its own id space), so the segment is a
literal, one type per value. ``/projects/1`` and ``/projects/2`` answer objects of one shape, so
the segment is a parameter. The reads counted are the successful JSON GETs at each value's own
path and one segment below it (its list and its items).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from capenv.interpreter.evidence.records import Record


def envelope_object(body: Any, is_identity: Callable[[str], bool]) -> dict[str, Any] | None:
    """The object an answer wraps: the object of a root of one member (``{"data": {…}}``), or of a
    root whose one member holding an object or an array is an object, every other member a scalar,
    none an identity member (``{"code": 0, "msg": "ok", "data": {…}}``); None for any other answer
    (an entity ``{"id": 1, "config": {…}}`` holds its identity beside its one object)."""
    if not isinstance(body, dict) or not body:
        return None
    if len(body) == 1:
        inner = next(iter(body.values()))
        return inner if isinstance(inner, dict) else None
    if any(is_identity(name) for name in body):
        return None
    containers = [value for value in body.values() if isinstance(value, (dict, list))]
    return containers[0] if len(containers) == 1 and isinstance(containers[0], dict) else None


def entity_members(body: Any, list_members: frozenset[str] = frozenset(),
                   is_identity: Callable[[str], bool] = lambda name: False) -> frozenset[str]:
    """The members of the entities an answer shows, envelopes aside: the objects of an array (at
    the root or in a member, or in a member of the object an answer wraps, ``envelope_object``: a
    list envelope inside an envelope, ``{"data": {"rows": [...], "next": null}}``), else the object
    (the root or one member) holding the most members; an answer wrapping its object beside scalars
    (``{"code": 0, "msg": "ok", "data": {…}}``) is read as that object alone in one member. ``list_members`` names the members that hold the entities of a list in sibling answers:
    an answer holding one of them as an empty array (``{"results": []}``) shows no entity at all."""
    if isinstance(body, list):
        return frozenset(k for item in body if isinstance(item, dict) for k in item)
    if not isinstance(body, dict):
        return frozenset()
    arrays = [v for v in body.values() if isinstance(v, list) and v and all(isinstance(i, dict) for i in v)]
    if len(arrays) == 1:
        return frozenset(k for item in arrays[0] for k in item)
    if any(body.get(name) == [] for name in list_members):
        return frozenset()
    inner = envelope_object(body, is_identity)
    if inner is not None and len(body) > 1:  # scalars beside: read as the object alone in one member
        return entity_members({"": inner}, list_members, is_identity)
    if inner is not None and not arrays:
        listed = [v for v in inner.values() if isinstance(v, list) and v and all(isinstance(i, dict) for i in v)]
        if len(listed) == 1:
            return frozenset(k for item in listed[0] for k in item)
        if any(inner.get(name) == [] for name in list_members):
            return frozenset()
    objects = [body] + [v for v in body.values() if isinstance(v, dict)]
    return frozenset(max(objects, key=len))


def _list_members(body: Any, is_identity: Callable[[str], bool]) -> set[str]:
    """The members of an answer, or of the object it wraps (``envelope_object``), holding a
    non-empty array of objects."""
    if not isinstance(body, dict):
        return set()
    inner = envelope_object(body, is_identity)
    return {k for level in (body, inner or {}) for k, v in level.items()
            if isinstance(v, list) and v and all(isinstance(i, dict) for i in v)}


def kind_of(records: Iterable[Record], list_members: frozenset[str] = frozenset(),
            is_identity: Callable[[str], bool] = lambda name: False) -> frozenset[str]:
    """The members the successful JSON reads of one value show."""
    members: set[str] = set()
    for record in _json_reads(records):
        members |= entity_members(record.response.json_value, list_members, is_identity)
    return frozenset(members)


def _json_reads(records: Iterable[Record]) -> list[Record]:
    return [r for r in records if r.method == "GET" and r.succeeded and r.response.is_json]


def sibling_kinds(reads: Mapping[str, Iterable[Record]],
                  is_identity: Callable[[str], bool] = lambda name: False) -> tuple[int, float | None]:
    """``(values, overlap)``: how many sibling values show entity members, and the largest share
    of members two of them have in common (members both show / members either shows); None with
    fewer than two such values."""
    reads = {value: _json_reads(records) for value, records in reads.items()}
    list_members = frozenset(name for records in reads.values() for r in records
                             for name in _list_members(r.response.json_value, is_identity))
    kinds = [kind for kind in (kind_of(records, list_members, is_identity) for records in reads.values()) if kind]
    if len(kinds) < 2:
        return len(kinds), None
    distinct = list(dict.fromkeys(kinds))
    if len(distinct) < len(kinds):  # two values show the same members: the largest share there is
        return len(kinds), 1.0
    overlap = max(len(a & b) / len(a | b) for i, a in enumerate(distinct) for b in distinct[i + 1:])
    return len(kinds), round(overlap, 3)
