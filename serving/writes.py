"""Execute a write plan against a state: the one path both the gate and serving take.

``execute`` checks the call (query, envelope, members, JSON kinds, limits), computes every
value with the plan's field rules (the serving ops), and only then edits the state, so a
refused call leaves it unchanged. In the gate, ``recorded`` supplies the values the capture
recorded for generated fields (identities, clocks, sequences, tokens), as the spec requires.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple
from urllib.parse import unquote

from capenv.interpreter.bundle.jsonvalue import json_kind
from capenv.interpreter.bundle.models import EntityType, Locator, Recording, ReplayTable, ViewResult, WritePlan
from capenv.interpreter.manifest.models import split_path

from .insert import insert_index
from .ops.context import OpContext, OpRefusal
from .ops.apply import apply_field_rules
from .ops.sequences import SequenceState
from .render import place, project, same_spelling
from .state_edits import ensure_collection, insert_entity, largest_held, remove_entity, replace_entity, set_document
from .state_index import HeldCollection, StateIndex, key_of

GENERATED_OPS = frozenset({"identity", "clock", "nested-clock", "sequence", "unique", "renewed", "held-clock"})
ONCE_PER_CALL_OPS = frozenset({"unique", "renewed"})
"""Ops one call draws once: a bulk update with such a rule writes one entity per call
(write-effects "Bulk and action calls")."""


class WriteRefusal(Exception):
    """A call the plan cannot serve; the message says what would be accepted."""

    def __init__(self, message: str, *, kind: str = "invalid", missing: Recording | None = None,
                 where: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message, self.kind, self.missing = message, kind, missing
        self.where = where or {}
        """For a missing entity: the collection and id the call named (provenance of the answer)."""


@dataclass
class WriteCall:
    path: str
    query: tuple[tuple[str, str], ...] = ()
    body: Any = None


@dataclass
class WriteResult:
    status: int
    content_type: str | None
    headers: tuple[tuple[str, str], ...]
    body: Any
    is_json: bool
    text: str | None
    provenance: dict[str, Any]
    changed: list[str] = field(default_factory=list)


@dataclass
class WriteEnv:
    """What executing plans needs from the bundle."""

    view: ViewResult
    types: dict[str, EntityType] = field(init=False)
    missing_by_type: dict[str, Recording] = field(init=False)
    tool_absences: dict[str, Recording] = field(default_factory=dict)
    """Each tool's latest recorded 400/404/410, which answers before the type's item view's
    (write-effects "Refusals": "When the tool, or else an item view of the type, recorded …")."""

    def __post_init__(self) -> None:
        self.types = {t.name: t for t in self.view.types}
        self.missing_by_type = {}
        for read in self.view.views:
            if read.kind == "item" and read.type and read.missing is not None:
                self.missing_by_type[read.type] = read.missing


ABSENCE_STATUSES = (400, 404, 410)


def latest_absences(replay: ReplayTable) -> dict[str, Recording]:
    """Each tool's latest recorded 400, 404 or 410 response: what its update or delete of a
    missing entity answers with, before an item view's."""
    found: dict[str, Recording] = {}
    for tool, calls in replay.tools.items():
        absences = sorted((c for c in calls if c.response.status in ABSENCE_STATUSES), key=lambda c: c.ordinal)
        if absences:
            found[tool] = absences[-1].response
    return found


def _check_query(plan: WritePlan, call: WriteCall) -> None:
    recorded = dict(plan.query)
    for name, value in call.query:
        if name not in recorded:
            raise WriteRefusal(f"query parameter {name!r} is not accepted; the recording sent "
                               f"{dict(plan.query) or 'no query'}")
        if value != recorded[name]:
            raise WriteRefusal(f"query parameter {name!r} must be {recorded[name]!r}, as recorded")


