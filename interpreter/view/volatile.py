"""Volatile members per entity type (the ``view-volatile-members`` table).

The evidence is every pair of sightings of one entity with no write between them: two reads
(item or list), or a write's own answer and the next read of the entity it answered. A member
whose value changed there is something the application maintains by itself (a clock, a process
state); the table decides from those counts whether it is volatile. Two reads count apart by
whether one request line answered both (the same read tool, the same query), and for reads of
two lines by the JSON kind of the values: reads of other lines may show the entity otherwise by
what they ask (a listing's ``?recursive=true`` nesting a folder's children, a list's own
projection, ``view-list-projections``), which is no change; the table decides which kinds count.
"""

from __future__ import annotations

from typing import Any, Callable

from capenv.interpreter.bundle.models import EntityType, Locator
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.values import locate, same_json
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.volatile_members import VolatileMemberContext
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

from .extract import collection_path
from .types import ToolShape

TABLE = "view-volatile-members"


def _kind(value: Any) -> str:
    return "null" if value is None else type(value).__name__


def _shape(value: Any) -> Any:
    """A JSON value's structure: its containers' keys and lengths, each scalar by its kind."""
    if isinstance(value, dict):
        return {name: _shape(inner) for name, inner in value.items()}
    if isinstance(value, list):
        return [_shape(inner) for inner in value]
    return _kind(value)


def _change_kind(one: Any, other: Any) -> str:
    """The JSON kind of a changed value for the table: a scalar's kind, ``mixed`` for two kinds,
    and for two containers ``dict-values`` or ``list-values`` when only scalars inside changed (one
    structure), else ``dict`` or ``list``."""
    kinds = {_kind(one), _kind(other)}
    if len(kinds) > 1:
        return "mixed"
    kind = kinds.pop()
    if kind in ("dict", "list") and _shape(one) == _shape(other):
        return f"{kind}-values"
    return kind


def _differing_params(one: tuple, other: tuple) -> frozenset[str]:
    """The query parameters two request lines (sorted query pairs) send with other values, or one alone."""
    def values(line: tuple) -> dict[str, tuple[str, ...]]:
        found: dict[str, list[str]] = {}
        for name, value in line:
            found.setdefault(name, []).append(value)
        return {name: tuple(sorted(vals)) for name, vals in found.items()}
    a, b = values(one), values(other)
    return frozenset(name for name in set(a) | set(b) if a.get(name) != b.get(name))


def _query_selected(changes: list[tuple[frozenset[str], str]], agreements: list[frozenset[str]]) -> dict[str, int]:
    """The changes between two request lines (each its differing parameters and its kind) a query
    parameter accounts for, counted by kind: the two lines send a parameter differently that no two
    lines showing the member alike send differently. None without two lines showing it alike: a
    parameter is proved neutral to the member only by reads it did not change."""
    if not agreements:
        return {}
    neutral = frozenset().union(*agreements)
    selected: dict[str, int] = {}
    for params, kind in changes:
        if params - neutral:
            selected[kind] = selected.get(kind, 0) + 1
    return selected


def _answer_types(record: Record, types: dict[str, EntityType]) -> list[EntityType]:
    """The types whose collection the write's path lies in (literal segments equal)."""
    parts = split_path(record.path)
    found = []
    for entity_type in types.values():
        template = split_path(entity_type.collection_template)
        if len(parts) >= len(template) and all(
                t.startswith("{") or t == p for t, p in zip(template, parts)):
            found.append(entity_type)
    return found


def _answered_entity(body: Any, entity_type: EntityType, locators: list[Locator]) -> dict | None:
    """The entity a write's answer object shows: the answer itself, or the object the type's item
    reads locate inside their answers (``{"data": {…}}``, ``{"posts": [{…}]}``): the application's
    envelope, which its write answers share."""
    if entity_type.id_field in body:
        return body
    for locator in locators:
        found = locate(body, locator)
        if isinstance(found, dict) and entity_type.id_field in found:
            return found
    return None


def _where(path: str, entity_type: EntityType) -> str:
    """Where an id names one entity: its collection, or every collection of a shallow type, whose item
    path names an entity by its id alone (``EntityType.shallow_items``)."""
    return "" if entity_type.shallow_items else collection_path(path, entity_type)


