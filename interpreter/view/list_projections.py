"""What a list shows of its entities that the state does not determine (the
``view-list-projections`` table).

One entity type may be shown another way per endpoint: Label Studio's task list shows
``annotators: []`` and ``annotations_ids: ""`` for every task, where the task's own read shows
``[1]`` and ``"2"``. The state holds what the item reads show, so a list rendered from it would
answer the item's values: a wrong answer. The evidence is every pair of one entity listed by a
list recording and read by an item read with no write between the two (either order). A
member some pair shows otherwise is decided by the table, per list view and projection (the
lines showing the same fields): a value per response stays as it is; one value for every
listed entity is the list's own constant, which serving renders; anything else is the list's
own projection, which the read gate refuses (``read_gate``). Members every pair agrees on are
rendered from the state, as before, and are not traced.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from capenv.interpreter.bundle import jsonvalue
from capenv.interpreter.bundle.excerpt import excerpt
from capenv.interpreter.bundle.models import EntityType, ProjectedMember, ReadView
from capenv.interpreter.bundle.values import locate, same_json
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.list_projections import ListProjectionContext
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

from .extract import collection_path

TABLE = "view-list-projections"


@dataclass
class _Member:
    """What one projection of a list view showed of one member."""

    values: set[str | bytes] = field(default_factory=set)
    """The distinct values shown: a string as itself, anything else as its canonical JSON (bytes,
    never equal to a string), so a string's distinctness costs no encoding."""
    entities: set[str] = field(default_factory=set)
    pairs: int = 0
    differing: int = 0
    per_response: bool = False
    first: Any = None
    evidence: str | None = None
    texts: set[str] | None = field(default_factory=set)
    """Every value shown, the list's and its paired item reads', while all are strings (None after another)."""
    references: set[str] | None = None
    """The members of the item's object holding the listed scalar in every pair showing a value so
    far (None: no such pair yet)."""

    def note_reference(self, listed: Any, item: Any) -> None:
        if listed is None and item is None:
            return  # no reference either way: says nothing
        held = {name for name, value in item.items() if same_json(value, listed)} \
            if isinstance(item, dict) and listed is not None and not isinstance(listed, (dict, list)) else set()
        self.references = held if self.references is None else self.references & held

    def note_text(self, value: Any) -> None:
        if self.texts is not None:
            if isinstance(value, str):
                self.texts.add(value)
            else:
                self.texts = None


@dataclass
class _Sighting:
    ordinal: int
    obj: dict[str, Any]


def list_projections(views: list[ReadView], records: list[Record], types: dict[str, EntityType],
                     is_write: Callable[[Record], bool], ruleset: RuleSet,
                     traces: list[TraceEvent], reshaped: frozenset[int] = frozenset()) -> list[ReadView]:
    """The list views with each line's projected members (and, for a list view, the members it
    projects no longer taken as volatile: the read gate then compares what serving renders).
    ``reshaped``: reads whose query showed the entities in another shape (``view-query-members``: a
    projection, a reference expanded into an object), which show neither a projection of the list's
    own nor the entity's own values to hold a list against."""
    projection_of = {o: p for o, p in _projections(views).items() if o not in reshaped}
    item_of = {o: v for v in views if v.kind == "item" and v.type in types
               for o in v.record_ordinals if o not in v.absence_records and o not in reshaped}
    seen: dict[tuple[str, str], dict[str, _Member]] = {}
    last_item: dict[tuple, _Sighting] = {}
    last_listed: dict[tuple, dict[tuple, _Sighting]] = {}
    last_write = 0
    for record in records:
        if is_write(record):
            last_write = record.ordinal
            continue
        if not record.succeeded or not record.response.is_json:
            continue
        listed = projection_of.get(record.ordinal)
        view = listed[0] if listed else item_of.get(record.ordinal)
        if view is None or view.type not in types:
            continue
        entity_type = types[view.type]
        located = locate(record.response.json_value, view.locator)
        objects = located if listed and isinstance(located, list) else [located]
        collection = collection_path(record.path, entity_type)
        for obj in objects:
            if not isinstance(obj, dict) or entity_type.id_field not in obj:
                continue
            key = (entity_type.name, collection, str(obj[entity_type.id_field]))
            sighting = _Sighting(record.ordinal, obj)
            if listed:
                group = (view.tool, listed[1])
                members = seen.setdefault(group, {})
                _note_values(members, obj, key)
                item = last_item.get(key)
                if item is not None and item.ordinal > last_write:
                    _pair(members, obj, item, record.ordinal)
                line_key = (group, record.path, record.query)
                before = last_listed.setdefault(key, {}).get(line_key)
                if before is not None and before.ordinal > last_write:
                    _per_response(members, obj, before.obj)
                last_listed[key][line_key] = sighting
            else:
                last_item[key] = sighting
                for (group, _, _), listed_before in last_listed.get(key, {}).items():
                    if listed_before.ordinal > last_write:
                        _pair(seen.setdefault(group, {}), listed_before.obj, sighting, listed_before.ordinal)
    decided = _decide(seen, ruleset, traces)
    return [_with_projections(view, decided) if view.kind == "list" else view for view in views]


