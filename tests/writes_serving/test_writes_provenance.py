"""Provenance on every answer (write-effects "Provenance"): a served write answers with
``state: {source, view: create|update|delete, type, collection, id}``, a document write with
``{source, view: "document-write", path}``; an update or delete of a missing entity answers
``view: "missing"``; reads keep theirs (``state`` or ``replay``). Every served write tool of
every capture is called once with arguments built from its listed schema."""

from __future__ import annotations

import json
import random
import re

import pytest

from support.entity_refusals import refused_for_the_entity
from support.served import capture_names
from valid_arguments import (body_for, body_schema_for, deletable, name_the_bulk_ids, named_by,
                             no_accepted_reference_held, path_value, refused_under_absent_parent,
                             with_held_references, write_arguments)
from write_calls import accepted, refused, shown, unchanged_answer

from capenv.interpreter.bundle.global_ids import encode_global_id, global_id
from capenv.serving.runtime import EnvironmentRuntime

ENTITY_KEYS = {"source", "view", "type", "collection", "id"}


def served_writes(bundle) -> list:
    return [p for p in bundle.view.writes if p.served]


def target_of(runtime: EnvironmentRuntime, plan) -> tuple[str, object]:
    """(collection path, an entity id) of the plan's type in the current state."""
    state = json.loads(runtime.data_get())
    held = [{**c, "entities": deletable(plan, state, c)} for c in state["collections"] if c["type"] == plan.type]
    held = [c for c in held if c["entities"]]
    if plan.variants:  # a write dispatching on a collection segment: a collection a served value names
        served = [v.dispatch_args for v in plan.variants if v.served]
        held = [c for c in held if any(set(args.values()) <= set(c["path"].split("/")) for args in served)]
    if plan.effect == "document":
        return plan.document_path, None
    if plan.effect == "create":
        collection = plan.collection or next(t.collection_template for t in runtime.bundle.view.types
                                             if t.name == plan.type)
        return collection, None
    assert held, f"{plan.tool}: no {plan.type} entity to write"
    return held[0]["path"], held[0]["entities"][-1]["id"]


def holds_an_entity(runtime: EnvironmentRuntime, plan, rng: random.Random) -> bool:
    """For an update or delete: whether the state holds an entity of its type, after making one
    with a served create of the type when the initial state holds none (a capture whose lists
    start empty). False when no served create can make one: nothing to call the tool on."""
    state = json.loads(runtime.data_get())
    if plan.effect in ("create", "document") or any(
            c["type"] == plan.type and deletable(plan, state, c) for c in state["collections"]):
        return True
    if plan.effect == "delete" and any(c["type"] == plan.type and c["entities"] for c in state["collections"]):
        return False  # every held one is named by another entity: serving refuses to delete it
    creates = [c for c in served_writes(runtime.bundle) if c.effect == "create" and c.type == plan.type]
    if not creates:
        return False
    accepted(runtime, creates[0].tool, arguments_for(runtime, creates[0], rng))
    # the one it made may be one serving refuses to write (a copy another entity nests, named by a referrer)
    state = json.loads(runtime.data_get())
    return any(c["type"] == plan.type and deletable(plan, state, c) for c in state["collections"])


def arguments_for(runtime: EnvironmentRuntime, plan, rng: random.Random) -> dict:
    spec = next(s for s in runtime.tools() if s.name == plan.tool)
    collection, entity_id = target_of(runtime, plan)
    if entity_id is not None:  # the path names it by its id, or by a key member's value
        held = [e for c in json.loads(runtime.data_get())["collections"] if c["path"] == collection
                for e in c["entities"]]
        entity_id = named_by(plan, next(e for e in held if e["id"] == entity_id), runtime.bundle, collection)
    arguments = write_arguments(spec.input_schema, plan.template, collection, entity_id, rng, "provenance",
                                runtime.data_get())
    if plan.effect == "create" and plan.exemplar_args:  # a tied create names its own collection
        arguments.update(plan.exemplar_args)
        if "body" in arguments:  # the body of the collection named (a write dispatching on it)
            schema = with_held_references(spec.input_schema, runtime.data_get())
            arguments["body"] = body_for(body_schema_for(schema, arguments), rng, "provenance")
    name_the_bulk_ids(arguments, plan, runtime.data_get(), collection)
    return arguments


