"""Bulk writes (write-effects "Bulk writes", "Bulk and action calls"): the entities a body names
under the plan's address, the collection its path names, and the one step that writes them
all or none. The gate reads the same helpers for a recorded bulk call
(``interpreter/gate/bulk_calls.py``)."""

from __future__ import annotations

import copy
from datetime import datetime
from typing import Any

from capenv.interpreter.bundle.jsonvalue import json_kind
from capenv.interpreter.bundle.models import EntityType, WritePlan
from capenv.interpreter.bundle.paths import split_path
from capenv.serving.ops.sequence_state import SequenceState
from capenv.serving.state.edits import remove_entity, replace_entity
from capenv.serving.state.index import HeldCollection, StateIndex

from .answers import render_answer, write_result
from .calls import WriteCall, WriteEnv, WriteRefusal, WriteResult
from .checks import check_members
from .reference_copies import refuse_stale_copies, rewrite_copies
from .referrers import refuse_referenced
from .values import charge_growth, field_values, op_context

ONCE_PER_CALL_OPS = frozenset({"unique", "renewed"})
"""Ops one call draws once: a bulk update with such a rule writes one entity per call
(write-effects "Bulk and action calls")."""


def bulk_items(plan: WritePlan, entity_type: EntityType, body: Any) -> list[Any]:
    """The ids or elements the body names under the plan's address, in body order; refused when
    the body does not name them as the recorded calls did."""
    address = plan.address
    if address.member:
        items = body.get(address.member) if isinstance(body, dict) else None
    else:
        items = body
    if not isinstance(items, list) or not items:
        where = f'member "{address.member}"' if address.member else "the body"
        raise WriteRefusal(f"{where} must be a non-empty array of {address.by} ({address.kind or 'objects'})")
    if address.by == "ids" and not all(json_kind(i) == address.kind for i in items):
        raise WriteRefusal(f"every id must be a JSON {address.kind}, as recorded")
    if address.by == "elements" and not all(isinstance(i, dict) and entity_type.id_field in i for i in items):
        raise WriteRefusal(f"every element must be an object holding {entity_type.id_field!r}")
    return items


def bulk_key(plan: WritePlan, entity_type: EntityType, item: Any) -> Any:
    """The raw id an id or element names."""
    return item[entity_type.id_field] if plan.address.by == "elements" else item


def bulk_collection(env: WriteEnv, plan: WritePlan, path: str, state: StateIndex) -> HeldCollection | None:
    """The held collection a bulk call's path names: its type's collection, or the one a path
    named by the type's singular or plural (/messages for /message) writes."""
    entity_type = env.types[plan.type]
    template = split_path(entity_type.collection_template)
    parts = split_path(path)
    collection = state.find_collection("/" + "/".join(parts[:len(template)]), entity_type.name)
    if collection is None and len(parts) >= len(template):
        inflected = parts[:len(template) - 1] + [template[-1]]
        collection = state.find_collection("/" + "/".join(inflected), entity_type.name)
    return collection


def _check_bulk_members(plan: WritePlan, entity_type: EntityType, body: Any, items: list[Any],
                        max_nesting: int) -> None:
    """A body member, or an element's, that the recorded calls did not send is refused."""
    if isinstance(body, dict):
        check_members(plan, body, max_nesting)
    if plan.address.by == "elements":
        accepted = {entity_type.id_field} | {r.params.get("member", r.field) for r in plan.fields}
        for item in items:
            extra = sorted(set(item) - accepted)
            if extra:
                raise WriteRefusal(f"element member(s) {', '.join(extra)} are not accepted; an element accepts: "
                                   f"{', '.join(sorted(accepted))}")


def write_bulk(plan: WritePlan, env: WriteEnv, call: WriteCall, state: StateIndex, body: Any, instant: datetime,
               counter: int, sequences: SequenceState, limit_check: Any) -> WriteResult:
    """Every named entity gets the effect as an item call would, in one step: a call naming an
    entity the state does not hold changes none of them. The answer's provenance names every
    entity written, once each in body order (``ids``), ``id`` the first."""
    entity_type = env.types[plan.type]
    items = bulk_items(plan, entity_type, body)
    _check_bulk_members(plan, entity_type, body, items, env.view.budgets.max_nesting)
    collection = bulk_collection(env, plan, call.path, state)
    targets: list[tuple[str, Any]] = []
    for item in items:
        raw = bulk_key(plan, entity_type, item)
        found = state.find_entity(collection, str(raw), entity_type.id_field, entity_type.id_field) if collection else None
        if found is None:
            raise WriteRefusal(f"no {entity_type.name} entity {raw!r} is held; the call changes none of them",
                               kind="missing")
        targets.append((found[0], item))
    keys = list(dict.fromkeys(key for key, _ in targets))  # an entity named twice is written once, in place
    drawn = sorted({r.field for r in plan.fields if r.op in ONCE_PER_CALL_OPS})
    if plan.bulk_effect != "delete" and drawn and len(keys) > 1:
        raise WriteRefusal(f"this bulk update writes one entity per call, since one call draws its unique or "
                           f"renewed value(s) ({', '.join(drawn)}) once; the call names {len(keys)} entities")
    if plan.bulk_effect == "delete" and plan.referrers and env.checks_references:
        for key in keys:
            refuse_referenced(plan, state, key, collection.entities[key], entity_type.id_field, frozenset(keys))
    ids = [collection.ids.get(key, key) for key in keys]
    written = {key: dict(collection.entities[key]) for key in keys}
    if plan.bulk_effect != "delete":
        drafts = []
        for key, item in targets:  # an entity named twice takes each of its elements in turn
            member_body = item if plan.address.by == "elements" else (
                {k: v for k, v in body.items() if k != plan.address.member} if isinstance(body, dict) else {})
            ctx, draft = op_context(plan, state, member_body, instant, counter, sequences, collection.path,
                                    dict(collection.args), written[key])
            values = field_values(plan, ctx, None)
            written[key] = {**written[key], **values}
            if plan.reference_copies:  # a re-pointed reference takes its copy from the entity it names now
                written[key].update(rewrite_copies(plan, state, collection.entities[key], values, written[key]))
            if plan.copied_by and env.checks_references:  # held entities copying a member it changes
                refuse_stale_copies(plan, state, key, collection.entities[key], written[key])
            drafts.append(draft)
        # one step: the state must hold every entity's growth together
        charge_growth(limit_check, [collection.entities[key] for key in keys], [written[key] for key in keys])
        for draft in drafts:
            draft.commit()
    for key in keys:
        if plan.bulk_effect == "delete":
            remove_entity(collection, key)
        else:
            replace_entity(collection, key, written[key])
    response, is_json, text = _bulk_answer(plan, entity_type, [written[key] for key in keys])
    return write_result(plan, response, is_json, text, {"source": "state", "view": plan.bulk_effect or "update",
                                                        "type": plan.type, "collection": collection.path,
                                                        "id": ids[0], "ids": ids}, keys)


def _bulk_answer(plan: WritePlan, entity_type: EntityType, entities: list[dict[str, Any]]
                 ) -> tuple[Any, bool, str | None]:
    """The recorded answer; an answer with one element per id shows each written entity as its
    first element showed the first: that element's members, the entity's values where it holds them."""
    recorded = plan.response.body if plan.response is not None else None
    if not (isinstance(recorded, list) and recorded and isinstance(recorded[0], dict)):
        return render_answer(plan, None)
    first = recorded[0]
    return [{name: copy.deepcopy(entity.get(name, value)) for name, value in first.items()}
            for entity in entities], True, None
