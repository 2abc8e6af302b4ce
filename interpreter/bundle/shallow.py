"""A type whose item path lies outside its collections (``EntityType.shallow_items``: shallow
nesting, ``/versions/{id}`` beside ``/projects/{p}/versions``): which paths are at its item path
and the id they name, as both sides read them. Which collection holds that id is the state's
(``serving/state/shallow``) or, before any state, the timeline's last sighting of it."""

from __future__ import annotations

from .models import EntityType
from .paths import split_path


def at_item_path(path: str, entity_type: EntityType) -> bool:
    """Whether a shallow type's path is at or below its item path, not in a collection."""
    if not entity_type.shallow_items or not entity_type.item_template:
        return False
    item, parts = split_path(entity_type.item_template), split_path(path)
    return len(parts) >= len(item) and all(
        piece.startswith("{") or piece == part for piece, part in zip(item, parts))


def item_segment(path: str, entity_type: EntityType) -> str:
    """The raw path segment naming the entity at a shallow type's item path."""
    return split_path(path)[len(split_path(entity_type.item_template or "")) - 1]


def item_prefix(path: str, entity_type: EntityType) -> str:
    """The item path's own prefix, which names no collection of a shallow type (a missing entity)."""
    return "/" + "/".join(split_path(path)[:len(split_path(entity_type.item_template or "")) - 1])