def _unwrap(plan: WritePlan, body: Any) -> dict[str, Any]:
    if body is None:
        body = {}
    if plan.body_envelope and plan.body_envelope_kind == "object":
        if not (isinstance(body, dict) and list(body) == [plan.body_envelope]
                and isinstance(body[plan.body_envelope], dict)):
            raise WriteRefusal(f"the body must be {{{plan.body_envelope!r}: {{…the object…}}}}")
        body = body[plan.body_envelope]
    elif plan.body_envelope:
        if not (isinstance(body, dict) and list(body) == [plan.body_envelope] and isinstance(body[plan.body_envelope], list)
                and len(body[plan.body_envelope]) == 1 and isinstance(body[plan.body_envelope][0], dict)):
            raise WriteRefusal(f"the body must be {{{plan.body_envelope!r}: [ {{…one object…}} ]}}")
        body = body[plan.body_envelope][0]
    if not isinstance(body, dict):
        raise WriteRefusal(f"the body must be a JSON object, not {json_kind(body)}")
    return body


def _kind_ok(expected: str | None, value: Any) -> bool:
    if expected is None:
        return True
    actual = json_kind(value)
    return actual == expected or (expected == "number" and actual == "integer")


_INT_RANGE = (-(2**63), 2**64 - 1)
"""The integers data/get writes as numbers (larger ones reach here only as exact ``JsonNumber``\\s)."""


class _BodyWalk(NamedTuple):
    exact: bool  # no float anywhere (``is_exact``)
    unwritable: str | None  # the first thing data/get could not write back, as ``_unwritable`` found it
    depth: int  # nesting depth (``jsonvalue.depth``)


def _walk_body(value: Any) -> _BodyWalk:
    """The three checks a body gets, in one walk instead of three (a served write's hot path):
    exactness, what data/get could not write back (a ``__proto__`` member, an integer past 64
    bits, a string with a lone surrogate; the first found in the order ``_unwritable`` looks)
    and nesting depth."""
    exact, unwritable, deepest = True, None, 0
    low, high = _INT_RANGE
    stack: list[tuple[Any, int]] = [(value, 0)]
    pop, push = stack.pop, stack.append
    while stack:
        item, level = pop()
        kind = type(item)
        if kind is str:
            if unwritable is None and not item.isascii():
                try:
                    item.encode("utf-8")
                except UnicodeEncodeError:
                    unwritable = _LONE_SURROGATE
        elif kind is int:
            if unwritable is None and not low <= item <= high:
                unwritable = _PAST_64_BITS
        elif isinstance(item, dict):
            level += 1
            if unwritable is None and "__proto__" in item:
                unwritable = _PROTO
            for key in item:
                push((key, level))
            for member in item.values():
                push((member, level))
        elif isinstance(item, list):
            level += 1
            for member in item:
                push((member, level))
        elif isinstance(item, float):
            exact = False
        elif isinstance(item, str):
            if unwritable is None:
                try:
                    item.encode("utf-8")
                except UnicodeEncodeError:
                    unwritable = _LONE_SURROGATE
        elif isinstance(item, int) and not isinstance(item, bool) and unwritable is None and not low <= item <= high:
            unwritable = _PAST_64_BITS
        if level > deepest:
            deepest = level
    return _BodyWalk(exact, unwritable, deepest)


_PROTO = "a __proto__ member is not accepted anywhere in the body (data/add refuses it)"
_PAST_64_BITS = "an integer in the body is past 64 bits, which data/get cannot write exactly"
_LONE_SURROGATE = "a string in the body holds a lone surrogate, which is not UTF-8 and data/get cannot write"