def _projections(views: list[ReadView]) -> dict[int, tuple[ReadView, tuple[str, ...]]]:
    """Each list record's view and projection (the fields its line shows)."""
    found = {}
    for view in views:
        if view.kind != "list" or view.type is None:
            continue
        for line in view.lines:
            for ordinal in line.record_ordinals:
                found[ordinal] = (view, tuple(sorted(line.shown_fields or view.shown_fields)))
    return found


def _note_values(members: dict[str, _Member], obj: dict[str, Any], key: tuple) -> None:
    for name, value in obj.items():
        member = members.setdefault(name, _Member())
        member.values.add(value if type(value) is str else jsonvalue.canonical(value))
        member.entities.add(key[2])
        member.note_text(value)
        if len(member.values) == 1:
            member.first = value


def _pair(members: dict[str, _Member], listed: dict[str, Any], item: _Sighting, list_ordinal: int) -> None:
    for name in set(listed) & set(item.obj):
        member = members.setdefault(name, _Member())
        member.pairs += 1
        member.note_text(item.obj[name])
        member.note_reference(listed[name], item.obj[name])
        if not same_json(listed[name], item.obj[name]):
            member.differing += 1
            if member.evidence is None:
                member.evidence = (f"record {list_ordinal} lists {_short(listed[name])} where the item read, record "
                                   f"{item.ordinal}, shows {_short(item.obj[name])}")


def _per_response(members: dict[str, _Member], now: dict[str, Any], before: dict[str, Any]) -> None:
    for name in set(now) & set(before):
        if not same_json(now[name], before[name]):
            members.setdefault(name, _Member()).per_response = True


def _short(value: Any) -> str:
    return excerpt(jsonvalue.canonical(value).decode(), 40)


def _decide(seen: dict[tuple[str, tuple[str, ...]], dict[str, _Member]], ruleset: RuleSet,
            traces: list[TraceEvent]) -> dict[tuple[str, tuple[str, ...]], tuple[ProjectedMember, ...]]:
    decided = {}
    for (tool, projection), members in seen.items():
        found = []
        for name in sorted(members):
            member = members[name]
            if not member.differing:
                continue
            context = ListProjectionContext(
                name=name, pairs=member.pairs, differing=member.differing, per_response=member.per_response,
                list_values=len(member.values), list_entities=len(member.entities),
                list_value=member.first if len(member.values) == 1 else None,
                texts=tuple(sorted(member.texts or ())), reference_fields=tuple(sorted(member.references or ())))
            decision = evaluate(ruleset, TABLE, context, subject=f"{tool} member {name!r} (lines showing {len(projection)} fields)")
            traces.extend(decision.events)
            role = str(decision.yields.get("role", "own"))
            if role in ("constant", "own"):
                found.append(ProjectedMember(name=name, role=role, value=member.first if role == "constant" else None,
                                             evidence=member.evidence, rule_id=decision.rule_id))
            elif role == "reference":
                found.append(ProjectedMember(name=name, role=role, reference_field=min(member.references or {""}),
                                             evidence=member.evidence, rule_id=decision.rule_id))
        decided[(tool, projection)] = tuple(found)
    return decided


def _with_projections(view: ReadView, decided: dict) -> ReadView:
    lines, projected = [], set()
    for line in view.lines:
        members = decided.get((view.tool, tuple(sorted(line.shown_fields or view.shown_fields))), ())
        projected |= {m.name for m in members}
        lines.append(line.model_copy(update={"projected_members": members}) if members else line)
    if not projected:
        return view
    volatile = tuple(name for name in view.volatile_fields if name not in projected)
    return view.model_copy(update={"lines": tuple(lines), "volatile_fields": volatile})
