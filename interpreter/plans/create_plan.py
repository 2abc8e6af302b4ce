"""A create's plan: the entity its call made (linked by the answer's id), the first read that
shows it, its field and member explanations (``create_fields``) and its insert rule."""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

from capenv.interpreter.bundle.models import Address, EntityType, Locator, WritePlan
from capenv.interpreter.bundle.values import locate, same_json
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.manifest.models import Tool
from capenv.interpreter.rules_engine import TraceEvent
from capenv.interpreter.manifest.models import split_path
from capenv.interpreter.view.extract import collection_args, collection_path

from .answer_envelopes import split_answer, without_transformed
from .context import PlanContext, note
from .create_fields import explain_create
from .create_inputs import CreateInputs
from .exemplar import admit_body
from .get_or_create import held_answers
from .insert import insert_rule
from .list_link import link_by_list
from .location import location_id
from .link import (
    Link, identity_of, link_create, names_collection_below, names_collection_of, names_id_alone, returned_ids,
)
from .newly_listed import newly_listed, one_newly_listed, same_collection
from .timeline import own_collection
from .volatile_constants import computed_constant


def create_plan(tool: Tool, exemplar: Record, body: dict[str, Any], calls: list[Record], ctx: PlanContext,
                base: dict[str, Any], events: list[TraceEvent]) -> WritePlan:
    response = exemplar.response.json_value if exemplar.response.is_json else None
    target = next((t for t in ctx.view.types if t.name == base.get("type")
                   and (names_collection_of(exemplar.path, t) or names_collection_below(tool.template, t))), None)
    candidates = returned_ids(response, identity_of(ctx.is_identity_member, target), ctx.min_id_length)
    located = location_id(exemplar)
    if located is not None and not candidates:  # an answer naming nothing: the Location names what it made
        candidates = [(located[0], "Location")]
    at_item = next((t for t in ctx.view.types if t.name == base.get("type") and t.item_template
                    and names_collection_of("/" + "/".join(split_path(exemplar.path)[:-1]), t)
                    and len(split_path(exemplar.path)) == len(split_path(t.item_template))), None)
    if not candidates and at_item is not None:
        # a create at the item path answering no id (a report on the call): its path names what it made
        target, candidates = at_item, [(unquote(split_path(exemplar.path)[-1]), "path")]
    link, misses = link_create(exemplar, ctx.timeline, ctx.view.state, candidates,
                               lambda a, b: ctx.other_write_between(tool.name, a, b), ctx.min_id_length,
                               ctx.type_read_before, ctx.answer_places, target=target)
    for miss in misses:
        events.append(note(tool.name, "link", miss))
    if link is None and candidates:
        link, list_events = link_by_list(exemplar, ctx.timeline, ctx.view.state, candidates,
                                         lambda a, b: ctx.other_write_between(tool.name, a, b), target,
                                         ctx.answer_places, ctx.ruleset)
        events.extend(list_events)
    if link is None and not candidates and target is not None and names_collection_of(exemplar.path, target) \
            and names_nothing(response):
        link = _link_unnamed(tool.name, exemplar, target, ctx, events)
    if link is None:
        return WritePlan(**base, build_reason="no-observation", traces=tuple(events))
    entity_type = link.type
    base.update(type=entity_type.name, collection=link.collection, address=Address(by="link"))
    if located is not None and located[0] == str(link.id_value):
        base["response"] = base["response"].model_copy(update={"location": located[1]})
    split = split_answer(tool.name, "create", entity_type, calls, ctx, events)
    if split is not None:  # the answer shows a projection: the entity is observed by a later read
        base["response"] = base["response"].model_copy(update={"split": split})
    if link.observed is not None and split is None:
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
    answer_locator = link.locator if link.observed is not None and split is None else None
    explanation = _explain_create(ctx, entity_type, observed, body, path_args, exemplar, calls, link.collection,
                                  tool.name, answer_locator)
    events.extend(explanation.events)
    insert, insert_events = insert_rule(ctx, entity_type, link.collection, exemplar, observed)
    events.extend(insert_events)
    if (names_own_collection(exemplar.path, entity_type, link.collection)
            or names_own_item(exemplar.path, entity_type, link.collection, link.id_value)) \
            and not explanation.tied_to_collection:
        base["collection"] = None  # serving creates in the collection each call's path names
    events.append(_collection_note(tool.name, base.get("collection"), explanation.tied_by))
    build_reason = explanation.build_reason
    if build_reason is None:
        drifting = computed_constant(ctx, entity_type, explanation.fields, str(link.id_value), observation)
        if drifting is not None:
            events.append(note(tool.name, "unexplained-change", drifting))
            build_reason = "unexplained-change"
    if build_reason is None:
        unkept = _constant_not_kept(ctx, entity_type, explanation, calls, tool.name)
        if unkept is not None:
            events.append(note(tool.name, "unexplained-change", unkept))
            build_reason = "unexplained-change"
    accepted = {m.member for m in explanation.members if m.admission != "not-accepted"}
    # a call that answered a held entity: a key serving gets by, or (an upsert, no key) the gate
    # still models its calls and the verdict leaves the tool unserved
    held = held_answers(tool, link, exemplar, calls, ctx, accepted, base.get("body_envelope"))
    events.extend(held.events)
    return WritePlan(**base, fields=tuple(explanation.fields),
                     members=without_transformed(tuple(explanation.members), split), insert=insert,
                     build_reason=build_reason, answered_held=held.unserved, key=held.key, traces=tuple(events))