def check_members(plan: WritePlan, body: dict[str, Any], max_nesting: int) -> None:
    """Refuse a body the plan does not accept, naming what it does accept."""
    rules = {m.member: m for m in plan.members}
    walk = _walk_body(body)
    if not walk.exact:
        raise WriteRefusal("a number in the body is not exact (write it as an integer or exact decimal)")
    if walk.unwritable:
        raise WriteRefusal(walk.unwritable)
    if walk.depth > max_nesting:
        raise WriteRefusal(f"the body nests deeper than {max_nesting} levels")
    for name, value in body.items():
        rule = rules.get(name)
        if rule is None or rule.admission == "not-accepted":
            raise WriteRefusal(f"member {name!r} is not accepted; accepted members: "
                               f"{', '.join(_accepted(rules)) or 'none'}")
        if not _kind_ok(rule.kind, value):
            raise WriteRefusal(f"member {name!r} must be a JSON {rule.kind}, not {json_kind(value)}")
        if rule.admission == "recorded-only" and value != rule.recorded_value:
            from capenv.interpreter.bundle.jsonvalue import dumps

            raise WriteRefusal(f"member {name!r} is accepted only with its recorded value "
                               f"{dumps(rule.recorded_value).decode()}")
    missing = [m for m, r in rules.items() if r.required and m not in body]
    if missing:
        raise WriteRefusal(f"missing required member(s): {', '.join(missing)}")
    if plan.min_members and sum(1 for name in body if name in rules) < plan.min_members:
        raise WriteRefusal(f"send at least {plan.min_members} of: {', '.join(_accepted(rules))}")


def _accepted(rules: dict[str, Any]) -> list[str]:
    """The members a refusal names as accepted (built only for a refusal)."""
    return sorted(m for m, r in rules.items() if r.admission != "not-accepted")


def _spelled_by_call(plan: WritePlan, entity_type: EntityType, call_path: str) -> str:
    """The tied collection as the call spells it, so a create in a collection held under more
    than one spelling goes to the one the call spells verbatim (write-effects "Serving"): its
    segments as the call's path sends them where that path begins with it, else each path
    argument as the call sends the tool's argument of that name (the one the exemplar's path
    values fill it from) when the two name the same value."""
    collection = plan.collection or ""
    theirs, mine = split_path(collection), split_path(call_path)
    if theirs and len(mine) >= len(theirs) and all(same_spelling(a, b) for a, b in zip(mine, theirs)):
        return "/" + "/".join(mine[:len(theirs)])
    sent = _args(plan.template, call_path)
    spelled = [sent[piece[1:-1]] if piece.startswith("{") and piece[1:-1] in sent
               and same_spelling(sent[piece[1:-1]], part) else part
               for part, piece in zip(theirs, split_path(entity_type.collection_template))]
    return "/" + "/".join(spelled) if len(spelled) == len(theirs) and theirs else collection


def _collection_for_create(plan: WritePlan, env: WriteEnv, call: WriteCall, state: StateIndex,
                           args: dict[str, str]) -> tuple[str, dict[str, str]]:
    """The collection a create goes to: the spelling the call names among those the state holds
    or knows (``StateIndex.spelling_of``), else the tied one as recorded."""
    entity_type = env.types[plan.type]
    for name, value in args.items():
        recorded = plan.exemplar_args.get(name)
        if recorded is not None and not same_spelling(value, recorded):
            raise WriteRefusal(f"this create is tied to {plan.collection}: path parameter {name!r} must be "
                               f"{unquote(recorded)!r}")
    spelling = state.spelling_of(_spelled_by_call(plan, entity_type, call.path), entity_type.name)
    path = spelling or plan.collection or entity_type.collection_template
    parts = split_path(path)
    collection_args = {t.strip("{}"): unquote(p) for p, t in zip(parts, split_path(entity_type.collection_template))
                       if t.startswith("{")}
    return path, collection_args


def _find_item(plan: WritePlan, env: WriteEnv, call: WriteCall, state: StateIndex
               ) -> tuple[HeldCollection, str, dict[str, Any]]:
    entity_type = env.types[plan.type]
    parts = split_path(call.path)
    if plan.address is not None and plan.address.by == "action":
        parts = parts[:-1]
    depth_ = len(split_path(entity_type.collection_template))
    collection = state.find_collection("/" + "/".join(parts[:depth_]), entity_type.name)
    found = state.find_entity(collection, parts[-1], entity_type.id_field, entity_type.id_field) if collection else None
    if collection is None or found is None:
        raise WriteRefusal(f"no {entity_type.name} entity {unquote(parts[-1])!r} is held",
                           kind="missing", missing=env.tool_absences.get(plan.tool)
                           or env.missing_by_type.get(entity_type.name),
                           where={"collection": collection.path if collection else "/" + "/".join(parts[:depth_]),
                                  "id": unquote(parts[-1])})
    return collection, found[0], found[1]


