"""Every served create, update and delete of every capture passes a graded session of its own
(write-effects "Acceptance": "each served create/update/delete passes the same kind of graded
session"), not only the tools that happen to form a create-update-delete triple of one type.

In-process on one runtime per tool: the call is built from the tool's listed input schema, the
grader reads data/get before and after and allows exactly the change the call asked for, and
data/reset then gives the initial state back byte for byte."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from grader import ExpectedChange, grade
from support.served import built_capture, capture_names
from test_agent_graded_session import echoed, refused_for_this_entity, stamped
from valid_arguments import (CHOSEN_ID, amended, deletable, keep_held_keys, key_member, named_by,
                             no_accepted_reference_held, no_parent_in_an_accepted_state, refused_for_its_parent,
                             refused_under_absent_parent, value_for, write_arguments)

from capenv.interpreter.bundle.models import WritePlan
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.pipeline import build_bundle
from capenv.serving.runtime import EnvironmentRuntime

GRADED_EFFECTS = ("create", "update", "delete")


def fits(template: str, collection_path: str, *, item: bool, keyed: bool = False) -> bool:
    """Whether the collection path fills the template (plus an id segment for an item tool; for a
    write naming its entity by a key member, the literal segments before it set aside)."""
    wanted = [piece for piece in split_path(template) if piece]
    parts = [piece for piece in split_path(collection_path) if piece] + (["{id}"] if item else [])
    if keyed and len(wanted) > len(parts):
        wanted = wanted[:len(parts) - 1] + wanted[-1:]
    return len(wanted) == len(parts) and all(
        w.startswith("{") or w == p for w, p in zip(wanted, parts))


def collection_for(document: bytes, plan: WritePlan, template: str, *, shallow: bool = False) -> tuple[str, list[Any]]:
    """The first collection of the plan's type the tool can name, preferring one holding entities
    (for a delete with referrers, entities no held entity names: ``deletable``); a tied create names
    the one collection its plan permits. A shallow type's item path (``EntityType.shallow_items``,
    ``/versions/{id}`` beside ``/projects/{p}/versions``) names an entity in any of its collections."""
    item = plan.effect != "create" or creates_at_item(plan, template)
    if plan.collection is not None:
        return plan.collection, []
    after = plan.address.segments_after_item() if plan.address is not None else 0
    if after:  # an item write named by a verb after the item path (/rows/{id}/-/delete)
        template = "/" + "/".join(split_path(template)[:-after])
    state = json.loads(document)
    fitting = [(c["path"], [e["id"] for e in deletable(plan, state, c)]) for c in state["collections"]
               if c["type"] == plan.type and (shallow and item or fits(template, c["path"], item=item,
                                                                         keyed=key_member(plan) is not None))]
    if plan.variants:  # a write dispatching on a collection segment: a collection a served value names
        served = [v.dispatch_args for v in plan.variants if v.served]
        fitting = [f for f in fitting if any(set(args.values()) <= set(f[0].split("/")) for args in served)]
    held = [found for found in fitting if found[1]]
    assert fitting, f"{plan.tool}: no {plan.type} collection fits {template}"
    return (held or fitting)[0]


CREATE_AT_ITEM_RULES = ("effect.create-at-item", "effect.create-at-item-absent")
"""The write-effects rules of a create whose own path names the entity it makes."""


def creates_at_item(plan: WritePlan, template: str) -> bool:
    """A create whose own path names the entity it makes (effect.create-at-item, or a write answered
    200 at a path the capture showed absent just before: effect.create-at-item-absent)."""
    return plan.effect == "create" and any(
        e.rule_id in CREATE_AT_ITEM_RULES and e.outcome == "match" for e in plan.traces)


NEW_NAME = "graded-new-entity"
"""The identity a create at an item path is called with: a name the state does not hold."""


def new_name(schema: dict[str, Any], template: str, rng: random.Random) -> str:
    """``NEW_NAME``, or where the tool's schema holds the path's id to a shape (a client-chosen
    identity), a name of that shape, as an agent reading the schema would send."""
    param = split_path(template)[-1][1:-1]
    shaped = schema.get("properties", {}).get(param, {})
    return value_for(param, shaped, rng, "graded") if CHOSEN_ID.fullmatch(shaped.get("pattern", "")) else NEW_NAME


def graded_arguments(plan: WritePlan, schema: dict[str, Any], template: str, collection: str, target: Any,
                     rng: random.Random, before: bytes, bundle: Any = None) -> dict[str, Any]:
    """The tool's arguments naming ``target`` (by its key member's value where the path names one)."""
    named = target
    held = next((e for c in json.loads(before)["collections"] if c["path"] == collection
                 for e in c["entities"] if e["id"] == target), None)
    if held is not None:  # the path names the entity by a key member's value, or its address's segment
        named = named_by(plan, held, bundle, collection)
    arguments = write_arguments(schema, template, collection, named, rng, "graded", before)
    keep_held_keys(arguments.get("body"), plan, held)  # an object merge proven for none: sent whole
    return arguments


def call_amended(runtime: EnvironmentRuntime, tool: str, arguments: dict[str, Any], schema: dict[str, Any],
                 rng: random.Random) -> tuple[dict[str, Any], Any]:
    """The call, and once more with what its refusal asked for (``amended``)."""
    answer = runtime.call_tool(tool, arguments)
    if answer.is_error:
        retry = amended(arguments, schema, answer.structured.get("message", ""), rng, "graded")
        if retry is not None:
            arguments, answer = retry, runtime.call_tool(tool, retry)
    return arguments, answer


def make_an_entity(runtime: EnvironmentRuntime, bundle, plan: WritePlan, templates: dict[str, str],
                   schemas: dict[str, Any], rng: random.Random) -> bool:
    """The initial state holds no entity an update or delete could name (a capture whose lists
    start empty, or whose entities all have referrers a delete refuses): make one with a served create of the type first, as a user would; with none,
    there is nothing to grade the tool on, and the test says so instead of failing the capture."""
    creates = [c for c in bundle.view.writes if c.served and c.effect == "create" and c.type == plan.type]
    if not creates and plan.effect == "delete" and plan.referrers:
        refused_for_its_referrers(runtime, plan, templates[plan.tool], schemas[plan.tool], rng)
        return False
    if not creates:
        pytest.skip(f"{plan.tool}: the initial state holds no {plan.type} entity the tool may write (a delete"
                    " refuses those other held entities name) and no served create makes one")
    create = creates[0]
    collection, _ = collection_for(runtime.data_get(), create, templates[create.tool])
    new = new_name(schemas[create.tool], templates[create.tool], rng) if creates_at_item(
        create, templates[create.tool]) else None
    arguments = write_arguments(schemas[create.tool], templates[create.tool], collection, new, rng, "setup",
                                runtime.data_get())
    if create.collection is not None:
        arguments.update(create.exemplar_args)
        if refused_under_absent_parent(runtime, create.tool, arguments):
            pytest.skip(f"{plan.tool}: the served create of {plan.type} ({create.tool}) makes entities only under "
                        f"its exemplar's parent, which the initial state answers missing (refused, state unchanged)")
    answer = runtime.call_tool(create.tool, arguments)
    assert answer.is_error is False, (create.tool, arguments, answer.structured)
    return True


def refused_for_its_referrers(runtime: EnvironmentRuntime, plan: WritePlan, template: str, schema: dict[str, Any],
                              rng: random.Random) -> None:
    """A delete whose every held entity another held entity names (or a held document shows whole: a
    name lookup answering the entity), with no served create to make a free one: the agent's delete
    of a held entity is refused naming its referrers (plan.referrers) or the copy, and the state
    graded after it is unchanged."""
    before = runtime.data_get()
    state = json.loads(before)
    after = plan.address.segments_after_item() if plan.address is not None else 0
    item = "/" + "/".join(split_path(template)[:-after]) if after else template
    named = [(c["path"], e) for c in state["collections"] if c["type"] == plan.type
             and fits(item, c["path"], item=True, keyed=key_member(plan) is not None) for e in c["entities"]]
    assert named, f"{plan.tool}: the initial state holds no {plan.type} entity and no served create makes one"
    collection, entity = named[-1]
    target = named_by(plan, entity, runtime.bundle, collection)
    arguments = write_arguments(schema, template, collection, target, rng, "graded", before)
    answer = runtime.call_tool(plan.tool, arguments)
    assert answer.is_error, (plan.tool, arguments, answer.structured)
    assert re.search(r"held entit(y names|ies name) this ", answer.structured["message"]) \
        or refused_for_this_entity(True, answer.structured), answer.structured
    assert grade(before, runtime.data_get(), []) == []


def served_tools() -> list:
    params = []
    for capture in capture_names():
        bundle = built_capture(capture)
        for plan in bundle.view.writes:
            if plan.served and plan.type and plan.effect in GRADED_EFFECTS:
                params.append(pytest.param(bundle, plan, id=f"{capture}:{plan.tool}"))
    return params


@pytest.mark.parametrize("bundle,plan", served_tools())
def test_a_served_write_tool_is_graded_clean_from_data_get(bundle, plan: WritePlan) -> None:
    templates = {t.name: t.template for t in bundle.manifest.tools}
    runtime = EnvironmentRuntime(bundle)
    schemas = {spec.name: spec.input_schema for spec in runtime.tools()}
    schema = schemas[plan.tool]
    rng = random.Random(0)
    initial = before = runtime.data_get()
    shallow = any(t.name == plan.type and t.shallow_items and t.item_template == templates[plan.tool]
                  for t in bundle.view.types)
    collection, held = collection_for(before, plan, templates[plan.tool], shallow=shallow)
    if plan.effect != "create" and not held:
        if not make_an_entity(runtime, bundle, plan, templates, schemas, rng):
            return  # graded as refused for its referrers
        before = runtime.data_get()
        collection, held = collection_for(before, plan, templates[plan.tool], shallow=shallow)
        assert held, f"{plan.tool}: the served create made no {plan.type} entity at a path the tool names"
    target = held[-1] if plan.effect != "create" else new_name(schema, templates[plan.tool], rng) \
        if creates_at_item(plan, templates[plan.tool]) else None

    arguments = graded_arguments(plan, schema, templates[plan.tool], collection, target, rng, before,
                                     runtime.bundle)
    if no_accepted_reference_held(runtime, plan):
        answer = runtime.call_tool(plan.tool, arguments)
        assert answer.is_error and runtime.data_get() == before, (plan.tool, answer.structured)
        return  # graded as refused: no held entity is one it accepts a reference to
    if plan.collection is not None:  # a tied create serves only its exemplar's path arguments
        arguments.update(plan.exemplar_args)
        if refused_under_absent_parent(runtime, plan.tool, arguments):
            return  # graded as refused: the exemplar's parent was made by a write after the capture's reads
    arguments, answer = call_amended(runtime, plan.tool, arguments, schema, rng)
    if answer.is_error and plan.effect == "create" and refused_for_its_parent(json.dumps(answer.structured)) \
            and no_parent_in_an_accepted_state(runtime, plan):
        assert runtime.data_get() == before, plan.tool
        return  # graded as refused: no held parent is in a state a recorded create found its parent in
    if answer.is_error and plan.effect != "create" and refused_for_this_entity(True, answer.structured):
        # the held entity cannot take it (copied elsewhere, or lacking a member the answer shows, as
        # ZenML's listed-only tags): grade the tool on an entity a served create makes, as a user would
        earlier = set(map(str, held))
        if not make_an_entity(runtime, bundle, plan, templates, schemas, rng):
            return  # graded as refused for its referrers
        before = runtime.data_get()
        collection, held = collection_for(before, plan, templates[plan.tool], shallow=shallow)
        # the one the create made, wherever the collection lists it (a newest-first one lists it first)
        target = next((h for h in held if str(h) not in earlier), held[-1])
        arguments = graded_arguments(plan, schema, templates[plan.tool], collection, target, rng, before,
                                     runtime.bundle)
        arguments, answer = call_amended(runtime, plan.tool, arguments, schema, rng)
    assert answer.is_error is False, (plan.tool, arguments, answer.structured)
    state = answer.structured["state"]
    assert state["view"] == plan.effect, state

    sent = arguments.get("body") or {}
    if plan.effect == "create":
        expected = ExpectedChange("create", state["collection"], state["id"], echoed(plan, sent))
    elif plan.effect == "update":
        expected = ExpectedChange("update", state["collection"], target, echoed(plan, sent), stamped(plan, sent))
    else:
        expected = ExpectedChange("delete", state["collection"], target)
    assert grade(before, runtime.data_get(), [expected]) == []

    runtime.data_reset()
    assert runtime.data_get() == initial


def test_a_delete_on_a_type_the_initial_state_holds_none_of_is_graded_on_an_entity_it_creates(tmp_path):
    """A capture whose lists start empty (no entity to delete at first): the test makes one with
    the served create, then grades the delete on it, instead of failing the capture."""
    from support.har_builder import HarBuilder

    first, second = ({"id": n, "title": t, "body": f"the {t} note"} for n, t in ((1001, "first"), (1002, "second")))
    har = HarBuilder().call("GET", "/notes", response=[])
    for note in (first, second):
        har.call("POST", "/notes", body={"title": note["title"], "body": note["body"]}, status=201, response=note)
        har.call("GET", f"/notes/{note['id']}", response=note)
    (har.call("GET", "/notes", response=[first, second])
        .call("DELETE", "/notes/1001", response={})
        .call("GET", "/notes/1001", status=404, response={})
        .call("GET", "/notes", response=[second]))
    bundle = build_bundle(har.write(tmp_path / "notes.har"))
    plans = {p.effect: p for p in bundle.view.writes if p.served}
    assert {"create", "delete"} <= set(plans), [(p.tool, p.reason) for p in bundle.view.writes]
    assert all(not c["entities"] for c in json.loads(EnvironmentRuntime(bundle).data_get())["collections"])
    test_a_served_write_tool_is_graded_clean_from_data_get(bundle, plans["delete"])
