"""Infer entity types from the read tools: list views, item views, documents (DESIGN.md §5).

A list view is a GET tool whose successful JSON answers hold an array of objects sharing an
identity field; an item view's template is a list template plus one parameter and its answer
holds one object whose identity equals that parameter. An item view without a list view
still makes a type. A GET answering an object that is neither is a document.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from capenv.interpreter.bundle.models import EitherKey, EntityType, IdAddress, Locator
from capenv.interpreter.bundle.trace_event import TraceEvent
from capenv.interpreter.bundle.paths import spell_path, split_path
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.bundle.values import decode_once, locate
from capenv.interpreter.manifest.models import Manifest, Tool
from capenv.interpreter.bundle.text import loose_spelling

from .colon_list_reads import join_colon_lists
from .either_keys import either_key_shape
from .projection_candidates import ProjectionCandidates
from .shallow_items import join_shallow_items
from .shapes import ItemParam, ShapeReader, lookup_words, own_address, unknown_shape
from .singleton_aliases import singleton_aliases


@dataclass
class ToolShape:
    """What one GET tool's successful answers show."""

    tool: Tool
    kind: str  # list | item | document | none
    locator: Locator | None = None
    id_field: str | None = None
    rule_id: str | None = None
    reason: str | None = None
    type_name: str | None = None
    key_field: str | None = None
    other_shape: tuple[int, ...] = ()
    """A list tool's calls answered in another shape than its view reads (``view-list-shapes``)."""
    either: EitherKey | None = None
    """An item tool whose parameter takes either the identity or this key member (``either_keys``)."""
    address: IdAddress | None = None
    """An item tool whose identity is the entity's own address (``identity-field.own-address``)."""


@dataclass
class TypeInference:
    shapes: dict[str, ToolShape] = field(default_factory=dict)
    types: list[EntityType] = field(default_factory=list)


def _literal_word(tool: Tool, drop_last: int = 0) -> str | None:
    segments = tool.segments[: len(tool.segments) - drop_last] if drop_last else tool.segments
    for segment in reversed(segments):
        if not segment.is_param and segment.literal:
            return segment.literal
    return None


def _successful_json(tool: Tool, records: dict[int, Record]) -> list[Record]:
    # a 2xx JSON null answers "no such entity" (write-effects: "a JSON null read is passed over"),
    # so it shows no shape: one must not turn an item tool into something else
    # nor does an empty object beside answers that hold something (an application answering an
    # id it does not hold with 200 {}: view-absence-answers weighs it)
    answers = [records[o] for o in tool.record_ordinals
               if records[o].succeeded and records[o].response.is_json and records[o].response.json_value is not None]
    filled = [r for r in answers if r.response.json_value != {}]
    return filled or answers


def _list_shape(tool: Tool, answers: list[Record], reader: ShapeReader, carried: str | None = None,
                item_param: ItemParam | None = None) -> ToolShape | None:
    word = _literal_word(tool)
    item_path = bool(tool.segments) and tool.segments[-1].is_param
    found_by: dict[Locator, list[tuple[Record, list]]] = {}
    listless: list[Record] = []
    for record in answers:
        # an item path's answer naming that very path is the entity at its own address (its arrays
        # are its members); a list's own link (a self or page link) says nothing of the kind
        found = reader.list_locator(record.response.json_value, word, record.path if item_path else None)
        if found is None:
            listless.append(record)
            continue
        found_by.setdefault(found[0], []).append((record, found[1]))
    if not found_by:
        return None
    other: tuple[int, ...] = ()
    if len(found_by) != 1:
        chosen = reader.chosen_list_shape(tool.name, found_by)
        if chosen is None:
            return None
        other = tuple(sorted(r.ordinal for locator, pairs in found_by.items() if locator != chosen for r, _ in pairs))
        found_by = {chosen: found_by[chosen]}
    (locator, pairs), = found_by.items()
    # an answer holding an empty array at the very place the others list their members lists none
    # (privacyIDEA's {"result": {"value": {"count": 0, "tokens": []}}} beside its lists of tokens;
    # no envelope rule names the member when nothing in it shows what it holds)
    empty = [r for r in listless if locate(r.response.json_value, locator) == []]
    if empty:
        listless = [r for r in listless if r not in empty]
        pairs = sorted(pairs + [(r, []) for r in empty], key=lambda pair: pair[0].ordinal)
    if listless:
        # answers that list nothing by leaving the list out (view-omitted-lists), else no list view
        if not reader.lists_nothing(tool.name, locator, [r for r, _ in pairs], listless):
            return None
        locator = locator.model_copy(update={"omits_empty": True})
        pairs = pairs + [(r, []) for r in listless]
    groups = [items for _, items in pairs]
    id_field, rule_id = reader.identity_field(groups, subject=tool.name, carried=carried, item_param=item_param)
    if id_field is None and any(groups):
        return None
    return ToolShape(tool, "list", locator, id_field, rule_id, other_shape=other)


