"""Members a query adds to the entities it reads (``view-query-members``): PocketBase's
``?expand=post`` puts the related post under ``expand``, a member no read without the query shows.
Such a member is the query's, not the entity's: the initial state leaves it out (``extract``), so
the reads without the query, and every write's answer, render the entity as the application does,
and a read under the query, whose answers the state cannot render, is not answered from it.

A member may also be nested in an object the entity's own reads show: WordPress's
``?context=edit`` adds ``raw`` beside ``rendered`` in ``title`` and ``content``. Such a member is
named by its path of object keys (a tuple, ``("title", "raw")``), judged only where reads without
a query show its parent object, and left out of that object alike.
"""

from __future__ import annotations

from capenv.interpreter.bundle.models import EntityType, Locator, ReadView
from capenv.interpreter.bundle.values import MISSING, locate
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.query_members import QueryMemberContext
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

from .paging import PagingRoles
from .types import ToolShape

TABLE = "view-query-members"


def _entities(record: Record, shape: ToolShape) -> list[dict]:
    located = locate(record.response.json_value, shape.locator or Locator(kind="root"))
    if located is MISSING:
        return []
    if shape.kind == "list" and isinstance(located, list):
        return [e for e in located if isinstance(e, dict)]
    return [located] if shape.kind == "item" and isinstance(located, dict) else []


Member = str | tuple[str, ...]
"""A top-level member's name, or the path of object keys to a nested one."""


def _paths(entity: dict, prefix: tuple[str, ...] = ()) -> set[Member]:
    """The entity's top-level names and the key paths of the members nested in its objects."""
    found: set[Member] = set()
    for name, value in entity.items():
        path = (*prefix, name)
        found.add(path if prefix else name)
        if isinstance(value, dict):
            found |= _paths(value, path)
    return found


def shows(entity: dict, member: Member) -> bool:
    """The entity shows the member (at its path, for a nested one)."""
    if isinstance(member, str):
        return member in entity
    value: object = entity
    for key in member:
        if not isinstance(value, dict) or key not in value:
            return False
        value = value[key]
    return True


def spelled(member: Member) -> str:
    """A member as the traces name it: a nested one by its keys joined with dots."""
    return member if isinstance(member, str) else ".".join(member)


def _parent(member: Member) -> Member | None:
    if isinstance(member, str):
        return None
    return member[0] if len(member) == 2 else member[:-1]


def _shaping(record: Record, paging: PagingRoles) -> bool:
    """The read was sent with a query that may shape its answer: a parameter that does more than page."""
    return bool(record.query) and not paging.only_pages(record.query)


def query_members(records: list[Record], shapes: dict[str, ToolShape], tool_of: dict[int, str],
                  types: dict[str, EntityType], paging: PagingRoles, ruleset: RuleSet,
                  traces: list[TraceEvent]) -> dict[str, frozenset[str]]:
    """Per type, the members only reads sent with a query show, which the table gives to the query
    (a query that only pages, ``view-query-params``, shapes nothing: such a read counts as plain)."""
    plain_reads: dict[str, int] = {}
    plain: dict[str, dict[str, int]] = {}
    queried: dict[str, dict[str, int]] = {}
    query_names: dict[tuple[str, str], set[str]] = {}
    for record in records:
        shape = shapes.get(tool_of.get(record.ordinal, ""))
        if (shape is None or shape.kind not in ("item", "list") or shape.type_name not in types
                or not record.succeeded or not record.response.is_json):
            continue
        entities = _entities(record, shape)
        if not entities:
            continue
        shown = {member for entity in entities for member in _paths(entity)}
        type_name = shape.type_name
        if _shaping(record, paging):
            for name in shown:
                queried.setdefault(type_name, {}).setdefault(name, 0)
                queried[type_name][name] += 1
                query_names.setdefault((type_name, name), set()).update(k for k, _ in record.query)
        else:
            plain_reads[type_name] = plain_reads.get(type_name, 0) + 1
            for name in shown:
                plain.setdefault(type_name, {}).setdefault(name, 0)
                plain[type_name][name] += 1
    found: dict[str, frozenset[Member]] = {}
    for type_name in sorted(queried):
        own = plain.get(type_name, {})
        left_out: list[Member] = []
        weighed = [n for n in queried[type_name] if n not in own and (_parent(n) is None or _parent(n) in own)]
        for name in sorted(weighed, key=spelled):
            context = QueryMemberContext(name=spelled(name), type=type_name, plain_reads=plain_reads.get(type_name, 0),
                                         plain_showing=own.get(name, 0), query_showing=queried[type_name][name],
                                         query_names=sorted(query_names[(type_name, name)]))
            decision = evaluate(ruleset, TABLE, context, subject=f"{type_name} member {spelled(name)!r}")
            traces.extend(decision.events)
            if decision.yields.get("role") == "query":
                left_out.append(name)
        if left_out:
            found[type_name] = frozenset(left_out)
    return found


def with_query_shaped_records(view: ReadView, records: dict[int, Record], shapes: dict[str, ToolShape],
                              added: dict[str, frozenset[Member]], paging: PagingRoles) -> ReadView:
    """The view with its reads that show a member their query added counted as another shape
    (``other_shape_records``): replayed, never checked nor answered from the state."""
    members = added.get(view.type or "")
    shape = shapes.get(view.tool)
    if not members or shape is None or view.kind not in ("item", "list"):
        return view
    other = [o for o in view.record_ordinals if o in records and _shaping(records[o], paging) and records[o].succeeded
             and records[o].response.is_json
             and any(shows(entity, name) for entity in _entities(records[o], shape) for name in members)]
    if not other:
        return view
    return view.model_copy(update={"other_shape_records": tuple(sorted({*view.other_shape_records, *other}))})
