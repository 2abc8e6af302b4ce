"""The entity an item read names, as serving names it (seeds: "The gate", "Reads": "an item read
of a state-backed item view, of the entity serving would name").

A view keyed by another field than the type's identity (a tag, a name) names its entity by that
field's value; the gate keeps its targets (pending writes, unknown entities, checks) by the
entity's identity, so the read's key is the identity of the entity serving's lookup finds
(``StateIndex.find_entity``, in the collection ``find_collection`` picks).
"""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.values import decode_once
from capenv.serving.state.index import StateIndex
from capenv.serving.state.shallow import item_collection_path


def named_entity(copy: StateIndex, path: str, entity_type: Any, read_view: Any) -> tuple[str, dict[str, Any]] | None:
    """(identity, entity) of the held entity an item read's path names, as serving's lookup
    finds it; None when the copy holds none."""
    held = copy.find_collection(item_collection_path(copy, path, entity_type, read_view.key_field), entity_type.name)
    if held is None:
        return None
    return copy.find_entity(held, split_path(path)[-1], read_view.key_field or entity_type.id_field,
                            entity_type.id_field, entity_type.either_key, entity_type.address)


def item_key(copy: StateIndex, path: str, entity_type: Any, read_view: Any, absent_key: str | None = None) -> str:
    """The identity of the entity the read names; when the copy holds none, for a read by another
    key recorded absent, ``absent_key`` (the entity the reads showed holding that key: its
    rename or delete is what the read shows), else the path's last segment decoded once (it then
    names no held entity)."""
    found = named_entity(copy, path, entity_type, read_view)
    if found is not None:
        return found[0]
    if absent_key is not None:  # recorded only for a read naming its entity by another key
        return absent_key
    return decode_once(split_path(path)[-1])


def held_entity(copy: StateIndex, path: str, entity_type: Any, read_view: Any) -> dict[str, Any] | None:
    """A copy of the held entity an item read's path names (None: the copy holds none)."""
    found = named_entity(copy, path, entity_type, read_view)
    return dict(found[1]) if found is not None else None


def by_other_key(read_view: Any, entity_type: Any) -> bool:
    """The view names its entity by a field other than the type's identity."""
    return bool(read_view.key_field) and read_view.key_field != entity_type.id_field