def _item_shape(tool: Tool, answers: list[Record], reader: ShapeReader) -> ToolShape | None:
    """The item shape of a tool's answers, worked out once per tool and answers (the type inference
    asks twice: ``_carried_fields``, then ``infer_types``); each ask traces the chosen identity's
    decision, as working it out again would."""
    memo = reader.__dict__.setdefault("item_shapes", {})
    key = (tool.name, tuple(record.ordinal for record in answers))
    if key not in memo:
        memo[key] = _item_choice(tool, answers, reader)
    shape, events = memo[key]
    reader.traces.extend(events)
    return shape


def _item_choice(tool: Tool, answers: list[Record], reader: ShapeReader
                 ) -> tuple[ToolShape | None, tuple[TraceEvent, ...]]:
    if not tool.segments or not tool.segments[-1].is_param:
        return None, ()
    word, lookup = _literal_word(tool, drop_last=1), lookup_words(tool.segments)
    common: list[tuple[Locator, str, Any]] | None = None  # the options every answer allows, first's order
    spelled_otherwise: list[tuple[int, set[tuple[Locator, str]]]] = []
    for record in answers:
        path_value = tool.match(record.path)[tool.segments[-1].param]
        body = record.response.json_value
        options = []
        for locator, obj in reader.item_locators(body, word, lookup):
            for id_field, decision in reader.identity_candidates([[obj]], path_value, subject=tool.name,
                                                                 read_path=record.path):
                options.append((locator, id_field, decision))
        if not options:
            variants = _other_spellings(reader.item_locators(body, word, lookup), path_value)
            if not variants and reader.holds_no_entity(body, word, lookup):
                # an empty array where the entity would be answers a name held by nothing: the other
                # answers decide the shape, and view-absence-answers whether this one is an absence
                continue
            if not variants and record.query:
                # sent with a query, the answer may leave the identity out (LoopBack's
                # filter={"fields":{"title":true}}): it decides nothing here; the reads without a
                # query decide the shape, and view-query-members what the query did
                continue
            if not variants:
                return None, ()
            spelled_otherwise.append((record.ordinal, variants))
            continue
        allowed = [(o[0], o[1]) for o in options]
        common = options if common is None else [c for c in common if (c[0], c[1]) in allowed]
        if not common:
            return _either_shape(tool, answers, reader, word), ()
    # the member every answer carries the path value in (a file's name equals its path only at the top)
    if not common:
        return None, ()
    locator, id_field, decision = common[0]
    if any((locator, id_field) not in variants for _, variants in spelled_otherwise):
        return None, ()
    address = None
    if decision.rule_id == OWN_ADDRESS_RULE:
        address = _address_of(answers, locator, id_field, decision.rule_id)
        if address is None or spelled_otherwise:
            return None, ()
    return ToolShape(tool, "item", locator, id_field, decision.rule_id, address=address,
                     other_shape=tuple(ordinal for ordinal, _ in spelled_otherwise)), tuple(decision.events)


OWN_ADDRESS_RULE = "identity-field.own-address"


def _address_of(answers: list[Record], locator: Locator, id_field: str, rule_id: str) -> IdAddress | None:
    """The one spelling (origin, trailing slash) every item read's identity gives its own path; None
    when two spell it otherwise (a path value then names no one identity)."""
    forms = set()
    for record in answers:
        obj = locate(record.response.json_value, locator)
        if not isinstance(obj, dict):
            continue
        form = own_address(obj.get(id_field), record.path)
        if form is None:
            return None
        forms.add(form)
    if len(forms) != 1:
        return None
    (origin, slash), = forms
    return IdAddress(origin=origin, trailing_slash=slash, rule_id=rule_id)


def _other_spellings(located: list[tuple[Locator, dict]], path_value: str) -> set[tuple[Locator, str]]:
    """Where an item read's answer holds its path's value spelled otherwise (another letter case,
    with or without a final dot or dashes): the application reads that spelling as the entity it holds
    under the other. Serving refuses such a read (``serving/state/spellings``), naming the held
    spelling, so the read is another shape than the view's, not evidence against it."""
    wanted = loose_spelling(decode_once(path_value))
    return {(locator, name) for locator, obj in located for name, value in obj.items()
            if isinstance(value, str) and value != decode_once(path_value) and loose_spelling(value) == wanted}


