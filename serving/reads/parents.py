"""The entity an item path lies under (a user under /users/{name}/tokens/{id}): when the state
does not hold it, the application may answer the read otherwise than the absence it was seen
to answer for a missing child (JupyterHub: "No such user: x" where a missing token of a held
user answers "No such token a2 for user ada"), so the learned absence does not answer it
(docs/absence.md).

Nor does it answer an id the state holds under another parent, where ids are unique across
parents: an application may look the child up by its id alone and answer it whatever the
parent's segment says (Superset's annotations), or answer it missing; one absence recorded
under the right parent does not tell which, while one recorded for an id held under another parent
does (``view-absence-other-parents``)."""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.models import EntityType
from capenv.serving.read_call import CallRefused
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.values import decode_once
from capenv.serving.state.index import StateIndex
from capenv.interpreter.bundle.shallow import at_item_path, item_segment
from capenv.serving.state.shallow import holders, item_collection_path


def missing_parent(path: str, types: dict[str, EntityType], state: StateIndex, own: str | None = None, *,
                   unread: bool = True) -> str | None:
    """What the path names above its own entity that the state does not hold, or None. ``own``:
    the type of a read naming its entity by another key under a literal sub-path
    (``/variables/name/{name}``), whose literal is no entity of that type. ``unread``: whether a
    parent in a collection the state does not hold at all counts as missing (else only one its
    held collection lacks, which the state itself answers absent)."""
    above = _above(path, types, own)
    if not above:
        return None
    parts = above[0]
    for entity_type, item in above[1]:
        collection = state.find_collection(item_collection_path(state, "/" + "/".join(parts[:len(item)]), entity_type),
                                           entity_type.name)
        raw_id = parts[len(item) - 1]
        if collection is None and not unread:
            continue
        if collection is None or state.find_entity(collection, raw_id, entity_type.id_field,
                                                   entity_type.id_field, entity_type.either_key, entity_type.address) is None:
            return (f'the state holds no {entity_type.name} whose "{entity_type.id_field}" is '
                    f'"{decode_once(raw_id)}", which the path lies under')
    return None


_types_above: dict[int, tuple[dict[str, EntityType], dict[tuple[str, str | None], Any]]] = {}
"""id of a bundle's types -> (those types, kept so the id is not another's, and per (path, own) what
``_above`` answered): the path alone decides which item templates may lie above it, and every
served create and item read asks of its own path again."""


def _above(path: str, types: dict[str, EntityType], own: str | None) -> tuple[list[str], list[Any]] | None:
    """The path's segments and each type (with its item template's segments) whose item path is
    a proper prefix of the path, or None when no type's is: what ``missing_parent`` looks up in
    the state, worked out once per path."""
    held = _types_above.get(id(types))
    if held is None or held[0] is not types:
        if len(_types_above) >= 64:
            _types_above.clear()
        held = _types_above[id(types)] = (types, {})
    memo = held[1]
    key = (path, own)
    if key in memo:
        return memo[key]
    parts = split_path(path)
    found = []
    for entity_type in types.values():
        template = entity_type.item_template
        if not template or own is not None and entity_type.name == own:
            continue
        item = _segments(template)
        if len(item) >= len(parts) or not all(
                piece.startswith("{") or piece == part for piece, part in zip(item, parts)):
            continue
        found.append((entity_type, item))
    if len(memo) >= 4096:
        memo.clear()
    answer = memo[key] = (parts, found) if found else None
    return answer


_split_templates: dict[str, list[str]] = {}
"""An item template -> its segments: every served create asks of each type's (never edited)."""


def _segments(template: str) -> list[str]:
    segments = _split_templates.get(template)
    if segments is None:
        if len(_split_templates) >= 4096:
            _split_templates.clear()
        segments = _split_templates[template] = split_path(template)
    return segments


def unheld_collection(collection_path: str, entity_type: EntityType, state: StateIndex) -> str | None:
    """Why the learned absence does not answer an id of a type collected per parent (its collection
    template names a path value: bindings per vhost, exchange and queue) in a collection the state
    does not hold: the capture never read that collection, nor did a served write make it, so
    whether the application holds the entity there is not the state's to say (RabbitMQ's staging
    bindings, never listed, were answered missing once the one binding of that key the state held,
    in another vhost, was deleted). None for a type with one collection, or whose item path lies
    outside its collections (shallow: the id alone names it), or when the collection is held."""
    if "{" not in entity_type.collection_template or entity_type.shallow_items is not None:
        return None
    if state.find_collection(collection_path, entity_type.name) is not None:
        return None
    return (f"the state holds no {entity_type.name} collection at {collection_path} (the capture "
            "never read it and no served write made it), so what the application holds there is not known")


