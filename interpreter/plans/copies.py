"""An update or delete whose entity has a copy in another collection (``write-copies``): the
capture shows an object carrying the entity's identity in the answer of a read outside the type's
collection (Prefect's tag limit, also listed by /api/v2/concurrency_limits/filter under the same
id). The write would change or remove the entity alone and leave the copy as it was, a side effect
on a copy in another collection that write-effects does not model: the plan is not served, with
the build reason ``copied-entity``. So is a type whose entities the capture shows nested inside
another entity of it (a folder's ``children`` holding its files, inside the collection or not):
any of them may have such a copy, whether or not a read showed the written one's. An update leaves stale only a copy
showing a field it writes:
an object naming the entity beside members of its own (Syncthing's folder lists its devices as
``{deviceID, introducedBy, encryptionPassword}``) is no copy of a device's name or addresses.
A type whose entities the capture shows embedded whole inside the entity their collection lies
beneath (a question's read embedding its options at /questions/2/options/, an item's its variations:
every member equal to what the type's own reads show) has such copies under any identity, so its
creates are not served either: the new entity joins its parent's copy.
A copy another state type holds under the entity's id (a group's member list holding its users) is
kept per call for an update: the plan names that type (``copy_holders``) and serving refuses a call
while a held entity of it copies the written one showing a member the call changes, serving the rest (write-effects, Not modelled: "stay unserved,
or are labelled in the description")."""

from __future__ import annotations

from typing import Any, Callable

from capenv.interpreter.bundle.models import EntityType, WritePlan
from capenv.interpreter.bundle.paths import lies_below, split_path
from capenv.interpreter.predicates.create_values import same_json
from capenv.interpreter.predicates.write_copies import WriteCopyContext
from capenv.interpreter.rules_engine import TraceEvent, evaluate
from capenv.interpreter.view.replay_facts import ReadsTypes, initial_ids

from .context import PlanContext, note
from .embedded_copies import embedded_candidates, entities
from .item_keys import call_key

TABLE = "write-copies"
REASON = "copied-entity"


def _shown(ctx: PlanContext, id_field: str) -> dict[str, list[tuple[int, dict[str, Any]]]]:
    """Every string identity an entity of a read's answer carries at ``id_field``, with the
    reads (GETs and read-only POSTs) that show it and the object; built once per field."""
    memo = ctx.__dict__.setdefault("identities_shown", {})
    if id_field not in memo:
        index: dict[str, list[tuple[int, dict[str, Any]]]] = {}
        for ordinal in sorted(ctx.records):
            record = ctx.records[ordinal]
            reads = record.method == "GET" or ctx.tool_of.get(ordinal) in ctx.read_only
            if not record.primary or not reads or not record.succeeded or not record.response.is_json:
                continue
            values: list[tuple[Any, dict[str, Any]]] = []
            entities(record.response.json_value, id_field, values)
            for value, shown in values:
                if isinstance(value, str):
                    index.setdefault(value, []).append((ordinal, shown))
        memo[id_field] = index
    return memo[id_field]


def _nested(value: Any, id_field: str, found: list[tuple[Any, dict[str, Any], Any]], outer: Any = None) -> None:
    """Objects carrying ``id_field`` inside another object carrying it with another value (``outer``,
    the innermost such object's identity around ``value``), with both identities."""
    if isinstance(value, dict):
        here = value.get(id_field) if id_field in value else None
        if here is not None and outer is not None and here != outer:
            found.append((here, value, outer))
        inner_outer = here if here is not None else outer
        for inner in value.values():
            _nested(inner, id_field, found, inner_outer)
    elif isinstance(value, list):
        for inner in value:
            _nested(inner, id_field, found, outer)


