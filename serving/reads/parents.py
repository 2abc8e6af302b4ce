"""The entity an item path lies under (a user under /users/{name}/tokens/{id}): when the state
does not hold it, the application may answer the read otherwise than the absence it was seen
to answer for a missing child (JupyterHub: "No such user: x" where a missing token of a held
user answers "No such token a2 for user ada"), so the learned absence does not answer it
(docs/absence.md)."""

from __future__ import annotations

from capenv.interpreter.bundle.models import EntityType
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.values import decode_once
from capenv.serving.state.index import StateIndex


def missing_parent(path: str, types: dict[str, EntityType], state: StateIndex, own: str | None = None) -> str | None:
    """What the path names above its own entity that the state does not hold, or None. ``own``:
    the type of a read naming its entity by another key under a literal sub-path
    (``/variables/name/{name}``), whose literal is no entity of that type."""
    parts = split_path(path)
    for entity_type in types.values():
        if not entity_type.item_template or entity_type.name == own:
            continue
        item = split_path(entity_type.item_template)
        if len(item) >= len(parts) or not all(
                piece.startswith("{") or piece == part for piece, part in zip(item, parts)):
            continue
        collection = state.find_collection("/" + "/".join(parts[:len(item) - 1]), entity_type.name)
        raw_id = parts[len(item) - 1]
        if collection is None or state.find_entity(collection, raw_id, entity_type.id_field,
                                                   entity_type.id_field, entity_type.either_key) is None:
            return (f'the state holds no {entity_type.name} whose "{entity_type.id_field}" is '
                    f'"{decode_once(raw_id)}", which the path lies under')
    return None
