"""Where the served state lives: one holder per runtime, behind a small interface (DESIGN.md §7
"One state").

* ``load(snapshot)``: start from ``snapshot`` unless the holder already holds a state (a
  persistent store keeps what an earlier run installed);
* ``replace(snapshot, encoded, adopt=False)``: install a whole new state atomically (data/add,
  data/reset); ``encoded`` is what data/get writes for it, kept so data/get need not
  re-encode; ``adopt`` hands the snapshot's values over to the holder (nothing else keeps
  them, as for a freshly parsed data/add document), which saves copying them;
* ``working()``: the ``StateIndex`` reads render from (callers must not change it);
* ``encoded()``: what data/get writes for the current state.

``MemoryStateHolder`` keeps the state in this process. ``StoreStateHolder`` keeps it in a
``capenv.serving.store`` store as two subjects written in one commit: the state document and a
small head naming its generation, so a read checks the head and reloads only after a change
(another process sharing a SQLite or PostgreSQL store may have installed one). The store
issue replaces this with entity-level subjects; the interface stays.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timezone
from typing import Callable, Protocol

from capenv.interpreter.bundle.models import StateSnapshot

from .state_index import HeldCollection, StateIndex, key_of

Encoder = Callable[[StateSnapshot], bytes]


class StateHolder(Protocol):
    def load(self, snapshot: StateSnapshot) -> None: ...

    def replace(self, snapshot: StateSnapshot, encoded: bytes | None = None, *, adopt: bool = False) -> None: ...

    def working(self) -> StateIndex: ...

    def encoded(self) -> bytes: ...

    def written(self) -> None:
        """The working index was just changed in place by a served write: persist it."""

    def close(self) -> None: ...


class MemoryStateHolder:
    def __init__(self, encode: Encoder) -> None:
        self._encode = encode
        self._index: StateIndex | None = None
        self._encoded: bytes | None = None

    def load(self, snapshot: StateSnapshot) -> None:
        if self._index is None:
            self.replace(snapshot)

    def replace(self, snapshot: StateSnapshot, encoded: bytes | None = None, *, adopt: bool = False) -> None:
        index = index_of(snapshot, adopt=adopt)  # built whole before it is swapped in
        self._index, self._encoded = index, encoded

    def working(self) -> StateIndex:
        if self._index is None:
            raise RuntimeError("the state holder was never loaded")
        return self._index

    def encoded(self) -> bytes:
        if self._encoded is None:
            self._encoded = self._encode(self.working().snapshot(citations=True))
        return self._encoded

    def written(self) -> None:
        self._encoded = None

    def close(self) -> None:
        return None


STATE_SUBJECT = "capenv.state"
HEAD_SUBJECT = "capenv.state-head"
ACTOR = "capenv data plane"


class StoreStateHolder:
    """The state as subjects of a store, keyed by the environment's evidence id."""

    def __init__(self, store, subject_id: str, encode: Encoder) -> None:
        self._store = store
        self._id = subject_id
        self._encode = encode
        self._generation: int | None = None
        self._index: StateIndex | None = None
        self._encoded: bytes | None = None

    def load(self, snapshot: StateSnapshot) -> None:
        if self._store.load(HEAD_SUBJECT, self._id) is None:
            self.replace(snapshot)

    def replace(self, snapshot: StateSnapshot, encoded: bytes | None = None, *, adopt: bool = False) -> None:
        from capenv.serving.store import Expect, RecordEnvelope, RevisionConflict, SubjectWrite

        document = snapshot.model_dump(mode="python")
        for _ in range(5):  # another process may replace it between our read and our commit
            head = self._store.load(HEAD_SUBJECT, self._id)
            body = self._store.load(STATE_SUBJECT, self._id)
            generation = (head.state["generation"] + 1) if head is not None else 1
            envelope = RecordEnvelope(f"capenv-state-{uuid.uuid4()}", _now(), ACTOR)
            writes = [
                SubjectWrite(STATE_SUBJECT, self._id, _expect(Expect, body), {"generation": generation,
                                                                               "state": document}),
                SubjectWrite(HEAD_SUBJECT, self._id, _expect(Expect, head), {"generation": generation}),
            ]
            try:
                self._store.commit(envelope, writes)
            except RevisionConflict:
                continue
            self._generation, self._index, self._encoded = generation, index_of(snapshot, adopt=adopt), encoded
            return
        raise RuntimeError("the state kept changing under concurrent replacements; try again")

    def working(self) -> StateIndex:
        head = self._store.load(HEAD_SUBJECT, self._id)
        if head is None:
            raise RuntimeError("the store holds no state for this environment (was it loaded?)")
        if head.state["generation"] != self._generation or self._index is None:
            stored = self._store.load(STATE_SUBJECT, self._id)
            snapshot = StateSnapshot.model_validate(stored.state["state"])
            self._generation = stored.state["generation"]
            self._index, self._encoded = index_of(snapshot, adopt=True), None
        return self._index

    def encoded(self) -> bytes:
        index = self.working()
        if self._encoded is None:
            self._encoded = self._encode(index.snapshot(citations=True))
        return self._encoded

    def written(self) -> None:
        # The whole state is one subject here: a write commits it anew (entity-level subjects
        # are the store issue's). The working index already holds the change.
        self.replace(self.working().snapshot(citations=True), adopt=True)

    def close(self) -> None:
        self._store.close()


def index_of(snapshot: StateSnapshot, *, adopt: bool) -> StateIndex:
    """The working index of a snapshot; with ``adopt`` its entity and document values are
    taken over as they are (``StateIndex.from_snapshot`` deep-copies them, which for a large
    data/add costs more than parsing it)."""
    if not adopt:
        return StateIndex.from_snapshot(snapshot)
    index = StateIndex(snapshot.evidence_id)
    for held in snapshot.collections:
        collection = HeldCollection(held.path, held.type, dict(held.args))
        for entity in held.entities:
            key = key_of(entity.id)
            collection.order.append(key)
            collection.entities[key] = entity.value
            collection.ids[key] = entity.id
            collection.records[key] = entity.records
        index.collections[held.path] = collection
    for document in snapshot.documents:
        index.documents[document.path] = document.value
        index.document_records[document.path] = document.records
    return index


def _expect(expect_type, stored):
    return expect_type.absent() if stored is None else expect_type.revision(stored.revision)


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")
