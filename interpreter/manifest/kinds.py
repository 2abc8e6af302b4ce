"""Whether sibling path values lead to different kinds of entity (``manifest-segments`` evidence).

``/items/articles`` and ``/items/authors``: each value's reads answer objects with members of
their own (the generic collections of a CMS, each with its own id space), so the segment is a
literal, one type per value. ``/projects/1`` and ``/projects/2`` answer objects of one shape, so
the segment is a parameter. The reads counted are the successful JSON GETs at each value's own
path and one segment below it (its list and its items).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from capenv.interpreter.evidence.records import Record


def entity_members(body: Any) -> frozenset[str]:
    """The members of the entities an answer shows, envelopes aside: the objects of an array (at
    the root or in a member), else the object (the root or one member) holding the most members."""
    if isinstance(body, list):
        return frozenset(k for item in body if isinstance(item, dict) for k in item)
    if not isinstance(body, dict):
        return frozenset()
    arrays = [v for v in body.values() if isinstance(v, list) and v and all(isinstance(i, dict) for i in v)]
    if len(arrays) == 1:
        return frozenset(k for item in arrays[0] for k in item)
    objects = [body] + [v for v in body.values() if isinstance(v, dict)]
    return frozenset(max(objects, key=len))


def kind_of(records: Iterable[Record]) -> frozenset[str]:
    """The members the successful JSON reads of one value show."""
    members: set[str] = set()
    for record in records:
        if record.method == "GET" and record.succeeded and record.response.is_json:
            members |= entity_members(record.response.json_value)
    return frozenset(members)


def sibling_kinds(reads: Mapping[str, Iterable[Record]]) -> tuple[int, float | None]:
    """``(values, overlap)``: how many sibling values show entity members, and the largest share
    of members two of them have in common (members both show / members either shows); None with
    fewer than two such values."""
    kinds = [kind for kind in (kind_of(records) for records in reads.values()) if kind]
    if len(kinds) < 2:
        return len(kinds), None
    distinct = list(dict.fromkeys(kinds))
    if len(distinct) < len(kinds):  # two values show the same members: the largest share there is
        return len(kinds), 1.0
    overlap = max(len(a & b) / len(a | b) for i, a in enumerate(distinct) for b in distinct[i + 1:])
    return len(kinds), round(overlap, 3)
