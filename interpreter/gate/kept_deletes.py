"""A delete the application answered, yet whose entity its collection's next list still holds.

A soft delete keeps the row: the item read answers 404 after it, but the list of the collection
read next lists the entity on, renamed or marked inactive (an account kept as ``deleted-5``). When
serving answers that list by replay, no gate check compares it with the state, so a served delete
would leave the state without an entity the application still lists. This module gathers, for a
delete plan's successful call, the ``kept`` sighting the ``write-cascades`` table judges: the
entity as the last successful read of the call's path showed it before the call, the first read of
its collection's list begun after the call with no other write between, and the members an object
of that list under an id no read of the collection showed before the call (or under the entity's
own) shares with the entity that no other listed object shares (its number beside a username, its
creation clock). How many must agree is the table's.
"""

from __future__ import annotations

from typing import Any, Iterator

from capenv.interpreter.bundle.models import ReadView, WritePlan
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.values import locate, same_json
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.write_cascades import CascadeContext
from capenv.interpreter.readonly.timeline import Timeline, Writes


def kept_sightings(plan: WritePlan, call: Record, timeline: Timeline, writes: Writes,
                   views: dict[str, ReadView], id_fields: dict[str, str]) -> Iterator[CascadeContext]:
    """The ``kept`` sighting of a delete's call: the objects of its collection's next replayed list
    that share members with the entity the call deleted, one sighting per such object."""
    if plan.effect != "delete" or plan.type is None:
        return
    id_field = id_fields.get(plan.type)
    entity = _entity_before(plan, call, timeline, views)
    listing = _next_listing(plan, call, timeline, writes, views)
    if id_field is None or entity is None or listing is None:
        return
    record, members = listing
    known = _ids_shown_before(call, timeline, id_field)
    own = str(entity.get(id_field))
    for index, obj in enumerate(members):
        if str(obj.get(id_field)) in known and str(obj.get(id_field)) != own:
            continue  # an entity shown before the delete: it was there beside the deleted one all along
        others = members[:index] + members[index + 1:]
        kept = sorted(name for name, value in entity.items()
                      if name != id_field and _telling(value) and name in obj and same_json(obj[name], value)
                      and not any(name in other and same_json(other[name], value) for other in others))
        if kept:
            yield CascadeContext(sighting="kept", write_type=plan.type, call=call.ordinal,
                                 value=str(obj.get(id_field)), listed_by=record.ordinal, listed_type=plan.type,
                                 listed_path=record.path, kept_members=kept)


def _entity_before(plan: WritePlan, call: Record, timeline: Timeline, views: dict[str, ReadView]) -> dict | None:
    """The entity as the last successful read of the call's own path before the call showed it."""
    read = timeline.prior_successful_get(call)
    view = views.get(timeline.tool_of.get(read.ordinal, "")) if read is not None else None
    if read is None or view is None or view.kind != "item" or view.type != plan.type or not read.response.is_json:
        return None
    shown = locate(read.response.json_value, view.locator) if view.locator is not None else read.response.json_value
    return shown if isinstance(shown, dict) else None


def _next_listing(plan: WritePlan, call: Record, timeline: Timeline, writes: Writes,
                  views: dict[str, ReadView]) -> tuple[Record, list[dict[str, Any]]] | None:
    """The first successful list of the type begun after the call at the collection its path names
    (the path less its last segment, no query), answered by replay, with no other write between."""
    parts = split_path(call.path)
    if len(parts) < 2:
        return None
    collection = tuple(parts[:-1])
    for record in timeline.records:
        if record.started_at < call.finished_at or record.method != "GET" or record.query \
                or tuple(split_path(record.path)) != collection:
            continue
        if writes.any_between(call, record, besides=call.ordinal):
            return None  # another write may have made what the list shows
        view = views.get(timeline.tool_of.get(record.ordinal, ""))
        if view is None or view.kind != "list" or view.type != plan.type or view.state_backed \
                or not record.succeeded or not record.response.is_json:
            return None  # the gate checks a list the state answers (its absences) against the delete
        shown = locate(record.response.json_value, view.locator) if view.locator is not None \
            else record.response.json_value
        if not isinstance(shown, list):
            return None
        return record, [m for m in shown if isinstance(m, dict)]
    return None


def _ids_shown_before(call: Record, timeline: Timeline, id_field: str) -> set[str]:
    """The ids reads of the call's collection (its lists, its items) showed before the call: the
    segment after the collection in an item read's path, and every object's ``id_field`` in an answer."""
    collection = split_path(call.path)[:-1]
    known: set[str] = set()
    for record in timeline.records:
        parts = split_path(record.path)
        if record.method != "GET" or record.finished_at > call.started_at or parts[:len(collection)] != collection:
            continue
        if len(parts) > len(collection):
            known.add(parts[len(collection)])
        if record.succeeded and record.response.is_json:
            _collect(record.response.json_value, id_field, known)
    return known


def _collect(value: Any, id_field: str, out: set[str]) -> None:
    if isinstance(value, dict):
        if isinstance(value.get(id_field), (str, int)) and not isinstance(value.get(id_field), bool):
            out.add(str(value[id_field]))
        for member in value.values():
            _collect(member, id_field, out)
    elif isinstance(value, list):
        for element in value:
            _collect(element, id_field, out)


def _telling(value: Any) -> bool:
    """A value that can tell one entity from another: not null, a boolean or empty."""
    return value is not None and not isinstance(value, bool) and value not in ("", [], {})