def _nested_shown(ctx: PlanContext, id_field: str,
                  chosen: Callable[[int], bool]) -> list[tuple[int, Any, dict[str, Any], Any]]:
    """Every object the answer of a read ``chosen`` keeps carries a string identity at ``id_field``
    on, nested inside another object carrying ``id_field``: (ordinal, identity, object, outer
    identity). Only the chosen reads' answers are walked (a type's own plain reads, not every read
    of the capture once per type)."""
    found: list[tuple[int, Any, dict[str, Any], Any]] = []
    for ordinal in sorted(ctx.records):
        record = ctx.records[ordinal]
        reads = record.method == "GET" or ctx.tool_of.get(ordinal) in ctx.read_only
        if not record.primary or not reads or not record.succeeded or not record.response.is_json \
                or not chosen(ordinal):
            continue
        values: list[tuple[Any, dict[str, Any], Any]] = []
        _nested(record.response.json_value, id_field, values)
        found.extend((ordinal, value, shown, outer) for value, shown, outer in values if isinstance(value, str))
    return found


def _tree_copies(ctx: PlanContext, entity_type: EntityType, shown: dict[str, list[tuple[int, dict[str, Any]]]],
                 written: set[str] | None) -> list[str]:
    """Copies of the type's entities inside other entities of it (a tree), in the answer of one of
    the type's own list or item reads sent with no query (a query may embed related objects, as an
    include or expand does): a nested object whose identity and whose container's are both
    entities such reads show, more than half the nested object's members, its identity aside,
    members they show of it (a copy, not a pointer naming it); for an update, one showing a field it
    writes."""
    return [at for at, obj in _tree_candidates(ctx, entity_type, shown) if written is None or not written.isdisjoint(obj)]


def _tree_candidates(ctx: PlanContext, entity_type: EntityType,
                     shown: dict[str, list[tuple[int, dict[str, Any]]]]) -> list[tuple[str, dict[str, Any]]]:
    """``_tree_copies`` before the written fields' filter, with each copy's object: once per type
    (every plan of the type asks)."""
    tools = frozenset(entity_type.list_tools) | frozenset(entity_type.item_tools)
    memo = ctx.__dict__.setdefault("tree_copies", {})
    key = (entity_type.id_field, tools)
    if key in memo:
        return memo[key]

    def plain_read_of_type(ordinal: int) -> bool:
        return ctx.tool_of.get(ordinal) in tools and not ctx.records[ordinal].query

    own: dict[str, set[str]] = {}
    for value, seen in shown.items():
        for o, obj in seen:
            if plain_read_of_type(o):
                own.setdefault(value, set()).update(obj)

    least_share = float(ctx.ruleset.setting("plans", "nested_copy_min_shared_share"))

    def copies(value: str, obj: dict[str, Any]) -> bool:
        shared = (set(obj) & own[value]) - {entity_type.id_field}
        return len(shared) > least_share * len(obj)

    memo[key] = [(f"#{o} {ctx.records[o].path} ({entity_type.id_field} {value!r} inside {outer!r})", obj)
                 for o, value, obj, outer in (_nested_shown(ctx, entity_type.id_field, plain_read_of_type) if own else ())
                 if value in own and outer in own and copies(value, obj)]
    return memo[key]


def _embedded_copies(ctx: PlanContext, entity_type: EntityType, written: set[str] | None) -> list[dict[str, Any]]:
    """Objects of the type embedded whole inside the entity its collection lies beneath, as a read
    of that entity or of its collection sent with no query answered it (a query may embed related
    objects on request; an entity elsewhere naming one may hold a snapshot): an object nested inside another
    carrying ``id_field``, whose identity (of any kind) one of the type's own
    plain reads (no query) shows, with every other member equal to what such a read showed of it;
    for an update, one showing a field it writes. Each with the record and how many members it
    shows besides the identity."""
    return [dict(found) for found, obj in embedded_candidates(ctx, entity_type)
            if written is None or not written.isdisjoint(obj)]


def _type_fields(ctx: PlanContext, entity_type: EntityType) -> set[str]:
    """The fields the type's views show."""
    return {f for view in ctx.view.views if view.type == entity_type.name for f in view.shown_fields}