def _constant_not_kept(ctx: PlanContext, entity_type: EntityType, explanation: Any, calls: list[Record],
                       tool_name: str) -> str | None:
    """Why a constant field is no constant: another recorded call of the tool, sending the same
    client-chosen id member, none but members the plan accepts and not the field's, made an
    entity whose first read shows the field otherwise (Syncthing fills a device's unsent members
    from a defaults document a PATCH had changed: compression "always" where the exemplar's device
    read "metadata"). Serving would refuse such a call when it leaves out a required member, so
    the gate never checks it; a call sending a member the plan refuses may owe the value to it
    (Prefect's status follows the is_paused sent)."""
    fields = explanation.fields
    accepted = {m.member for m in explanation.members if m.admission != "not-accepted"}
    echoed_id = next((rule.params.get("member") for rule in fields
                      if rule.field == entity_type.id_field and rule.op == "echo"), None)
    constants = {rule.field: rule.params.get("value") for rule in fields if rule.op == "constant"}
    if echoed_id is None or not constants:
        return None
    for call in calls[1:]:
        if not call.succeeded:
            continue
        body = admit_body(call, max_bytes=ctx.budgets.max_body_bytes, unwrap=True,
                          envelope=ctx.envelopes.get(tool_name)).body
        if not isinstance(body, dict) or not isinstance(body.get(echoed_id), (str, int)) \
                or isinstance(body.get(echoed_id), bool) or not set(body) <= accepted:
            continue
        made = next((s for s in ctx.timeline.sightings(entity_type.name, str(body[echoed_id]))
                     if s.ordinal > call.ordinal and s.value is not None), None)
        if made is None or ctx.other_write_between(tool_name, call.ordinal, made.ordinal):
            continue  # another tool's write may have changed it since
        for name, value in constants.items():
            if name not in body and name in made.value and not same_json(made.value[name], value):
                return (f"record {call.ordinal} made {entity_type.name} {body[echoed_id]!r} without sending {name!r}, "
                        f"and record {made.ordinal} shows it {made.value[name]!r}, not the constant {value!r}: the "
                        "application fills it from something the capture does not model")
    return None


def names_nothing(answer: Any) -> bool:
    """An answer holding no value at all (``{}``, ``[]``, null, no body): it names no entity, and
    answered as recorded it tells no call anything another call would not be told."""
    if isinstance(answer, dict):
        return all(names_nothing(value) for value in answer.values())
    if isinstance(answer, list):
        return all(names_nothing(value) for value in answer)
    return answer is None


def _link_unnamed(tool: str, exemplar: Record, target: EntityType, ctx: PlanContext,
                  events: list[TraceEvent]) -> Link | None:
    """A create at its type's collection path answered with no id: the entity is the one the next
    plain list read of that collection newly lists (seeds: "The written entity")."""
    collection = collection_path(exemplar.path, target)
    sighting, why = one_newly_listed(ctx.timeline, target.name, exemplar.ordinal, collection)
    events.append(note(tool, "link", f"the answer names no id: {why}"))
    if sighting is None or ctx.other_write_between(tool, exemplar.ordinal, sighting.ordinal):
        return None
    if ctx.timeline.seen_before(target.name, sighting.key, exemplar.ordinal, own_collection(collection, target)):
        return None  # held before the call in that collection: not what the call made
    return Link(target, sighting.collection, sighting.key, None, None)


def names_own_collection(path: str, entity_type: EntityType, linked: str) -> bool:
    """The call's own path is a collection path of the type and names the collection the created
    entity was read in: its path gives it a target."""
    return names_collection_of(path, entity_type) and same_collection(path, linked)


def names_own_item(path: str, entity_type: EntityType, linked: str, id_value: Any) -> bool:
    """The call's own path is the item path of the entity it made, in the collection it was read
    in (a create at its item path, ``effect.create-at-item``): its path gives it a target."""
    parts = split_path(path)
    return bool(entity_type.item_template) and len(parts) == len(split_path(entity_type.item_template)) \
        and names_own_collection("/" + "/".join(parts[:-1]), entity_type, linked) \
        and unquote(parts[-1]) == str(id_value)