def _context(plan: WritePlan, env: WriteEnv, state: StateIndex, body: dict[str, Any], instant: datetime,
             counter: int, sequences: SequenceState, collection_path: str | None, path_args: dict[str, str],
             before: dict[str, Any] | None) -> tuple[OpContext, Any]:
    type_name = plan.type or ""

    def type_values(field_name: str) -> set[Any]:
        values: set[Any] = set()
        for held in state.collections_of(type_name):
            for entity in held.entities.values():
                value = entity.get(field_name)
                if isinstance(value, (str, int)):
                    values.add(value)
                    if isinstance(value, str):
                        values.add(value.lower())
        return values

    def scope_values(scope: Any) -> list[Any]:
        """The scope's largest sequence value (each collection caches its own)."""
        found = [largest_held(c, scope.field) for c in state.collections_of(scope.type_name)
                 if scope.collection is None or c.path == scope.collection]
        return [value for value in found if value is not None]

    draft = sequences.draft(scope_values)
    ctx = OpContext(body=body, instant=instant, evidence_id=state.evidence_id, tool=plan.tool, write_counter=counter,
                    path_args=path_args, type_name=type_name, collection=collection_path, entity_before=before,
                    type_values=type_values, sequences=draft)
    return ctx, draft


def _values(plan: WritePlan, ctx: OpContext, recorded: dict[str, Any] | None) -> dict[str, Any]:
    if recorded is None:
        return apply_field_rules(plan.fields, ctx)
    rules = [r for r in plan.fields if not (r.op in GENERATED_OPS and r.field in recorded)]
    values = apply_field_rules(rules, ctx) if rules else {}
    for rule in plan.fields:
        if rule.op in GENERATED_OPS and rule.field in recorded:
            values[rule.field] = copy.deepcopy(recorded[rule.field])
    return {r.field: values[r.field] for r in plan.fields if r.field in values}


def _response(plan: WritePlan, entity: dict[str, Any] | None, shown: tuple[str, ...]) -> tuple[Any, bool, str | None]:
    response = plan.response
    if response is None:
        return None, True, None
    if response.carries_entity and entity is not None:
        return place(response.body, response.locator or Locator(kind="root"), project(entity, ())), True, None
    return copy.deepcopy(response.body), response.is_json, response.text


def _covers(plan: WritePlan, entity: dict[str, Any]) -> None:
    """A rendered response missing a field the recorded response carried is refused."""
    response = plan.response
    if response is None or not response.carries_entity or not response.locator:
        return
    from .render import locate

    recorded = locate(response.body, response.locator)
    if isinstance(recorded, dict):
        lacking = [name for name in recorded if name not in entity]
        if lacking:
            raise WriteRefusal(f"the answer would lack recorded field(s) {', '.join(lacking)}; "
                               "the entity does not hold them")


def _grow(limit_check: Any, before: Any, after: Any) -> None:
    if limit_check is not None:
        from capenv.interpreter.bundle.jsonvalue import dumps

        limit_check(len(dumps(after)) - (len(dumps(before)) if before is not None else 0))