def _references(shown: dict[str, Any], entity_type: EntityType, fields: set[str], ctx: PlanContext) -> bool:
    """The object is another entity naming this one: an identity member of its own with another
    value, and fewer than half of its members are fields of the written type."""
    identity = shown[entity_type.id_field]
    own = any(ctx.is_identity_member(name) and value != identity and isinstance(value, (str, int))
              and not isinstance(value, bool) for name, value in shown.items() if name != entity_type.id_field)
    return own and sum(name in fields for name in shown) * 2 < len(shown)


def _held_values(own: list[dict[str, Any]], id_field: str) -> dict[str, Any]:
    """The members every one of the type's own reads of the entity (``own``) showed, each with one
    and the same value throughout: what the entity held unchanged."""
    if not own:
        return {}
    held = {name: value for name, value in own[0].items() if name != id_field}
    for shown in own[1:]:
        held = {name: value for name, value in held.items() if name in shown and same_json(shown[name], value)}
    return held


def _shares_identity(obj: dict[str, Any], held: dict[str, Any]) -> bool:
    """The object disagrees with the entity on a member the entity held unchanged: another entity
    that carries the same identity (a credential keyed by its consumer's id), not a copy."""
    return any(name in obj and not same_json(obj[name], value) for name, value in held.items())


def _outside(path: str, entity_type: EntityType) -> bool:
    """The path lies outside the type's collection and its item path (a parameter matching any
    segment): an item path in the singular beside a plural list (/alert/{id}, /alerts) is the type's own."""
    parts = split_path(path)
    bases = [split_path(entity_type.collection_template)]
    if entity_type.item_template:
        bases.append(split_path(entity_type.item_template))
    return not any(len(parts) >= len(base) and all(c.startswith("{") or c == p for c, p in zip(base, parts))
                   for base in bases)


def _kept_copy(ctx: PlanContext, entity_type: EntityType, ordinal: int, shown: dict[str, Any],
               own: list[dict[str, Any]], written: set[str] | None) -> str | None:
    """How serving keeps the object ``shown`` in the answer of the read ``ordinal`` from answering the
    written entity stale, or None (``_kept``). Another type's state answering the read keeps it only
    for an update (a delete drops that copy, a cascade), and only where serving's per-call check
    finds that type's entity (``_holder_copy``). A document the state holds is kept per call only where
    the per-call check finds the copy: an object nested in it (the document itself is a copy there
    only where it shows every member it shares with the entity alike, which an object naming the
    entity at its root need not) showing, besides the identity, a member the write changes (for a
    delete, any) as one of the type's own reads (``own``) shows it - an entry naming the entity beside
    members of its own alone copies nothing the check compares, and would be left behind. Nothing
    keeps an object another type's initial entity holds under the same identity."""
    why, per_call, holder = _kept(ctx, entity_type, ordinal)
    if holder is not None:  # a delete drops the copy too: a cascade into that type, left unserved
        return why if written is not None and _holder_copy(ctx, entity_type, holder, shown, own) else None
    if why is not None and _held_by_another_type(ctx, entity_type, shown.get(entity_type.id_field)):
        return None
    if per_call and (shown is ctx.records[ordinal].response.json_value or not any(
            name != entity_type.id_field and (written is None or name in written) and name in read
            and same_json(read[name], value) for read in own for name, value in shown.items())):
        return None
    return why


def _holder_copy(ctx: PlanContext, entity_type: EntityType, holder: str, shown: dict[str, Any],
                 own: list[dict[str, Any]]) -> bool:
    """The object is a copy serving's per-call check finds (``serving/writes/held_copies``): the
    holder type keys its entities by the same identity field, and every member the object shows is
    one the type's own reads (``own``) show of the entity, so a member it changes is one the copy
    shows under its own name (a member of the copy's own might be derived from one it changes)."""
    holder_type = next((t for t in ctx.view.types if t.name == holder), None)
    if holder_type is None or holder_type.id_field != entity_type.id_field or not own:
        return False
    members: set[str] = set()
    for read in own:
        members.update(read)
    return set(shown) <= members