def _either_shape(tool: Tool, answers: list[Record], reader: ShapeReader, word: str | None) -> ToolShape | None:
    """No one member carries every read's path value: the parameter may take either the identity
    or another key member (``view-either-keys``)."""
    found = either_key_shape(tool, answers, reader, word)
    if found is None:
        return None
    locator, id_field, either = found
    return ToolShape(tool, "item", locator, id_field, either.rule_id, either=either)


def _carried_fields(manifest: Manifest, records: dict[int, Record], reader: ShapeReader,
                    projecting: ProjectionCandidates) -> dict[str, str]:
    """Per collection (structural template), the field its item reads carry in their path: the
    evidence a list's identity field follows, whatever the field is called."""
    carried: dict[str, str] = {}
    for tool in manifest.tools:
        if tool.method == "GET" and tool.segments and tool.segments[-1].is_param:
            answers = projecting.set_aside(_successful_json(tool, records))
            shape = _item_shape(tool, answers, reader) if answers else None
            if shape is not None and shape.id_field:
                carried.setdefault(_structural(tool.segments[:-1]), shape.id_field)
    return carried


def _item_params(manifest: Manifest, records: dict[int, Record]) -> dict[str, ItemParam]:
    """Per collection (structural template), the path parameter its item reads end in and the values
    its successful item reads were made with: a list's identity may bear its name when the item reads
    carry no identity of their own and every one of them was made with a listed value."""
    named: dict[str, ItemParam] = {}
    for tool in manifest.tools:
        if tool.method == "GET" and tool.segments and tool.segments[-1].is_param:
            param = tool.segments[-1].param
            values = frozenset(decode_once(tool.match(r.path)[param]) for r in _successful_json(tool, records))
            if values:
                named.setdefault(_structural(tool.segments[:-1]), ItemParam(param, values))
    return named


def infer_types(manifest: Manifest, records: dict[int, Record], reader: ShapeReader) -> TypeInference:
    result = TypeInference()
    projecting = ProjectionCandidates(reader.ruleset)  # a projected answer may lack the identity: no shape
    carried = _carried_fields(manifest, records, reader, projecting)
    item_params = _item_params(manifest, records)
    for tool in manifest.tools:
        if tool.method != "GET":
            continue
        answers = projecting.set_aside(_successful_json(tool, records))
        if not answers:
            result.shapes[tool.name] = ToolShape(tool, "none", reason="no successful JSON answer")
            continue
        # an item path whose answers hold the entity its path names (as Ghost's one-element
        # {"posts": [{…}]}) is an item view before it is a list of one
        listed = lambda: _list_shape(tool, answers, reader, carried.get(_structural(tool.segments)),  # noqa: E731
                                     item_params.get(_structural(tool.segments)))
        if tool.segments and tool.segments[-1].is_param:
            shape = _item_shape(tool, answers, reader) or listed()
        else:
            shape = listed() or _item_shape(tool, answers, reader)
        if shape is None:
            if all(isinstance(r.response.json_value, dict) for r in answers):
                shape = ToolShape(tool, "document", Locator(kind="root"))
            else:
                shape = ToolShape(tool, "none", reason="answers are neither a list of entities, an entity nor an object:"
                                                       f" {unknown_shape(tool, answers, reader, _literal_word(tool))}")
        result.shapes[tool.name] = shape
    answers_of = lambda tool: projecting.set_aside(_successful_json(tool, records))  # noqa: E731
    for name in singleton_aliases(result.shapes, answers_of, reader, _structural, list(manifest.tools)):
        # the same entity another read shows, named otherwise: a document holding its copy
        result.shapes[name] = ToolShape(result.shapes[name].tool, "document", Locator(kind="root"),
                                        rule_id="singleton-alias.entity-read-elsewhere")
    _assemble_types(result, lambda tool: projecting.set_aside(_successful_json(tool, records)), records, reader)
    return result


def _structural(segments) -> str:
    """A template's segments, spelled without a trailing slash: the key that makes
    ``/api/projects/`` and ``/api/projects/{project_id}/`` one collection and its items."""
    return spell_path([s.text() for s in segments], False)


def _entry(by_template: dict[str, dict[str, Any]], key: str, spelling: str) -> dict[str, Any]:
    return by_template.setdefault(key, {"lists": [], "items": [], "id_field": None, "spelling": spelling})


