"""The collection an item path names its entity in, for every type: the path's own prefix, or for a
type whose item path lies outside its collections (``EntityType.shallow_items``: ``/versions/{id}``
beside ``/projects/{p}/versions``) the first held collection of the type holding that id, since the
application finds it by the id alone. Reads, writes and the gates take an item's collection here,
so a write at the item path changes the entity the parent's list shows."""

from __future__ import annotations

from capenv.interpreter.bundle.models import EntityType
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.shallow import at_item_path, item_prefix, item_segment

from .index import HeldCollection, StateIndex

__all__ = ["at_item_path", "holders", "item_collection_path"]


def _prefix(path: str, depth: int) -> str:
    return "/" + "/".join(split_path(path)[:depth])


def holders(state: StateIndex | None, path: str, entity_type: EntityType,
            field: str | None = None) -> list[HeldCollection]:
    """The held collections of a shallow type holding the entity its item path names (by ``field``,
    the identity unless the read names it by another key), in state order."""
    if state is None:
        return []
    raw_id = item_segment(path, entity_type)
    field = field or entity_type.id_field
    return [c for c in state.collections_of(entity_type.name)
            if state.find_entity(c, raw_id, field, entity_type.id_field, entity_type.either_key, entity_type.address) is not None]


def item_collection_path(state: StateIndex | None, path: str, entity_type: EntityType,
                         field: str | None = None) -> str:
    """The collection an item path (or a path below it) names its entity in, spelled as held: the
    path's prefix as deep as the collection template, or for a shallow type the first held
    collection holding the id, else the item path's own prefix, which names no collection of the
    type (the entity is missing)."""
    if not at_item_path(path, entity_type):
        return _prefix(path, len(split_path(entity_type.collection_template)))
    found = holders(state, path, entity_type, field)
    return found[0].path if found else item_prefix(path, entity_type)