@pytest.mark.parametrize("capture", capture_names())
def test_every_served_write_answers_with_its_provenance(capture: str, bundle_of) -> None:
    bundle = bundle_of(capture)
    rng = random.Random(7)
    for plan in served_writes(bundle):
        runtime = EnvironmentRuntime(bundle)  # each write on the initial state
        if not holds_an_entity(runtime, plan, rng):
            continue
        collection, entity_id = target_of(runtime, plan)
        arguments = arguments_for(runtime, plan, rng)
        if no_accepted_reference_held(runtime, plan):
            before = runtime.data_get()
            assert runtime.call_tool(plan.tool, arguments).is_error and runtime.data_get() == before, plan.tool
            continue  # no held entity is one it accepts a reference to: refused, state unchanged
        if plan.effect == "create" and refused_under_absent_parent(runtime, plan.tool, arguments):
            continue  # the recorded call's parent was made by a write the initial state does not hold
        tried = runtime.call_tool(plan.tool, arguments)
        if plan.effect != "create" and tried.is_error and refused_for_the_entity(tried.structured.get("message")):
            continue  # the entity drawn cannot take it (a copy another entity holds, members it lacks)
        assert tried.is_error is False, shown((plan.tool, arguments, tried.structured))
        answer = tried.structured
        state = answer["state"]
        if plan.effect == "document":
            assert state == {"source": "state", "view": "document-write", "path": plan.document_path}, state
            continue
        assert set(state) == ENTITY_KEYS, (plan.tool, state)
        assert (state["source"], state["view"], state["type"]) == ("state", plan.effect, plan.type)
        if plan.effect != "create":
            assert (state["collection"], state["id"]) == (collection, entity_id), (plan.tool, state)
        else:
            held = json.loads(runtime.data_get())["collections"]
            ids = [e["id"] for c in held if c["path"] == state["collection"] for e in c["entities"]]
            assert state["id"] in ids, (plan.tool, state)


def missing_id_shaped_like(runtime: EnvironmentRuntime, type_name: str) -> str:
    """An id the state does not hold, of the shape of those it holds (an integer where every held id
    is one): an id of another shape is refused rather than given the learned absence."""
    held = [str(path_value(runtime.bundle, type_name, c["path"], e["id"]))  # as the item path carries it
            for c in json.loads(runtime.data_get())["collections"] if c["type"] == type_name for e in c["entities"]]
    if held and all(text.isdigit() and not text.startswith("0") for text in held):
        return "987654321"
    if held and all(len(text) == 36 and text.count("-") == 4 for text in held):
        return "00000000-0000-4000-8000-00000000abcd"
    prefixes = {decoded[0] if (decoded := global_id(text)) else None for text in held}
    if len(prefixes) == 1 and None not in prefixes:  # Relay global ids of one type (base64 of 'Label:3')
        return encode_global_id(prefixes.pop(), 987654321)
    return "no-such-entity-0000"


OTHER_SPELLING = re.compile(r"recorded for a call naming its entity by its '[^']+' \('([^']+)'\)")
"""A path taking either key answers a missing entity only in the spelling its absence was recorded
under (serving/view_absence): the refusal names the recorded missing value, which is then sent."""


def in_recorded_spelling(runtime: EnvironmentRuntime, tool: str, arguments: dict, last: str) -> dict:
    """``arguments`` naming the missing entity as the recorded absence did, when the first spelling is
    refused for naming it otherwise (the refusal leaves the state unchanged)."""
    answer = runtime.call_tool(tool, arguments)
    found = OTHER_SPELLING.search(answer.structured.get("message", "")) if answer.is_error else None
    return {**arguments, last: found.group(1)} if found else arguments