def _assemble_types(result: TypeInference, answers: Any, records: dict[int, Record], reader: ShapeReader) -> None:
    lists = [s for s in result.shapes.values() if s.kind == "list"]
    items = [s for s in result.shapes.values() if s.kind == "item"]
    by_template: dict[str, dict[str, Any]] = {}
    for shape in lists:
        entry = _entry(by_template, _structural(shape.tool.segments), shape.tool.template)
        entry["lists"].append(shape)
        entry["id_field"] = entry["id_field"] or shape.id_field
    alternates: list[ToolShape] = []
    for shape in items:
        segments = shape.tool.segments
        parent = _structural(segments[:-1])
        spelling = spell_path([s.text() for s in segments[:-1]], shape.tool.trailing_slash)
        if parent in by_template:
            by_template[parent]["items"].append(shape)
        elif len(segments) >= 3 and not segments[-2].is_param:
            alternates.append(shape)
            _entry(by_template, parent, spelling)["pending"] = _structural(segments[:-2])
            by_template[parent]["items"].append(shape)
        else:
            _entry(by_template, parent, spelling)["items"].append(shape)
    # An item view addressed by a key under its own literal (/variables/name/{name}) whose
    # grandparent is a type with an id field is an alternate address of that type.
    for template, entry in list(by_template.items()):
        target = entry.get("pending")
        if target and target in by_template and all(s in alternates for s in entry["items"]) and not entry["lists"]:
            for shape in entry["items"]:
                shape.key_field = shape.id_field
                by_template[target].setdefault("keyed", []).append(shape)
            del by_template[template]
    join_shallow_items(by_template, answers, records, reader)
    join_colon_lists(by_template, reader)
    names: dict[str, str] = {}
    for template in sorted(by_template, key=lambda t: min(
            s.tool.record_ordinals[0] for s in by_template[t]["lists"] + by_template[t]["items"]
            + by_template[t].get("keyed", []))):
        entry = by_template[template]
        if not entry["lists"] and not entry["items"]:
            continue
        id_field = entry["id_field"] or next((s.id_field for s in entry["items"] if s.id_field), None)
        items_ok = [s for s in entry["items"] if s.id_field == id_field]
        for shape in entry["items"]:
            if shape not in items_ok:
                shape.kind, shape.reason = "none", f"identity field {shape.id_field!r} differs from the type's {id_field!r}"
        name = _type_name(template, names)
        names[name] = template
        keyed = entry.get("keyed", [])
        item_template = items_ok[0].tool.template if items_ok else None
        for shape in entry["lists"] + items_ok + keyed:
            shape.type_name = name
            if shape.kind == "item" and shape.key_field is None:
                shape.key_field = id_field
        result.types.append(EntityType(
            name=name, collection_template=entry["spelling"], item_template=item_template, id_field=id_field or "id",
            list_tools=tuple(s.tool.name for s in entry["lists"]),
            item_tools=tuple(s.tool.name for s in items_ok + keyed),
            key_fields={s.tool.name: s.key_field for s in keyed if s.key_field},
            either_key=next((s.either for s in items_ok if s.either is not None and s.tool.template == item_template),
                            None),
            address=_listed_alike(next((s.address for s in items_ok if s.tool.template == item_template), None),
                                  entry["lists"], id_field, answers),
            shallow_items=entry.get("shallow")))


def _listed_alike(address: IdAddress | None, lists: list[ToolShape], id_field: str | None, answers: Any
                  ) -> IdAddress | None:
    """The item reads' address, where every entity the type's lists show spells its identity alike
    (the same origin, the same trailing slash); else None: a path value would name no listed entity
    spelled otherwise, and the item reads are proven against the state as any other's."""
    if address is None or id_field is None:
        return address
    head = f"{address.origin}/"
    for shape in lists:
        for record in answers(shape.tool):
            located = locate(record.response.json_value, shape.locator) if shape.locator is not None else None
            for obj in located if isinstance(located, list) else ():
                value = obj.get(id_field) if isinstance(obj, dict) else None
                if value is None:
                    continue
                if (not isinstance(value, str) or not value.startswith(head) or value.startswith(head + "/")
                        or value.endswith("/") != address.trailing_slash):
                    return None
    return address


def _type_name(template: str, taken: dict[str, str]) -> str:
    words = [p for p in template.strip("/").split("/") if p and not p.startswith("{")]
    name = words[-1] if words else "root"
    if name in taken and len(words) >= 2:
        name = f"{words[-2]}_{words[-1]}"
    base, counter = name, 2
    while name in taken:
        name, counter = f"{base}_{counter}", counter + 1
    return name


def with_nested_ids(entity_type: EntityType, manifest: Manifest) -> EntityType:
    """The type with ``nested_ids`` when its item parameter is where a path span begins."""
    if not entity_type.item_template or not manifest.path_spans:
        return entity_type
    parts = split_path(entity_type.item_template)[:-1]
    for span in manifest.path_spans:
        if len(span.prefix) == len(parts) and all(p is None or p == part for p, part in zip(span.prefix, parts)):
            return entity_type.model_copy(update={"nested_ids": True})
    return entity_type