def execute(plan: WritePlan, env: WriteEnv, call: WriteCall, state: StateIndex, *, instant: datetime, counter: int,
            sequences: SequenceState, recorded: dict[str, Any] | None = None, limit_check: Any = None) -> WriteResult:
    """Serve one call of ``plan`` on ``state`` (edited only when the call is accepted).

    ``limit_check(growth_in_bytes)`` may raise a ``WriteRefusal`` before anything is edited."""
    _check_query(plan, call)
    budgets = env.view.budgets
    if plan.effect == "delete":
        collection, key, entity = _find_item(plan, env, call, state)
        body, is_json, text = _response(plan, entity, ())
        remove_entity(collection, key)
        return _result(plan, body, is_json, text, {"source": "state", "view": "delete", "type": plan.type,
                                                  "collection": collection.path, "id": collection_id(entity, env, plan)},
                       [key])
    if plan.effect == "bulk":
        walk = _walk_body(call.body)
        if not walk.exact or walk.depth > budgets.max_nesting:
            raise WriteRefusal("the body holds an inexact number or nests too deep")
        if walk.unwritable:
            raise WriteRefusal(walk.unwritable)
        return _bulk(plan, env, call, state, call.body, instant, counter, sequences, limit_check)
    if plan.effect == "create":  # a call in another collection is refused for that first
        _collection_for_create(plan, env, call, state, _args(plan.template, call.path))
    body = _unwrap(plan, call.body)
    check_members(plan, body, budgets.max_nesting)
    if plan.effect == "document":
        return _document(plan, call, body, state, limit_check)
    if plan.effect == "create":
        return _create(plan, env, call, state, body, instant, counter, sequences, recorded, limit_check)
    if plan.effect in ("update", "action"):
        collection, key, entity = _find_item(plan, env, call, state)
        ctx, draft = _context(plan, env, state, body, instant, counter, sequences, collection.path,
                              dict(collection.args), entity)
        values = _values(plan, ctx, recorded)
        updated = dict(entity)
        updated.update(values)
        if recorded is None:  # serving answers from the copy; the gate judges that by incomplete-entities
            _covers(plan, updated)
        _grow(limit_check, entity, updated)
        draft.commit()
        replace_entity(collection, key, updated)
        response, is_json, text = _response(plan, updated, ())
        return _result(plan, response, is_json, text, {"source": "state", "view": "update", "type": plan.type,
                                                      "collection": collection.path,
                                                      "id": collection.ids.get(key, key)}, list(values))
    raise WriteRefusal(f"{plan.effect} writes are not served")


def bulk_items(plan: WritePlan, entity_type: EntityType, body: Any) -> list[Any]:
    """The ids or elements the body names under the plan's address, in body order; refused when
    the body does not name them as the recorded calls did."""
    address = plan.address
    if address.member:
        items = body.get(address.member) if isinstance(body, dict) else None
    else:
        items = body
    if not isinstance(items, list) or not items:
        where = f'member "{address.member}"' if address.member else "the body"
        raise WriteRefusal(f"{where} must be a non-empty array of {address.by} ({address.kind or 'objects'})")
    if address.by == "ids" and not all(json_kind(i) == address.kind for i in items):
        raise WriteRefusal(f"every id must be a JSON {address.kind}, as recorded")
    if address.by == "elements" and not all(isinstance(i, dict) and entity_type.id_field in i for i in items):
        raise WriteRefusal(f"every element must be an object holding {entity_type.id_field!r}")
    return items


def bulk_key(plan: WritePlan, entity_type: EntityType, item: Any) -> Any:
    """The raw id an id or element names."""
    return item[entity_type.id_field] if plan.address.by == "elements" else item


def bulk_collection(env: WriteEnv, plan: WritePlan, path: str, state: StateIndex) -> HeldCollection | None:
    """The held collection a bulk call's path names: its type's collection, or the one a path
    named by the type's singular or plural (/messages for /message) writes."""
    entity_type = env.types[plan.type]
    template = split_path(entity_type.collection_template)
    parts = split_path(path)
    collection = state.find_collection("/" + "/".join(parts[:len(template)]), entity_type.name)
    if collection is None and len(parts) >= len(template):
        inflected = parts[:len(template) - 1] + [template[-1]]
        collection = state.find_collection("/" + "/".join(inflected), entity_type.name)
    return collection


def _check_bulk_members(plan: WritePlan, entity_type: EntityType, body: Any, items: list[Any],
                        max_nesting: int) -> None:
    """A body member, or an element's, that the recorded calls did not send is refused."""
    if isinstance(body, dict):
        check_members(plan, body, max_nesting)
    if plan.address.by == "elements":
        accepted = {entity_type.id_field} | {r.params.get("member", r.field) for r in plan.fields}
        for item in items:
            extra = sorted(set(item) - accepted)
            if extra:
                raise WriteRefusal(f"element member(s) {', '.join(extra)} are not accepted; an element accepts: "
                                   f"{', '.join(sorted(accepted))}")


