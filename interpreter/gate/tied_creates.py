"""A later create outside the collection its tied plan permits (seeds: "The gate", "Writes": "A
later create outside the collection a tied plan permits is unmodelled, as serving refuses that
call, so a read of what it recorded does not confirm the plan. The gate picks that collection
among equal spellings in serving's order").

Serving decides whether it refuses the call for its path arguments, and which spelling of the
tied collection a create goes to (``collection_for_create``); a call whose own path names a
collection of the type wrote there, spelled as serving finds a collection (``find_collection``).
The gate asks serving rather than repeating either rule.
"""

from __future__ import annotations

from capenv.interpreter.bundle.models import WritePlan
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.view.extract import collection_path
from capenv.serving.state.index import StateIndex
from capenv.serving.writes.calls import WriteCall, WriteEnv, WriteRefusal
from capenv.serving.writes.create_collections import collection_for_create, path_arguments

from .findings import GateNote, Tracking
from .unmodelled import prefix, reach_collections


def outside_tied_collection(plan: WritePlan, record: Record, env: WriteEnv, copy: StateIndex) -> str | None:
    """When serving refuses this create for naming another collection than its tied one: the
    collection the call wrote in, spelled as serving picks it among equal spellings. That is the
    collection its own path names, when it names one of the type's; else (a linked create whose
    path names none) the tied collection, as serving would have created there. None when serving
    takes the call's path."""
    if plan.effect != "create" or not plan.collection or plan.type not in env.types:
        return None
    call = WriteCall(record.path, record.query, None)
    try:
        collection_for_create(plan, env, call, copy, path_arguments(plan.template, record.path))
        return None
    except WriteRefusal:
        pass
    entity_type = env.types[plan.type]
    parts, template = split_path(record.path), split_path(entity_type.collection_template)
    if len(parts) >= len(template) and prefix(parts, template):
        own = collection_path(record.path, entity_type)
        held = copy.find_collection(own, entity_type.name)
        return held.path if held is not None else own
    # with no arguments to compare, serving only picks the spelling it would create in
    return collection_for_create(plan, env, call, copy, {})[0]


def tied_note(plan: WritePlan, record: Record, collection: str) -> GateNote:
    return GateNote(record.ordinal, f"serving refuses this create outside {plan.collection} (path arguments other "
                    f"than the exemplar's), so it is a write no built plan models, at {collection}",
                    evidence={"collection": collection},
                    location="interpreter/gate/tied_creates.py:outside_tied_collection")


def unmodelled_in(collection: str, plan: WritePlan, record: Record, env: WriteEnv, copy: StateIndex,
                  track: Tracking) -> None:
    """The refused create may have made an entity there, as a write no built plan models at that
    collection's path: the collection is not checked again (``reach_collections``), the entity it
    made is taken from the first read showing it, and the collection remembers it as its latest
    unmodelled write."""
    track.creating_writes.append(record.ordinal)
    reach_collections(record, env.types[plan.type], [collection], copy, track, "at the collection it created in")