@pytest.mark.parametrize("capture", capture_names())
def test_a_missing_entity_answers_with_the_missing_view(capture: str, bundle_of) -> None:
    bundle = bundle_of(capture)
    rng = random.Random(8)
    for plan in served_writes(bundle):
        if plan.effect not in ("update", "delete"):
            continue
        runtime = EnvironmentRuntime(bundle)
        if not holds_an_entity(runtime, plan, rng):
            continue
        arguments = arguments_for(runtime, plan, rng)
        last = plan.template.rsplit("{", 1)[1].split("}")[0]
        arguments[last] = missing_id_shaped_like(runtime, plan.type)
        env = runtime.state_parts()[1].env
        # the tool's own recorded absence, else a sibling write's (WritePlan.absence_tool) answers it
        recorded_absence = plan.tool in env.tool_absences or plan.absence_tool in env.tool_absences
        if plan.missing_refused:
            # the method made a missing entity at another tool's item path (effect.update-beside-upsert):
            # it may make one here too, so a missing entity is refused, not answered missing
            assert "may make it" in refused(runtime, plan.tool, arguments)["message"]
            continue
        if plan.tool not in env.tool_absences and plan.effect in env.success_absences:
            # another write of its effect answered success for an id the state did not hold
            # (write-absence-answers): whether this one answers missing or done is not known; only the
            # tool's own recorded absence outweighs that, not a sibling's (serving/writes/execute)
            assert refused(runtime, plan.tool, arguments).get("kind") == "missing"
            continue
        if not recorded_absence and not env.view_absence_types.get(plan.type, env.view_absence_for_writes):
            # the capture shows the application's writes answering a missing entity otherwise than
            # its reads (view_absence.view_absence_answers_writes): refused as missing, capenv's own
            assert refused(runtime, plan.tool, arguments).get("kind") == "missing"
            continue
        if not recorded_absence and plan.type not in env.absences_by_type and plan.type not in env.missing_by_type:
            # no read of the type ever answered a missing one (doccano's texts): nothing recorded to answer with
            assert refused(runtime, plan.tool, arguments).get("kind") == "missing"
            continue
        learned_read = env.absences_by_type.get(plan.type)
        if not recorded_absence and learned_read is not None and any(not t.proven for t in learned_read[0].path_texts):
            # the read's absence answer names the recorded path's values in a text no other absence shows
            # filled otherwise (Glance's "ops not found in the member list of the image bc22…"): refused
            assert refused(runtime, plan.tool, arguments).get("kind") == "missing"
            continue
        answer = unchanged_answer(runtime, plan.tool, in_recorded_spelling(runtime, plan.tool, arguments, last))
        assert answer["state"]["source"] == "state" and answer["state"]["view"] == "missing"
        learned = bundle.view.write_absences.get(plan.tool)  # the app's own answer (Strapi's 204 delete)
        assert answer["state"]["type"] == plan.type
        # without a learned absence, the recorded one (403: an application hiding what it does not hold)
        assert answer["status"] == learned.status if learned is not None else answer["status"] in (400, 403, 404, 410)


def test_reads_keep_their_provenance_after_writes(runtime) -> None:
    accepted(runtime, "post_posts", {"body": {"title": "t", "author": "a", "views": 1, "published": True,
                                              "tags": []}})
    listing = accepted(runtime, "get_posts", {})["state"]
    assert listing == {"source": "state", "view": "list", "type": "posts", "collection": "/posts", "id": None}
    document = accepted(runtime, "get_profile", {})["state"]
    assert document["view"] == "document" and document["path"] == "/profile"
    replayed = accepted(runtime, "get_nonexistent", {})
    assert "state" not in replayed and replayed["replay"]["exact_match"] is True
