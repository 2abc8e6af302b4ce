"""Build one write plan per state-changing tool, less the POST tools that only read.

Each plan: classification (``write-effects``), exemplar and body admission, the written
entity's observation, then the field and member explanations (creates: ``create_fields`` /
``create_members``; updates: ``update_changes`` / ``update_members``), the insert rule, the
response. The gate (``interpreter/gate``) then gives each plan its verdict.
"""

from __future__ import annotations

import bisect

from typing import Any
from urllib.parse import unquote

from capenv.interpreter.bundle.jsonvalue import json_kind
from capenv.interpreter.bundle.models import (
    Address, EntityType, Locator, MemberRule, ResponseRule, ViewResult, WritePlan,
)
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.manifest.models import Manifest, Tool, split_path
from capenv.interpreter.predicates.names import MemberNameContext
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate
from capenv.interpreter.view.extract import collection_path
from capenv.interpreter.view.window import is_write

from .classify import classify, target_of
from .exemplar import admit_body, exemplar_of
from .insert import insert_rule
from .link import _located, link_create, names_id_alone, returned_ids
from .newly_listed import newly_listed
from .timeline import Timeline, build_timeline

IDENTITY_MEMBERS = "manifest-identity-members"
DOCUMENT_MEMBERS = "document-members"


class PlanContext:
    """What every plan of one build reads: records, view, timeline, the write calls."""

    def __init__(self, manifest: Manifest, view: ViewResult, records: dict[int, Record], ruleset: RuleSet) -> None:
        self.manifest, self.view, self.records, self.ruleset = manifest, view, records, ruleset
        self.read_only = {p.tool for p in view.read_only_posts}
        self.tool_of = {o: t.name for t in manifest.tools for o in t.record_ordinals}
        self.timeline: Timeline = build_timeline(view, manifest, records)
        self.writes = [r for o, r in sorted(records.items()) if is_write(r, self.tool_of, self.read_only)]
        self.write_ordinals = [w.ordinal for w in self.writes]
        self.document_paths = {d.path for d in view.state.documents} | {
            line.path for v in view.views if v.kind == "document" for line in v.documents}
        self.budgets = view.budgets
        self.min_id_length = int(ruleset.setting("plans", "min_linked_id_length"))
        self._identity: dict[str, bool] = {}
        self.envelopes: dict[str, Any] = {}
        self.unanswered: dict[tuple[str, str], list[Any]] | None = None
        """Update and action calls answered without their entity, by entity (``held_before``)."""

    def envelope_judge(self, tool: str, exemplar: Record, base: dict[str, Any], events: list[TraceEvent]) -> Any:
        """A function (member, value) -> "array" | "object" | None, by the ``body-envelopes`` table,
        judged once on the exemplar (later calls must be wrapped the same way)."""
        from capenv.interpreter.predicates.body_envelopes import BodyEnvelopeContext
        from capenv.interpreter.view.shapes import holds

        answer = exemplar.response.json_value if exemplar.response.is_json else None
        answer_member = None
        if isinstance(answer, dict):
            objects = [name for name, value in answer.items() if isinstance(value, dict)]
            answer_member = objects[0] if len(objects) >= 1 and any(
                "id" in answer[n] for n in objects) else None
            answer_member = next((n for n in objects if isinstance(answer[n], dict) and len(answer[n]) > 1
                                  and any(self.is_identity_member(k) for k in answer[n])), answer_member)
        decided: dict[str, Any] = {}

        def judge(member: str, value: Any) -> str | None:
            if member not in decided:
                context = BodyEnvelopeContext(member=member, holds=holds(value), members=1,
                                              answer_member=answer_member)
                decision = evaluate(self.ruleset, "body-envelopes", context, subject=f"{tool} body.{member}")
                events.extend(decision.events)
                decided[member] = decision.yields.get("envelope") if decision.ok else None
            return decided[member]

        return judge

    def is_identity_member(self, name: str) -> bool:
        if name not in self._identity:
            decision = evaluate(self.ruleset, IDENTITY_MEMBERS, MemberNameContext(name=name), subject=name)
            self._identity[name] = bool(decision.yields.get("identity"))
        return self._identity[name]

    def other_write_between(self, tool: str, first: int, last: int) -> bool:
        """Whether a write of another tool has an ordinal strictly between ``first`` and ``last``."""
        start = bisect.bisect_right(self.write_ordinals, first)
        for ordinal in self.write_ordinals[start:]:
            if ordinal >= last:
                return False
            if self.tool_of.get(ordinal) != tool:
                return True
        return False

    def type_read_before(self, type_name: str, ordinal: int) -> bool:
        start = self.records[ordinal].started_at
        return any(s.value is not None and self.records[s.ordinal].finished_at <= start
                   for (t, _), sightings in self.timeline.by_entity.items() if t == type_name for s in sightings)

    def type_entities(self, type_name: str, before: int) -> list[dict[str, Any]]:
        """The type's entities as last seen before a call (initial state, then sightings)."""
        latest: dict[str, dict[str, Any]] = {}
        for collection in self.view.state.collections:
            if collection.type == type_name:
                for entity in collection.entities:
                    latest[str(entity.id)] = entity.value
        for (t, key), sightings in self.timeline.by_entity.items():
            if t != type_name:
                continue
            seen = self.timeline.before(t, key, before)
            if seen is not None:
                if seen.value is None:
                    latest.pop(key, None)
                else:
                    latest[key] = seen.value
        return list(latest.values())


