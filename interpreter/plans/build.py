"""Build one write plan per state-changing tool, less the POST tools that only read.

Each plan: classification (``write-effects``), exemplar and body admission, then the plan of its
effect: ``create_plan`` (the written entity's observation, ``create_fields`` / ``create_members``,
the insert rule), ``update_plan`` (``update_changes`` / ``update_members``), ``bulk_plan``,
``document_plan``, or a delete's here. The gate (``interpreter/gate``) then gives each plan its verdict.
"""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.body_members import body_object
from capenv.interpreter.bundle.models import Address, EntityType, ResponseRule, TagCheck, WritePlan
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.manifest.models import Tool
from capenv.interpreter.rules_engine import TraceEvent, load_rules
from capenv.interpreter.view.credentials import credential_headers
from capenv.interpreter.view.extract import path_key

from .absence_sources import masked_answer, with_absence_sources
from .absent_before import classified
from .answer_reports import answer_report
from .bulk_plan import bulk_plan
from .chosen_ids import with_chosen_ids
from .classify import segments_after_item, target_of
from .context import PlanContext, note
from .copies import copied_entity
from .create_plan import create_plan
from .either_key_use import with_either_key_use
from .entity_bound_answers import with_entity_bound_answers
from .delete_answers import held_ids_named, omitted_members
from .distinct_values import with_distinct_members
from .document_plan import document_plan
from .exemplar import admit_body, exemplar_of
from .item_keys import call_key, keyed_target
from .link import AnswerPlaces, entity_in_answer
from .list_places import with_list_places
from .patch_bodies import patch_ops_of
from .preconditions import precondition_decision
from .references import with_references
from .protected import with_protected
from .parent_states import with_parent_states
from .reference_copies import with_reference_copies
from .referrers import with_referrers
from .sent_values import with_unproven_values
from .stored_text import with_unproven_text
from .sub_resource import sub_resource_call
from .update_masks import update_mask_of
from .update_plan import update_plan
from .validated_values import with_validated_values


def build_plans(context: PlanContext) -> list[WritePlan]:
    """One plan per state-changing tool of the context's manifest, less the POSTs that only read."""
    manifest = context.manifest
    plans = []
    for tool in manifest.tools:
        if not tool.changes_state or tool.name in context.read_only:
            continue
        plans.append(build_plan(tool, context))
    statuses = {o: r.status for o, r in context.records.items()}
    absent = context.budgets.absence_statuses
    answers = {o: r.response.text or "" for o, r in context.records.items() if r.status in absent}
    templates = {o: t.template for t in manifest.tools for o in t.record_ordinals}
    masked = {o: masked_answer(text, context.records[o].path, templates.get(o, "")) for o, text in answers.items()}
    item_reads: dict[str, tuple[int, ...]] = {}
    for view in context.view.views:
        if view.kind == "item" and view.type is not None:
            item_reads[view.type] = item_reads.get(view.type, ()) + tuple(view.record_ordinals)
    plans = with_absence_sources(plans, manifest, statuses, context.budgets.absence_statuses, context.ruleset,
                                 tuple(t.collection_template for t in context.view.types), answers, masked,
                                 item_reads)
    plans = with_referrers(with_validated_values(with_references(plans, context), context), context)
    plans = with_reference_copies(plans, context)
    plans = with_protected(plans, context)
    plans = with_parent_states(plans, context)
    plans = with_chosen_ids(plans, context)
    plans = with_unproven_values(plans, context)  # after chosen ids: a chosen identity keeps its own shape
    plans = with_unproven_text(plans, context)  # after chosen ids: a chosen identity keeps its own shape
    plans = with_list_places(plans, context)
    plans = with_either_key_use(with_distinct_members(plans, context), context)
    return with_entity_bound_answers(plans, context)  # last: judges the answer every other pass left served


