"""An item path no read shows (``view-implied-items``): a type the capture reads only through its
list (``GET /users`` listing ``{id: 7, …}``) whose writes name its entities at the collection path
and one parameter (``PATCH /users/7``, ``DELETE /users/7``), never read there. Where the table
finds the path's values to be the identities the list shows whole, and the entity listed by that
collection alone, the path is the type's item template: the plans relate those writes to the type
and the gate checks them through the list reads (what a write did shows as the list before and
after it). No item read exists at the path, so none is answered from the state: the type's item
tools stay empty (an item answer may be more than the list's projection of the entity)."""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.models import EntityType
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.values import locate
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.manifest.models import Manifest, Tool
from capenv.interpreter.predicates.implied_items import ImpliedItemContext, NamedValue, Sighting
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

from .paging import PagingRoles
from .types import ToolShape

TABLE = "view-implied-items"


def _parts(path: str) -> tuple[str, ...]:
    parts = split_path(path)
    return tuple(parts[:-1] if len(parts) > 1 and parts[-1] == "" else parts)


def _same(template: tuple[str, ...], other: tuple[str, ...]) -> bool:
    return len(template) == len(other) and all(
        a == b or (a.startswith("{") and b.startswith("{")) for a, b in zip(template, other))


def _fits(template: tuple[str, ...], path: tuple[str, ...]) -> bool:
    return len(template) == len(path) and all(a.startswith("{") or a == b for a, b in zip(template, path))


def _key(value: Any) -> str | None:
    return str(value) if isinstance(value, (str, int)) and not isinstance(value, bool) else None


def _objects(value: Any, id_field: str, found: list[dict[str, Any]]) -> None:
    if isinstance(value, dict):
        if id_field in value:
            found.append(value)
        for inner in value.values():
            _objects(inner, id_field, found)
    elif isinstance(value, list):
        for inner in value:
            _objects(inner, id_field, found)


def _compare(shown: dict[str, Any], listed: list[dict[str, Any]], id_field: str) -> tuple[int, int]:
    """(alike, unlike) members besides the identity against the closest listing of the entity."""
    pairs = []
    for entity in listed:
        shared = [n for n in shown if n != id_field and n in entity]
        alike = sum(1 for n in shared if shown[n] == entity[n])
        pairs.append((len(shared) - alike, -alike))
    unlike, alike = min(pairs) if pairs else (0, 0)
    return -alike, unlike


def with_implied_items(types: list[EntityType], shapes: dict[str, ToolShape], manifest: Manifest,
                       records: dict[int, Record], ruleset: RuleSet, traces: list[TraceEvent]) -> list[EntityType]:
    """Each type with no item template given the one its writes imply where the table says so."""
    out: list[EntityType] = []
    paging: PagingRoles | None = None
    shown: dict[str, dict[str, list[tuple[int, str, dict[str, Any]]]]] = {}  # per identity field, built once
    for entity_type in types:
        if entity_type.item_template or entity_type.shallow_items or not entity_type.list_tools:
            out.append(entity_type)
            continue
        collection = _parts(entity_type.collection_template)
        writes = [t for t in manifest.tools if t.changes_state and len(t.segments) == len(collection) + 1
                  and t.segments[-1].is_param and _same(_parts(t.template)[:-1], collection)]
        templates = {_parts(t.template) for t in writes}
        taken = any(_same(_parts(t.collection_template), next(iter(templates))) for t in types) if templates else True
        if len(templates) != 1 or taken:
            out.append(entity_type)
            continue
        paging = paging or PagingRoles(ruleset)
        context = _context(entity_type, writes, shapes, manifest, records, paging, shown)
        decision = evaluate(ruleset, TABLE, context, subject=f"{entity_type.name} at {context.item_template}")
        traces.extend(decision.events)
        out.append(entity_type.model_copy(update={"item_template": context.item_template})
                   if decision.ok and decision.yields.get("item") else entity_type)
    return out


def _context(entity_type: EntityType, writes: list[Tool], shapes: dict[str, ToolShape], manifest: Manifest,
             records: dict[int, Record], paging: PagingRoles,
             shown_by_field: dict[str, dict[str, list[tuple[int, str, dict[str, Any]]]]]) -> ImpliedItemContext:
    id_field = entity_type.id_field
    item = _parts(writes[0].template)
    # the type's list reads: per collection path, the entities each listed and whether whole
    listed: dict[tuple[str, ...], list[tuple[int, bool, list[dict[str, Any]]]]] = {}
    for name in entity_type.list_tools:
        shape = shapes.get(name)
        if shape is None or shape.locator is None:
            continue
        for ordinal in shape.tool.record_ordinals:
            record = records.get(ordinal)
            if record is None or not record.succeeded or not record.response.is_json:
                continue
            located = locate(record.response.json_value, shape.locator)
            if not isinstance(located, list):
                continue
            entities = [e for e in located if isinstance(e, dict)]
            listed.setdefault(_parts(record.path), []).append(
                (ordinal, paging.whole(record.query, len(located)), entities))
    reads = [o for t in manifest.tools if t.method == "GET" and _same(_parts(t.template), item)
             for o in t.record_ordinals if o in records and records[o].succeeded]
    named: list[NamedValue] = []
    calls = sorted((o, t) for t in writes for o in t.record_ordinals if o in records and records[o].succeeded)
    for ordinal, _tool in calls:
        parts = _parts(records[ordinal].path)
        if not _fits(item, parts):
            continue
        value, home = parts[-1], parts[:-1]
        whole, part, shown = [], [], []
        for read, is_whole, entities in listed.get(home, []):
            holding = [e for e in entities if _key(e.get(id_field)) == value]
            if holding:
                (whole if is_whole else part).append(read)
                shown += holding
        if shown and id_field not in shown_by_field:
            shown_by_field[id_field] = _shown_elsewhere(records, id_field)
        others = shown_by_field.get(id_field, {})
        elsewhere = [Sighting(ordinal=o, path=path, alike=alike, unlike=unlike)
                     for o, path, obj in others.get(value, []) if _parts(path) != home
                     for alike, unlike in [_compare(obj, shown, id_field)]] if shown else []
        named.append(NamedValue(ordinal=ordinal, value=value, collection="/" + "/".join(home),
                                listed_whole=whole, listed_part=part,
                                # the likeliest copies first: the context keeps the 20 closest
                                elsewhere=sorted(elsewhere, key=lambda e: (e.unlike, -e.alike, e.ordinal))[:20]))
    return ImpliedItemContext(collection_template=entity_type.collection_template, item_template=writes[0].template,
                              id_field=id_field, write_tools=sorted({t.name for t in writes}), named=named,
                              item_reads=reads)


def _shown_elsewhere(records: dict[int, Record], id_field: str) -> dict[str, list[tuple[int, str, dict[str, Any]]]]:
    """Every object a successful read (GET) answered carrying ``id_field``, by its identity text."""
    index: dict[str, list[tuple[int, str, dict[str, Any]]]] = {}
    for ordinal in sorted(records):
        record = records[ordinal]
        if record.method != "GET" or not record.succeeded or not record.response.is_json:
            continue
        found: list[dict[str, Any]] = []
        _objects(record.response.json_value, id_field, found)
        for obj in found:
            key = _key(obj.get(id_field))
            if key is not None:
                index.setdefault(key, []).append((ordinal, record.path, obj))
    return index
