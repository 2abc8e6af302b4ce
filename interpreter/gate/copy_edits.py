"""Edits of the gate's copy that attribute nothing (seeds: "The gate", "Writes", "Reads"): the
entity a call recorded, a write the plan does not explain brought to that outcome, an item read
resynchronising the copy, and an entity an unmodelled write made taken from the read showing it."""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.insert import insert_index
from capenv.interpreter.bundle.models import WritePlan
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.shallow import at_item_path
from capenv.interpreter.bundle.values import locate
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.plans.link import ids_answered, names_id_alone
from capenv.interpreter.plans.location import location_id
from capenv.interpreter.plans.newly_listed import newly_listed, one_newly_listed
from capenv.interpreter.plans.timeline import Timeline, own_collection
from capenv.interpreter.view.extract import collection_path
from capenv.interpreter.view.views import is_absence
from capenv.serving.state.edits import ensure_collection, insert_entity, move_first, move_last, remove_entity, replace_entity
from capenv.serving.state.index import StateIndex, key_of
from capenv.serving.state.shallow import item_collection_path
from capenv.serving.writes.calls import WriteEnv

from .embed_checks import CreatedEntities
from .erasure import erase
from .findings import WHOLE, Tracking
from .unmodelled import prefix
from .write_checks import target_entity


def recorded_outcome(plan: WritePlan, record: Record, env: WriteEnv, timeline: Timeline) -> dict[str, Any] | None:
    """The entity this call recorded: its own answer when it carries the entity, else the first later read
    that shows it (for a create, of an id its answer returned)."""
    entity_type = env.types.get(plan.type or "")
    if plan.effect == "document" and plan.response is not None and plan.response.carries_entity \
            and record.response.is_json:  # the written object, as the call's answer shows it
        located = locate(record.response.json_value, plan.response.locator)
        return located if isinstance(located, dict) else None
    if entity_type is None:
        return None
    if plan.response is not None and plan.response.carries_entity and record.response.is_json:
        located = locate(record.response.json_value, plan.response.locator)
        if isinstance(located, dict):
            return located
    if plan.effect == "create":
        if record.response.is_json:
            return _created(record, entity_type, env, timeline)
        located = location_id(record) if plan.response is not None and plan.response.location is not None else None
        if located:
            return _first_showing([located[0]], False, record, entity_type, timeline)
        return _newly_listed_alone(record, entity_type, timeline)
    target = target_entity(plan, record, env, timeline)
    if target is None:
        return None
    sighting = timeline.first_after(entity_type.name, target[1], record.ordinal, via=("item",),
                                    collection=own_collection(record.path, entity_type))
    return sighting.value if sighting is not None else None


def _created(record: Record, entity_type: Any, env: WriteEnv, timeline: Timeline) -> dict[str, Any] | None:
    """A linked create's entity, observed only in a read of an id its answer returned at the top
    or in an envelope member: the first later item read of it, or the list read newly listing it
    alone (unless the answer named its id alone), as its plan is observed."""
    body = record.response.json_value
    envelopes = [v.locator for v in env.view.views
                 if v.kind == "item" and v.type == entity_type.name and v.locator is not None]
    return _first_showing(ids_answered(body, entity_type.id_field, envelopes), names_id_alone(body), record,
                          entity_type, timeline)


def _newly_listed_alone(record: Record, entity_type: Any, timeline: Timeline) -> dict[str, Any] | None:
    """A create answered with no body and no ``Location``: the one entity the first plain list read
    of its collection after it newly lists, with no other write between (as its plan is linked,
    ``create_plan._link_unnamed``), shown by its first later item read or that list."""
    sighting, _ = one_newly_listed(timeline, entity_type.name, record.ordinal,
                                   collection_path(record.path, entity_type))
    if sighting is None or timeline.seen_before(entity_type.name, sighting.key, record.ordinal,
                                                own_collection(record.path, entity_type)):
        return None
    return _first_showing([sighting.key], False, record, entity_type, timeline)


def _first_showing(keys: list[str], id_alone: bool, record: Record, entity_type: Any,
                   timeline: Timeline) -> dict[str, Any] | None:
    """The first later item read of one of ``keys``, or the list read newly listing it alone
    (unless the answer named its id alone); the ``Location`` of an empty answer names it alone."""
    own = own_collection(record.path, entity_type)  # ids repeat across the type's collections
    for key in keys:
        item = timeline.first_after(entity_type.name, key, record.ordinal, via=("item",), collection=own)
        listed = None if id_alone else newly_listed(
            timeline, entity_type.name, key, record.ordinal, collection=own,
            until=item.ordinal if item is not None else None)[0]
        seen = listed or item
        if seen is not None and seen.value is not None:
            return seen.value
    return None


def resync_item(record: Record, read_view: Any, entity_type: Any, copy: StateIndex, collection: str, key: str,
                absence_statuses: tuple[int, ...]) -> None:
    """After a failed check (or for an unknown entity) the copy takes the read's recorded values."""
    held = copy.find_collection(collection, entity_type.name)
    if is_absence(record, absence_statuses, read_view):
        if held is not None and key in held.entities:
            remove_entity(held, key)
        return
    located = locate(record.response.json_value, read_view.locator)
    if not isinstance(located, dict):
        return
    held = held or ensure_collection(copy, collection, entity_type.name, {})
    if key not in held.entities and key_of(located.get(entity_type.id_field, key)) in held.entities:
        key = key_of(located[entity_type.id_field])  # named by another key member: the held entity it shows
    if key in held.entities:
        # the copy takes the read's values; fields the view never shows are kept as held
        shown = set(read_view.shown_fields)
        merged = {k: v for k, v in held.entities[key].items() if shown and k not in shown}
        merged.update(located)
        replace_entity(held, key, merged)
    else:
        insert_entity(held, located.get(entity_type.id_field, key), dict(located), len(held.order))