def build_plan(tool: Tool, ctx: PlanContext) -> WritePlan:
    events: list[TraceEvent] = []
    tool_paths = [ctx.records[o].path for o in tool.record_ordinals]
    target = keyed_target(tool, target_of(tool, ctx.view, ctx.document_paths, tool_paths, ctx.ruleset), ctx)
    decision = classified(tool, target, ctx)
    events.extend(decision.events)
    effect = str(decision.yields.get("effect", "none"))
    base: dict[str, Any] = {"tool": tool.name, "method": tool.method, "template": tool.template, "effect": effect,
                            "type": target.type.name if target.type else None, "rules_revision": ctx.ruleset.revision}
    if decision.yields.get("missing") == "refused":
        base["missing_refused"] = True
    calls = [ctx.records[o] for o in tool.record_ordinals]
    exemplar = exemplar_of(calls)
    if effect == "action" and target.type is not None:
        made = sub_resource_call(calls, target.type, ctx)
        if made is not None:
            events.append(note(tool.name, "none", made))
            effect = base["effect"] = "none"
    if effect == "none":
        unretained = next((c for c in calls if not c.request.retained), None)
        if unretained is not None:  # what decided "no effect" never saw that call's body
            events.append(note(tool.name, "no-effect", f"record {unretained.ordinal}: the capture did not retain the"
                                                       " request body" + (f": {unretained.request.note}"
                                                                          if unretained.request.note else "")))
        return WritePlan(**base, build_reason=str(decision.yields.get("build_reason") or "no-effect"),
                         traces=tuple(events))
    if exemplar is None:
        return WritePlan(**base, build_reason="no-successful-call", traces=tuple(events))
    patch_ops = patch_ops_of(tool.name, calls, ctx.ruleset, events) if effect == "update" else ()
    if patch_ops:  # every later reading of the tool's bodies takes the members the patch sets
        ctx.patch_ops[tool.name] = base["body_patch_ops"] = patch_ops
    precondition = precondition_decision(tool.name, calls, ctx.ruleset, ctx.records, patch_ops)
    if precondition is not None and precondition.yields.get("checks_tag"):
        if effect in ("update", "action", "delete"):  # checked on the entity the call names
            base["tag_check"] = TagCheck(header=str(precondition.evidence["header"]),
                                         member=str(precondition.evidence["member"]),
                                         form=str(precondition.evidence["form"]))
            events.extend(precondition.events)
        else:  # no one entity to check the tag on
            precondition = precondition.model_copy(update={"yields": {"conditional": True}})
    if precondition is not None and precondition.yields.get("conditional"):
        events.extend(precondition.events)
        return WritePlan(**base, build_reason=str(precondition.yields.get("build_reason", "precondition-header")),
                         traces=tuple(events))
    if precondition is not None:  # serving cannot check them: a call sending one is refused
        base["unchecked_headers"] = tuple(str(h).lower() for h in precondition.yields.get("refuse_calls_sending", ()))
    base["credential_headers"] = credential_headers(tool.name, calls, ctx.records, ctx.ruleset)
    base.update(exemplar=exemplar.ordinal, query=exemplar.query, response=_response_rule(exemplar),
                exemplar_args=tool.match(exemplar.path) or {},
                min_members=1 if effect == "update" and tool.method in ("PATCH", "POST") else 0)
    if effect == "bulk" and target.type is not None:  # its body may be an array, a DELETE's included
        return bulk_plan(tool, target.type, exemplar, calls, ctx, base, events,
                         str(decision.yields.get("bulk_effect") or ("delete" if tool.method == "DELETE" else "update")))
    envelope = ctx.envelope_judge(tool.name, exemplar, events, target.type.name if target.type else None)
    verdict = admit_body(exemplar, max_bytes=ctx.budgets.max_body_bytes,
                         unwrap=effect in ("create", "update", "document"), envelope=envelope, patch_ops=patch_ops)
    if verdict.body is None:
        events.append(note(tool.name, "body-unusable", verdict.problem or ""))
        return WritePlan(**base, build_reason="body-unusable", traces=tuple(events))
    base["body_envelope"] = verdict.envelope
    base["body_envelope_kind"] = verdict.envelope_kind
    if verdict.envelope:  # the members a precondition is sent in are read inside the envelope too
        wrapped = WritePlan(**base)
        inside = precondition_decision(tool.name, calls, ctx.ruleset, ctx.records, patch_ops, body_of=lambda call:
                                       body_object(wrapped, call.request.json_value if call.request.is_json else None))
        if inside is not None and inside.yields.get("conditional"):
            events.extend(inside.events)
            return WritePlan(**base, build_reason=str(inside.yields.get("build_reason", "precondition-header")),
                             traces=tuple(events))
    if effect == "update" and exemplar.query:
        reading = WritePlan(**base)
        base["update_mask"] = update_mask_of(tool.name, calls, exemplar, lambda call: _sent_members(reading, call),
                                             ctx.ruleset, events)
    ctx.envelopes[tool.name] = envelope
    if effect == "create":
        plan = create_plan(tool, exemplar, verdict.body, calls, ctx, base, events)
        return copied_entity(plan, target.type, ctx) if target.type is not None else plan
    if effect in ("update", "action", "delete"):
        plan = _item_plan(tool, target, effect, exemplar, calls, ctx, base, events)
        return copied_entity(plan, target.type, ctx) if target.type is not None else plan
    if effect == "document":
        return document_plan(exemplar, verdict.body, calls, ctx, base, events)
    events.append(note(tool.name, "no-effect", f"{effect} writes have no target type"))
    return WritePlan(**base, build_reason="no-effect", traces=tuple(events))


