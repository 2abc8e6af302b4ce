"""Build each read tool's view: base recordings, shown and required fields, list lines,
documents, per-response members, the missing-entity answer."""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.models import (
    DocumentLine, EntityType, ListLine, Locator, ReadView, Recording,
)
from capenv.interpreter.bundle.pointers import member_at, spell
from capenv.interpreter.bundle.values import MISSING, locate, same_json
from capenv.interpreter.evidence.records import Record

from .absence import Absences
from .extract import collection_path
from .member_naming import without_member_naming
from .paging import PagingRoles
from .projection_candidates import ProjectionCandidates
from .recordings import recording_of
from .types import ToolShape
from .unlisted_entities import HeldByReads, held_by_item_reads, leaves_out_held



def is_absence(record: Record, statuses: tuple[int, ...], view: ReadView | None = None) -> bool:
    """A recorded absence: one of ``statuses`` (the budget ``absence_statuses``: 400, 404, 410), a
    2xx JSON null, or a read of its item view that ``view-absence-answers`` took as the
    application's answer for an id it does not hold."""
    return record.status in statuses or (
        record.succeeded and record.response.is_json and record.response.json_value is None) or (
        view is not None and record.ordinal in view.absence_records)


def _fields(objects: list[dict[str, Any]]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    shown = list(dict.fromkeys(k for obj in objects for k in obj))  # first-seen order
    common = set(objects[0]).intersection(*objects[1:]) if objects else set()
    required = [k for k in shown if k in common]
    return tuple(shown), tuple(required)


def _per_response(records: list[Record], locator: Locator | None) -> tuple[str, ...]:
    """Envelope members that differ between two answers of one path (a request id, a time): the
    body's own beside the located value, by name, and those of each object on the way to it
    (``locator.within``: ``{"data": {"rows": [...], "query_ms": 2.1}}``), by JSON pointer."""
    if locator is None or locator.kind == "root":
        return ()
    steps = (*locator.within, locator.member or "")
    by_path: dict[tuple, list[Any]] = {}
    for record in records:
        if isinstance(record.response.json_value, dict):
            by_path.setdefault((record.path, record.query), []).append(record.response.json_value)
    changing: set[str] = set()
    for bodies in by_path.values():
        for a, b in zip(bodies, bodies[1:]):
            for depth, beside in enumerate(steps):
                here, there = member_at(a, spell(steps[:depth])), member_at(b, spell(steps[:depth]))
                if not isinstance(here, dict) or not isinstance(there, dict):
                    break
                for name in set(here) | set(there):
                    if name != beside and not same_json(here.get(name, MISSING), there.get(name, MISSING)):
                        changing.add(spell((*steps[:depth], name)) if depth else name)
    return tuple(sorted(changing))


def build_views(shapes: dict[str, ToolShape], records: dict[int, Record], types: dict[str, EntityType],
                window_reads: set[int], volatile: dict[str, tuple[str, ...]], paging: PagingRoles,
                read_only_posts: dict[str, str], learned: Absences, absence_statuses: tuple[int, ...],
                projecting: ProjectionCandidates | None = None) -> list[ReadView]:
    """``projecting``: reads sent with a projection candidate show part of each entity; they
    neither lessen the members every entity carries nor give an item view its base."""
    views = []
    held = held_by_item_reads(shapes, records, types, window_reads)
    for name, shape in shapes.items():
        tool = shape.tool
        absent = learned.records.get(name, ()) if name in learned.answers else ()
        ok = [records[o] for o in tool.record_ordinals
              if records[o].succeeded and records[o].response.is_json and o not in absent
              and o not in shape.other_shape]
        absences = [records[o] for o in tool.record_ordinals if is_absence(records[o], absence_statuses)]
        missing = recording_of(absences[-1]) if absences else None
        absence = learned.answers.get(name)
        if name in learned.answers:  # an item view: its learned answer (with evidence), or none
            missing = absence.recording if absence is not None else None
        in_window = [r for r in ok if r.ordinal in window_reads]
        if shape.kind in ("none",) or not ok:
            views.append(ReadView(tool=name, kind="none", reason=shape.reason or "no successful JSON answer",
                                  missing=missing, record_ordinals=tool.record_ordinals))
            continue
        if shape.kind == "document":
            views.append(_document_view(shape, ok, in_window, missing))
            continue
        entity_type = types.get(shape.type_name or "")
        if entity_type is None:
            views.append(ReadView(tool=name, kind="none", reason=shape.reason or "no entity type",
                                  missing=missing, record_ordinals=tool.record_ordinals))
            continue
        whole = projecting.set_aside(ok) if projecting is not None else ok
        shown, _ = _fields(_objects(ok, shape))
        _, required = _fields(_objects(whole, shape))
        base = recording_of(([r for r in whole if r.ordinal in window_reads] or whole)[-1])
        lines: tuple[ListLine, ...] = ()
        if shape.kind == "list":
            lines = _list_lines(ok, window_reads, shape, entity_type, paging, shown, held)
        views.append(ReadView(
            tool=name, kind=shape.kind, type=entity_type.name, locator=shape.locator,
            key_field=shape.key_field if shape.kind == "item" else None,
            base=base if shape.kind == "item" else None, shown_fields=shown, required_fields=required,
            per_response_members=_per_response(ok, shape.locator), volatile_fields=volatile.get(entity_type.name, ()),
            lines=lines, missing=missing, absence=absence if shape.kind == "item" else None,
            absence_records=absent if shape.kind == "item" else (), record_ordinals=tool.record_ordinals,
            other_shape_records=shape.other_shape))
    for tool_name, rule in sorted(read_only_posts.items()):
        views.append(ReadView(tool=tool_name, kind="none", reason="query-body"))
    return views


def _objects(records: list[Record], shape: ToolShape) -> list[dict[str, Any]]:
    """The entities the records show at the shape's locator."""
    objects: list[dict[str, Any]] = []
    for record in records:
        located = locate(record.response.json_value, shape.locator)
        if shape.kind == "list" and isinstance(located, list):
            objects += [o for o in located if isinstance(o, dict)]
        elif isinstance(located, dict):
            objects.append(located)
    return objects


def _list_lines(ok: list[Record], window_reads: set[int], shape: ToolShape, entity_type: EntityType,
                paging: PagingRoles, view_fields: tuple[str, ...], held: HeldByReads) -> tuple[ListLine, ...]:
    grouped: dict[tuple, list[Record]] = {}
    for record in ok:
        grouped.setdefault((record.path, record.query), []).append(record)
    lines = []
    for (path, query), group in grouped.items():
        in_window = [r for r in group if r.ordinal in window_reads]
        base_record = (in_window or group)[-1]
        members = locate(base_record.response.json_value, shape.locator)
        members = members if isinstance(members, list) else []
        listed = [m for r in group for m in _listed(r, shape.locator) if isinstance(m, dict)]
        own_fields = _fields(listed)[0] if listed else ()
        ids = tuple(m.get(entity_type.id_field) for m in members if isinstance(m, dict))
        selecting = without_member_naming(query, listed, paging.ruleset)  # a member-naming parameter selects none
        whole = [r.ordinal for r in group if paging.whole(selecting, _count(r, shape.locator))]
        if any(leaves_out_held(_listed(r, shape.locator), r, entity_type, held, window_reads) for r in group):
            whole = []  # it selects part of the collection: no recording of it proves the whole
        lines.append(ListLine(
            path=path, query=query, collection=collection_path(path, entity_type),
            membership="all" if whole else "recorded", recorded_ids=ids, base=recording_of(base_record),
            record_ordinals=tuple(r.ordinal for r in group), all_record_ordinals=tuple(whole),
            pages_only=bool(query) and paging.only_pages(query),
            shown_fields=own_fields if set(own_fields) != set(view_fields) else ()))
    return tuple(lines)


def _listed(record: Record, locator: Locator | None) -> list:
    members = locate(record.response.json_value, locator or Locator(kind="root"))
    return members if isinstance(members, list) else []


def _count(record: Record, locator: Locator | None) -> int:
    members = locate(record.response.json_value, locator or Locator(kind="root"))
    return len(members) if isinstance(members, list) else 0


def _document_view(shape: ToolShape, ok: list[Record], in_window: list[Record], missing: Recording | None) -> ReadView:
    grouped: dict[tuple, list[Record]] = {}
    for record in ok:
        grouped.setdefault((record.path, record.query), []).append(record)
    window = {r.ordinal for r in in_window}
    lines = []
    for (path, query), group in grouped.items():
        chosen = [r for r in group if r.ordinal in window] or group
        lines.append(DocumentLine(path=path, query=query, base=recording_of(chosen[-1]),
                                  record_ordinals=tuple(r.ordinal for r in group)))
    return ReadView(tool=shape.tool.name, kind="document", locator=Locator(kind="root"), documents=tuple(lines),
                    missing=missing, record_ordinals=shape.tool.record_ordinals)
