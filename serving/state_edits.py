"""Edits of a ``StateIndex``: insert, replace and remove entities, set documents.

Writes compute everything first and edit last, so a refused write never leaves a partial edit.
"""

from __future__ import annotations

from typing import Any

from .state_index import HeldCollection, StateIndex, key_of


def ensure_collection(state: StateIndex, path: str, type_name: str, args: dict[str, str]) -> HeldCollection:
    if path not in state.collections:
        state.collections[path] = HeldCollection(path, type_name, dict(args))
    return state.collections[path]


def insert_entity(collection: HeldCollection, entity_id: Any, value: dict[str, Any], index: int) -> str:
    key = key_of(entity_id)
    collection.entities[key] = value
    collection.ids[key] = entity_id
    collection.order.insert(min(max(index, 0), len(collection.order)), key)
    collection.records.pop(key, None)
    return key


def replace_entity(collection: HeldCollection, key: str, value: dict[str, Any]) -> None:
    collection.entities[key] = value
    collection.records.pop(key, None)


def remove_entity(collection: HeldCollection, key: str) -> None:
    collection.entities.pop(key, None)
    collection.ids.pop(key, None)
    collection.records.pop(key, None)
    if key in collection.order:
        collection.order.remove(key)


def set_document(state: StateIndex, path: str, value: Any) -> None:
    state.documents[path] = value
    state.document_records.pop(path, None)
