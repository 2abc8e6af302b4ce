"""Which sibling path values a value's own read lists (``manifest-segments`` evidence).

``/v1/ports/detail`` beside ``/v1/ports/f068d39e-…`` and ``/v1/ports/eth1``: the read of
``detail`` answers an array of objects, one of them carrying ``f068d39e-…``, the value another
sibling path names. A read listing the entities its siblings name is a view of their collection,
not one of them: the segment stays a literal, however it is spelled beside a name-like identity.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from capenv.interpreter.evidence.records import Record


def _listed_objects(body: Any) -> list[dict[str, Any]]:
    """The objects of an array of objects, at the root or as a member of the root object."""
    arrays: list[list[Any]] = []
    if isinstance(body, list):
        arrays.append(body)
    elif isinstance(body, dict):
        arrays.extend(v for v in body.values() if isinstance(v, list))
    return [item for array in arrays if array and all(isinstance(i, dict) for i in array) for item in array]


def listed_siblings(records: Iterable[Record], siblings: Iterable[str]) -> int:
    """How many of ``siblings`` (the other values at this path position) the successful JSON GETs
    of this value's own path list as a top-level string or integer member of a listed object."""
    wanted = set(siblings)
    found: set[str] = set()
    for record in records:
        if record.method != "GET" or not record.succeeded or not record.response.is_json:
            continue
        for item in _listed_objects(record.response.json_value):
            for value in item.values():
                if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value) in wanted:
                    found.add(str(value))
    return len(found)
