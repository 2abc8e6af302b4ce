"""A create tool whose recorded calls answered an entity the state already held (issue 16 item 4):
a get-or-create or an upsert by a key (Prefect's ``POST /api/flows/`` by name, its tag limits by
tag). Such calls are evidence about the tool, not calls to set aside. The first one teaches the
key (``create-keys``): the members it sent that name the held entity, when it answered that entity
unchanged; serving then answers the held entity a call's key names (``CreateKey``), and the gate
proves both branches against the timeline. Any other such call (an upsert, a call naming no held
entity by what it sent) leaves the plan unserved with the reason ``get-or-create``: served as a
plain create, the call would make a duplicate where the application answers the existing entity."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from capenv.interpreter.bundle.models import CreateKey, Locator, ResponseRule
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.create_keys import CreateKeyContext, key_members
from capenv.interpreter.rules_engine import TraceEvent, evaluate
from capenv.interpreter.manifest.models import Tool
from capenv.interpreter.bundle.values import locate, same_spelling

from .context import PlanContext, note
from .link import Link

REASON = "get-or-create"
TABLE = "create-keys"


@dataclass
class HeldAnswer:
    """What a create's calls that answered held entities show: the key learned (or None), the
    reason it stays unserved (or None), and the traces saying why."""

    key: CreateKey | None = None
    unserved: str | None = None
    events: tuple[TraceEvent, ...] = ()


def held_answers(tool: Tool, link: Link, exemplar: Record, calls: list[Record], ctx: PlanContext,
                 accepted: set[str], envelope: str | None) -> HeldAnswer:
    """The first successful call after the exemplar that serving would take (the exemplar's path
    arguments, accepted members only) whose answer names, at the place the exemplar's answer named
    its new entity, an id the initial state or an earlier call of the tool held (and no delete
    removed since): the key it shows, by ``create-keys``. An empty answer when every call made a
    new entity."""
    found = _first_held_answer(tool, link, exemplar, calls, ctx, accepted, envelope)
    if found is None:
        return _conflict_key(tool, link, exemplar, calls, ctx, accepted, envelope)
    call, value, since = found
    id_field = link.type.id_field
    context = _key_context(call, value, link, ctx, accepted, envelope)
    decision = evaluate(ctx.ruleset, TABLE, context, subject=f"{tool.name} record {call.ordinal}")
    events = list(decision.events)
    branch = decision.yields.get("branch") if decision.ok else None
    shown = (f"record {call.ordinal} answered {call.status} with the {link.type.name} whose {id_field!r} is "
             f"{value!r}, which {since} already held")
    if branch == "get":
        members = tuple(key_members(context))
        key = CreateKey(members=members, learned_from=call.ordinal, response=_get_response(call, link.locator))
        events.append(note(tool.name, "key", (
            f"{shown}, named by {', '.join(members)} and unchanged: a call whose {', '.join(members)} names a held "
            f"{link.type.name} gets it (answered {call.status}), any other call creates")))
        return HeldAnswer(key=key, events=tuple(events))
    why = "its answer wrote sent values into it (an upsert, not modelled)" if branch == "upsert" else \
        "the members it sent do not name that entity alone"
    events.append(note(tool.name, REASON, (
        f"{shown}: the tool gets or updates an entity by a key its body names, and {why}; served as a plain create "
        "the call would make a duplicate")))
    return HeldAnswer(unserved=events[-1].reason, events=tuple(events))


def _conflict_key(tool: Tool, link: Link, exemplar: Record, calls: list[Record], ctx: PlanContext,
                  accepted: set[str], envelope: str | None) -> HeldAnswer:
    """The first refused call serving would take whose sent values name one held entity, read by
    ``create-keys``: a conflict makes its members a key serving refuses a second entity by (a create
    naming a held variable's name is answered 409, not made twice)."""
    for call in sorted(calls, key=lambda r: r.ordinal):
        if call.succeeded or call.ordinal <= exemplar.ordinal:
            continue
        body = _body(tool, exemplar, call, accepted, envelope)
        if not body:
            continue
        entities = ctx.type_entities(link.type.name, call.ordinal)
        holders = [[e for e in entities if m in e and e[m] == v] for m, v in body.items()]
        named = {id(found[0]): found[0] for found in holders if len(found) == 1}  # by a value one entity holds
        if len(named) != 1:
            continue
        held = next(iter(named.values()))
        shared = {m: sum(1 for e in entities if e is not held and m in e and e[m] == v) for m, v in body.items()}
        context = CreateKeyContext(sent=body, held=held, answered={}, shared=shared, status=call.status)
        decision = evaluate(ctx.ruleset, TABLE, context, subject=f"{tool.name} record {call.ordinal}")
        if decision.ok and decision.yields.get("branch") == "conflict":
            members = tuple(key_members(context))
            key = CreateKey(members=members, branch="conflict", learned_from=call.ordinal,
                            response=_refusal(call))
            return HeldAnswer(key=key, events=tuple(decision.events) + (note(tool.name, "key", (
                f"record {call.ordinal} answered {call.status} to a create whose {', '.join(members)} a held "
                f"{link.type.name} ({link.type.id_field} {held.get(link.type.id_field)!r}) holds: a call naming a "
                f"held {', '.join(members)} is refused as a conflict, any other call creates")),))
    return HeldAnswer()


def _refusal(call: Record) -> ResponseRule:
    return ResponseRule(status=call.status, content_type=call.header("content-type") or call.response.mime_type,
                        body=call.response.json_value if call.response.is_json else None,
                        is_json=call.response.is_json, text=None if call.response.is_json else call.response.text)


def _first_held_answer(tool: Tool, link: Link, exemplar: Record, calls: list[Record], ctx: PlanContext,
                       accepted: set[str], envelope: str | None) -> tuple[Record, str, str] | None:
    id_field = link.type.id_field
    held = {str(e.id): "the initial state" for c in ctx.view.state.collections if c.type == link.type.name
            for e in c.entities}
    held.setdefault(str(link.id_value), f"record {exemplar.ordinal}")
    deleted = _deleted(ctx)
    for call in sorted(calls, key=lambda r: r.ordinal):
        if call.ordinal <= exemplar.ordinal or not call.succeeded or not call.response.is_json:
            continue
        value = _answered_id(call.response.json_value, link.locator, id_field)
        if value is None:
            continue
        since = _ordinal(held[value]) if value in held else None
        still_held = since is not None and not any(since < d < call.ordinal for d in deleted.get(value, ()))
        if call.status == 201 and not still_held:  # a 201 made what it answers (an id reused after a delete)
            held[value] = f"record {call.ordinal}"
            continue
        if still_held and _body(tool, exemplar, call, accepted, envelope) is not None:
            return call, value, held[value]  # a 201 too: the application names the entity it held, made none
        held[value] = f"record {call.ordinal}"
    return None


def _key_context(call: Record, value: str, link: Link, ctx: PlanContext, accepted: set[str],
                 envelope: str | None) -> CreateKeyContext:
    """The call's accepted members, the entity as held just before it and as answered, and how
    many other held entities of the type share each sent value."""
    sent = {m: v for m, v in (_unwrap(call, envelope) or {}).items() if m in accepted}
    seen = ctx.timeline.before(link.type.name, value, call.ordinal, via=("item", "list", "response"))
    held = seen.value if seen is not None and seen.value is not None else _initial(ctx, link.type.name, value)
    answered = locate(call.response.json_value, link.locator or Locator(kind="root"))
    others = [e for e in ctx.type_entities(link.type.name, call.ordinal)
              if str(e.get(link.type.id_field)) != value]
    shared = {m: sum(1 for e in others if m in e and e[m] == v) for m, v in sent.items()}
    return CreateKeyContext(sent=sent, held=held or {}, answered=answered if isinstance(answered, dict) else {},
                            shared=shared)


def _initial(ctx: PlanContext, type_name: str, key: str) -> dict[str, Any] | None:
    for collection in ctx.view.state.collections:
        if collection.type == type_name:
            for entity in collection.entities:
                if str(entity.id) == key:
                    return entity.value
    return None


def _get_response(call: Record, locator: Locator | None) -> ResponseRule:
    """The held-key answer: the call's status and content type, the entity rendered where it sat."""
    return ResponseRule(status=call.status, content_type=call.header("content-type") or call.response.mime_type,
                        headers=call.response_headers, body=call.response.json_value, is_json=True,
                        carries_entity=True, locator=locator or Locator(kind="root"))


def _body(tool: Tool, exemplar: Record, call: Record, accepted: set[str], envelope: str | None) -> dict | None:
    """The call's body when serving would take the call: the exemplar's path arguments (a linked
    create is tied to them) and a body of accepted members only; a call it refuses can make no
    duplicate."""
    mine, theirs = tool.match(exemplar.path) or {}, tool.match(call.path) or {}
    if any(not same_spelling(mine.get(name, ""), value) for name, value in theirs.items()):
        return None
    body = _unwrap(call, envelope)
    return body if isinstance(body, dict) and set(body) <= accepted else None


def _unwrap(call: Record, envelope: str | None) -> Any:
    body = call.request.json_value if call.request.is_json else None
    if envelope is not None and isinstance(body, dict):
        body = body.get(envelope)
        body = body[0] if isinstance(body, list) and len(body) == 1 else body
    return body


def _deleted(ctx: PlanContext) -> dict[str, list[int]]:
    """Per id (a path's last segment, decoded), the successful DELETE calls that named it."""
    from urllib.parse import unquote

    from capenv.interpreter.manifest.models import split_path

    found: dict[str, list[int]] = {}
    for record in ctx.records.values():
        if record.method == "DELETE" and record.succeeded and split_path(record.path):
            found.setdefault(unquote(split_path(record.path)[-1]), []).append(record.ordinal)
    return found


def _ordinal(where: str) -> int:
    """The record a held id was answered by (0: the initial state)."""
    return int(where.split()[-1]) if where.startswith("record ") else 0


def _answered_id(body: Any, locator: Locator | None, id_field: str) -> str | None:
    located = locate(body, locator or Locator(kind="root"))
    if isinstance(located, dict) and id_field in located:
        return str(located[id_field])
    if isinstance(body, dict) and id_field in body:
        return str(body[id_field])
    return None