def bring_to_outcome(plan: WritePlan, record: Record, env: WriteEnv, copy: StateIndex, timeline: Timeline,
                     track: Tracking) -> bool:
    """A modelled write whose call the plan does not explain brings its entity to the recorded
    outcome, without attribution; False when nothing shows the outcome. The outcome merges only
    what its answer showed: a field it leaves the entity lacking was lacking before (see
    ``refused_outcomes``)."""
    if plan.effect == "document" and plan.document_path:
        # the document's outcome is what its next read shows: that read resyncs the copy and checks
        # none of the writes before this call (their effect is erased), nor blames them
        target = ("document", plan.document_path)
        erase(track, target, {WHOLE}, before=record.ordinal)
        track.changed_by_unattributed[target] = record.ordinal
        return True
    entity_type = env.types.get(plan.type or "")
    if entity_type is None or plan.effect == "document":
        return False
    outcome = recorded_outcome(plan, record, env, timeline)
    if plan.effect == "delete":
        target = target_entity(plan, record, env, timeline)
        if target is None:
            return False
        for held in copy.collections_of(entity_type.name):
            if target[1] in held.entities:
                remove_entity(held, target[1])
            if entity_type.nested_ids:  # what lies under a path-like id may have gone with it: unknown
                track.unknown.update((entity_type.name, k) for k in held.entities if k.startswith(target[1] + "/"))
        track.touched.add(target)
        track.brought_keys[record.ordinal] = target[1]
        erase(track, ("entity", target[0], target[1]), {WHOLE}, before=record.ordinal)  # the whole entity
        return True
    if not isinstance(outcome, dict) or entity_type.id_field not in outcome:
        return False
    key = str(outcome[entity_type.id_field])
    own = item_collection_path(copy, record.path, entity_type)
    in_type = at_item_path(record.path, entity_type) or len(split_path(record.path)) >= len(
        split_path(entity_type.collection_template)) and prefix(split_path(record.path),
                                                             split_path(entity_type.collection_template))
    collection = own if in_type or not plan.collection else plan.collection
    held = copy.find_collection(collection, entity_type.name) or ensure_collection(copy, collection,
                                                                                 entity_type.name, {})
    if key in held.entities:
        merged = dict(held.entities[key])
        merged.update(outcome)
        replace_entity(held, key, merged)
        if plan.effect in ("update", "action") and plan.list_place == "moved-last":
            move_last(held, key)  # as serving lists an entity the plan updates
        elif plan.effect in ("update", "action") and plan.list_place == "moved-first":
            move_first(held, key)
    else:  # a create's entity where its plan orders the collection by identity (the recorded id alone
        # decides it; a clock order would place it by a clock the call may not have set), else last
        by_id = plan.effect == "create" and plan.insert is not None and plan.insert.field == entity_type.id_field
        index = insert_index(held.ordered(), outcome, plan.insert) if by_id else len(held.order)
        insert_entity(held, outcome[entity_type.id_field], dict(outcome), index)
    track.touched.add((entity_type.name, key))
    track.brought_keys[record.ordinal] = key
    erase(track, ("entity", entity_type.name, key), {WHOLE}, before=record.ordinal)  # a recorded outcome: every field
    track.changed_by_unattributed.update({("entity", entity_type.name, key): record.ordinal,
                                          ("collection", held.path): record.ordinal})
    return True


def takes_new_entity(record: Record, read_view: Any, env: WriteEnv, copy: StateIndex, track: Tracking) -> bool:
    """A successful item read of an entity the copy never held, after a write no built plan models
    (since that entity or its collection was last checked), shows that entity: the copy takes it."""
    if read_view.kind != "item" or not record.succeeded or not record.response.is_json:
        return False
    entity_type = env.types.get(read_view.type or "")
    if entity_type is None:
        return False
    located = locate(record.response.json_value, read_view.locator)
    if not isinstance(located, dict) or entity_type.id_field not in located:
        return False
    key = str(located[entity_type.id_field])
    if (entity_type.name, key) in track.touched:
        return False
    collection = item_collection_path(copy, record.path, entity_type, read_view.key_field)
    since = max(track.last_check.get(("entity", entity_type.name, key), 0),
                track.last_check.get(("collection", collection), 0))
    if not any(since < ordinal < record.ordinal for ordinal in track.creating_writes):
        return False
    resync_item(record, read_view, entity_type, copy, collection, key, env.absence_statuses)
    track.touched.add((entity_type.name, key))
    track.last_check[("entity", entity_type.name, key)] = record.ordinal  # a later change is measured from here
    return True


def remember_created(tool: str, applied: dict[tuple, set[str]], copy: StateIndex, created: CreatedEntities) -> None:
    for target in applied:
        if target[0] != "entity":
            continue
        for held in copy.collections_of(target[1]):
            if target[2] in held.entities:
                created.add(tool, target[2], held.entities[target[2]])


def written_values(applied: dict[tuple, set[str]], copy: StateIndex) -> tuple[tuple[tuple, dict[str, Any]], ...]:
    """Each entity target a modelled write changed, with its value as the write left it in the copy
    (a shallow copy: later writes edit the held entity)."""
    found = []
    for target in applied:
        if target[0] != "entity":
            continue
        for held in copy.collections_of(target[1]):
            if target[2] in held.entities:
                found.append((target, dict(held.entities[target[2]])))
                break
    return tuple(found)