def _collection_note(tool: str, tied: str | None, tied_by: list[str]) -> TraceEvent:
    """Where serving creates (write-effects "A POST whose path gives it no target", "When a
    constant ... contains a path value"): the collection each call names, or the exemplar's."""
    if tied is None:
        reason = "the call's own path names its collection: serving creates in the collection each call names"
    elif tied_by:
        reason = (f"tied to {tied}: {', '.join(tied_by)} keep(s) a path value of the exemplar's call, so serving "
                  "creates only for calls naming that collection")
    else:
        reason = f"tied to {tied}: the call's own path names no collection of the type, so serving creates there"
    return TraceEvent(table="plans", rule_id=None, outcome="match", subject=tool, reason=reason,
                      evidence={"collection": tied, "tied_by": list(tied_by)})


def _create_observation(ctx: PlanContext, entity_type: EntityType, collection: str, key: str, exemplar: Record,
                        tool: str, events: list[TraceEvent]) -> Any:
    """The first later read showing the created entity: an item read of it, or a list read of its
    collection that newly lists it alone (``newly_listed``) unless the call answered its id alone;
    None when neither shows it."""
    item = ctx.timeline.first_after(entity_type.name, key, exemplar.ordinal, via=("item",),
                                    collection=own_collection(collection, entity_type))
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
    """The call's path arguments, and those the linked collection's path fills in the type's
    collection template (a linked create's path may name none of them)."""
    args = tool.match(path) or {}
    for name, value in collection_args(collection, entity_type).items():
        args.setdefault(name, value)
    return args


def _explain_create(ctx: PlanContext, entity_type: EntityType, observed: dict[str, Any], body: dict[str, Any],
                    path_args: dict[str, str], exemplar: Record, calls: list[Record], collection: str,
                    tool_name: str, answer_locator: Locator | None = None) -> Any:
    others: list[dict[str, Any]] = []
    answered: list[tuple[dict[str, Any], dict[str, Any] | None]] = []
    succeeded: list[dict[str, Any]] = []
    successes: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
    for call in calls[1:]:
        verdict = admit_body(call, max_bytes=ctx.budgets.max_body_bytes, unwrap=True,
                             envelope=ctx.envelopes.get(tool_name))
        if verdict.body is not None:
            others.append(verdict.body)
            if call.succeeded and call is not exemplar:
                succeeded.append(verdict.body)
                successes.append((verdict.body, ctx.type_entities(entity_type.name, call.ordinal, completed=True)))
                answered.append((verdict.body, _answered_entity(call, answer_locator)))
    type_entities = ctx.type_entities(entity_type.name, exemplar.ordinal, completed=True)
    made_identities = _made_identities(ctx, entity_type, str(observed.get(entity_type.id_field)))
    collection_entities = [s.value for (t, k), ss in ctx.timeline.by_entity.items() if t == entity_type.name
                           for s in ss[:1] if s.collection == collection and s.value is not None]
    inputs = CreateInputs(
        type_name=entity_type.name, id_field=entity_type.id_field, observed=observed, body=body,
        address=entity_type.address, collection=collection,
        path_args=path_args, started_at=exemplar.started_at, type_entities=type_entities,
        collection_entities=collection_entities or type_entities, other_calls=others, other_succeeded=succeeded,
        later_successes=successes, answered_calls=answered, made_identities=made_identities,
        type_paths={t.name: [t.collection_template] for t in ctx.view.types})
    return explain_create(ctx.ruleset, inputs)


def _answered_entity(call: Record, locator: Locator | None) -> dict[str, Any] | None:
    """The entity a call's own answer holds where the exemplar's held its entity; None elsewhere."""
    if locator is None or not call.response.is_json:
        return None
    found = locate(call.response.json_value, locator)
    return found if isinstance(found, dict) else None


def _made_identities(ctx: PlanContext, entity_type: EntityType, made: str) -> list[Any]:
    """The identities of the type's other entities the capture shows that the initial state did
    not hold: values the application drew while the capture ran, as it drew the exemplar's."""
    initial = {key for (type_name, _), keys in ctx.timeline.initial_ids.items() if type_name == entity_type.name
               for key in keys}
    found = []
    for (type_name, key), sightings in ctx.timeline.by_entity.items():
        if type_name != entity_type.name or key in initial or key == made:
            continue
        value = next((s.value[entity_type.id_field] for s in sightings
                      if s.value is not None and entity_type.id_field in s.value), None)
        if value is not None:
            found.append(value)
    return found
