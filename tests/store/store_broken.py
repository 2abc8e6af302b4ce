"""BrokenStore: an in-memory provider with switchable defects, to prove the conformance suite
catches them. Without a defect switched on it keeps the contract.

Defects:
- ``ignores_expectations``: writes whatever the expectation says (last writer wins);
- ``lists_deleted_ids``: ``list_ids`` also names subjects it no longer holds (tombstones);
- ``non_atomic``: applies a batch entry by entry, so a conflict mid-batch leaves the entries
  before it written.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from capenv.serving.store import (
    Commit,
    CommittedWrite,
    HistoryEntry,
    RecordConflict,
    RecordEnvelope,
    RevisionConflict,
    Store,
    Stored,
    SubjectWrite,
)
from capenv.serving.store import batch as batches

DEFECTS = ("ignores_expectations", "lists_deleted_ids", "non_atomic")


class BrokenStore(Store):
    def __init__(self, *defects: str) -> None:
        unknown = set(defects) - set(DEFECTS)
        if unknown:
            raise ValueError(f"unknown defects {sorted(unknown)}; known: {DEFECTS}")
        self.defects = frozenset(defects)
        self._subjects: dict[tuple[str, str], tuple[int, str | None]] = {}
        self._history: dict[tuple[str, str], list[tuple[int, str, str | None]]] = {}
        self._records: dict[str, tuple[bytes, Commit]] = {}
        self._envelopes: dict[str, RecordEnvelope] = {}  # kept at the start of a commit, for history

    def commit(self, envelope: RecordEnvelope, writes: Sequence[SubjectWrite]) -> Commit:
        prepared = batches.prepare(envelope, writes)
        if prepared.record_id in self._records:
            digest, original = self._records[prepared.record_id]
            if digest != prepared.digest:
                raise RecordConflict(prepared.record_id)
            return original
        self._envelopes[prepared.record_id] = prepared.envelope
        # Work on copies unless the batch is applied entry by entry (the non-atomic defect).
        atomic = "non_atomic" not in self.defects
        subjects = dict(self._subjects) if atomic else self._subjects
        history = {k: list(v) for k, v in self._history.items()} if atomic else self._history
        done = []
        for write in prepared.writes:
            revision, state = subjects.get(write.key, (0, None))
            live = revision if state is not None else None
            if write.expect.number != live and "ignores_expectations" not in self.defects:
                raise RevisionConflict(write.key[0], write.key[1], write.expect, live)
            subjects[write.key] = (revision + 1, write.state_json)
            history.setdefault(write.key, []).append((revision + 1, prepared.record_id, write.state_json))
            done.append(CommittedWrite(*write.key, write.expect, revision + 1, write.state_json is None))
        self._subjects, self._history = subjects, history
        commit = Commit(prepared.envelope, tuple(done))
        self._records[prepared.record_id] = (prepared.digest, commit)
        return commit

    def load(self, subject_type: str, subject_id: str) -> Stored | None:
        revision, state = self._subjects.get((subject_type, subject_id), (0, None))
        return None if state is None else batches.stored(subject_type, subject_id, revision, state)

    def list_ids(self, subject_type: str) -> list[str]:
        listed = "lists_deleted_ids" in self.defects
        return sorted(i for (t, i), (_, state) in self._subjects.items()
                      if t == subject_type and (state is not None or listed))

    def history(self, subject_type: str, subject_id: str) -> list[HistoryEntry]:
        entries = []
        for revision, record_id, state in self._history.get((subject_type, subject_id), []):
            env = self._envelopes[record_id]
            entries.append(batches.history_entry(revision, record_id, env.recorded_at, env.to_json()["actor"],
                                                 env.correlation_id, env.causation_id, state))
        return entries

    def snapshot(self, subject_types: Iterable[str] | None = None) -> dict[str, dict[str, Stored]]:
        types = sorted({t for t, _ in self._subjects} if subject_types is None else set(subject_types))
        result = {}
        for subject_type in types:
            loaded = {i: self.load(subject_type, i) for i in self.list_ids(subject_type)}
            live = {i: s for i, s in loaded.items() if s is not None}
            if live:
                result[subject_type] = live
        return result

    def compact(self, subject_types: Iterable[str]) -> None:
        types = set(subject_types)
        for key in [key for key in self._subjects if key[0] in types]:
            if self._subjects[key][1] is None:
                del self._subjects[key]
                self._history.pop(key, None)
            else:
                self._history[key] = self._history[key][-1:]
        named = {record_id for rows in self._history.values() for _, record_id, _ in rows}
        self._records = {r: held for r, held in self._records.items() if r in named}

    def close(self) -> None:
        pass