def untracked_type(entity_type: EntityType, state: StateIndex) -> str | None:
    """Why the learned absence does not answer a replayed item read of a type the state holds no
    collection of at all: the capture never read a list of it, no read of the initial window put
    one of its entities in the state and no served write made one, so an id no recording names
    may be one the application holds (Zou's entity types: /data/entity-types/{id} read only for a
    type the capture made, then deleted; a seeded type's id was answered the deleted one's 404).
    None once any collection of the type is held: there the state speaks for the type."""
    if next(iter(state.collections_of(entity_type.name)), None) is not None:
        return None
    return (f"the state holds no {entity_type.name} at all (the capture never listed them, no read of its "
            "first window showed one and no served write made one), so whether the application holds this "
            "one is not known; the ids its recordings name are answered as recorded")


def refuse_held_elsewhere(path: str, entity_type: EntityType, raw_id: str, field: str, state: StateIndex, *,
                          scoped: bool = False) -> None:
    """Refuse a read of an id no collection under this path's parent holds when another collection
    of the type does, unless ids are scoped per parent: an id held under two parents as two
    different entities (per-project numbers) names another entity under each, and there the
    absence stands. The same entity held under two parents (every field both hold alike: one
    may hold what a list showed and the other only an item read) is one entity the capture read
    through both, as an application looking it up by its id alone answers it. ``scoped``: the capture
    recorded the application answering another parent's id missing (``ReadView.other_parent_absence``),
    so the absence stands."""
    if field != entity_type.id_field or scoped:
        return
    own, seen, holder = split_path(path)[:-1], {}, None
    collections = list(state.collections_of(entity_type.name))
    for collection in collections:
        if len(collections) > 1:  # one collection holds each id once: nothing to compare
            for key, entity in collection.entities.items():
                first = seen.setdefault(key, entity)
                if first is not entity and not _agree(first, entity):
                    return  # one id, two entities: ids are the parent's own
        if holder is None and split_path(collection.path) != own and state.find_entity(
                collection, raw_id, field, entity_type.id_field, entity_type.either_key, entity_type.address) is not None:
            holder = collection.path
    if holder is not None:
        raise CallRefused(f'the state holds no {entity_type.name} whose "{field}" is "{decode_once(raw_id)}" under '
                          f"this path's parent, but holds one under {holder}, and the capture does not show whether "
                          "the application answers it here (looking it up by its id alone) or answers it missing; "
                          f"read it at {holder.rstrip('/')}/{raw_id}",
                          http_status=404)


def _agree(one: dict, other: dict) -> bool:
    return all(one[name] == other[name] for name in one.keys() & other.keys())


def refuse_unlike_holders(state: StateIndex | None, path: str, entity_type: EntityType,
                          field: str | None = None) -> None:
    """Refuse an item read of a shallow type's id that two held collections hold as entities that
    differ: the path names one entity by its id alone, and which one the application answers is
    not the state's to say."""
    if not at_item_path(path, entity_type):
        return
    found = holders(state, path, entity_type, field)
    if len(found) < 2 or state is None:
        return
    raw_id = item_segment(path, entity_type)
    values = [state.find_entity(c, raw_id, field or entity_type.id_field, entity_type.id_field,
                                entity_type.either_key, entity_type.address)[1] for c in found]
    if any(value != values[0] for value in values[1:]):
        raise CallRefused(f"{len(found)} {entity_type.name} collections ({', '.join(c.path for c in found[:3])}) "
                          f"hold an entity {raw_id!r} and they differ: this path names one by its id alone, so "
                          "it names none of them; read it in one of those collections", http_status=409)


def held_parent(path: str, entity_type: EntityType, state: StateIndex) -> dict | None:
    """The entity of ``entity_type`` the path lies below, as the state holds it (None when the path
    lies below no item of the type, or the state does not hold the one it names)."""
    parts, item = split_path(path), _segments(entity_type.item_template or "")
    if not item or len(item) >= len(parts) or not all(
            piece.startswith("{") or piece == part for piece, part in zip(item, parts)):
        return None
    collection = state.find_collection(item_collection_path(state, "/" + "/".join(parts[:len(item)]), entity_type),
                                       entity_type.name)
    found = None if collection is None else state.find_entity(
        collection, parts[len(item) - 1], entity_type.id_field, entity_type.id_field, entity_type.either_key, entity_type.address)
    return None if found is None else found[1]
