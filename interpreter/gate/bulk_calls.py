"""A recorded bulk call in the gate's replay (seeds: "Bulk writes", "Exemplar", "The gate").

Each entity the call names gets the effect as an item call would, through serving's own
``execute``, and is checked by the same reads. An entity the copy does not hold (or, for an
update, holds as unknown, whose update cannot be checked) leaves the call unmodelled there only:
that entity is unknown until a read shows it again, and the others are still modelled. A call
the plan does not explain (another query, a member the recorded calls did not send) leaves every
entity it names unmodelled, not the whole collection.
"""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.models import WritePlan
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.plans.bulk import applied_members
from capenv.serving.ops.sequence_state import SequenceState
from capenv.serving.state.index import StateIndex
from capenv.serving.writes.bulk import bulk_collection, bulk_items, bulk_key
from capenv.serving.writes.calls import (WriteCall, WriteEnv, WriteRefusal, unchecked_header_refusal,
                                         unchecked_header_sent)
from capenv.serving.writes.execute import execute

from .findings import WHOLE, GateNote, PlanFindings, Tracking
from .unmodelled import unmodelled

Targets = dict[tuple, set[str]]


def apply_bulk(plan: WritePlan, record: Record, env: WriteEnv, copy: StateIndex, sequences: SequenceState,
               counter: int, track: Tracking, findings: PlanFindings) -> Targets | None:
    """Apply a bulk call to the entities the copy holds; the targets it changed (None: none), and
    the entities it could not model left unknown."""
    entity_type = env.types[plan.type]
    body = record.request.json_value if record.request.is_json else None
    try:
        items = bulk_items(plan, entity_type, body)
    except WriteRefusal as refusal:
        # every successful call names its entities as the exemplar does (else the plan is not
        # built); a call that still does not names nothing the gate can tell apart
        findings.notes.append(GateNote(record.ordinal, f"the plan does not explain this call ({refusal.message})",
                                       location="interpreter/gate/bulk_calls.py:apply_bulk"))
        unmodelled(record, env, copy, track)
        return None
    collection = bulk_collection(env, plan, record.path, copy)
    kept, named = [], []
    for item in items:
        raw = bulk_key(plan, entity_type, item)
        found = copy.find_entity(collection, str(raw), entity_type.id_field, entity_type.id_field) \
            if collection is not None else None
        key = found[0] if found is not None else str(raw)
        named.append(key)
        if found is not None and not (plan.bulk_effect != "delete" and (entity_type.name, key) in track.unknown):
            kept.append((key, item))
    modelled = list(dict.fromkeys(key for key, _ in kept))
    targets: Targets | None = None
    if kept:
        try:
            header = unchecked_header_sent(plan, lambda name: record.header(name, response=False))
            if header is not None:  # serving refuses it before executing
                raise WriteRefusal(unchecked_header_refusal(header))
            execute(plan, env, WriteCall(record.path, record.query, _narrowed(plan, body, [i for _, i in kept])),
                    copy, instant=record.started_at, counter=counter, sequences=sequences)
        except WriteRefusal as refusal:
            findings.notes.append(GateNote(record.ordinal, f"the plan does not explain this call ({refusal.message}); "
                                           "the entities it names are unknown",
                                           location="interpreter/gate/bulk_calls.py:apply_bulk"))
            modelled = []
        else:
            targets = _targets(plan, entity_type.name, entity_type.id_field, collection.path, body, kept)
    left = [key for key in dict.fromkeys(named) if key not in modelled]
    if left and modelled:
        findings.notes.append(GateNote(record.ordinal, f"entities {', '.join(left)} are not held or unknown: the call "
                                       "is unmodelled there", evidence={"unmodelled_at": left},
                                       location="interpreter/gate/bulk_calls.py:apply_bulk"))
    _leave_unknown(record, entity_type.name, collection.path if collection is not None else None, left, track)
    return targets


def bulk_sent(applied: Targets, target: tuple) -> frozenset[str]:
    """What a bulk call sent an entity: the members it applied there (what a read showing that
    entity again checks)."""
    return frozenset(applied.get(target, set()) - {WHOLE})


def _narrowed(plan: WritePlan, body: Any, items: list[Any]) -> Any:
    """The body naming only the given ids or elements, as the call named them."""
    member = plan.address.member
    return {**body, member: items} if member else items


def _targets(plan: WritePlan, type_name: str, id_field: str, collection: str, body: Any,
             kept: list[tuple[str, Any]]) -> Targets:
    """Each written entity's effect, as an item call's: a delete's the whole entity, an update's
    the fields it applied there; the collection's, as an item call's on its collection."""
    targets: Targets = {}
    if plan.bulk_effect == "delete":
        for key, _ in kept:
            targets[("entity", type_name, key)] = {WHOLE}
        targets[("collection", collection)] = {WHOLE}
        return targets
    shown = applied_members(_narrowed(plan, body, [i for _, i in kept]), plan.address, id_field, plan.fields)
    for (key, _), (_, members) in zip(kept, shown):
        targets.setdefault(("entity", type_name, key), set()).update(members)
    targets[("collection", collection)] = set().union(*(t for t in targets.values()))
    return targets


def _leave_unknown(record: Record, type_name: str, collection: str | None, keys: list[str], track: Tracking) -> None:
    """The call is unmodelled at each of these entities only: each is unknown until a read shows it
    again, and this write is the latest unmodelled one to reach it and its collection."""
    for key in keys:
        track.unknown.add((type_name, key))
        track.latest_unmodelled[("entity", type_name, key)] = record.ordinal
        if collection is not None:
            track.latest_unmodelled[("collection", collection)] = record.ordinal
