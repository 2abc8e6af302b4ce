"""Writes that name their entity by a key member other than the identity, under a literal
sub-path of the collection (issue 16: ``/variables/name/{name}``, ``/users/by-email/{email}``,
``/posts/slug/{slug}``), decided by the ``write-item-keys`` table from the evidence: an item read at
the same path answering the entity that holds the path value at that member, and the write's own
calls each naming exactly one entity held before it by that member.

Such a write is an item write (``Target("item", type, key=member)``), addressed
``Address(by="path", member=member)``: serving writes the one entity holding the call's path value
at the member, and refuses when none or several do. The entity each recorded call named is
resolved here once, from what the reads before it showed (``Timeline.key_targets``), for the plan
and the gate, which keep their targets by identity.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any
from urllib.parse import unquote

from capenv.interpreter.bundle.models import EntityType
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.values import locate
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.manifest.models import Tool
from capenv.interpreter.predicates.write_item_keys import WriteItemKeyContext
from capenv.interpreter.rules_engine import evaluate

from .classify import Target

TABLE = "write-item-keys"


def _parts(template: str) -> list[str]:
    return split_path(template)


def _is_param(part: str) -> bool:
    return part.startswith("{") and part.endswith("}")


def _under_collection(parts: list[str], entity_type: EntityType) -> bool:
    """The path is the type's collection path, one or more literal segments, then one parameter."""
    collection = _parts(entity_type.collection_template)
    if len(parts) < len(collection) + 2 or not _is_param(parts[-1]):
        return False
    if any(_is_param(p) for p in parts[len(collection):-1]):
        return False
    return all(a == b or (_is_param(a) and _is_param(b)) for a, b in zip(parts, collection))


def keyed_target(tool: Tool, target: Target, ctx: Any) -> Target:
    """The tool's target, an item one addressed by a key member when the table proves it; the
    tool's own decision memoised on the context (two builders ask). At an item path that also takes
    another member (``EitherKey``), the entity each call named is resolved the same way."""
    memo = ctx.__dict__.setdefault("keyed_targets", {})
    if tool.name not in memo:
        if target.relation == "other":
            memo[tool.name] = _decide(tool, target, ctx)
        else:
            if target.relation == "item" and target.type is not None and target.type.either_key is not None:
                _resolve_either(tool, target.type, ctx)
            if target.relation == "item" and target.type is not None and target.type.address is not None:
                _resolve_addresses(tool, target.type, ctx)
            memo[tool.name] = target
    return memo[tool.name]


def _resolve_addresses(tool: Tool, entity_type: EntityType, ctx: Any) -> None:
    """Where the identity is the entity's own address (``IdAddress``), each call named the entity
    whose address its path's value ends: the collection's path, the value, the address's spelling."""
    depth = len(split_path(entity_type.collection_template))
    for ordinal in tool.record_ordinals:
        parts = split_path(ctx.records[ordinal].path)
        if len(parts) != depth + 1 or ordinal in ctx.timeline.key_targets:
            continue
        collection = "/" + "/".join(parts[:depth])
        ctx.timeline.key_targets[ordinal] = entity_type.address.identity_of(collection, unquote(parts[-1]))


def _resolve_either(tool: Tool, entity_type: EntityType, ctx: Any) -> None:
    """At an item path taking the identity or another member (``EitherKey``), each successful call
    whose value is not shaped as an identity named the one entity held before it at that member."""
    either = entity_type.either_key
    for ordinal in tool.record_ordinals:
        call = ctx.records[ordinal]
        value = unquote(split_path(call.path)[-1])
        if not call.succeeded or either.names_identity(value):
            continue
        holders = [e for e in ctx.type_entities(entity_type.name, ordinal)
                   if e.get(either.member) is not None and str(e[either.member]) == value]
        if len(holders) == 1 and entity_type.id_field in holders[0]:
            ctx.timeline.key_targets[ordinal] = str(holders[0][entity_type.id_field])