def _held_by_another_type(ctx: PlanContext, entity_type: EntityType, identity: Any) -> bool:
    """Another type's collection of the initial state holds an entity under the identity: the object
    the read shows may be that entity (a second API's view of the same one), which serving answers
    from the state and no refusal of the read keeps from going stale."""
    held = ctx.__dict__.get("ids_by_type")
    if held is None:
        held = ctx.__dict__["ids_by_type"] = initial_ids(ctx.view, 0)
    return any(str(identity) in ids for name, ids in held.items() if name != entity_type.name)


def _kept(ctx: PlanContext, entity_type: EntityType, ordinal: int) -> tuple[str | None, bool, str | None]:
    """How serving keeps the read ``ordinal`` from answering the written entity's copy stale (None:
    nothing does), whether by refusing the write per call, and the other state type whose entities
    it answers (None: none): a document the state holds that summarises the type (refused once a
    served write changed it, ``serving/reads/summaries``), or that the state holds otherwise (a
    served update or delete whose entity it shows nested, as held, is refused per call,
    ``serving/writes/nested_copies``); a list or item of the type's own answered from the state (the
    same entity); a list or item of another type answered from the state (a group's member list
    holding its users: a served write of an entity a held entity of that type copies is refused per
    call, ``WritePlan.copy_holders``); a replayed read whose tool reads the type
    (``ReplayTable.reads_types``: refused once a served write changed it)."""
    memo = ctx.__dict__.setdefault("kept_reads", {})
    key = (entity_type.name, ordinal)
    if key in memo:
        return memo[key]
    tool_name = ctx.tool_of.get(ordinal)
    view = next((v for v in ctx.view.views if v.tool == tool_name), None)
    line = next((d for d in view.documents if ordinal in d.record_ordinals), None) \
        if view is not None and view.kind == "document" else None
    held_documents = ctx.__dict__.setdefault("held_documents", {d.path for d in ctx.view.state.documents})
    kept: str | None = None
    per_call = False
    holder: str | None = None
    if line is not None and line.state_backed and line.path in held_documents:
        per_call = entity_type.name not in line.summarises
        kept = (f"the state holds the document {line.path}: a write whose entity it shows nested is refused per call"
                if per_call else
                f"the document {line.path} summarises {entity_type.name}: refused once a served write changed it")
    elif line is None and view is not None and view.kind in ("list", "item") and view.state_backed:
        if view.type == entity_type.name:
            kept = f"{tool_name} answers {entity_type.name} from the state"
        elif view.type is not None:
            per_call, holder = True, view.type
            kept = (f"{tool_name} answers {view.type} from the state: a write of an entity a held {view.type} "
                    "entity copies is refused per call")
    else:
        if "reads_types" not in ctx.__dict__:
            ctx.__dict__["reads_types"] = ReadsTypes(ctx.view, ctx.records, ctx.ruleset.settings.get("plans"))
        tool = next((t for t in ctx.manifest.tools if t.name == tool_name), None)
        if tool is not None and entity_type.name in ctx.__dict__["reads_types"].of(tool):
            kept = f"{tool_name} is replayed and reads {entity_type.name}: refused once a served write changed it"
    memo[key] = (kept, per_call, holder)
    return memo[key]


def _beneath_other_entity(ctx: PlanContext, entity_type: EntityType, path: str) -> str | None:
    """The item path of another type the path lies below (a list's roster beneath /lists/{id}), or
    None: what the path shows belongs to that entity, whose own reads may count it."""
    return next((other.item_template for other in ctx.view.types if other.name != entity_type.name
                 and other.item_template and lies_below(path, other.item_template)), None)


