"""Members a query adds to the entities it reads, or leaves out of them (``view-query-members``).

PocketBase's ``?expand=post`` puts the related post under ``expand``, a member no read without the
query shows; Roundup's ``?@verbose=2`` adds a label inside each link object (``assignedto.username``),
a nested member no read without it shows there. Such a member is the query's, not the entity's: the
initial state leaves it out (``extract``), so the reads without the query, and every write's answer,
render the entity as the application does, and a read showing it, whose answers the state cannot
render, is another shape of its view (replayed, never answered from the state).

A read sent with a query may also leave out members a read of the same entity without one shows
(Roundup's ``?@fields=title,priority`` keeps two attributes): a projection no learned query
explains. Its values are not merged into the state, which would lose the members it left out, and
it is another shape of its view too.

Members are named by their path from the entity: a top-level member by its name, a nested one by
its keys joined with dots (``title.raw``, ``attributes.assignedto.username``, ``*`` for any array
index), as traces name them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

from capenv.interpreter.bundle.jsonvalue import canonical
from capenv.interpreter.bundle.models import EntityType, Locator, ReadView
from capenv.interpreter.bundle.values import MISSING, locate
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.query_members import QueryMemberContext
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

from .paging import PagingRoles
from .projection_candidates import ProjectionCandidates, type_words
from .types import ToolShape

TABLE = "view-query-members"
ANY_INDEX = "*"

Path = tuple[str, ...]


@dataclass(frozen=True)
class QueryShapes:
    """What the table gave to queries: per type the members a query adds (left out of the state),
    and the reads that are another shape of their view (they show such a member, or leave out one
    a read of the same entity without a query shows)."""

    added: dict[str, frozenset[Path]] = field(default_factory=dict)
    other_records: frozenset[int] = frozenset()
    projections: frozenset[int] = frozenset()
    """Of ``other_records``, the reads that left members out: the state takes nothing from them."""


def member_name(path: Path) -> str:
    """A top-level member by its name, a nested one by its keys joined with dots."""
    return ".".join(path)


def member_paths(entity: dict[str, Any]) -> tuple[set[Path], set[Path]]:
    """(every member path the entity shows, every path at which it holds an object: ``()`` itself)."""
    paths: set[Path] = set()
    parents: set[Path] = set()
    stack: list[tuple[Any, Path]] = [(entity, ())]
    while stack:  # only objects and arrays are pushed: a scalar shows no path below its own
        value, prefix = stack.pop()
        if isinstance(value, dict):
            parents.add(prefix)
            for name, member in value.items():
                path = prefix + (name,)
                paths.add(path)
                if isinstance(member, (dict, list)):
                    stack.append((member, path))
        elif isinstance(value, list):
            inner = prefix + (ANY_INDEX,)
            stack.extend((element, inner) for element in value if isinstance(element, (dict, list)))
    return paths, parents


def without_paths(entity: dict[str, Any], paths: frozenset[Path]) -> dict[str, Any]:
    """A copy of the entity without the members at ``paths`` (copied only along them)."""
    return _strip(entity, [p for p in paths if p])


def _strip(value: Any, paths: list[Path]) -> Any:
    if not paths:
        return value
    if isinstance(value, list):
        inner = [p[1:] for p in paths if p[0] == ANY_INDEX]
        return [_strip(v, inner) for v in value] if inner else value
    if not isinstance(value, dict):
        return value
    drop = {p[0] for p in paths if len(p) == 1}
    deeper: dict[str, list[Path]] = {}
    for p in paths:
        if len(p) > 1:
            deeper.setdefault(p[0], []).append(p[1:])
    return {name: _strip(member, deeper.get(name, [])) for name, member in value.items() if name not in drop}


def _entities(record: Record, shape: ToolShape) -> list[dict]:
    located = locate(record.response.json_value, shape.locator or Locator(kind="root"))
    if located is MISSING:
        return []
    if shape.kind == "list" and isinstance(located, list):
        return [e for e in located if isinstance(e, dict)]
    return [located] if shape.kind == "item" and isinstance(located, dict) else []


def _entity_key(entity: dict[str, Any], id_field: str | None, record: Record, shape: ToolShape) -> str | None:
    """The id a read shows the entity under: its identity member, or, for an item read whose answer
    leaves that member out (a projection, LoopBack's ``filter={"fields":{"title":true}}``), the id
    its path names (an item tool's last segment)."""
    key = entity.get(id_field) if id_field else None
    if key is not None:
        return None if isinstance(key, (dict, list)) else str(key)
    if shape.kind != "item" or not shape.tool.segments or not shape.tool.segments[-1].is_param:
        return None
    args = shape.tool.match(record.path)
    named = args.get(shape.tool.segments[-1].param or "") if args else None
    return unquote(named) if named else None


def _shaping(record: Record, paging: PagingRoles) -> bool:
    """The read was sent with a query that may shape its answer: a parameter that does more than page."""
    return bool(record.query) and not paging.only_pages(record.query)


@dataclass
class _TypeReads:
    plain_reads: int = 0
    plain: dict[Path, int] = field(default_factory=dict)
    plain_parents: dict[Path, int] = field(default_factory=dict)
    queried: dict[Path, int] = field(default_factory=dict)
    query_names: dict[Path, set[str]] = field(default_factory=dict)
    by_entity: dict[tuple[str, str], set[Path]] = field(default_factory=dict)
    """Per read tool and entity id, the member paths that tool's reads of it without a query show
    (a list may show less of an entity than its item read, by its own projection)."""
    query_reads: list[tuple[int, str, list[tuple[str | None, set[Path]]]]] = field(default_factory=list)
    query_holders: dict[Path, set[str]] = field(default_factory=dict)
    """Per member path, the entities (by id) reads sent with a query show it on."""
    plain_holds: dict[str, set[Path]] = field(default_factory=dict)
    """Per entity id, the paths at which reads without a query showed it holding an object (``()``
    itself: any such read of it)."""
    plain_kinds: dict[str, dict[str, set[str]]] = field(default_factory=dict)
    """Per entity id, per top-level member, the shapes (``value_kind``) reads without a query show."""
    query_kinds: list[tuple[int, str, dict[str, str]]] = field(default_factory=list)
    """Per read sent with a query, per entity it shows (by id), the shape of each top-level member."""
    projected: set[int] = field(default_factory=set)
    """Reads sent with a projection candidate (``view-projection-queries``): what they leave out is
    the projection learner's business (``projections``), not a shape this module judges."""


OBJECTS, SCALARS = ("object", "objects"), ("scalar", "scalars")


def value_kind(value: Any) -> str | None:
    """The shape of a member's value: an object, an array holding objects, a scalar, an array of
    scalars; None for null and an empty array, which show no shape."""
    if isinstance(value, dict):
        return "object"
    if isinstance(value, list):
        if not value:
            return None
        return "objects" if any(isinstance(v, dict) for v in value) else "scalars"
    return None if value is None else "scalar"


def _kinds(entity: dict[str, Any]) -> dict[str, str]:
    return {name: kind for name, value in entity.items() if (kind := value_kind(value)) is not None}


def _reshaped(seen: "_TypeReads") -> dict[Path, list[int]]:
    """Per top-level member, the reads sent with a query showing it as an object (or objects) on an
    entity reads without a query show holding a scalar (or scalars) there."""
    out: dict[Path, list[int]] = {}
    for ordinal, key, kinds in seen.query_kinds:
        plain = seen.plain_kinds.get(key, {})
        for name, kind in kinds.items():
            held = plain.get(name, set())
            if kind in OBJECTS and held & set(SCALARS) and kind not in held:
                out.setdefault((name,), []).append(ordinal)
    return out


def _count(counts: dict[Path, int], paths: set[Path]) -> None:
    for path in paths:
        counts[path] = counts.get(path, 0) + 1


def query_members(records: list[Record], shapes: dict[str, ToolShape], tool_of: dict[int, str],
                  types: dict[str, EntityType], paging: PagingRoles, ruleset: RuleSet,
                  traces: list[TraceEvent]) -> QueryShapes:
    """Per type, the members only reads sent with a query show, or that such reads leave out of an
    entity a read without one shows, each judged by the table (a query that only pages,
    ``view-query-params``, shapes nothing: such a read counts as plain)."""
    reads: dict[str, _TypeReads] = {}
    candidates = ProjectionCandidates(ruleset)
    # an entity's canonical JSON -> its member paths, the paths holding objects and its members'
    # kinds, shared (read, never changed) by every read showing it
    walked: dict[bytes, tuple[set[Path], set[Path], dict[str, str]]] = {}
    kinds_noted: set[tuple[str, bytes]] = set()
    for record in records:
        shape = shapes.get(tool_of.get(record.ordinal, ""))
        if (shape is None or shape.kind not in ("item", "list") or shape.type_name not in types
                or not record.succeeded or not record.response.is_json):
            continue
        entities = _entities(record, shape)
        if not entities:
            continue
        id_field = types[shape.type_name].id_field
        seen = reads.setdefault(shape.type_name, _TypeReads())
        shown: set[Path] = set()
        parents: set[Path] = set()
        per_entity = []
        holds_of: dict[str, set[Path]] = {}
        spelled = [canonical(entity) for entity in entities]
        for entity, text in zip(entities, spelled):
            if text not in walked:  # every read of an unchanged entity shows the same paths
                walked[text] = (*member_paths(entity), _kinds(entity))
            paths, holds, _ = walked[text]
            shown |= paths
            parents |= holds
            key = _entity_key(entity, id_field, record, shape)
            per_entity.append((key, paths))
            if key is not None:
                holds_of.setdefault(key, set()).update(holds)
        if _shaping(record, paging):
            _count(seen.queried, shown)
            for path in shown:
                seen.query_names.setdefault(path, set()).update(k for k, _ in record.query)
            seen.query_reads.append((record.ordinal, shape.tool.name, per_entity))
            for key, paths in per_entity:
                if key is not None:
                    for path in paths:
                        seen.query_holders.setdefault(path, set()).add(key)
            for entity, text in zip(entities, spelled):
                key = _entity_key(entity, id_field, record, shape)
                if key is not None:
                    seen.query_kinds.append((record.ordinal, key, walked[text][2]))
            if candidates.projects(record, tuple(type_words(types[shape.type_name]))):
                seen.projected.add(record.ordinal)
        else:
            seen.plain_reads += 1
            _count(seen.plain, shown)
            _count(seen.plain_parents, parents)
            for key, paths in per_entity:
                if key is not None:
                    seen.by_entity.setdefault((shape.tool.name, key), set()).update(paths)
            for entity, text in zip(entities, spelled):
                key = _entity_key(entity, id_field, record, shape)
                if key is not None and (key, text) not in kinds_noted:  # the same kinds again: nothing to add
                    kinds_noted.add((key, text))
                    held = seen.plain_kinds.setdefault(key, {})
                    for name, kind in walked[text][2].items():
                        held.setdefault(name, set()).add(kind)
            for key, holds in holds_of.items():
                seen.plain_holds.setdefault(key, set()).update(holds)
    added: dict[str, frozenset[Path]] = {}
    other: set[int] = set()
    projections: set[int] = set()
    for type_name in sorted(reads):
        seen = reads[type_name]
        lacking: dict[Path, list[int]] = {}
        for ordinal, tool, per_entity in seen.query_reads:
            if ordinal in seen.projected:
                continue
            for key, paths in per_entity:
                for path in seen.by_entity.get((tool, key or ""), set()) - paths:
                    lacking.setdefault(path, []).append(ordinal)
        reshaped = {p: o for p, o in _reshaped(seen).items() if o and not set(o) <= seen.projected}
        judged = sorted(set(seen.queried) - set(seen.plain) | set(lacking) | set(reshaped))
        left_in, left_out = [], set()
        for path in judged:
            parent_reads = seen.plain_reads if len(path) == 1 else seen.plain_parents.get(path[:-1], 0)
            holders = seen.query_holders.get(path, set())
            context = QueryMemberContext(
                holders=len(holders),
                holders_read_plainly=sum(1 for k in holders if path[:-1] in seen.plain_holds.get(k, set())),
                name=member_name(path), type=type_name, plain_reads=parent_reads,
                plain_showing=seen.plain.get(path, 0), query_showing=seen.queried.get(path, 0),
                query_lacking=len(set(lacking.get(path, []))),
                query_reshaped=len(set(reshaped.get(path, []))),
                query_names=sorted(seen.query_names.get(path, set())))
            decision = evaluate(ruleset, TABLE, context, subject=f"{type_name} member {context.name!r}")
            traces.extend(decision.events)
            role = decision.yields.get("role")
            if role == "query":
                left_in.append(path)
            elif role == "withheld":
                left_in.append(path[:1])  # the whole top-level member: never an object less the key
            elif role == "projection":
                left_out.update(lacking.get(path, []))
                left_out.update(reshaped.get(path, []))
        if left_in:
            added[type_name] = frozenset(left_in)
            shows = set(left_in)
            other.update(o for o, _, per_entity in seen.query_reads if any(paths & shows for _, paths in per_entity))
        other |= left_out
        projections |= left_out
    return QueryShapes(added, frozenset(other), frozenset(projections))


def with_query_shaped_records(view: ReadView, shaped: QueryShapes) -> ReadView:
    """The view with its reads that show a member their query added, or leave out one the entity
    holds, counted as another shape (``other_shape_records``): replayed, never checked nor answered
    from the state."""
    if view.kind not in ("item", "list"):
        return view
    other = [o for o in view.record_ordinals if o in shaped.other_records]
    if not other:
        return view
    return view.model_copy(update={"other_shape_records": tuple(sorted({*view.other_shape_records, *other}))})