def volatile_fields(shapes: dict[str, ToolShape], records: list[Record], tool_of: dict[int, str],
                    types: dict[str, EntityType], is_write: Callable[[Record], bool], ruleset: RuleSet,
                    traces: list[TraceEvent], reshaped: frozenset[int] = frozenset()) -> dict[str, tuple[str, ...]]:
    """Entity fields the table calls volatile, per type. ``reshaped``: reads whose query showed the
    entities in another shape (``view-query-members``: a projection, a reference expanded into an
    object), which the state takes nothing from: what they show is no change of a member."""
    # (ordinal, object, sent members when a write answered it, the read's request line)
    last_seen: dict[tuple, tuple[int, dict, frozenset[str] | None, tuple | None]] = {}
    last_write = 0
    read_changes: dict[tuple[str, str], int] = {}
    other_line_changes: dict[tuple[str, str], dict[str, int]] = {}  # by the values' JSON kind
    # between two request lines: each change's differing parameters and kind, each agreement's parameters
    line_changes: dict[tuple[str, str], list[tuple[frozenset[str], str]]] = {}
    line_agreements: dict[tuple[str, str], list[frozenset[str]]] = {}
    answer_changes: dict[tuple[str, str], list[int]] = {}
    item_locators: dict[str, list[Locator]] = {}
    for shape in shapes.values():
        if shape.kind == "item" and shape.type_name and shape.locator is not None \
                and shape.locator not in item_locators.setdefault(shape.type_name, []):
            item_locators[shape.type_name].append(shape.locator)
    for record in records:
        if is_write(record):
            last_write = record.ordinal
            body = record.response.json_value if record.succeeded and record.response.is_json else None
            if isinstance(body, dict):
                sent = record.request.json_value
                sent_names = frozenset(sent) if isinstance(sent, dict) else frozenset()
                for entity_type in _answer_types(record, types):
                    entity = _answered_entity(body, entity_type, item_locators.get(entity_type.name, []))
                    if entity is not None:
                        key = (entity_type.name, _where(record.path, entity_type), str(entity[entity_type.id_field]))
                        last_seen[key] = (record.ordinal, entity, sent_names, None)
            continue
        shape = shapes.get(tool_of.get(record.ordinal, ""))
        if shape is None or shape.kind not in ("item", "list") or not record.succeeded or not record.response.is_json \
                or record.ordinal in reshaped:
            continue
        entity_type = types.get(shape.type_name or "")
        if entity_type is None:
            continue
        located = locate(record.response.json_value, shape.locator)
        objects = located if shape.kind == "list" and isinstance(located, list) else [located]
        collection = _where(record.path, entity_type)
        line = (tool_of.get(record.ordinal, ""), tuple(sorted(map(tuple, record.query or ()))))
        for obj in objects:
            if not isinstance(obj, dict) or entity_type.id_field not in obj:
                continue
            key = (entity_type.name, collection, str(obj[entity_type.id_field]))
            previous = last_seen.get(key)
            if previous and previous[0] >= last_write:
                ordinal, seen, sent, seen_line = previous
                for name in set(obj) & set(seen):
                    if same_json(obj[name], seen[name]):
                        if sent is None and seen_line is not None and seen_line[0] == line[0] and seen_line != line:
                            line_agreements.setdefault((entity_type.name, name), []).append(
                                _differing_params(seen_line[1], line[1]))
                        continue
                    if sent is None and seen_line == line:
                        read_changes[(entity_type.name, name)] = read_changes.get((entity_type.name, name), 0) + 1
                    elif sent is None:
                        kind = _change_kind(obj[name], seen[name])
                        by_kind = other_line_changes.setdefault((entity_type.name, name), {})
                        by_kind[kind] = by_kind.get(kind, 0) + 1
                        if seen_line is not None and seen_line[0] == line[0]:
                            line_changes.setdefault((entity_type.name, name), []).append(
                                (_differing_params(seen_line[1], line[1]), kind))
                    elif name not in sent and obj[name] is not None and _kind(obj[name]) == _kind(seen[name]):
                        answer_changes.setdefault((entity_type.name, name), []).append(ordinal)
            last_seen[key] = (record.ordinal, obj, None, line)
    found: dict[str, set[str]] = {}
    for type_name, name in sorted(set(read_changes) | set(other_line_changes) | set(answer_changes)):
        calls = sorted(set(answer_changes.get((type_name, name), [])))
        context = VolatileMemberContext(type_name=type_name, name=name,
                                        read_changes=read_changes.get((type_name, name), 0),
                                        other_line_changes=other_line_changes.get((type_name, name), {}),
                                        query_selected_changes=_query_selected(
                                            line_changes.get((type_name, name), []),
                                            line_agreements.get((type_name, name), [])),
                                        answer_changes=len(calls), answer_examples=calls)
        decision = evaluate(ruleset, TABLE, context, subject=f"{type_name}.{name} volatile")
        traces.extend(decision.events)
        if decision.yields.get("volatile"):
            found.setdefault(type_name, set()).add(name)
    return {name: tuple(sorted(fields)) for name, fields in found.items()}