def build_plans(manifest: Manifest, view: ViewResult, records: dict[int, Record], ruleset: RuleSet) -> list[WritePlan]:
    context = PlanContext(manifest, view, records, ruleset)
    plans = []
    for tool in manifest.tools:
        if not tool.changes_state or tool.name in context.read_only:
            continue
        plans.append(build_plan(tool, context))
    return plans


def build_plan(tool: Tool, ctx: PlanContext) -> WritePlan:
    events: list[TraceEvent] = []
    tool_paths = [ctx.records[o].path for o in tool.record_ordinals]
    target = target_of(tool, ctx.view, ctx.document_paths, tool_paths, ctx.ruleset)
    decision = classify(tool, target, ctx.view, ctx.ruleset)
    events.extend(decision.events)
    effect = str(decision.yields.get("effect", "none"))
    base: dict[str, Any] = {"tool": tool.name, "method": tool.method, "template": tool.template, "effect": effect,
                            "type": target.type.name if target.type else None, "rules_revision": ctx.ruleset.revision}
    calls = [ctx.records[o] for o in tool.record_ordinals]
    exemplar = exemplar_of(calls)
    if effect == "action" and target.type is not None:
        made = _sub_resource_call(calls, target.type, ctx)
        if made is not None:
            events.append(_note(tool.name, "none", made))
            effect = base["effect"] = "none"
    if effect == "none":
        return WritePlan(**base, build_reason="no-effect", traces=tuple(events))
    if exemplar is None:
        return WritePlan(**base, build_reason="no-successful-call", traces=tuple(events))
    base.update(exemplar=exemplar.ordinal, query=exemplar.query, response=_response_rule(exemplar),
                exemplar_args=tool.match(exemplar.path) or {},
                min_members=1 if effect == "update" and tool.method in ("PATCH", "POST") else 0)
    if effect == "bulk" and target.type is not None:  # its body may be an array, a DELETE's included
        return _bulk_plan(tool, target.type, exemplar, calls, ctx, base, events,
                          str(decision.yields.get("bulk_effect") or ("delete" if tool.method == "DELETE" else "update")))
    envelope = ctx.envelope_judge(tool.name, exemplar, base, events)
    verdict = admit_body(exemplar, max_bytes=ctx.budgets.max_body_bytes, unwrap=effect in ("create", "update"),
                         envelope=envelope)
    if verdict.body is None:
        events.append(_note(tool.name, "body-unusable", verdict.problem or ""))
        return WritePlan(**base, build_reason="body-unusable", traces=tuple(events))
    base["body_envelope"] = verdict.envelope
    base["body_envelope_kind"] = verdict.envelope_kind
    ctx.envelopes[tool.name] = envelope
    if effect == "create":
        return _create_plan(tool, exemplar, verdict.body, calls, ctx, base, events)
    if effect in ("update", "action"):
        return _update_plan(tool, target.type, exemplar, verdict.body, calls, ctx, base, events, effect)
    if effect == "delete":
        return _delete_plan(tool, target.type, exemplar, base, events)
    if effect == "document":
        return _document_plan(exemplar, verdict.body, calls, ctx, base, events)
    events.append(_note(tool.name, "no-effect", f"{effect} writes have no target type"))
    return WritePlan(**base, build_reason="no-effect", traces=tuple(events))


