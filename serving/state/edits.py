"""Edits of a ``StateIndex``: insert, replace and remove entities, set documents.

Writes compute everything first and edit last, so a refused write never leaves a partial edit.
Every entity edit goes through ``hold_entity`` or ``remove_entity``, which keep the collection's
caches (``maxima``, ``held_values``, ``member_counts``, ``nesting``) right.
"""

from __future__ import annotations

from typing import Any, Iterable

from capenv.serving.ops.sequence_state import largest_sequence, sequence_number

from .index import HeldCollection, StateIndex, key_of
from .key_facts import KeyFacts


def ensure_collection(state: StateIndex, path: str, type_name: str, args: dict[str, str]) -> HeldCollection:
    if path not in state.collections:
        state.collections[path] = HeldCollection(path, type_name, dict(args))
    return state.collections[path]


def insert_entity(collection: HeldCollection, entity_id: Any, value: dict[str, Any], index: int) -> str:
    key = key_of(entity_id)
    if key in collection.entities and key in collection.order:
        collection.order.remove(key)  # held already: it moves, never listed twice
    collection.unplaced.discard(key)
    hold_entity(collection, key, value)
    set_id(collection, key, entity_id)
    collection.order.insert(min(max(index, 0), len(collection.order)), key)
    collection.records.pop(key, None)
    return key


def replace_entity(collection: HeldCollection, key: str, value: dict[str, Any]) -> None:
    hold_entity(collection, key, value)
    collection.records.pop(key, None)


def move_last(collection: HeldCollection, key: str) -> None:
    """List ``key`` last: an update whose plan's ``list_place`` is ``moved-last`` changed it."""
    if key in collection.order and collection.order[-1] != key:
        collection.order.remove(key)
        collection.order.append(key)
    collection.unplaced.discard(key)


def move_first(collection: HeldCollection, key: str) -> None:
    """List ``key`` first: an update whose plan's ``list_place`` is ``moved-first`` changed it."""
    if key in collection.order and collection.order[0] != key:
        collection.order.remove(key)
        collection.order.insert(0, key)
    collection.unplaced.discard(key)


def mark_unplaced(collection: HeldCollection, key: str) -> None:
    """An update whose list place is unproven changed ``key`` while it was not last, or a create
    whose insert rule another member explains as well placed it."""
    collection.unplaced.add(key)


def remove_entity(collection: HeldCollection, key: str) -> None:
    removed = collection.entities.pop(key, None)
    _count_values(collection, removed, -1)
    if collection.member_counts is not None and removed is not None:
        _count_members(collection.member_counts, removed, -1)
    collection.records.pop(key, None)
    collection.unplaced.discard(key)
    if collection.nesting is not None:
        collection.nesting.discard(key)
    if collection.key_facts is not None and key in collection.ids:
        collection.key_facts.remove(key, collection.ids[key])
    collection.ids.pop(key, None)
    if key in collection.order:
        collection.order.remove(key)


def set_id(collection: HeldCollection, key: str, entity_id: Any) -> None:
    """Make ``entity_id`` the id of the entity ``key`` (keeps ``key_facts``)."""
    facts = collection.key_facts
    if facts is not None:
        if key in collection.ids:
            facts.remove(key, collection.ids[key])
        facts.add(key, entity_id)
    collection.ids[key] = entity_id


def facts_of(collection: HeldCollection) -> KeyFacts:
    """The collection's ``key_facts`` (cached)."""
    if collection.key_facts is None:
        collection.key_facts = KeyFacts.of(collection.ids, collection.order)
    return collection.key_facts


def hold_entity(collection: HeldCollection, key: str, value: dict[str, Any]) -> None:
    """Make ``value`` the entity ``key`` holds (its order, id and records are the caller's)."""
    before = collection.entities.get(key)
    if collection.held_values:  # else nothing to count (``_count_values``), without a call per edit
        _count_values(collection, before, -1)
        note_value(collection, value)
        _count_values(collection, value, 1)
    else:
        note_value(collection, value)
    if collection.member_counts is not None:
        if before is not None:
            _count_members(collection.member_counts, before, -1)
        _count_members(collection.member_counts, value, 1)
    if collection.nesting is not None:
        if holds_objects(value):
            collection.nesting.add(key)
        else:
            collection.nesting.discard(key)
    collection.entities[key] = value


def set_document(state: StateIndex, path: str, value: Any) -> None:
    state.documents[path] = value
    state.document_records.pop(path, None)


def note_value(collection: HeldCollection, value: dict[str, Any]) -> None:
    """Raise the collection's cached sequence maxima by an entity it now holds."""
    if not collection.maxima:
        return
    for name, largest in collection.maxima.items():
        number = sequence_number(value.get(name))
        if number is not None and (largest is None or number > largest):
            collection.maxima[name] = number


def largest_held(collection: HeldCollection, name: str) -> int | None:
    """The largest sequence value of a field the collection holds (cached, see ``maxima``)."""
    if name not in collection.maxima:
        collection.maxima[name] = largest_sequence(e.get(name) for e in collection.entities.values())
    return collection.maxima[name]


def values_held(collection: HeldCollection, name: str) -> dict[Any, int]:
    """A field's values the collection holds, with their counts (cached, see ``held_values``)."""
    counts = collection.held_values.get(name)
    if counts is None:
        counts = collection.held_values[name] = {}
        for entity in collection.entities.values():
            _count(counts, entity.get(name), 1)
    return counts


def members_held(collection: HeldCollection) -> dict[str, int]:
    """Per member name, how many of the collection's entities hold it (cached, see ``member_counts``)."""
    counts = collection.member_counts
    if counts is None:
        counts = collection.member_counts = {}
        for entity in collection.entities.values():
            _count_members(counts, entity, 1)
    return counts


def nesting_keys(collection: HeldCollection) -> set[str]:
    """Keys of the entities holding a nested object (cached, see ``nesting``)."""
    if collection.nesting is None:
        collection.nesting = {key for key, value in collection.entities.items() if holds_objects(value)}
    return collection.nesting


def holds_objects(value: dict[str, Any]) -> bool:
    """Whether an object is nested in ``value`` at any depth."""
    pending: list[Any] = list(value.values())
    while pending:
        child = pending.pop()
        if isinstance(child, dict):
            return True
        if isinstance(child, list):
            pending.extend(child)
    return False


def _count_members(counts: dict[str, int], entity: dict[str, Any], step: int) -> None:
    for name in entity:
        count = counts.get(name, 0) + step
        if count > 0:
            counts[name] = count
        else:
            counts.pop(name, None)


def _count_values(collection: HeldCollection, value: dict[str, Any] | None, step: int) -> None:
    if value is None or not collection.held_values:
        return
    for name, counts in collection.held_values.items():
        _count(counts, value.get(name), step)


def _count(counts: dict[Any, int], value: Any, step: int) -> None:
    if not isinstance(value, (str, int)):
        return
    spellings: Iterable[Any] = (value, value.lower()) if isinstance(value, str) else (value,)
    for spelled in spellings:
        count = counts.get(spelled, 0) + step
        if count > 0:
            counts[spelled] = count
        else:
            counts.pop(spelled, None)
