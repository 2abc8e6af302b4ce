"""The served state kept in a store, subject by subject (DESIGN.md §7 "One state", §8).

Layout: ``store_subjects.py``. What a write does:

1. **Refresh**: read meta's revision (``Store.revision``: the cheap head check, no state
   parsed). When it is the one this process holds, nothing changed. Otherwise read the log entries since, and reload only
   the subjects they name (a reset or an add, a long gap or a missing entry reloads
   everything, from one snapshot).
2. **Decide** on the state and meta just read (``WriteState.decide``, the executor the gate
   proved), changing the local copy.
3. **Commit** one batch: the changed entity (or document), a collection the write created,
   meta (expecting the revision read: every write changes it, so two writes decided on one
   revision cannot both commit), the log entry, and the history entry under the record id.
   On ``RevisionConflict`` another process (or thread) got there first: put the touched
   subjects back as the store holds them, refresh, decide again.

An idempotency key is the record id. A key already recorded answers its recorded result when
the request is the same (whatever has happened since), and is refused naming the recorded
request otherwise; a concurrent call under the same key loses the race on the history entry
(expected absent) and then finds it.

data/reset and data/add are one batch each: every state subject that differs is written,
every one the new state lacks is deleted, and meta restarts.
"""

from __future__ import annotations

import os
import time
from datetime import datetime, timezone
from typing import Any, Callable

from capenv.interpreter.bundle.io import Bundle
from capenv.interpreter.bundle.jsonvalue import dumps
from capenv.interpreter.bundle.models import StateSnapshot, WritePlan
from capenv.serving.store import (
    Commit, Expect, RecordConflict, RecordEnvelope, RevisionConflict, Store, StoreUnreachable, SubjectWrite,
)

from .read_call import CallRefused, ReadCall, Served
from .state_holder import index_of
from .state_index import HeldCollection, StateIndex, key_of
from .state_mirror import StateMirror, StoreLayoutError, entry_length
from .store_subjects import (
    COLLECTION, DOCUMENT, ENTITY, KNOWN_ID, META_ID, STATE_KINDS, Subjects, collection_state, document_state,
    entity_state, entity_subject_id, log_state, position_id,
)
from .write_records import (
    ADD, RESET, WRITE, replace_record, request_digest, request_of, served_from, write_entry, write_record,
)
from .write_state import Decision, WriteMeta, WriteState

Encoder = Callable[[StateSnapshot], bytes]
ACTOR = "capenv runtime"
MAX_ATTEMPTS = 50
"""Decisions per write before giving up; each lost race means another write committed."""
CATCH_UP_LIMIT = 1000
"""Past this many log entries behind, one snapshot is cheaper than reading entry by entry."""
UNREACHABLE_RETRIES = 3