def _bulk(plan: WritePlan, env: WriteEnv, call: WriteCall, state: StateIndex, body: Any, instant: datetime,
          counter: int, sequences: SequenceState, limit_check: Any) -> WriteResult:
    """Every named entity gets the effect as an item call would, in one step: a call naming an
    entity the state does not hold changes none of them. The answer's provenance names every
    entity written, once each in body order (``ids``), ``id`` the first."""
    entity_type = env.types[plan.type]
    items = bulk_items(plan, entity_type, body)
    _check_bulk_members(plan, entity_type, body, items, env.view.budgets.max_nesting)
    collection = bulk_collection(env, plan, call.path, state)
    targets: list[tuple[str, Any]] = []
    for item in items:
        raw = bulk_key(plan, entity_type, item)
        found = state.find_entity(collection, str(raw), entity_type.id_field, entity_type.id_field) if collection else None
        if found is None:
            raise WriteRefusal(f"no {entity_type.name} entity {raw!r} is held; the call changes none of them",
                               kind="missing")
        targets.append((found[0], item))
    keys = list(dict.fromkeys(key for key, _ in targets))  # an entity named twice is written once, in place
    drawn = sorted({r.field for r in plan.fields if r.op in ONCE_PER_CALL_OPS})
    if plan.bulk_effect != "delete" and drawn and len(keys) > 1:
        raise WriteRefusal(f"this bulk update writes one entity per call, since one call draws its unique or "
                           f"renewed value(s) ({', '.join(drawn)}) once; the call names {len(keys)} entities")
    ids = [collection.ids.get(key, key) for key in keys]
    written = {key: dict(collection.entities[key]) for key in keys}
    if plan.bulk_effect != "delete":
        drafts = []
        for key, item in targets:  # an entity named twice takes each of its elements in turn
            member_body = item if plan.address.by == "elements" else (
                {k: v for k, v in body.items() if k != plan.address.member} if isinstance(body, dict) else {})
            ctx, draft = _context(plan, env, state, member_body, instant, counter, sequences, collection.path,
                                  dict(collection.args), written[key])
            written[key] = {**written[key], **_values(plan, ctx, None)}
            drafts.append(draft)
        # one step: the state must hold every entity's growth together
        _grow(limit_check, [collection.entities[key] for key in keys], [written[key] for key in keys])
        for draft in drafts:
            draft.commit()
    for key in keys:
        if plan.bulk_effect == "delete":
            remove_entity(collection, key)
        else:
            replace_entity(collection, key, written[key])
    response, is_json, text = _bulk_answer(plan, entity_type, [written[key] for key in keys])
    return _result(plan, response, is_json, text, {"source": "state", "view": plan.bulk_effect or "update",
                                                  "type": plan.type, "collection": collection.path,
                                                  "id": ids[0], "ids": ids}, keys)


def _bulk_answer(plan: WritePlan, entity_type: EntityType, entities: list[dict[str, Any]]
                 ) -> tuple[Any, bool, str | None]:
    """The recorded answer; an answer with one element per id shows each written entity as its
    first element showed the first: that element's members, the entity's values where it holds them."""
    recorded = plan.response.body if plan.response is not None else None
    if not (isinstance(recorded, list) and recorded and isinstance(recorded[0], dict)):
        return _response(plan, None, ())
    first = recorded[0]
    return [{name: copy.deepcopy(entity.get(name, value)) for name, value in first.items()}
            for entity in entities], True, None


def collection_id(entity: dict[str, Any], env: WriteEnv, plan: WritePlan) -> Any:
    return entity.get(env.types[plan.type].id_field) if plan.type in env.types else None


