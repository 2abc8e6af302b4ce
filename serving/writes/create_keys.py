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
from capenv.serving.reads.render import place
from capenv.serving.state.index import StateIndex

from .answers import answer_headers
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


def refuse_key_case_variant(plan: WritePlan, body: dict[str, Any], state: StateIndex, collection_path: str) -> None:
    """A create whose key members equal a held entity's only once letter case is set aside (``Later``
    beside the held ``later``): the capture shows the key matched as sent, not whether the application
    compares it ignoring case (a case-insensitive collation or constraint would answer the held entity,
    or refuse the create), so it is refused, never made as a second entity."""
    if plan.key is None or plan.type is None or any(m not in body for m in plan.key.members):
        return
    held = state.find_collection(collection_path, plan.type)
    if held is None:
        return
    for key in held.order:
        entity = held.entities[key]
        if all(m in entity and _alike_but_case(entity[m], body[m]) for m in plan.key.members):
            named = ", ".join(f"{m} {entity[m]!r}" for m in plan.key.members)
            raise WriteRefusal(f"the {plan.type} entity {held.ids.get(key, key)!r} holds {named}, which the call sends "
                               f"in another letter case: the application answers a create naming a held "
                               f"{', '.join(plan.key.members)} {plan.key.response.status} (record "
                               f"{plan.key.learned_from}), and no recorded call shows whether it compares them "
                               f"ignoring letter case; a {', '.join(plan.key.members)} no held entity has in any "
                               "letter case is accepted",
                               where={"collection": collection_path, "id": held.ids.get(key, key),
                                      "key": list(plan.key.members)})


def _alike_but_case(held: Any, sent: Any) -> bool:
    """Equal, or two texts equal once letter case is set aside."""
    return same_json(held, sent) or (isinstance(held, str) and isinstance(sent, str) and held.casefold() == sent.casefold())


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
    return WriteResult(response.status, response.content_type, answer_headers(response), body, True, None,
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
        clash = _clash(collection, key, updated, members, same_json)
        if clash is None and env.checks_references:  # the gate replays what the application did with each call
            variant = _clash(collection, key, updated, members, _alike_but_case)
            if variant is not None:
                shown = ", ".join(f"{m} {collection.entities[variant][m]!r}" for m in members)
                raise WriteRefusal(
                    f"another {plan.type} entity ({collection.ids.get(variant, variant)!r}) holds {shown}, which this "
                    f"update sends in another letter case: the application refuses a second entity with one (record "
                    f"{create.key.learned_from}), and no recorded call shows whether it compares them ignoring letter "
                    "case; a value no other entity holds in any letter case is accepted",
                    where={"collection": collection.path, "id": collection.ids.get(variant, variant),
                           "key": list(members)})
        if clash is not None:
            named = ", ".join(f"{m} {updated[m]!r}" for m in members)
            raise WriteRefusal(f"another {plan.type} entity ({collection.ids.get(clash, clash)!r}) holds {named}: the "
                               f"application refuses a second one (record {create.key.learned_from} answered "
                               f"{create.key.response.status}), so this update, which would make two, is refused; "
                               f"send another {', '.join(members)}", kind="conflict",
                               where={"collection": collection.path, "id": collection.ids.get(clash, clash),
                                      "key": list(members)})


def _clash(collection: Any, key: str, updated: dict[str, Any], members: tuple[str, ...], equal: Any) -> str | None:
    """Another entity of the collection whose ``members`` are ``equal`` to the updated entity's."""
    return next((k for k in collection.order if k != key and all(
        m in collection.entities[k] and equal(collection.entities[k][m], updated[m]) for m in members)), None)