def _decide(tool: Tool, target: Target, ctx: Any) -> Target:
    parts = _parts(tool.template)
    for entity_type in ctx.view.types:
        if not entity_type.item_template or not _under_collection(parts, entity_type):
            continue
        context, keys = _context(tool, parts, entity_type, ctx)
        decision = evaluate(ctx.ruleset, TABLE, context, subject=f"{tool.name} key of {entity_type.name}")
        events = target.events + decision.events
        if decision.yields.get("address") == "key" and context.member is not None:
            ctx.timeline.key_targets.update(keys)
            return Target("item", entity_type, key=context.member, events=events)
        return replace(target, events=events)
    return target


def _context(tool: Tool, parts: list[str], entity_type: EntityType, ctx: Any
             ) -> tuple[WriteItemKeyContext, dict[int, str]]:
    view_tool, member, reads = _keyed_read(parts, entity_type, ctx)
    calls = [ctx.records[o] for o in tool.record_ordinals if ctx.records[o].succeeded]
    if member is None:
        member = _member_of_calls(calls, entity_type, ctx)
    named_one, many, none, identity = 0, [], [], []
    keys: dict[int, str] = {}
    for call in calls:
        value = unquote(split_path(call.path)[-1])
        held = ctx.type_entities(entity_type.name, call.ordinal)
        if any(str(e.get(entity_type.id_field)) == value for e in held) and member != entity_type.id_field:
            identity.append(call.ordinal)
            continue
        holders = [e for e in held if member is not None and e.get(member) is not None and str(e[member]) == value]
        if len(holders) == 1 and entity_type.id_field in holders[0]:
            named_one += 1
            keys[call.ordinal] = str(holders[0][entity_type.id_field])
        elif holders:
            many.append(call.ordinal)
        else:
            none.append(call.ordinal)
    context = WriteItemKeyContext(member=member, id_field=entity_type.id_field, read_view=view_tool, reads=reads,
                                  calls=len(calls), named_one=named_one, named_many=many, named_none=none,
                                  named_identity=identity)
    return context, keys


def _keyed_read(parts: list[str], entity_type: EntityType, ctx: Any) -> tuple[str | None, str | None, int]:
    """The keyed item read tool of the type at the same path template, its key member, and how many
    of its successful reads answered the entity holding the path value at that member."""
    tools = {t.name: t for t in ctx.manifest.tools}
    views = {v.tool: v for v in ctx.view.views}
    for name, member in entity_type.key_fields.items():
        read = tools.get(name)
        view = views.get(name)
        if read is None or view is None or member == entity_type.id_field:
            continue
        theirs = _parts(read.template)
        if len(theirs) != len(parts) or not all(a == b or (_is_param(a) and _is_param(b))
                                                for a, b in zip(parts, theirs)):
            continue
        reads = 0
        for ordinal in read.record_ordinals:
            record = ctx.records[ordinal]
            if not record.succeeded or not record.response.is_json or view.locator is None:
                continue
            entity = locate(record.response.json_value, view.locator)
            if isinstance(entity, dict) and str(entity.get(member)) == unquote(split_path(record.path)[-1]):
                reads += 1
        return name, member, reads
    return None, None, 0


def _member_of_calls(calls: list[Record], entity_type: EntityType, ctx: Any) -> str | None:
    """The one member (not the identity) at which every call's path value names some held entity."""
    common: set[str] | None = None
    for call in calls:
        value = unquote(split_path(call.path)[-1])
        members = {m for e in ctx.type_entities(entity_type.name, call.ordinal) for m, v in e.items()
                   if m != entity_type.id_field and not isinstance(v, (dict, list)) and str(v) == value}
        common = members if common is None else common & members
    return next(iter(common)) if common is not None and len(common) == 1 else None


def call_key(ctx_timeline: Any, record: Record, after: int = 0) -> str:
    """The identity of the entity a key-addressed call named (as the reads before it showed it),
    else its path value decoded (it then names no entity the plan knows)."""
    found = ctx_timeline.key_targets.get(record.ordinal)
    if found is not None:
        return found
    parts = split_path(record.path)
    return unquote(parts[len(parts) - 1 - after])