def _sub_resource_call(calls: list[Record], entity_type: EntityType, ctx: PlanContext) -> str | None:
    """Why an item action's call made a sub-resource (then the tool stays none), or None.

    An action answers nothing or its entity: never a 201, and an object holding the id at the
    type's id field, with every field the type's item read always shows."""
    required: set[str] = set()
    for view in ctx.view.views:
        if view.kind == "item" and view.type == entity_type.name:
            required |= set(view.required_fields)
    for call in calls:
        if not call.succeeded:
            continue
        if call.status == 201:
            return f"record {call.ordinal} answered 201: it made a sub-resource"
        body = call.response.json_value if call.response.is_json else None
        if body is None or (not call.response.is_json and not (call.response.text or "").strip()):
            continue
        key = unquote(split_path(call.path)[-2])
        entity, _ = _located(body, entity_type.id_field, key)
        if entity is None:
            return f"record {call.ordinal} answered something other than the entity {key!r}"
        lacking = sorted(required - set(entity))
        if lacking:
            return f"record {call.ordinal} answered an object lacking {', '.join(lacking)}"
    return None


def _note(subject: str, outcome: str, reason: str) -> TraceEvent:
    return TraceEvent(table="plans", rule_id=None, outcome="miss", subject=subject, reason=f"{outcome}: {reason}")


def _response_rule(exemplar: Record) -> ResponseRule:
    content_type = exemplar.header("content-type") or exemplar.response.mime_type
    return ResponseRule(status=exemplar.status, content_type=content_type, headers=exemplar.response_headers,
                        body=exemplar.response.json_value if exemplar.response.is_json else None,
                        is_json=exemplar.response.is_json,
                        text=None if exemplar.response.is_json else exemplar.response.text)


def _create_plan(tool: Tool, exemplar: Record, body: dict[str, Any], calls: list[Record], ctx: PlanContext,
                 base: dict[str, Any], events: list[TraceEvent]) -> WritePlan:
    response = exemplar.response.json_value if exemplar.response.is_json else None
    candidates = returned_ids(response, ctx.is_identity_member, ctx.min_id_length)
    link, misses = link_create(exemplar, ctx.timeline, ctx.view.state, candidates,
                               lambda a, b: ctx.other_write_between(tool.name, a, b), ctx.min_id_length,
                               ctx.type_read_before)
    for miss in misses:
        events.append(_note(tool.name, "link", miss))
    if link is None:
        return WritePlan(**base, build_reason="no-observation", traces=tuple(events))
    entity_type = link.type
    base.update(type=entity_type.name, collection=link.collection, address=Address(by="link"))
    if link.observed is not None:
        observed, observation = link.observed, exemplar.ordinal
        base["response"] = base["response"].model_copy(update={"carries_entity": True, "locator": link.locator})
    else:
        sighting = _create_observation(ctx, entity_type, link.collection, str(link.id_value), exemplar, tool.name,
                                       events)
        if sighting is None:
            return WritePlan(**base, build_reason="no-observation", traces=tuple(events))
        observed, observation = sighting.value, sighting.ordinal
    base["observation"] = observation
    path_args = _path_args(exemplar.path, entity_type, link.collection, tool)
    explanation = _explain_create(ctx, entity_type, observed, body, path_args, exemplar, calls, link.collection,
                                  tool.name)
    events.extend(explanation.events)
    insert, insert_events = insert_rule(ctx, entity_type, link.collection, exemplar, observed)
    events.extend(insert_events)
    build_reason = explanation.build_reason
    return WritePlan(**base, fields=tuple(explanation.fields), members=tuple(explanation.members), insert=insert,
                     build_reason=build_reason, traces=tuple(events))


def _create_observation(ctx: PlanContext, entity_type: EntityType, collection: str, key: str, exemplar: Record,
                        tool: str, events: list[TraceEvent]) -> Any:
    """The first later read showing the created entity: an item read of it, or a list read of its
    collection that newly lists it alone (``newly_listed``) unless the call answered its id alone;
    None when neither shows it."""
    item = ctx.timeline.first_after(entity_type.name, key, exemplar.ordinal, via=("item",))
    if names_id_alone(exemplar.response.json_value):
        listed, why = None, "the answer names its id alone, so only a read of that id observes it"
    else:
        listed, why = newly_listed(ctx.timeline, entity_type.name, key, exemplar.ordinal, collection,
                                   until=item.ordinal if item is not None else None)
    events.append(TraceEvent(table="plans", rule_id=None, outcome="match" if listed else "miss", subject=tool,
                             reason=f"observation by a list read: {why}"))
    if listed is not None:
        return listed
    return item if item is not None and item.value is not None else None


