"""Where a read-only POST's recorded answer showed an entity present (seeds: "Calls that only
read"). A read-only POST is served by replay and checks nothing, yet its recording is the
application's own word that the entities it lists were held when it ran: Prefect's
``POST /api/deployments/filter`` lists a deployment after a write no plan models (a poll of the
scheduled runs) left it unknown. A recorded absence after that listing (``absences``) is then a
removal that only the modelled writes since the listing can have made."""

from __future__ import annotations

import bisect
from typing import Any

from capenv.interpreter.bundle.models import EntityType
from capenv.interpreter.bundle.paths import lies_below
from capenv.interpreter.evidence.records import Record


def read_only_listings(records: dict[int, Record], tool_of: dict[int, str], read_only: set[str],
                       types: dict[str, EntityType]) -> dict[tuple[str, str], list[int]]:
    """Per (type, key): the ordinals of the successful read-only POSTs below the type's collection
    path whose JSON answer lists the entity by the type's identity (a bare list, or the list in one
    member of the answer, or in one envelope further), in ordinal order."""
    found: dict[tuple[str, str], list[int]] = {}
    for ordinal in sorted(records):
        record = records[ordinal]
        if tool_of.get(ordinal) not in read_only or not record.succeeded or not record.response.is_json:
            continue
        members = _listed(record.response.json_value)
        for entity_type in types.values():
            if not lies_below(record.path, entity_type.collection_template):
                continue
            for member in members:
                if isinstance(member, dict) and entity_type.id_field in member:
                    found.setdefault((entity_type.name, str(member[entity_type.id_field])), []).append(ordinal)
    return found


def listed_since(listings: dict[tuple[str, str], list[int]], type_name: str, key: str, before: int) -> int | None:
    """The latest read-only POST before ``before`` that listed the entity (a bisection: the
    ordinals are in order, and an entity polled all along is listed by every poll)."""
    listed = listings.get((type_name, key), [])
    index = bisect.bisect_left(listed, before)
    return listed[index - 1] if index else None


def _listed(body: Any, depth: int = 0) -> list[Any]:
    """A bare list, the list in one member of the answer, or (once) the list inside the object of
    its one member holding an object or array beside scalars only (an envelope around the list's
    envelope: ``{"code": 0, "data": {"list": [...], "total": 2}}``)."""
    if isinstance(body, list):
        return body
    if isinstance(body, dict):
        lists = [v for v in body.values() if isinstance(v, list)]
        if lists or depth:
            return lists[0] if len(lists) == 1 else []
        objects = [v for v in body.values() if isinstance(v, dict)]
        return _listed(objects[0], depth + 1) if len(objects) == 1 else []
    return []
