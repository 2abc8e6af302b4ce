"""Members a query adds to the entities it reads (``view-query-members``): PocketBase's
``?expand=post`` puts the related post under ``expand``, a member no read without the query shows.
Such a member is the query's, not the entity's: the initial state leaves it out (``extract``), so
the reads without the query, and every write's answer, render the entity as the application does,
and a read under the query, whose answers the state cannot render, is not answered from it.
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
        shown = {name for entity in entities for name in entity}
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
    found: dict[str, frozenset[str]] = {}
    for type_name in sorted(queried):
        own = plain.get(type_name, {})
        left_out = []
        for name in sorted(n for n in queried[type_name] if n not in own):
            context = QueryMemberContext(name=name, type=type_name, plain_reads=plain_reads.get(type_name, 0),
                                         plain_showing=own.get(name, 0), query_showing=queried[type_name][name],
                                         query_names=sorted(query_names[(type_name, name)]))
            decision = evaluate(ruleset, TABLE, context, subject=f"{type_name} member {name!r}")
            traces.extend(decision.events)
            if decision.yields.get("role") == "query":
                left_out.append(name)
        if left_out:
            found[type_name] = frozenset(left_out)
    return found


def with_query_shaped_records(view: ReadView, records: dict[int, Record], shapes: dict[str, ToolShape],
                              added: dict[str, frozenset[str]], paging: PagingRoles) -> ReadView:
    """The view with its reads that show a member their query added counted as another shape
    (``other_shape_records``): replayed, never checked nor answered from the state."""
    members = added.get(view.type or "")
    shape = shapes.get(view.tool)
    if not members or shape is None or view.kind not in ("item", "list"):
        return view
    other = [o for o in view.record_ordinals if o in records and _shaping(records[o], paging) and records[o].succeeded
             and records[o].response.is_json
             and any(name in entity for entity in _entities(records[o], shape) for name in members)]
    if not other:
        return view
    return view.model_copy(update={"other_shape_records": tuple(sorted({*view.other_shape_records, *other}))})