def _path_args(path: str, entity_type: EntityType, collection: str, tool: Tool) -> dict[str, str]:
    args = tool.match(path) or {}
    for part, template in zip(split_path(collection), split_path(entity_type.collection_template)):
        if template.startswith("{"):
            args.setdefault(template.strip("{}"), part)
    return args


def _explain_create(ctx: PlanContext, entity_type: EntityType, observed: dict[str, Any], body: dict[str, Any],
                    path_args: dict[str, str], exemplar: Record, calls: list[Record], collection: str,
                    tool_name: str) -> Any:
    from .create_fields import CreateInputs, explain_create

    others = []
    for call in calls[1:]:
        verdict = admit_body(call, max_bytes=ctx.budgets.max_body_bytes, unwrap=True,
                             envelope=ctx.envelopes.get(tool_name))
        if verdict.body is not None:
            others.append(verdict.body)
    type_entities = ctx.type_entities(entity_type.name, exemplar.ordinal)
    collection_entities = [s.value for (t, k), ss in ctx.timeline.by_entity.items() if t == entity_type.name
                           for s in ss[:1] if s.collection == collection and s.value is not None]
    inputs = CreateInputs(
        type_name=entity_type.name, id_field=entity_type.id_field, observed=observed, body=body,
        path_args=path_args, started_at=exemplar.started_at, type_entities=type_entities,
        collection_entities=collection_entities or type_entities, other_calls=others,
        type_paths={t.name: [t.collection_template] for t in ctx.view.types})
    return explain_create(ctx.ruleset, inputs)


def _update_plan(tool: Tool, entity_type: EntityType | None, exemplar: Record, body: dict[str, Any],
                 calls: list[Record], ctx: PlanContext, base: dict[str, Any], events: list[TraceEvent],
                 effect: str) -> WritePlan:
    from .held_before import held_before
    from .update_changes import UpdateCall, UpdateInputs, explain_update

    if entity_type is None:
        return WritePlan(**base, build_reason="no-observation", traces=tuple(events))
    segment_offset = 1 if effect == "action" else 0

    def key_of(call: Record) -> str:
        parts = split_path(call.path)
        return unquote(parts[len(parts) - 1 - segment_offset])

    update_calls = []
    observation = None
    for call in calls:
        if not call.succeeded:
            continue
        key = key_of(call)
        verdict = admit_body(call, max_bytes=ctx.budgets.max_body_bytes, unwrap=True,
                             envelope=ctx.envelopes.get(tool.name))
        before = held_before(ctx, entity_type, key, call.ordinal)
        after, via, later_read = None, "read", None
        if call.response.is_json:
            located, _ = _located(call.response.json_value, entity_type.id_field, key)
            if located is not None:
                after, via = located, "response"
        sighting = ctx.timeline.first_after(entity_type.name, key, call.ordinal, via=("item",))
        if sighting is not None and ctx.other_write_between(tool.name, call.ordinal, sighting.ordinal):
            sighting = None  # another tool's write came first: the read may show that write instead
        if sighting is not None and after is None and effect == "action" and _awaits_check(ctx, tool, entity_type,
                                                                                            key, call):
            sighting = None  # that read checks another tool's write awaiting it, not this action call
        if after is None:
            after = sighting.value if sighting else None
            if call is exemplar and sighting is not None and sighting.value is not None:
                observation = sighting.ordinal
        else:
            later_read = sighting.value if sighting else None
            if before is not None and before.value is not None and later_read is not None:
                # a field the entity lacked before counts as the update's change only where a view
                # shows it (the later item read); the write's own answer is no such view
                after = {k: v for k, v in after.items() if k in before.value or k in later_read}
            if call is exemplar:
                observation = call.ordinal
                base["response"] = base["response"].model_copy(update={"carries_entity": True, "locator": _locator_of(
                    call.response.json_value, entity_type.id_field, key)})
        if call is exemplar and after is None:
            break
        update_calls.append(UpdateCall(body=verdict.body or {}, before=before.value if before else None, after=after,
                                       observed_by=via, started_at=call.started_at, ordinal=call.ordinal,
                                       path_id=key, later_read=later_read,
                                       before_stale_by=list(before.stale_by) if before else [],
                                       before_sure=sorted(before.sure) if before else []))
    if observation is None or not update_calls:
        return WritePlan(**base, build_reason="no-observation", traces=tuple(events))
    address = Address(by="action", segment=split_path(tool.template)[-1]) if effect == "action" else Address(by="path")
    inputs = UpdateInputs(method=tool.method, is_action=effect == "action", id_field=entity_type.id_field,
                          path_id=key_of(exemplar), calls=update_calls,
                          type_entities=ctx.type_entities(entity_type.name, exemplar.ordinal))
    explanation = explain_update(ctx.ruleset, inputs)
    events.extend(explanation.events)
    base["min_members"] = explanation.min_members
    return WritePlan(**base, address=address, observation=observation, fields=tuple(explanation.fields),
                     members=tuple(explanation.members), build_reason=explanation.build_reason,
                     traces=tuple(events))



