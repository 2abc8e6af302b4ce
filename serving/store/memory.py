"""MemoryStore: the contract in process memory, for tests and process-local work.

Nothing survives the process. One lock serialises commits and reads; a commit checks every
expectation (``batch.plan``) before it changes a single dict, and the changes themselves cannot
fail, so a batch is all or nothing. States are kept as their JSON text and parsed on every load,
so a caller never shares a mutable object with the store and numbers read back exactly as the
SQL providers give them.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from capenv.serving.store import batch as batches
from capenv.serving.store.batch import Head, SubjectKey
from capenv.serving.store.contract import (
    Commit,
    Expect,
    HistoryEntry,
    RecordConflict,
    RecordEnvelope,
    Store,
    StoreClosed,
    Stored,
    SubjectWrite,
)
from capenv.serving.store.replace import PreparedReplace, ReplaceCommit, StaleRevision, check_expectations


class MemoryStore(Store):
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._closed = False
        # (type, id) -> (revision, state JSON or None for a tombstone)
        self._subjects: dict[SubjectKey, tuple[int, str | None]] = {}
        # type -> ids of its live subjects (kept so listing a type does not scan every subject)
        self._live_ids: dict[str, set[str]] = {}
        # (type, id) -> [(revision, record id, state JSON or None)]
        self._history: dict[SubjectKey, list[tuple[int, str, str | None]]] = {}
        # record id -> (request digest, the commit as accepted)
        self._records: dict[str, tuple[bytes, Commit]] = {}

    def commit(self, envelope: RecordEnvelope, writes: Sequence[SubjectWrite]) -> Commit:
        prepared = batches.prepare(envelope, writes)
        with self._lock:
            self._check_open()
            existing = self._records.get(prepared.record_id)
            if existing is not None:
                digest, original = existing
                if digest != prepared.digest:
                    raise RecordConflict(prepared.record_id)
                return original
            heads = {}
            for key in {write.key for write in prepared.writes}:  # no lock order to keep here
                row = self._subjects.get(key)
                if row is not None:
                    heads[key] = Head(row[0], row[1] is not None)
            plan = batches.plan(prepared, heads)  # raises before anything changes
            for entry in plan.entries:
                self._history.setdefault(entry.key, []).append((entry.revision, prepared.record_id, entry.state_json))
            for key, entry in plan.final.items():
                self._subjects[key] = (entry.revision, entry.state_json)
                ids = self._live_ids.setdefault(key[0], set())
                if entry.state_json is None:
                    ids.discard(key[1])
                else:
                    ids.add(key[1])
            commit = plan.commit(prepared.envelope)
            self._records[prepared.record_id] = (prepared.digest, commit)
            return commit

    replaces_whole = True

    def commit_replace(self, prepared: PreparedReplace, expect: Mapping[SubjectKey, Expect], revision: int,
                       extra: Mapping[SubjectKey, dict[str, Any]] | None = None) -> ReplaceCommit:
        """The new rows are built before the lock; under it, the old rows of the types go and the
        new ones are put in (``replace.py``)."""
        types, record_id = prepared.subject_types, prepared.record_id
        extra_rows, digest = prepared.finish(extra or {})
        rows = {key: (revision, text) for key, text in prepared.rows.items()}
        rows.update((key, (revision, text)) for key, text in extra_rows.items())
        history = {key: [(revision, record_id, text)] for key, (_, text) in rows.items()}
        live: dict[str, set[str]] = {subject_type: set() for subject_type in types}
        for subject_type, subject_id in rows:
            live[subject_type].add(subject_id)
        commit = ReplaceCommit(prepared.envelope, types, revision)
        with self._lock:
            self._check_open()
            existing = self._records.get(record_id)
            if existing is not None:
                if existing[0] != digest:
                    raise RecordConflict(record_id)
                return existing[1]
            check_expectations(expect, self._live_revision)
            old_keys = [key for key in self._subjects if key[0] in types]
            held = max((self._subjects[key][0] for key in old_keys), default=0)
            if revision <= held:
                raise StaleRevision(revision, held)
            dropped: set[str] = set()
            for key in old_keys:
                del self._subjects[key]
                dropped.update(entry[1] for entry in self._history.pop(key, ()))
            self._subjects.update(rows)
            self._history.update(history)
            for subject_type, ids in live.items():
                self._live_ids[subject_type] = ids
            if dropped:
                named = {entry[1] for key, entries in self._history.items() if key[0] not in types
                         for entry in entries}
                for unnamed in dropped - named:
                    self._records.pop(unnamed, None)
            self._records[record_id] = (digest, commit)
            return commit

    def _live_revision(self, key: SubjectKey) -> int | None:
        row = self._subjects.get(key)
        return None if row is None or row[1] is None else row[0]

    def load(self, subject_type: str, subject_id: str) -> Stored | None:
        with self._lock:
            self._check_open()
            row = self._subjects.get((subject_type, subject_id))
        if row is None or row[1] is None:
            return None
        return batches.stored(subject_type, subject_id, row[0], row[1])

    def revision(self, subject_type: str, subject_id: str) -> int | None:
        with self._lock:
            self._check_open()
            row = self._subjects.get((subject_type, subject_id))
        return None if row is None or row[1] is None else row[0]

    def list_ids(self, subject_type: str) -> list[str]:
        with self._lock:
            self._check_open()
            return sorted(self._live_ids.get(subject_type, ()))

    def history(self, subject_type: str, subject_id: str) -> list[HistoryEntry]:
        with self._lock:
            self._check_open()
            rows = list(self._history.get((subject_type, subject_id), ()))
            envelopes = {record_id: self._records[record_id][1].envelope for _, record_id, _ in rows}
        result = []
        for revision, record_id, state_json in rows:
            env = envelopes[record_id]
            result.append(batches.history_entry(revision, record_id, env.recorded_at,
                                                env.to_json()["actor"], env.correlation_id, env.causation_id,
                                                state_json))
        return result

    def snapshot(self, subject_types: Iterable[str] | None = None) -> dict[str, dict[str, Stored]]:
        with self._lock:
            self._check_open()
            types = sorted(self._live_ids if subject_types is None else set(subject_types))
            rows = {t: [(i, self._subjects[(t, i)]) for i in sorted(self._live_ids.get(t, ()))] for t in types}
        return {t: {i: batches.stored(t, i, revision, state_json) for i, (revision, state_json) in entries}
                for t, entries in rows.items() if entries}

    def compact(self, subject_types: Iterable[str]) -> None:
        types = set(subject_types)
        with self._lock:
            self._check_open()
            for key in [key for key in self._subjects if key[0] in types]:
                if self._subjects[key][1] is None:  # a tombstone: forgotten whole
                    del self._subjects[key]
                    self._history.pop(key, None)
                elif len(self._history.get(key, ())) > 1:
                    self._history[key] = self._history[key][-1:]
            named = {record_id for rows in self._history.values() for _, record_id, _ in rows}
            for record_id in [r for r in self._records if r not in named]:
                del self._records[record_id]

    def close(self) -> None:
        with self._lock:
            self._closed = True

    def _check_open(self) -> None:
        if self._closed:
            raise StoreClosed("the memory store is closed")