def copied_entity(plan: WritePlan, entity_type: EntityType, ctx: PlanContext) -> WritePlan:
    """The plan, unserved with ``copied-entity`` when a successful call's entity has a copy."""
    if plan.build_reason is not None or plan.effect not in ("create", "update", "delete", "action"):
        return plan
    if plan.effect == "create":
        context = WriteCopyContext(id_field=entity_type.id_field, identity=None, effect="create",
                                   embedded_in=_embedded_copies(ctx, entity_type, None))
        decision = evaluate(ctx.ruleset, TABLE, context, subject=f"{plan.tool}")
        events = list(decision.events)
        if decision.yields.get("copy"):
            events.append(note(plan.tool, REASON, (
                f"{entity_type.name} entities are shown whole inside other entities ({decision.evidence['shown_at'][0]}): "
                "a created one would join that copy, which the create leaves as it was (side effects on copies "
                "of entities elsewhere are not modelled)"), location="interpreter/plans/copies.py"))
            return plan.model_copy(update={"build_reason": REASON, "traces": plan.traces + tuple(events)})
        return plan.model_copy(update={"traces": plan.traces + tuple(events)}) if events else plan
    if plan.address is None:
        return plan
    shown = _shown(ctx, entity_type.id_field)
    fields = _type_fields(ctx, entity_type)
    tool = next(t for t in ctx.manifest.tools if t.name == plan.tool)
    events: list[TraceEvent] = []
    after = plan.address.segments_after_item()
    # a delete leaves every copy behind, an update only one showing a field it writes
    written = None if plan.effect == "delete" else {rule.field for rule in plan.fields}
    nested = _tree_copies(ctx, entity_type, shown, written)
    embedded = _embedded_copies(ctx, entity_type, written)
    paths_outside: dict[str, bool] = {}  # per recorded path, not per call and object showing it

    def outside_of_type(o: int) -> bool:
        path = ctx.records[o].path
        if path not in paths_outside:
            paths_outside[path] = _outside(path, entity_type)
        return paths_outside[path]

    holders: set[str] = set()  # the other types whose held entities serving checks per call
    for ordinal in tool.record_ordinals:
        call = ctx.records[ordinal]
        if not call.succeeded:
            continue
        identity = call_key(ctx.timeline, call, after)
        outside = [(o, obj) for o, obj in shown.get(identity, []) if outside_of_type(o)
                   and (written is None or not written.isdisjoint(obj))]
        places = [f"#{o} {ctx.records[o].path}" for o, _ in outside]
        referencing = [f"#{o} {ctx.records[o].path}" for o, obj in outside
                       if _references(obj, entity_type, fields, ctx)]
        held = _held_values([obj for o, obj in shown.get(identity, []) if not outside_of_type(o)],
                            entity_type.id_field)
        sharing = [f"#{o} {ctx.records[o].path}" for o, obj in outside if _shares_identity(obj, held)]
        own = [obj for o, obj in shown.get(identity, []) if not outside_of_type(o)]
        kept = {f"#{o} {ctx.records[o].path}": why for o, obj in outside
                if (why := _kept_copy(ctx, entity_type, o, obj, own, written))}
        beneath = {place: f"below {item}" for place in kept
                   if (item := _beneath_other_entity(ctx, entity_type, place.split(" ", 1)[1]))}
        holders.update(holder for place, o in zip(places, (o for o, _ in outside))
                       if place in kept and (holder := _kept(ctx, entity_type, o)[2]) is not None)
        context = WriteCopyContext(id_field=entity_type.id_field, identity=identity, shown_at=places,
                                   effect=plan.effect, referencing=referencing, sharing=sharing, kept=kept,
                                   kept_beneath=beneath, nested_in=nested, embedded_in=embedded)
        decision = evaluate(ctx.ruleset, TABLE, context, subject=f"{plan.tool} record {ordinal}")
        events.extend(decision.events)
        if decision.yields.get("copy"):
            events.append(note(plan.tool, REASON, (
                f"record {ordinal} writes {entity_type.name} {identity!r}, which {decision.evidence['shown_at'][0]} "
                "also shows as an object "
                "of another collection or inside another entity: the write would leave that copy as it was (side "
                "effects on copies of entities elsewhere are not modelled)"), location="interpreter/plans/copies.py"))
            return plan.model_copy(update={"build_reason": REASON, "traces": plan.traces + tuple(events)})
    update: dict[str, Any] = {"traces": plan.traces + tuple(events)} if events else {}
    if holders:
        update["copy_holders"] = tuple(sorted(holders))
    return plan.model_copy(update=update) if update else plan