class StoreStateHolder:
    def __init__(self, store: Store, bundle: Bundle, writes: WriteState, encode: Encoder, *,
                 shared: bool = True) -> None:
        """``shared=False`` promises that nothing else writes to ``store`` (a MemoryStore the
        runtime made for itself): reads then skip the head check."""
        self._store = store
        self._shared = shared
        self._writes = writes
        self._rules_revision = bundle.info.rules_revision
        self._encode = encode
        self.subjects = Subjects(bundle.view.evidence_id)
        self._types = {kind: self.subjects.type_of(kind) for kind in STATE_KINDS}
        self._mirror: StateMirror | None = None
        self._encoded: bytes | None = None
        self._size: int | None = None  # what data/get writes, in bytes; None: measure it again
        self._stale = False  # an unexpected failure mid-write: reload whole before trusting the mirror

    @property
    def store(self) -> Store:
        return self._store

    # --- the StateHolder interface -------------------------------------------------------

    def load(self, initial: StateSnapshot) -> None:
        """Take the state the store holds, or install ``initial`` when it holds none."""
        if not self._reload_whole():
            self._install(index_of(initial, adopt=False), RESET, only_if_absent=True)

    def working(self) -> StateIndex:
        self.refresh()
        return self._held().index

    def encoded(self) -> bytes:
        self.refresh()
        return self._encoded_now()

    def reset(self, initial: StateSnapshot) -> None:
        self._install(index_of(initial, adopt=False), RESET)

    def replace(self, snapshot: StateSnapshot, encoded: bytes | None = None, *, adopt: bool = False) -> None:
        """data/add: install ``snapshot`` (``encoded``: what data/get writes for it)."""
        encoded = encoded if encoded is not None else self._encode(snapshot)
        self._install(index_of(snapshot, adopt=adopt), ADD, document_text=encoded.decode("utf-8"), encoded=encoded)

    def write(self, plan: WritePlan | None, tool: str, call: ReadCall, key: str | None = None) -> Served:
        """Serve one write call as one commit (see the module's docstring)."""
        request = request_of(tool, call)
        if key is not None:
            try:
                RecordEnvelope(key, _now(), ACTOR)  # the store's rules for a record id
            except (TypeError, ValueError) as exc:
                raise CallRefused(f"the idempotency key cannot name a write: {exc}") from None
        record_id = key if key is not None else new_record_id(WRITE)
        key_taken = False
        for _ in range(MAX_ATTEMPTS):
            self.refresh()
            if key is not None:
                recorded = self._recorded(key, request)
                if recorded is not None:
                    return recorded
                if key_taken:
                    raise CallRefused(f"idempotency key {key!r} was already used in this store for another "
                                      "environment or another kind of change; send this request under a new key",
                                      http_status=409, kind="conflict")
            mirror = self._held()
            # Until the write commits or is put back, the local copy may hold a change the
            # store does not: any failure in between makes the next read reload whole.
            self._stale = True
            try:
                decision = self._writes.decide(plan, call, mirror.index, mirror.meta, self._size_now())
            except CallRefused:
                self._stale = False  # a refusal changes nothing (the executor edits last)
                raise
            if decision.result is None:  # a recorded absence: nothing changed, nothing to keep
                self._stale = False
                return decision.served
            batch, touched, growth = self._batch(decision, record_id, request)
            try:
                commit = self._commit(RecordEnvelope(record_id, _now(), ACTOR), batch)
            except (RevisionConflict, RecordConflict) as lost:
                key_taken = isinstance(lost, RecordConflict)
                self._put_back(touched)
                self._stale = False
                continue
            self._committed(commit, decision, growth)
            self._stale = False
            return decision.served
        raise CallRefused(f"the write lost {MAX_ATTEMPTS} races with concurrent writes; send it again",
                          http_status=503, kind="busy")

    def close(self) -> None:
        self._store.close()

    # --- reading ---------------------------------------------------------------------------

    def refresh(self) -> None:
        """Bring the local copy up to the store's position (a no-op when meta has not moved)."""
        mirror = self._held()
        if self._stale:
            self._reload_whole()
            return
        if not self._shared:
            return
        if self._store.revision(self.subjects.meta, META_ID) == mirror.position:
            return  # the head check: meta's revision is the state's position
        head = self._store.load(self.subjects.meta, META_ID)
        if head is not None and head.revision == mirror.position:
            return
        if head is None or not 0 < head.revision - mirror.position <= CATCH_UP_LIMIT:
            if not self._reload_whole():
                raise StoreLayoutError(f"the store no longer holds the state of environment "
                                       f"{self.subjects.environment}")
            return
        changed: dict[tuple[str, str], None] = {}
        for position in range(mirror.position + 1, head.revision + 1):
            entry = self._store.load(self.subjects.log, position_id(position))
            if entry is None or entry.state["kind"] != WRITE:
                self._reload_whole()
                return
            changed.update(((kind, subject_id), None) for kind, subject_id in entry.state["subjects"])
        growth = self._apply(sorted(changed, key=lambda item: STATE_KINDS.index(item[0])))
        mirror.meta = WriteMeta.from_json(head.state, mirror.meta.known)  # a write never changes the spellings
        mirror.index.evidence_id = mirror.meta.evidence_id
        mirror.position = head.revision
        mirror.revisions[(self.subjects.meta, META_ID)] = head.revision
        self._changed(growth)

    def _apply(self, subjects: list[tuple[str, str]]) -> int | None:
        """Reload these subjects (``(kind, id)``, collections first) into the local copy; the
        change in data/get's length, or None when it is not known."""
        mirror = self._held()
        growth: int | None = 0
        for kind, subject_id in subjects:
            subject_type = self._types[kind]
            delta = mirror.apply(subject_type, subject_id, self._store.load(subject_type, subject_id))
            if kind == COLLECTION:
                growth = None  # rare; measured again when next needed
            elif growth is not None:
                growth += delta
        return growth

    def _reload_whole(self) -> bool:
        """Rebuild the local copy from one snapshot; False when the store holds no state."""
        snapshot = self._store.snapshot(self.subjects.state_types())
        if META_ID not in snapshot.get(self.subjects.meta, {}):
            return False
        self._mirror = StateMirror.from_snapshot(self.subjects, snapshot)
        self._stale = False
        self._encoded = self._size = None
        return True

    def _recorded(self, key: str, request: dict[str, Any]) -> Served | None:
        stored = self._store.load(self.subjects.write, key)
        if stored is None:
            return None
        record = stored.state
        if record.get("kind") == WRITE and record.get("request_digest") == request_digest(request):
            return served_from(write_entry(record)["result"])
        if record.get("kind") == WRITE:
            before = write_entry(record)["request"]
            what = f"{before['tool']} {before['path']}" + (" with another body or query"
                                                           if before["tool"] == request["tool"]
                                                           and before["path"] == request["path"] else "")
        else:
            what = f"a data/{record.get('kind')}"
        raise CallRefused(f"idempotency key {key!r} was already used for a different request ({what}); an exact "
                          "retry gets the recorded answer, a new request needs a new key",
                          http_status=409, kind="conflict")

    def _held(self) -> StateMirror:
        if self._mirror is None:
            raise RuntimeError("the state holder was never loaded")
        return self._mirror

    def _encoded_now(self) -> bytes:
        if self._encoded is None:
            self._encoded = self._encode(self._held().index.snapshot(citations=True))
            self._size = len(self._encoded)
        return self._encoded

    def _size_now(self) -> int:
        if self._size is None:
            self._encoded_now()
        assert self._size is not None
        return self._size

    def _changed(self, growth: int | None) -> None:
        self._encoded = None
        if growth is None:
            self._size = None
        elif self._size is not None:
            self._size += growth

    # --- writing -------------------------------------------------------------------------

    def _batch(self, decision: Decision, record_id: str, request: dict[str, Any]
               ) -> tuple[list[SubjectWrite], list[tuple[str, str]], int | None]:
        """The commit of a decided write, the state subjects it touches (``(kind, id)``) and the
        growth of data/get it causes (an upper bound; None: measure again)."""
        assert decision.result is not None
        mirror = self._held()
        provenance = decision.result.provenance
        view = provenance.get("view")
        writes: list[SubjectWrite] = []
        touched: list[tuple[str, str]] = []
        growth: int | None = decision.growth
        if view in ("create", "update", "delete"):
            collection = mirror.index.collections[provenance["collection"]]
            if (self._types[COLLECTION], collection.path) not in mirror.revisions:  # the write created it
                rank = mirror.rank_for_new_collection()
                mirror.collection_ranks[collection.path] = rank
                writes.append(self._subject(COLLECTION, collection.path, collection_state(collection, rank)))
                touched.append((COLLECTION, collection.path))
                growth = None
            entity_write, key = self._entity_write(view, collection, decision)
            writes.append(entity_write)
            touched.append((ENTITY, entity_write.subject_id))
            if view == "create" and growth is not None:
                growth = entry_length(collection, key) + 1  # exact, or one over for a first entity
            elif view == "delete":
                growth = 0  # an upper bound: the state shrank
        elif view == "document-write":
            path = provenance["path"]
            writes.append(self._subject(DOCUMENT, path, document_state(
                path, mirror.index.documents[path], mirror.index.document_records.get(path, ()),
                mirror.document_ranks[path])))
            touched.append((DOCUMENT, path))
        else:
            raise RuntimeError(f"a write answered provenance view {view!r}; the store cannot keep it")
        if mirror.meta.known is not None and (self.subjects.meta, KNOWN_ID) not in mirror.revisions:
            # A store from before the spellings left meta: they move out with this write.
            writes.append(SubjectWrite(self.subjects.meta, KNOWN_ID, Expect.absent(), mirror.meta.known.to_json()))
        position = mirror.position + 1
        writes.append(SubjectWrite(self.subjects.meta, META_ID, Expect.revision(mirror.position),
                                   decision.meta.commit_json()))
        writes.append(SubjectWrite(self.subjects.log, position_id(position), Expect.absent(),
                                   log_state(record_id, WRITE, touched)))
        writes.append(SubjectWrite(self.subjects.write, record_id, Expect.absent(),
                                   write_record(position, request, self._rules_revision, decision)))
        return writes, touched, growth

    def _entity_write(self, view: str, collection: HeldCollection, decision: Decision) -> tuple[SubjectWrite, str]:
        assert decision.result is not None
        mirror = self._held()
        if view == "delete":
            key = decision.result.changed[0]  # the executor names the removed entity's key
            mirror.entity_ranks.get(collection.path, {}).pop(key, None)
            return self._subject(ENTITY, entity_subject_id(collection.path, key), None), key
        key = key_of(decision.result.provenance["id"])
        if key not in collection.entities:
            raise RuntimeError(f"the executor answered {view} of {key!r}, which {collection.path} does not hold")
        if view == "create":
            rank = mirror.rank_for_new_entity(collection, key)
        else:
            rank = mirror.entity_ranks[collection.path][key]
        return self._subject(ENTITY, entity_subject_id(collection.path, key), entity_state(collection, key, rank)), key

    def _subject(self, kind: str, subject_id: str, state: dict[str, Any] | None) -> SubjectWrite:
        """A write of a state subject, expecting the revision the local copy holds."""
        subject_type = self._types[kind]
        return SubjectWrite(subject_type, subject_id, _expect(self._held().revisions.get((subject_type, subject_id))),
                            state)

    def _commit(self, envelope: RecordEnvelope, batch: list[SubjectWrite]) -> Commit:
        # An unreachable backend leaves the outcome unknown: the same envelope and batch again
        # return the original commit if it landed, and are decided afresh if it did not.
        for attempt in range(UNREACHABLE_RETRIES + 1):
            try:
                return self._store.commit(envelope, batch)
            except StoreUnreachable:
                if attempt == UNREACHABLE_RETRIES:
                    raise
                time.sleep(0.1 * (attempt + 1))
        raise AssertionError("unreachable")

    def _committed(self, commit: Commit, decision: Decision, growth: int | None) -> None:
        mirror = self._held()
        for written in commit.writes:
            key = (written.subject_type, written.subject_id)
            if written.deleted:
                mirror.revisions.pop(key, None)
            elif written.subject_type in (self.subjects.log, self.subjects.write):
                continue  # written once, never expected again: not worth holding
            else:
                mirror.revisions[key] = written.revision
        mirror.meta = decision.meta
        mirror.position = mirror.revisions[(self.subjects.meta, META_ID)]
        self._changed(growth)

    def _put_back(self, touched: list[tuple[str, str]]) -> None:
        """Undo a decided write that did not commit: the touched subjects as the store holds them."""
        self._apply(sorted(touched, key=lambda item: STATE_KINDS.index(item[0])))
        known = (self.subjects.meta, KNOWN_ID)
        if known not in self._held().revisions:  # another process may have moved the spellings out first
            revision = self._store.revision(*known)
            if revision is not None:
                self._held().revisions[known] = revision
        self._changed(None)

    # --- installing a whole state (reset, add, the first load) ---------------------------------

    def _install(self, index: StateIndex, kind: str, *, document_text: str | None = None,
                 encoded: bytes | None = None, only_if_absent: bool = False) -> None:
        target = StateMirror.installing(self.subjects, index, self._writes.fresh(index))
        desired = target.subject_states()
        desired_bytes = {key: dumps(state) for key, state in desired.items()}
        record_id = new_record_id(kind)
        meta_key = (self.subjects.meta, META_ID)
        for _ in range(MAX_ATTEMPTS):
            snapshot = self._store.snapshot(self.subjects.state_types())
            current = {(t, i): stored for t, subjects in snapshot.items() for i, stored in subjects.items()}
            held_meta = current.pop(meta_key, None)
            if only_if_absent and held_meta is not None:  # another process installed it first
                self._mirror = StateMirror.from_snapshot(self.subjects, snapshot)
                self._stale, self._encoded, self._size = False, None, None
                return
            writes = [SubjectWrite(*key, _expect(current[key].revision if key in current else None), desired[key])
                      for key in desired
                      if key not in current or dumps(current[key].state) != desired_bytes[key]]
            writes += [SubjectWrite(*key, Expect.revision(stored.revision), None)
                       for key, stored in current.items() if key not in desired]
            position = (held_meta.revision if held_meta is not None else 0) + 1
            writes.append(SubjectWrite(*meta_key, _expect(held_meta.revision if held_meta else None),
                                       target.meta.commit_json()))
            writes.append(SubjectWrite(self.subjects.log, position_id(position), Expect.absent(),
                                       log_state(record_id, kind, [])))
            writes.append(SubjectWrite(self.subjects.write, record_id, Expect.absent(),
                                       replace_record(position, kind, document_text)))
            try:
                commit = self._commit(RecordEnvelope(record_id, _now(), ACTOR), writes)
            except RevisionConflict:
                continue
            target.revisions = {key: stored.revision for key, stored in current.items() if key in desired}
            for written in commit.writes:
                if not written.deleted:
                    target.revisions[(written.subject_type, written.subject_id)] = written.revision
            target.position = target.revisions[meta_key]
            self._mirror, self._stale = target, False
            self._encoded = encoded
            self._size = len(encoded) if encoded is not None else None
            return
        raise RuntimeError(f"data/{kind} lost {MAX_ATTEMPTS} races with concurrent writes; try again")


def _expect(revision: int | None) -> Expect:
    return Expect.absent() if revision is None else Expect.revision(revision)


def new_record_id(kind: str) -> str:
    """A record id that sorts by the time it was made: the SQL stores keep subjects and records
    in b-trees ordered by id, so ids made in order land on the same rightmost pages instead of
    dirtying a random page per commit. 128 random bits keep ids of one instant unique."""
    return f"capenv-{kind}-{time.time_ns():016x}-{os.urandom(16).hex()}"


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")
