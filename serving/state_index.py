"""An in-memory, indexed copy of a state snapshot: what rendering reads and writes change.

The read gate replays the timeline on one; the serving runtime keeps one as its working copy
of the store. Collections keep their recorded spelling and their entities' order.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Iterator

from capenv.interpreter.bundle.models import CollectionState, DocumentState, Entity, StateSnapshot
from capenv.interpreter.manifest.models import split_path

from .render import decode_once, same_spelling


def key_of(value: Any) -> str:
    return str(value)


@dataclass
class HeldCollection:
    path: str
    type: str
    args: dict[str, str]
    order: list[str] = field(default_factory=list)
    entities: dict[str, dict[str, Any]] = field(default_factory=dict)
    ids: dict[str, Any] = field(default_factory=dict)
    records: dict[str, tuple[int, ...]] = field(default_factory=dict)
    maxima: dict[str, Any] = field(default_factory=dict)
    """Per field a sequence counts: the largest value it held (computed on first use, raised by
    every edit; a removal leaves it, as a sequence never goes back)."""

    def members(self) -> list[dict[str, Any]]:
        return [self.entities[k] for k in self.order]

    def ordered(self) -> "OrderedMembers":
        """The members in order without copying them (indexing walks ``order``)."""
        return OrderedMembers(self)


class OrderedMembers:
    """A read-only sequence view of a collection's members in order."""

    __slots__ = ("_collection",)

    def __init__(self, collection: HeldCollection) -> None:
        self._collection = collection

    def __len__(self) -> int:
        return len(self._collection.order)

    def __getitem__(self, index: int) -> dict[str, Any]:
        return self._collection.entities[self._collection.order[index]]

    def __iter__(self):
        return (self._collection.entities[k] for k in self._collection.order)


@dataclass
class StateIndex:
    evidence_id: str
    collections: dict[str, HeldCollection] = field(default_factory=dict)
    documents: dict[str, Any] = field(default_factory=dict)
    document_records: dict[str, tuple[int, ...]] = field(default_factory=dict)

    @classmethod
    def from_snapshot(cls, snapshot: StateSnapshot) -> "StateIndex":
        index = cls(snapshot.evidence_id)
        for held in snapshot.collections:
            collection = HeldCollection(held.path, held.type, dict(held.args))
            for entity in held.entities:
                key = key_of(entity.id)
                collection.order.append(key)
                collection.entities[key] = copy.deepcopy(entity.value)
                collection.ids[key] = entity.id
                collection.records[key] = entity.records
            index.collections[held.path] = collection
        for document in snapshot.documents:
            index.documents[document.path] = copy.deepcopy(document.value)
            index.document_records[document.path] = document.records
        return index

    def snapshot(self, *, citations: bool = True) -> StateSnapshot:
        collections = tuple(
            CollectionState(path=c.path, type=c.type, args=dict(c.args), entities=tuple(
                Entity(id=c.ids[k], value=c.entities[k], records=c.records.get(k, ()) if citations else ())
                for k in c.order))
            for c in self.collections.values())
        documents = tuple(DocumentState(path=p, value=v, records=self.document_records.get(p, ()) if citations else ())
                          for p, v in self.documents.items())
        return StateSnapshot(evidence_id=self.evidence_id, collections=collections, documents=documents)

    def copy(self) -> "StateIndex":
        return copy.deepcopy(self)

    def collections_of(self, type_name: str) -> Iterator[HeldCollection]:
        return (c for c in self.collections.values() if c.type == type_name)

    def find_collection(self, path: str, type_name: str) -> HeldCollection | None:
        """The held collection a path names, each segment verbatim or either spelling once
        percent-decoded (write-effects "Serving"). Among the spellings that fit, the one the path
        spells verbatim in more segments wins; when they fit equally, one holding entities wins
        (the earlier first entity in state order), then the earlier known among emptied ones.
        State order and the order collections became known are both this index's order, since a
        collection is added when first held and kept after its last entity is deleted."""
        exact = self.collections.get(path)
        if exact is not None and exact.type == type_name:
            return exact  # every segment verbatim: no other spelling fits as well
        parts = split_path(path)
        best: tuple[tuple[int, int, int], HeldCollection] | None = None
        for position, collection in enumerate(self.collections_of(type_name)):
            theirs = split_path(collection.path)
            if len(theirs) != len(parts) or not all(same_spelling(a, b) for a, b in zip(parts, theirs)):
                continue
            verbatim = sum(1 for a, b in zip(parts, theirs) if a == b)
            rank = (-verbatim, 0 if collection.order else 1, position)
            if best is None or rank < best[0]:
                best = (rank, collection)
        return best[1] if best is not None else None

    def find_entity(self, collection: HeldCollection, raw_id: str, field_name: str, id_field: str
                    ) -> tuple[str, dict[str, Any]] | None:
        """The entity a path segment names: the id decoded once, then as written."""
        for probe in (decode_once(raw_id), raw_id):
            if field_name == id_field:
                if probe in collection.entities:
                    return probe, collection.entities[probe]
            else:
                for key in collection.order:
                    value = collection.entities[key].get(field_name)
                    if value is not None and key_of(value) == probe:
                        return key, collection.entities[key]
        return None