def _item_plan(tool: Tool, target: Any, effect: str, exemplar: Record, calls: list[Record], ctx: PlanContext,
               base: dict[str, Any], events: list[TraceEvent]) -> WritePlan:
    if effect in ("update", "action"):
        return update_plan(tool, target.type, exemplar, calls, ctx, base, events, effect, segments_after_item(target),
                           target.key)
    return _delete_plan(target.type, exemplar, base, events, segments_after_item(target), target.key, ctx)


def _response_rule(exemplar: Record) -> ResponseRule:
    content_type = exemplar.header("content-type") or exemplar.response.mime_type
    return ResponseRule(status=exemplar.status, content_type=content_type, headers=exemplar.response_headers,
                        body=exemplar.response.json_value if exemplar.response.is_json else None,
                        is_json=exemplar.response.is_json,
                        text=None if exemplar.response.is_json else exemplar.response.text)


def _delete_plan(entity_type: EntityType | None, exemplar: Record, base: dict[str, Any],
                 events: list[TraceEvent], verb: str | None = None, member: str | None = None,
                 ctx: PlanContext | None = None) -> WritePlan:
    """A delete answers with the exemplar's response, the entity re-rendered when it carries it;
    ``verb``: the literal segments after the item path that name it (``-/delete``), if any;
    ``member``: the key member its path names the entity by, if not its identity."""
    address = Address(by="path", segment=verb, member=member)
    if entity_type is not None and exemplar.response.is_json:
        key = call_key(ctx.timeline, exemplar, address.segments_after_item()) if ctx is not None \
            else path_key(exemplar.path, address.segments_after_item())
        places = ctx.answer_places if ctx is not None else AnswerPlaces(load_rules())
        entity, locator = entity_in_answer(exemplar.response.json_value, entity_type.id_field, key, places)
        report = answer_report(base["tool"], exemplar.response.json_value, locator, entity_type, ctx.view,
                               ctx.ruleset, events) if entity is not None and ctx is not None else None
        if report is not None:  # a report on the call naming the entity, not the entity
            base["response"] = base["response"].model_copy(update={"report": report})
        elif entity is not None:
            omitted = omitted_members(base["tool"], entity_type, key, exemplar, entity, ctx, events) \
                if ctx is not None else ()
            base["response"] = base["response"].model_copy(update={"carries_entity": True, "locator": locator,
                                                                   "omitted": omitted})
        elif ctx is not None:
            named = held_ids_named(exemplar.response.json_value, ctx.view, key,
                                   int(ctx.ruleset.setting("plans", "delete_answer_held_id_min_length")))
            if named:
                shown = ", ".join(f"{type_name} {entity_id!r}" for type_name, entity_id in named[:3])
                events.append(note(base["tool"], "body-unusable",
                                   f"record {exemplar.ordinal} answered naming other held entities ({shown}): "
                                   f"the state the call met, which that answer would show for any entity"))
                return WritePlan(**base, address=address, build_reason="body-unusable", traces=tuple(events))
    return WritePlan(**base, address=address, traces=tuple(events))


def _sent_members(plan: WritePlan, call: Record) -> tuple[str, ...]:
    """The members a recorded call's body sends, as the plan reads its bodies."""
    members = body_object(plan, call.request.json_value if call.request.is_json else None)
    return tuple(members) if members else ()