def _awaits_check(ctx: PlanContext, tool: Tool, entity_type: EntityType, key: str, call: Record) -> bool:
    """Whether another tool wrote to the entity (at its item path or below) since the latest read
    of it before the action ``call``: a later item read checks that write, and shows nothing of
    the action's call (seeds: "Item actions")."""
    latest = ctx.timeline.before(entity_type.name, key, call.ordinal)
    item = [unquote(part) for part in split_path(call.path)[:-1]]
    start = bisect.bisect_right(ctx.write_ordinals, latest.ordinal if latest is not None else 0)
    for write in ctx.writes[start:]:
        if write.ordinal >= call.ordinal:
            break
        parts = [unquote(part) for part in split_path(write.path)]
        if ctx.tool_of.get(write.ordinal) != tool.name and parts[:len(item)] == item:
            return True
    return False


def _bulk_plan(tool: Tool, entity_type: EntityType, exemplar: Record, calls: list[Record], ctx: PlanContext,
               base: dict[str, Any], events: list[TraceEvent], bulk_effect: str) -> WritePlan:
    """A bulk write: the entities its body names, every successful call naming them the same way,
    an answer serving can give for any ids, and for an update the read that shows what it sent."""
    from .bulk import (address_of, admit_bulk_body, admit_members, applied_members, observe_update, response_fits,
                       same_address)

    body, problem = admit_bulk_body(exemplar, ctx.budgets.max_body_bytes)
    named = address_of(ctx.ruleset, body, entity_type, f"{tool.name} body") if body is not None else None
    if named is not None:
        events.extend(named.events)
    if named is None or named.address is None:
        events.append(_note(tool.name, "body-unusable", problem or named.problem))
        return WritePlan(**base, build_reason="body-unusable", traces=tuple(events))
    address, ids = named.address, named.ids
    for call in calls[1:]:
        if not call.succeeded:
            continue
        other_body, problem = admit_bulk_body(call, ctx.budgets.max_body_bytes)
        other = address_of(ctx.ruleset, other_body, entity_type, f"{tool.name} record {call.ordinal} body").address \
            if other_body is not None else None
        if other is None or not same_address(address, other):
            events.append(_note(tool.name, "body-unusable",
                                f"record {call.ordinal} names its entities otherwise{': ' + problem if problem else ''}"))
            return WritePlan(**base, address=address, build_reason="body-unusable", traces=tuple(events))
    has_body = bool((exemplar.response.text or "").strip())
    unusable = response_fits(exemplar.response.json_value if exemplar.response.is_json else None, has_body, ids,
                             entity_type.id_field)
    if unusable:
        events.append(_note(tool.name, "body-unusable", unusable))
        return WritePlan(**base, address=address, build_reason="body-unusable", traces=tuple(events))
    members, fields, member_events = admit_members(ctx.ruleset, body, address, entity_type.id_field,
                                                   f"{tool.name} {entity_type.name}", bulk_effect)
    events.extend(member_events)
    base["effect"] = "bulk"
    observation = None
    if bulk_effect == "update":  # a delete needs no observation: a later read's absence checks it
        seen = observe_update(ctx.timeline, entity_type.name, applied_members(body, address, entity_type.id_field,
                                                                              fields), exemplar.ordinal,
                              lambda first, last: ctx.other_write_between(tool.name, first, last))
        if seen.ordinal is None:
            events.append(_note(tool.name, "no-observation", seen.problem))
            return WritePlan(**base, address=address, fields=tuple(fields), members=tuple(members),
                             bulk_effect=bulk_effect, build_reason="no-observation", traces=tuple(events))
        events.append(TraceEvent(table="plans", rule_id=None, outcome="match", subject=tool.name,
                                 reason=f"observation: record {seen.ordinal} shows entities "
                                        f"{', '.join(seen.shown)} with the members the call sent"))
        observation = seen.ordinal
    return WritePlan(**base, address=address, fields=tuple(fields), members=tuple(members),
                     observation=observation, bulk_effect=bulk_effect, traces=tuple(events))


