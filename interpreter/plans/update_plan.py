"""An update's or item action's plan: for each successful call the entity as held before and as
observed after (its answer or the first item read no other write precedes), explained by
``update_changes``."""

from __future__ import annotations

import bisect
import dataclasses

from typing import Any
from urllib.parse import unquote

from capenv.interpreter.bundle.models import Address, EntityType, Locator, WritePlan
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.manifest.models import Tool
from capenv.interpreter.rules_engine import TraceEvent

from capenv.interpreter.predicates.update_grouped_members import sole_group

from .answer_additions import answer_additions
from .answer_envelopes import split_answer, without_transformed
from .answer_held_only import AnsweredCall, answer_held_only
from .answer_reports import entity_or_report
from .context import PlanContext, note
from .delete_answers import omitted_members
from .exemplar import admit_body
from .held_before import call_collection, held_before
from .item_keys import call_key
from .link import AnswerPlaces, entity_in_answer
from .object_merges import object_merges
from .timeline import own_collection
from .update_changes import UpdateCall, UpdateInputs, explain_update


def update_plan(tool: Tool, entity_type: EntityType | None, exemplar: Record, calls: list[Record], ctx: PlanContext,
                base: dict[str, Any], events: list[TraceEvent], effect: str, verb: str | None = None,
                member: str | None = None) -> WritePlan:
    """``verb``: the literal segments after the item path the tool's path names (an action's
    segment, Datasette's ``-/update``), None when its path is the item path; ``member``: the key
    member the path names the entity by, when not its identity (``item_keys``)."""
    if entity_type is None:
        events.append(note(tool.name, "no-observation", "its path names no entity of a state type"))
        return WritePlan(**base, build_reason="no-observation", traces=tuple(events))
    is_action = effect == "action"
    address = Address(by="action" if is_action else "path", segment=verb, member=member)
    depth = address.segments_after_item()
    update_calls = []
    volatile, item_shown = _type_reads(ctx, entity_type)
    split = split_answer(tool.name, "update", entity_type, calls, ctx, events, depth) if not is_action else None
    if split is not None:  # the answer shows a projection: each call is observed by its later read
        base["response"] = base["response"].model_copy(update={"split": split})
    report = None
    if split is None and exemplar.response.is_json:  # a report on the call: each call observed by its later read
        report = entity_or_report(tool.name, exemplar.response.json_value, entity_type,
                                  call_key(ctx.timeline, exemplar, depth), ctx, events)[2]
    if report is not None:
        base["response"] = base["response"].model_copy(update={"report": report})
    observation = None
    others_answered: list[AnsweredCall] = []
    exemplar_answered: dict[str, Any] | None = None
    unobserved = f"no successful call (the exemplar is record {exemplar.ordinal})"
    for call in calls:
        if not call.succeeded:
            continue
        key = call_key(ctx.timeline, call, depth)
        verdict = admit_body(call, max_bytes=ctx.budgets.max_body_bytes, unwrap=True,
                             envelope=ctx.envelopes.get(tool.name), patch_ops=ctx.patch_ops.get(tool.name, ()))
        if base.get("update_mask") is not None and verdict.body is not None:  # the members left out change nothing
            verdict = dataclasses.replace(verdict, body=base["update_mask"].masked(verdict.body, call.query,
                                                                                   entity_type.id_field))
        before = held_before(ctx, entity_type, key, call.ordinal)
        after, via, later_read, located = None, "read", None, None
        if call.response.is_json and split is None and report is None:
            located, _ = entity_in_answer(call.response.json_value, entity_type.id_field, key, ctx.answer_places)
            if located is not None:
                after, via = located, "response"
        sighting = ctx.timeline.first_after(entity_type.name, key, call.ordinal, via=("item",),
                                            collection=call_collection(ctx.timeline, entity_type, key, call))
        why = f"no later item read of {entity_type.name} {key!r} shows it" if sighting is None else None
        if sighting is not None and ctx.other_write_between(tool.name, call.ordinal, sighting.ordinal):
            # another tool's write came first: the read may show that write instead
            why = f"another tool's write comes between it and read {sighting.ordinal}, which may show that write"
            sighting = None
        if sighting is not None and after is None and is_action and _awaits_check(ctx, tool, entity_type,
                                                                                            key, call):
            # that read checks another tool's write awaiting it, not this action call
            why = (f"read {sighting.ordinal} checks another tool's write to {entity_type.name} {key!r} that awaits "
                   "a check, not this action call")
            sighting = None
        if located is not None and call is not exemplar and after is not None:
            others_answered.append(AnsweredCall(ordinal=call.ordinal, answered=sorted(located),
                                                held=sorted(before.value) if before is not None and isinstance(
                                                    before.value, dict) and not before.stale_by else None))
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
                added = answer_additions(tool.name, entity_type, located, before.value if before else None, ctx,
                                         events)
                omitted = omitted_members(tool.name, entity_type, key, call, located, ctx, events, effect="update",
                                          sent=tuple(verdict.body or ()))
                base["response"] = base["response"].model_copy(update={"carries_entity": True, "locator": _locator_of(
                    call.response.json_value, entity_type.id_field, key, ctx.answer_places), "added": added,
                    "omitted": omitted})
                exemplar_answered = located
        if call is exemplar and after is None:
            unobserved = f"record {call.ordinal} (the exemplar) answered without the entity, and {why}"
            break
        held = before.value if before else None
        hidden = volatile - _groups_written(after, verdict.body or {})
        update_calls.append(UpdateCall(body=verdict.body or {}, before=_without(held, hidden),
                                       after=_without(after, hidden),
                                       observed_by=via, started_at=call.started_at, ordinal=call.ordinal,
                                       path_id=key, later_read=_without(later_read, hidden),
                                       unshown=sorted(set(held or ()) - item_shown) if item_shown else [],
                                       before_stale_by=list(before.stale_by) if before else [],
                                       before_sure=sorted(before.sure) if before else [],
                                       body_usable=verdict.body is not None or call is exemplar))
    if observation is None or not update_calls:
        events.append(note(tool.name, "no-observation", unobserved))
        return WritePlan(**base, build_reason="no-observation", traces=tuple(events))
    if exemplar_answered is not None:
        held_only = answer_held_only(tool.name, exemplar_answered, others_answered, ctx.ruleset, events)
        if held_only:
            base["response"] = base["response"].model_copy(update={"held_only": held_only})
    echoed = [] if base["response"].carries_entity or split is not None else _sent_values_answered(exemplar, update_calls[0].body)
    if echoed:
        # answered as recorded, another call would be told the exemplar's values
        events.append(note(tool.name, "body-unusable", f"record {exemplar.ordinal} answered the values it sent "
                           f"({', '.join(echoed)}) without the entity's id, so its answer is no entity serving "
                           "renders, and answered as recorded it would show them for another call"))
        return WritePlan(**base, build_reason="body-unusable", traces=tuple(events))
    inputs = UpdateInputs(method=tool.method, is_action=is_action, id_field=entity_type.id_field,
                          path_id=call_key(ctx.timeline, exemplar, depth),
                          calls=update_calls,
                          type_entities=ctx.type_entities(entity_type.name, exemplar.ordinal, volatile),
                          max_nesting=ctx.budgets.max_nesting)
    explanation = explain_update(ctx.ruleset, inputs)
    events.extend(explanation.events)
    base["min_members"] = explanation.min_members
    merges, merge_events = object_merges(ctx.ruleset, tool.name, explanation.members, update_calls)
    events.extend(merge_events)
    if merges:
        base["object_merges"] = merges
    return WritePlan(**base, address=address, observation=observation, fields=tuple(explanation.fields),
                     members=without_transformed(tuple(explanation.members), split),
                     build_reason=explanation.build_reason,
                     traces=tuple(events))