def _create(plan: WritePlan, env: WriteEnv, call: WriteCall, state: StateIndex, body: dict[str, Any],
            instant: datetime, counter: int, sequences: SequenceState, recorded: dict[str, Any] | None,
            limit_check: Any = None) -> WriteResult:
    entity_type = env.types[plan.type]
    tool_args = _args(plan.template, call.path)
    path, collection_args = _collection_for_create(plan, env, call, state, tool_args)
    decoded = {name: unquote(value) for name, value in plan.exemplar_args.items()} | collection_args
    ctx, draft = _context(plan, env, state, body, instant, counter, sequences, path, decoded, None)
    entity = _values(plan, ctx, recorded)
    if entity_type.id_field not in entity:
        raise WriteRefusal(f"the plan gives no value to the identity field {entity_type.id_field!r}")
    held = state.find_collection(path, entity_type.name)
    if held is not None and key_of(entity[entity_type.id_field]) in held.entities:
        raise WriteRefusal(f"a {entity_type.name} entity {entity[entity_type.id_field]!r} is already held",
                           kind="conflict")
    if recorded is None:
        _covers(plan, entity)
    _grow(limit_check, None, entity)
    collection = ensure_collection(state, path, entity_type.name, collection_args)
    index = insert_index(collection.ordered(), entity, plan.insert) if plan.insert else len(collection.order)
    draft.commit()
    key = insert_entity(collection, entity[entity_type.id_field], entity, index)
    response, is_json, text = _response(plan, entity, ())
    return _result(plan, response, is_json, text, {"source": "state", "view": "create", "type": plan.type,
                                                  "collection": collection.path, "id": entity[entity_type.id_field]},
                   [key])


def _args(template: str, path: str) -> dict[str, str]:
    args = {}
    for part, piece in zip(split_path(path), split_path(template)):
        if piece.startswith("{") and piece.endswith("}"):
            args[piece[1:-1]] = part
    return args


def _same_path(a: str, b: str) -> bool:
    """Two paths name the same thing: segment by segment, verbatim or either spelling once decoded."""
    mine, theirs = split_path(a), split_path(b)
    return len(mine) == len(theirs) and all(same_spelling(x, y) for x, y in zip(mine, theirs))


def _document(plan: WritePlan, call: WriteCall, body: dict[str, Any], state: StateIndex,
              limit_check: Any = None) -> WriteResult:
    """Merge the body into the held document, served only at the path the state holds it at
    (write-effects "Documents": each segment verbatim or either spelling once percent-decoded);
    the gate, which takes this path too, counts a recorded write at another path as unmodelled."""
    path = plan.document_path or ""
    if path not in state.documents:
        raise WriteRefusal(f"no document is held at {path}", kind="missing")
    if not _same_path(call.path, path):
        raise WriteRefusal(f"this document is written only at {path}, the path the state holds it at; "
                           f"the call names {call.path}")
    document = copy.deepcopy(state.documents[path])
    target = document
    pointer = [p for p in (plan.document_pointer or "").split("/") if p]
    for part in pointer:
        target = target.get(part) if isinstance(target, dict) else None
    if not isinstance(target, dict):
        raise WriteRefusal(f"the document at {path} holds no object at {plan.document_pointer!r}")
    for name, value in body.items():
        if name in target and json_kind(target[name]) != json_kind(value) and target[name] is not None:
            raise WriteRefusal(f"member {name!r} must be a JSON {json_kind(target[name])}, as the document holds it")
    if plan.replace:
        target.clear()
    target.update(copy.deepcopy(body))
    _grow(limit_check, state.documents[path], document)
    set_document(state, path, document)
    response, is_json, text = _response(plan, target if plan.response and plan.response.carries_entity else None, ())
    return _result(plan, response, is_json, text, {"source": "state", "view": "document-write", "path": path},
                   list(body))


def _result(plan: WritePlan, body: Any, is_json: bool, text: str | None, provenance: dict[str, Any],
            changed: list[str]) -> WriteResult:
    response = plan.response
    return WriteResult(response.status if response else 200, response.content_type if response else None,
                       response.headers if response else (), body, is_json, text, provenance, changed)
