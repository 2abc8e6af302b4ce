"""A process's copy of the state the store holds: the ``StateIndex`` reads render from, plus what
it takes to write it back subject by subject (each subject's revision, each entity's rank).

The mirror is built whole from one snapshot of the environment's subjects, or brought up to
date subject by subject (``apply``) with what another process committed. It never talks to
the store itself: ``catch_up.py`` decides what to read and when.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping
from typing import Any

from capenv.interpreter.bundle.jsonvalue import dumps
from capenv.serving.store import Stored
from capenv.serving.writes.generator_state import WriteMeta

from .edits import hold_entity, remove_entity, set_id
from .index import HeldCollection, KnownSpellings, StateIndex
from .ranks import InstalledRanks, Rank, rank_between, ranks_in_order
from .revisions import Revisions
from .subjects import (
    COLLECTION, DOCUMENT, ENTITY, KNOWN_ID, META_ID, Subjects, collection_state, document_state, entity_state,
    entity_subject_id, parse_entity_subject_id,
)

SubjectKey = tuple[str, str]


class StoreLayoutError(RuntimeError):
    """The store holds subjects this layout cannot place (an entity of a collection it lacks)."""


class StateMirror:
    def __init__(self, subjects: Subjects, index: StateIndex, meta: WriteMeta, position: int) -> None:
        self.subjects = subjects
        self.index = index
        self.meta = meta
        self.position = position  # meta's revision: the state's position in the log
        self.revisions = Revisions()
        self.entity_ranks: dict[str, dict[str, Rank] | InstalledRanks] = {}  # collection path -> key -> rank
        self.collection_ranks: dict[str, int] = {}
        self.document_ranks: dict[str, int] = {}

    # --- built whole --------------------------------------------------------------------

    @classmethod
    def from_snapshot(cls, subjects: Subjects, snapshot: Mapping[str, Mapping[str, Stored]]) -> StateMirror:
        """The mirror of one ``Store.snapshot(subjects.state_types())``; meta must be present."""
        meta_stored = snapshot.get(subjects.meta, {}).get(META_ID)
        if meta_stored is None:
            raise StoreLayoutError("the store holds no state for this environment")
        known_stored = snapshot.get(subjects.meta, {}).get(KNOWN_ID)
        meta = WriteMeta.from_json(meta_stored.state,
                                   KnownSpellings.from_json(known_stored.state) if known_stored else None)
        mirror = cls(subjects, StateIndex(meta.evidence_id, known=meta.known), meta, meta_stored.revision)
        mirror.revisions[(subjects.meta, META_ID)] = meta_stored.revision
        if known_stored is not None:
            mirror.revisions[(subjects.meta, KNOWN_ID)] = known_stored.revision
        collection_type, entity_type, document_type = (subjects.type_of(k) for k in (COLLECTION, ENTITY, DOCUMENT))
        for stored in sorted(snapshot.get(collection_type, {}).values(), key=lambda s: s.state["rank"]):
            state = stored.state
            mirror.index.collections[state["path"]] = HeldCollection(state["path"], state["type"], dict(state["args"]))
            mirror.collection_ranks[state["path"]] = state["rank"]
            mirror.entity_ranks[state["path"]] = {}
            mirror.revisions[(collection_type, stored.subject_id)] = stored.revision
        for stored in sorted(snapshot.get(entity_type, {}).values(), key=lambda s: s.state["rank"]):
            state = stored.state
            collection = mirror.index.collections.get(state["collection"])
            if collection is None:
                raise StoreLayoutError(f"entity {stored.subject_id} names collection {state['collection']!r}, "
                                       "which the store does not hold")
            key = state["key"]
            collection.order.append(key)
            _set_entity(collection, key, state)
            mirror.entity_ranks[collection.path][key] = state["rank"]
            mirror.revisions[(entity_type, stored.subject_id)] = stored.revision
        for stored in sorted(snapshot.get(document_type, {}).values(), key=lambda s: s.state["rank"]):
            state = stored.state
            mirror.index.documents[state["path"]] = state["value"]
            mirror.index.document_records[state["path"]] = tuple(state["records"])
            mirror.document_ranks[state["path"]] = state["rank"]
            mirror.revisions[(document_type, stored.subject_id)] = stored.revision
        return mirror

    def subject_states(self) -> dict[SubjectKey, dict[str, Any]]:
        """Every state subject this mirror holds, as the store would hold it (meta's spellings
        included, meta itself not)."""
        states: dict[SubjectKey, dict[str, Any]] = {}
        if self.meta.known is not None:
            states[(self.subjects.meta, KNOWN_ID)] = self.meta.known.to_json()
        collection_type, entity_type = self.subjects.type_of(COLLECTION), self.subjects.type_of(ENTITY)
        for path, collection in self.index.collections.items():
            states[(collection_type, path)] = collection_state(collection, self.collection_ranks[path])
            for key, rank in zip(collection.order, ranks_in_order(self.entity_ranks[path], collection.order)):
                states[(entity_type, entity_subject_id(path, key))] = entity_state(collection, key, rank)
        document_type = self.subjects.type_of(DOCUMENT)
        for path, value in self.index.documents.items():
            states[(document_type, path)] = document_state(path, value, self.index.document_records.get(path, ()),
                                                           self.document_ranks[path])
        return states

    def subject_state(self, key: SubjectKey) -> dict[str, Any] | None:
        """One subject of ``subject_states`` (None: this mirror does not hold it)."""
        subject_type, subject_id = key
        if subject_type == self.subjects.meta:
            return self.meta.known.to_json() if subject_id == KNOWN_ID and self.meta.known is not None else None
        kind = self.subjects.kind_of(subject_type)
        if kind == COLLECTION:
            collection = self.index.collections.get(subject_id)
            return None if collection is None else collection_state(collection, self.collection_ranks[subject_id])
        if kind == ENTITY:
            path, entity_key = parse_entity_subject_id(subject_id)
            collection = self.index.collections.get(path)
            if collection is None or entity_key not in collection.entities:
                return None
            return entity_state(collection, entity_key, self.entity_ranks[path][entity_key])
        if kind == DOCUMENT and subject_id in self.index.documents:
            return document_state(subject_id, self.index.documents[subject_id],
                                  self.index.document_records.get(subject_id, ()), self.document_ranks[subject_id])
        return None

    @classmethod
    def installing(cls, subjects: Subjects, index: StateIndex, meta: WriteMeta) -> StateMirror:
        """A mirror of a state about to be installed whole (reset, add): ranks are positions."""
        mirror = cls(subjects, index, meta, 0)
        for position, (path, collection) in enumerate(index.collections.items()):
            mirror.collection_ranks[path] = position
            mirror.entity_ranks[path] = InstalledRanks(collection.order)  # ``initial_ranks``, built when read
        mirror.document_ranks = {path: position for position, path in enumerate(index.documents)}
        return mirror

    # --- subject by subject ----------------------------------------------------------------

    def apply(self, subject_type: str, subject_id: str, stored: Stored | None) -> int:
        """Bring one subject up to what the store holds (None: absent). Answers the change in
        the length of data/get's document, as far as it is known cheaply (0 otherwise)."""
        kind = self.subjects.kind_of(subject_type)
        if stored is None:
            self.revisions.pop((subject_type, subject_id), None)
        else:
            self.revisions[(subject_type, subject_id)] = stored.revision
        state = None if stored is None else stored.state
        if kind == ENTITY:
            return self._apply_entity(subject_id, state)
        if kind == COLLECTION:
            self._apply_collection(subject_id, state)
        elif kind == DOCUMENT:
            return self._apply_document(subject_id, state)
        else:
            raise StoreLayoutError(f"a log entry names subject type {subject_type!r}, which holds no state")
        return 0

    def _apply_entity(self, subject_id: str, state: dict[str, Any] | None) -> int:
        path, key = parse_entity_subject_id(subject_id)
        collection = self.index.collections.get(path)
        ranks = self.ranks_of(path)
        before = entry_length(collection, key) if collection is not None and key in collection.entities else None
        if state is None:
            if collection is not None and key in collection.entities:
                remove_entity(collection, key)
                ranks.pop(key, None)
                return -(before or 0) - (1 if collection.order else 0)
            return 0
        if collection is None:
            raise StoreLayoutError(f"entity {subject_id} names collection {path!r}, which is not held")
        rank = state["rank"]
        if before is None or ranks.get(key) != rank:
            if before is not None:
                collection.order.remove(key)
            ranks[key] = rank
            collection.order.insert(bisect.bisect_left(collection.order, rank, key=ranks.__getitem__), key)
        _set_entity(collection, key, state)
        after = entry_length(collection, key)
        return after - before if before is not None else after + (1 if len(collection.order) > 1 else 0)

    def _apply_collection(self, path: str, state: dict[str, Any] | None) -> None:
        collections = self.index.collections
        if state is None:
            collections.pop(path, None)
            self.collection_ranks.pop(path, None)
            self.entity_ranks.pop(path, None)
            return
        held = collections.get(path)
        if held is None:
            collections[path] = HeldCollection(path, state["type"], dict(state["args"]))
            self.entity_ranks.setdefault(path, {})
        else:
            held.type, held.args = state["type"], dict(state["args"])
        self.collection_ranks[path] = state["rank"]
        ranks = self.collection_ranks
        if list(collections) != sorted(collections, key=ranks.__getitem__):
            self.index.collections = dict(sorted(collections.items(), key=lambda item: ranks[item[0]]))

    def _apply_document(self, path: str, state: dict[str, Any] | None) -> int:
        before = document_length(self.index, path) if path in self.index.documents else None
        if state is None:
            self.index.documents.pop(path, None)
            self.index.document_records.pop(path, None)
            self.document_ranks.pop(path, None)
            return -(before or 0)
        self.index.documents[path] = state["value"]
        self.index.document_records[path] = tuple(state["records"])
        self.document_ranks[path] = state["rank"]
        ranks = self.document_ranks
        if list(self.index.documents) != sorted(self.index.documents, key=ranks.__getitem__):
            self.index.documents = dict(sorted(self.index.documents.items(), key=lambda item: ranks[item[0]]))
        return document_length(self.index, path) - (before or 0)

    # --- what a local write changed -----------------------------------------------------------

    def ranks_of(self, path: str) -> dict[str, Rank]:
        """The ranks of the collection at ``path`` as a dict to read and change (empty for a
        collection none are held for; an install's kept order made the dict now, once)."""
        ranks = self.entity_ranks.get(path)
        if ranks is None:
            ranks = self.entity_ranks[path] = {}
        elif type(ranks) is InstalledRanks:
            ranks = self.entity_ranks[path] = ranks.materialized()
        return ranks

    def rank_for_new_entity(self, collection: HeldCollection, key: str) -> Rank:
        """The rank of an entity the executor just inserted into ``collection.order``, between its
        neighbours' ranks."""
        order = collection.order
        ranks = self.ranks_of(collection.path)
        position = len(order) - 1 if order and order[-1] == key else order.index(key)  # appending is the usual case
        before = ranks[order[position - 1]] if position > 0 else None
        after = ranks[order[position + 1]] if position + 1 < len(order) else None
        rank = rank_between(before, after)
        ranks[key] = rank
        return rank

    def rank_for_new_collection(self) -> int:
        return max(self.collection_ranks.values(), default=-1) + 1


def _set_entity(collection: HeldCollection, key: str, state: dict[str, Any]) -> None:
    hold_entity(collection, key, state["value"])
    set_id(collection, key, state["id"])
    collection.records[key] = tuple(state["records"])
    if state.get("unplaced"):
        collection.unplaced.add(key)
    else:
        collection.unplaced.discard(key)


def entry_length(collection: HeldCollection, key: str) -> int:
    """Bytes of the entity's entry in data/get's document."""
    return len(dumps({"id": collection.ids[key], "value": collection.entities[key],
                      "records": list(collection.records.get(key, ()))}))


def document_length(index: StateIndex, path: str) -> int:
    return len(dumps({"path": path, "value": index.documents[path],
                      "records": list(index.document_records.get(path, ()))}))
