"""Paths related through an entity they spell otherwise (seeds: "Not modelled": side effects): a
write at ``/projects/2`` and a read of ``/projects/gemini/versions`` name one project when the
type's item path takes either its identity or another key member (``EitherKey``) and the copy's
entity 2 holds ``gemini`` there. ``related_paths`` compares spellings only; a rename there may
change what the read answers as much as one spelled alike."""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.paths import split_path
from capenv.serving.state.index import StateIndex


def _named(path: str, entity_type: Any, copy: StateIndex) -> str | None:
    item = split_path(entity_type.item_template or "")
    parts = split_path(path)
    if not item or len(parts) < len(item) or not all(
            piece.startswith("{") or piece == part for piece, part in zip(item, parts)):
        return None
    held = copy.find_collection("/" + "/".join(parts[:len(item) - 1]), entity_type.name)
    found = copy.find_entity(held, parts[len(item) - 1], entity_type.id_field, entity_type.id_field,
                             entity_type.either_key, entity_type.address) if held is not None else None
    return found[0] if found is not None else None


def same_entity_spelled_otherwise(write_path: str, read_path: str, types: dict[str, Any], copy: StateIndex) -> bool:
    """Whether both paths lie at or below the item path of one entity of a type whose item path
    takes either key, each spelling it its own way."""
    for entity_type in types.values():
        if entity_type.either_key is None or not entity_type.item_template:
            continue
        mine = _named(write_path, entity_type, copy)
        if mine is not None and mine == _named(read_path, entity_type, copy):
            return True
    return False
