"""A create with a key (``WritePlan.key``): a call whose key members equal a held entity's
same-named fields gets that entity, unchanged, answered as the recording that taught the key
answered it (its status, the entity rendered from the state) on the ``get`` branch (a
get-or-create), or is refused as a conflict on the ``conflict`` branch (the application answered
such a call 409); any other call creates. The plan learned the key from a recorded call (``interpreter/plans/get_or_create.py``),
and the gate proved both branches on the capture's timeline."""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.models import WritePlan
from capenv.interpreter.bundle.values import same_json
from capenv.serving.reads.entity_headers import state_headers
from capenv.serving.reads.render import place
from capenv.serving.state.index import StateIndex

from .calls import WriteEnv, WriteRefusal, WriteResult


def held_by_key(plan: WritePlan, env: WriteEnv, body: dict[str, Any], state: StateIndex,
                collection_path: str) -> tuple[str, dict[str, Any]] | None:
    """The held entity of the collection the create goes to whose fields equal every key member
    the call sent, as a (key, entity) pair; None when the plan has no key or none is held."""
    if plan.key is None or plan.type is None:
        return None
    held = state.find_collection(collection_path, plan.type)
    if held is None or any(m not in body for m in plan.key.members):
        return None
    for key in held.order:
        entity = held.entities[key]
        if all(m in entity and same_json(entity[m], body[m]) for m in plan.key.members):
            return key, entity
    return None


def answer_held(plan: WritePlan, env: WriteEnv, collection_path: str, key: str,
                entity: dict[str, Any]) -> WriteResult:
    """The held entity in the key's recorded answer (nothing is written), or the conflict refusal."""
    id_field = env.types[plan.type].id_field
    if plan.key.branch == "conflict":
        named = ", ".join(f"{m} {entity[m]!r}" for m in plan.key.members)
        raise WriteRefusal(f"a {plan.type} entity with {named} is held ({id_field} {entity.get(id_field, key)!r}): "
                           f"the application answers such a create {plan.key.response.status} (record "
                           f"{plan.key.learned_from}) and makes no second one; send another "
                           f"{', '.join(plan.key.members)}", kind="conflict",
                           where={"collection": collection_path, "id": entity.get(id_field, key),
                                  "key": list(plan.key.members)})
    response = plan.key.response
    body = place(response.body, response.locator, dict(entity)) if response.locator else dict(entity)
    return WriteResult(response.status, response.content_type, state_headers(response.headers), body, True, None,
                       {"source": "state", "view": "get", "type": plan.type, "collection": collection_path,
                        "id": entity.get(id_field, key), "key": list(plan.key.members)}, [])


def refuse_key_clash(plan: WritePlan, env: WriteEnv, collection: Any, key: str, updated: dict[str, Any]) -> None:
    """An update that would give its entity the key another entity of the collection holds, where
    the type's create learned that key on its conflict branch (the application refuses a second
    entity with it, record ``learned_from``): refused, since the application would refuse it too
    or do what the capture never shows, never two entities holding one key."""
    for create in env.conflict_creates.get(plan.type, ()):
        members = create.key.members
        if not all(m in updated for m in members):
            continue
        clash = next((k for k in collection.order if k != key and all(
            m in collection.entities[k] and same_json(collection.entities[k][m], updated[m]) for m in members)), None)
        if clash is not None:
            named = ", ".join(f"{m} {updated[m]!r}" for m in members)
            raise WriteRefusal(f"another {plan.type} entity ({collection.ids.get(clash, clash)!r}) holds {named}: the "
                               f"application refuses a second one (record {create.key.learned_from} answered "
                               f"{create.key.response.status}), so this update, which would make two, is refused; "
                               f"send another {', '.join(members)}", kind="conflict",
                               where={"collection": collection.path, "id": collection.ids.get(clash, clash),
                                      "key": list(members)})