def _delete_plan(tool: Tool, entity_type: EntityType | None, exemplar: Record, base: dict[str, Any],
                 events: list[TraceEvent]) -> WritePlan:
    """A delete answers with the exemplar's response, the entity re-rendered when it carries it."""
    if entity_type is not None and exemplar.response.is_json:
        key = unquote(split_path(exemplar.path)[-1])
        entity, locator = _located(exemplar.response.json_value, entity_type.id_field, key)
        if entity is not None:
            base["response"] = base["response"].model_copy(update={"carries_entity": True, "locator": locator})
    return WritePlan(**base, address=Address(by="path"), traces=tuple(events))


def _locator_of(body: Any, id_field: str, key: str) -> Locator | None:
    return _located(body, id_field, key)[1]


def _document_plan(exemplar: Record, body: dict[str, Any], calls: list[Record], ctx: PlanContext,
                   base: dict[str, Any], events: list[TraceEvent]) -> WritePlan:
    path = exemplar.path.rstrip("/") if exemplar.path.rstrip("/") in ctx.document_paths else exemplar.path
    held = next((d.value for d in ctx.view.state.documents if d.path == path), None)
    pointer = ""
    if isinstance(held, dict):
        best = sum(1 for k in body if k in held)
        for name, value in held.items():
            if isinstance(value, dict) and sum(1 for k in body if k in value) > best:
                best, pointer = sum(1 for k in body if k in value), "/" + name
    answer = exemplar.response.json_value if exemplar.response.is_json else None
    if isinstance(answer, dict) and body and all(k in answer and answer[k] == v for k, v in body.items()):
        # the answer shows the document as written: serving renders it from the state
        base["response"] = base["response"].model_copy(update={"carries_entity": True, "locator": Locator(kind="root")})
    members = _document_members(exemplar, body, path, ctx, events)
    base["min_members"] = 0 if exemplar.method == "PUT" else 1
    target = held
    for part in [p for p in pointer.split("/") if p]:
        target = target.get(part) if isinstance(target, dict) else None
    for call in calls:
        verdict = admit_body(call, max_bytes=ctx.budgets.max_body_bytes, unwrap=False) if call.succeeded else None
        for name, value in ((verdict.body or {}).items() if verdict else ()):
            if isinstance(target, dict) and name in target and target[name] is not None \
                    and json_kind(target[name]) != json_kind(value):
                events.append(_note(base["tool"], "unexplained-change",
                                    f"record {call.ordinal} sent {name!r} as {json_kind(value)}, the document holds "
                                    f"{json_kind(target[name])}: serving would refuse that call"))
                return WritePlan(**base, address=Address(by="document"), document_path=path,
                                 document_pointer=pointer, members=members, build_reason="unexplained-change",
                                 traces=tuple(events))
    return WritePlan(**base, address=Address(by="document"), document_path=path, document_pointer=pointer,
                     replace=exemplar.method == "PUT", members=members, traces=tuple(events))


def _document_members(exemplar: Record, body: dict[str, Any], path: str, ctx: PlanContext,
                      events: list[TraceEvent]) -> tuple[MemberRule, ...]:
    """Each member the exemplar sent, admitted by the ``document-members`` table (traced like a
    create's or an update's members), with the JSON kind it was sent as."""
    from capenv.interpreter.predicates.document_members import DocumentMemberContext

    members = []
    for name, value in body.items():
        context = DocumentMemberContext(member=name, method=exemplar.method, body=body)
        decision = evaluate(ctx.ruleset, DOCUMENT_MEMBERS, context, subject=f"document {path} body.{name}")
        events.extend(decision.events)
        members.append(MemberRule(member=name, admission=decision.yields["admission"],
                                  rule_id=decision.rule_id or f"{DOCUMENT_MEMBERS}.default",
                                  required=bool(decision.yields["required"]),
                                  kind=decision.evidence.get("kind", json_kind(value)),
                                  reason=decision.yields.get("reason")))
    return tuple(members)
