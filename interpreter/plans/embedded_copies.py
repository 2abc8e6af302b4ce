"""Objects of a type embedded whole inside the entity its collection lies beneath (``copies``):
a question's read embedding its options at /questions/2/options/, an item's its variations.

Every plan of every type asks; the reads they are looked for in (primary, successful JSON reads
sent with no query) are picked once per build, and each read's answer is walked once per
identity field, not once per plan."""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.models import EntityType
from capenv.interpreter.bundle.paths import split_path

from .context import PlanContext

Found = tuple[Any, dict[str, Any]]
Nested = tuple[Any, dict[str, Any], Any]


def entities(value: Any, id_field: str, found: list[Found], top: bool = True, wrapped: bool = False) -> None:
    """The objects an answer holds as its entities, with their identities: the root object, the
    root array's objects, and one member's object or objects (an envelope), or, under a chain of
    objects each holding one object or array (beside scalars only) and no identity (envelopes around
    envelopes: ``{"data": {"entries": [{…}]}}``, ``{"code": 0, "data": {"member": {…}}}``,
    ``{"data": {"members": {"entries": [{…}], "total": 2}}}``), those at its end; never an
    object embedded in another entity (a related entity shown inside it is no copy: the gate checks
    embeddings; a root of more members may be such an entity, its map of objects by key no envelope)."""
    if isinstance(value, dict):
        if id_field in value:
            found.append((value[id_field], value))
            return
        if top or not wrapped:
            for inner in value.values():
                entities(inner, id_field, found, top=False, wrapped=_containers(value) > 1)
    elif isinstance(value, list):
        for inner in value:
            if isinstance(inner, dict) and id_field in inner:
                found.append((inner[id_field], inner))


def _containers(value: dict[str, Any]) -> int:
    """How many of an object's members hold an object or an array: a root holding one beside
    scalars only (``{"code": 0, "msg": "ok", "data": {…}}``) wraps it as a root of one member does."""
    return sum(isinstance(inner, (dict, list)) for inner in value.values())


def _identity(value: Any) -> bool:
    return isinstance(value, (str, int)) and not isinstance(value, bool)


def _inside_entities(value: Any, id_field: str, found: list[Nested], outer: tuple[Any] | None = None) -> None:
    """Objects carrying ``id_field`` inside another object carrying it (whatever its value), with
    their identity and the innermost such container's."""
    if isinstance(value, dict):
        here = (value.get(id_field),) if id_field in value else None
        if here is not None and outer is not None:
            found.append((here[0], value, outer[0]))
        for inner in value.values():
            _inside_entities(inner, id_field, found, here if here is not None else outer)
    elif isinstance(value, list):
        for inner in value:
            _inside_entities(inner, id_field, found, outer)


def _reads_parent(parts: list[str], collection: list[str]) -> bool:
    """The path (``parts``) reads the entity the type's collection lies beneath, or that entity's
    own collection: the collection's path less its last segment, or less its last two (a parameter
    matching any segment)."""
    return any(0 < len(parts) == len(collection) - cut
               and all(c.startswith("{") or c == p for c, p in zip(collection, parts)) for cut in (1, 2))


class _PlainReads:
    """The reads (GETs and read-only POSTs) of the primary origin answered 2xx JSON and sent with no
    query (a query may embed related objects on request, an include or an expand), in ordinal
    order, each with its tool and path segments; their answers' entities and nested entities per
    identity field, walked on first use."""

    def __init__(self, ctx: PlanContext) -> None:
        self.reads: list[tuple[int, str | None, list[str]]] = []
        for ordinal in sorted(ctx.records):
            record = ctx.records[ordinal]
            reads = record.method == "GET" or ctx.tool_of.get(ordinal) in ctx.read_only
            if not record.primary or not reads or not record.succeeded or not record.response.is_json:
                continue
            if record.query:
                continue
            self.reads.append((ordinal, ctx.tool_of.get(ordinal), split_path(record.path)))
        self.records = ctx.records
        self._entities: dict[tuple[int, str], list[Found]] = {}
        self._nested: dict[tuple[int, str], list[Nested]] = {}

    def entities(self, ordinal: int, id_field: str) -> list[Found]:
        key = (ordinal, id_field)
        if key not in self._entities:
            found: list[Found] = []
            entities(self.records[ordinal].response.json_value, id_field, found)
            self._entities[key] = found
        return self._entities[key]

    def nested(self, ordinal: int, id_field: str) -> list[Nested]:
        key = (ordinal, id_field)
        if key not in self._nested:
            found: list[Nested] = []
            _inside_entities(self.records[ordinal].response.json_value, id_field, found)
            self._nested[key] = found
        return self._nested[key]


def embedded_candidates(ctx: PlanContext, entity_type: EntityType) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Objects of the type embedded whole inside the entity its collection lies beneath, as a read
    of that entity or of its collection sent with no query answered it: an object nested inside
    another carrying ``id_field``, whose identity (of any kind) one of the type's own plain reads
    shows, with every other member equal to what such a read showed of it. Each as ``{"at", "members"}``
    (the record, how many members it shows besides the identity) with the object; once per type."""
    tools = frozenset(entity_type.list_tools) | frozenset(entity_type.item_tools)
    id_field = entity_type.id_field
    memo = ctx.__dict__.setdefault("embedded_copies", {})
    key = (id_field, entity_type.collection_template, tools)
    if key in memo:
        return memo[key]
    plain = ctx.__dict__.get("plain_reads")
    if plain is None:
        plain = ctx.__dict__["plain_reads"] = _PlainReads(ctx)
    collection = split_path(entity_type.collection_template)
    own: dict[Any, list[dict[str, Any]]] = {}
    others: list[int] = []
    for ordinal, tool, parts in plain.reads:
        if tool not in tools:
            if _reads_parent(parts, collection):
                others.append(ordinal)
            continue
        for value, obj in plain.entities(ordinal, id_field):
            if _identity(value):
                own.setdefault(value, []).append(obj)
    found: list[tuple[dict[str, Any], dict[str, Any]]] = []
    for ordinal in others:
        for value, obj, outer in plain.nested(ordinal, id_field):
            if not _identity(value) or value not in own:
                continue
            members = set(obj) - {id_field}
            if any(all(k in seen and seen[k] == obj[k] for k in members) for seen in own[value]):
                found.append(({"at": f"#{ordinal} {ctx.records[ordinal].path} ({id_field} {value!r} inside {outer!r})",
                               "members": len(members)}, obj))
    memo[key] = found
    return found