def _sent_values_answered(exemplar: Record, sent: dict[str, Any]) -> list[str]:
    """The sent members the exemplar's answer shows under their own name with the sent value,
    at any depth."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for name, member in value.items():
                if name in sent and member == sent[name] and not isinstance(member, bool) and member is not None:
                    found.add(name)
                walk(member)
        elif isinstance(value, list):
            for element in value:
                walk(element)

    if exemplar.response.is_json:
        walk(exemplar.response.json_value)
    return sorted(found)


def _type_reads(ctx: PlanContext, entity_type: EntityType) -> tuple[frozenset[str], frozenset[str]]:
    """The type's volatile fields (they change with no write: nothing of an update) and the fields
    its item reads show (empty when one of them shows its entities whole: unknown)."""
    views = [v for v in ctx.view.views if v.type == entity_type.name]
    volatile = frozenset(name for v in views for name in v.volatile_fields if name != entity_type.id_field)
    items = [v for v in views if v.kind == "item"]
    if not items or any(not v.shown_fields for v in items):
        return volatile, frozenset()
    return volatile, frozenset(name for v in items for name in v.shown_fields)


def _groups_written(after: dict[str, Any] | None, body: dict[str, Any]) -> frozenset[str]:
    """The object fields of the observed entity that are the one group holding a member the call
    sent (``sole_group``). A volatile field is left out of an update's explanation because it
    changes with no write; a group the call wrote a member into is kept, so the member is judged
    where the observation shows it (ZenML's ``metadata``, which a listing shows null and an item
    read whole, is volatile across those lines, yet holds the ``description`` an update sends)."""
    if not after:
        return frozenset()
    return frozenset(group for member in body if (group := sole_group(after, member)) is not None)


def _without(entity: dict[str, Any] | None, names: frozenset[str]) -> dict[str, Any] | None:
    return {k: v for k, v in entity.items() if k not in names} if entity is not None and names else entity


def _awaits_check(ctx: PlanContext, tool: Tool, entity_type: EntityType, key: str, call: Record) -> bool:
    """Whether another tool wrote to the entity (at its item path or below) since the latest read
    of it before the action ``call``: a later item read checks that write, and shows nothing of
    the action's call (seeds: "Item actions")."""
    latest = ctx.timeline.before(entity_type.name, key, call.ordinal,
                                 collection=own_collection(call.path, entity_type))
    item = [unquote(part) for part in split_path(call.path)[:-1]]
    start = bisect.bisect_right(ctx.write_ordinals, latest.ordinal if latest is not None else 0)
    for write in ctx.writes[start:]:
        if write.ordinal >= call.ordinal:
            break
        parts = [unquote(part) for part in split_path(write.path)]
        if ctx.tool_of.get(write.ordinal) != tool.name and parts[:len(item)] == item:
            return True
    return False

def _locator_of(body: Any, id_field: str, key: str, places: AnswerPlaces) -> Locator | None:
    return entity_in_answer(body, id_field, key, places)[1]
