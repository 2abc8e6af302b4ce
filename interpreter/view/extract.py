"""Extract the initial state from the initial window's successful reads (DESIGN.md §5).

Entities merge across item and list reads (later values win, item reads' over list reads',
first-seen field order kept)
and cite the records that showed them; a collection is spelled as recorded and keeps the
order of its latest whole list, then first appearance. Documents are held at their path.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

from capenv.interpreter.bundle.models import (
    CollectionState, DocumentState, Entity, EntityType, Locator, StateSnapshot,
)
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.values import MISSING, locate
from capenv.interpreter.evidence.records import Record

from .query_members import QueryShapes, without_paths
from .types import ToolShape


def collection_path(record_path: str, entity_type: EntityType) -> str:
    """The collection a path lies in, spelled as the path spells it. A list read at the collection's
    word with a method glued after a colon (``/api/authors:list``, ``view-colon-list-reads``) lies
    in the collection the word names."""
    template = split_path(entity_type.collection_template)
    parts = split_path(record_path)[:len(template)]
    if parts and template and not template[-1].startswith("{") and parts[-1].startswith(template[-1] + ":"):
        parts[-1] = template[-1]
    return "/" + "/".join(parts)


def path_key(path: str, after: int = 0) -> str:
    """The key of the entity an item call's path names: its last segment, or the one before the
    ``after`` literal segments that follow the item path (an action's segment, Datasette's
    ``-/delete``), percent-decoded."""
    parts = split_path(path)
    return unquote(parts[len(parts) - 1 - int(after)])


def collection_args(path: str, entity_type: EntityType) -> dict[str, str]:
    args = {}
    for part, template_part in zip(split_path(path), split_path(entity_type.collection_template)):
        if template_part.startswith("{") and template_part.endswith("}"):
            args[template_part[1:-1]] = part
    return args


def entity_key(value: Any) -> str:
    return str(value)


@dataclass
class _Entity:
    id: Any
    value: dict[str, Any]
    records: list[int] = field(default_factory=list)


@dataclass
class _Collection:
    path: str
    type: str
    args: dict[str, str]
    entities: dict[str, _Entity] = field(default_factory=dict)
    whole_order: list[str] | None = None


@dataclass
class StateBuilder:
    types: dict[str, EntityType]
    collections: dict[str, _Collection] = field(default_factory=dict)
    documents: dict[str, DocumentState] = field(default_factory=dict)

    def collection(self, path: str, entity_type: EntityType) -> _Collection:
        if path not in self.collections:
            self.collections[path] = _Collection(path, entity_type.name, collection_args(path, entity_type))
        return self.collections[path]

    def holding(self, entity_type: EntityType, value: Any) -> _Collection | None:
        """The one collection of a shallow type (``EntityType.shallow_items``) a list read showed
        holding this id: the parent an item read of it lies under."""
        if value is None:
            return None
        found = [c for c in self.collections.values()
                 if c.type == entity_type.name and entity_key(value) in c.entities]
        return found[0] if len(found) == 1 else None

    def observe(self, collection: _Collection, obj: dict[str, Any], id_field: str, ordinal: int,
                leave_out: frozenset[tuple[str, ...]] = frozenset()) -> str | None:
        if id_field not in obj:
            return None
        if leave_out:
            obj = without_paths(obj, leave_out)
        key = entity_key(obj[id_field])
        entity = collection.entities.get(key)
        if entity is None:
            collection.entities[key] = _Entity(obj[id_field], dict(obj), [ordinal])
        else:
            entity.value.update(obj)
            if ordinal not in entity.records:
                entity.records.append(ordinal)
        return key

    def snapshot(self, evidence_id: str) -> StateSnapshot:
        collections = []
        for path in sorted(self.collections, key=lambda p: (self.collections[p].type, p)):
            held = self.collections[path]
            order = list(held.whole_order or [])
            listed = set(order)  # a set test keeps an 80k-item list linear
            order += [k for k in held.entities if k not in listed]
            entities = tuple(Entity(id=held.entities[k].id, value=held.entities[k].value,
                                    records=tuple(held.entities[k].records)) for k in order if k in held.entities)
            collections.append(CollectionState(path=path, type=held.type, args=held.args, entities=entities))
        documents = tuple(self.documents[p] for p in sorted(self.documents))
        return StateSnapshot(evidence_id=evidence_id, collections=tuple(collections), documents=documents)


def extract_state(window_reads: list[Record], shapes: dict[str, ShapeLike], tool_of: dict[int, str],
                  types: dict[str, EntityType], whole_line: Any, evidence_id: str,
                  query_shapes: QueryShapes | None = None,
                  other_callers: frozenset[int] = frozenset()) -> StateSnapshot:
    """The initial state from the successful reads of the window.

    ``whole_line(record) -> bool`` says whether a list read listed its whole collection;
    ``query_shapes`` per type the members a read's query adds (``view-query-members``), which a
    read sent with a query does not bring into the state (no read shows them without one), and the
    reads whose query left members out (a projection), from which the state takes nothing.
    ``other_callers``: reads sent as another caller than the principal (``view/credentials``), whose
    answers show that caller's view: the principal's reads of an entity are taken after them, so they win;
    an entity only they showed, which a whole list the principal read of its collection left out, is
    theirs alone (another user's weight entry) and not held (``without_others_own``).
    """
    query_shapes = query_shapes or QueryShapes()
    query_members = query_shapes.added
    builder = StateBuilder(types)
    # Item reads after list reads: where a list shows a member as its own projection (another
    # value than the entity's own read, ``view-list-projections``), the state holds the item's.
    kind = lambda record: getattr(shapes.get(tool_of.get(record.ordinal, "")), "kind", None)  # noqa: E731
    principal_last = lambda record: (kind(record) == "item", record.ordinal not in other_callers)  # noqa: E731
    principal_lists: dict[str, list[set[str]]] = {}  # per collection, the keys each whole list of the principal's showed
    for record in sorted(window_reads, key=principal_last):
        if not record.succeeded or not record.response.is_json or record.ordinal in query_shapes.projections:
            continue
        shape = shapes.get(tool_of.get(record.ordinal, ""))
        if shape is None or shape.kind == "none":
            continue
        body = record.response.json_value
        if shape.kind == "document":
            if not record.query:
                builder.documents[record.path] = DocumentState(
                    path=record.path, value=body,
                    records=tuple(list(builder.documents[record.path].records) + [record.ordinal])
                    if record.path in builder.documents else (record.ordinal,))
            continue
        entity_type = types.get(shape.type_name or "")
        if entity_type is None:
            continue
        located = locate(body, shape.locator or Locator(kind="root"))
        if located is MISSING:
            continue
        if shape.kind == "item" and entity_type.shallow_items and isinstance(located, dict):
            collection = builder.holding(entity_type, located.get(entity_type.id_field))
            if collection is None:
                continue  # no list read shows under which parent it lies
        else:
            collection = builder.collection(collection_path(record.path, entity_type), entity_type)
        leave_out = query_members.get(entity_type.name, frozenset()) if record.query else frozenset()
        if shape.kind == "list" and isinstance(located, list):
            keys = [builder.observe(collection, obj, entity_type.id_field, record.ordinal, leave_out)
                    for obj in located if isinstance(obj, dict)]
            if whole_line(record):
                collection.whole_order = [k for k in keys if k is not None]
                if record.ordinal not in other_callers:
                    principal_lists.setdefault(collection.path, []).append({k for k in keys if k is not None})
        elif shape.kind == "item" and isinstance(located, dict):
            builder.observe(collection, located, entity_type.id_field, record.ordinal, leave_out)
    without_others_own(builder, principal_lists, other_callers)
    return builder.snapshot(evidence_id)


def without_others_own(builder: StateBuilder, principal_lists: dict[str, list[set[str]]],
                       other_callers: frozenset[int]) -> None:
    """Leave out of each collection the entities only another caller's reads showed where a whole
    list of it the principal read left them out: the application showed them to that caller alone
    (their own entries), so the principal's view, which the state is, does not hold them. Reads of
    the initial window are of one state (no write between), so the principal's list is complete."""
    for path, listed in principal_lists.items():
        collection = builder.collections[path]
        seen_by_principal = set().union(*listed)
        for key in [k for k, e in collection.entities.items()
                    if k not in seen_by_principal and all(o in other_callers for o in e.records)]:
            del collection.entities[key]


ShapeLike = ToolShape
