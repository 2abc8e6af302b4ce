"""MemoryStore: the contract in process memory, for tests and process-local work.

Nothing survives the process. One lock serialises commits and reads; a commit checks every
expectation (``batch.plan``) before it changes a single dict, and the changes themselves cannot
fail, so a batch is all or nothing. States are kept as their JSON text and parsed on every load,
so a caller never shares a mutable object with the store and numbers read back exactly as the
SQL providers give them.

Each subject type keeps its own rows (``TypeRows``), so a replace (``replace.py``) is built
whole beside the store (``stage_replace``, any thread) and swapped in under the lock type by
type: the lock is held for a few dict assignments, whatever the size of the state. The rows a
replace swaps out are kept on the staged replace (``StagedReplace.replaced``), not dropped under
the lock: they are freed where the caller lets go of it (CPython frees a container where its last
reference goes). A replaced subject's row says revision 0, read as the revision its type was replaced at (``TypeRows.base``),
so the rows need not know that revision before the swap.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
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


class TypeRows:
    """The subjects of one type: id -> (revision, state JSON or None for a tombstone), each one's
    history [(revision, record id, state JSON or None)], the live ids, and the record ids of the
    commits that wrote the type. Revision 0 stands for ``base``, the revision of the replace that
    wrote the row."""

    __slots__ = ("subjects", "history", "live", "records", "base", "top")

    def __init__(self, base: int = 0) -> None:
        self.subjects: dict[str, tuple[int, str | None]] = {}
        self.history: dict[str, list[tuple[int, str, str | None]]] = {}
        self.live: set[str] = set()
        self.records: set[str] = set()
        self.base = base
        self.top = base  # the highest revision a row of the type holds (or held before a compaction)

    def revision(self, subject_id: str) -> tuple[int, bool] | None:
        """(revision, live) of a subject with a row, else None."""
        row = self.subjects.get(subject_id)
        return None if row is None else (row[0] or self.base, row[1] is not None)



@dataclass(frozen=True)
class StagedReplace:
    """A replace staged beside a memory store: its types' rows, built whole (``stage_replace``),
    and, once committed, the rows it swapped out (``replaced``: freed with this object, by
    whoever drops it, outside the store's lock)."""

    prepared: PreparedReplace
    rows: dict[str, TypeRows]
    replaced: list[TypeRows] = field(default_factory=list)


class MemoryStore(Store):
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._closed = False
        self._types: dict[str, TypeRows] = {}
        # record id -> (request digest, the commit as accepted)
        self._records: dict[str, tuple[bytes, Commit | ReplaceCommit]] = {}

    def commit(self, envelope: RecordEnvelope, writes: Sequence[SubjectWrite]) -> Commit:
        prepared = batches.prepare(envelope, writes)
        with self._lock:
            self._check_open()
            existing = self._records.get(prepared.record_id)
            if existing is not None:
                digest, original = existing
                if digest != prepared.digest:
                    raise RecordConflict(prepared.record_id)
                return original  # type: ignore[return-value]
            heads = {}
            types = self._types
            for key in {write.key for write in prepared.writes}:  # no lock order to keep here
                rows = types.get(key[0])
                row = rows.subjects.get(key[1]) if rows is not None else None
                if row is not None:
                    heads[key] = Head(row[0] or rows.base, row[1] is not None)
            plan = batches.plan(prepared, heads)  # raises before anything changes
            record_id = prepared.record_id
            for entry in plan.entries:
                rows = types.get(entry.key[0])
                if rows is None:
                    rows = types[entry.key[0]] = TypeRows()
                rows.history.setdefault(entry.key[1], []).append((entry.revision, record_id, entry.state_json))
                rows.records.add(record_id)
            for key, entry in plan.final.items():
                rows = types[key[0]]
                rows.subjects[key[1]] = (entry.revision, entry.state_json)
                if entry.revision > rows.top:
                    rows.top = entry.revision
                if entry.state_json is None:
                    rows.live.discard(key[1])
                else:
                    rows.live.add(key[1])
            commit = plan.commit(prepared.envelope)
            self._records[record_id] = (prepared.digest, commit)
            return commit

    # -- replacing whole types ---------------------------------------------------------------

    replaces_whole = True

    def stage_replace(self, prepared: PreparedReplace) -> StagedReplace:
        """Build the replace's rows beside the store (reads and changes nothing it holds)."""
        rows = {subject_type: TypeRows() for subject_type in prepared.subject_types}
        record_id = prepared.record_id
        for (subject_type, subject_id), text in prepared.rows.items():
            held = rows[subject_type]
            held.subjects[subject_id] = (0, text)
            held.history[subject_id] = [(0, record_id, text)]
            held.live.add(subject_id)
        for held in rows.values():
            held.records.add(record_id)
        return StagedReplace(prepared, rows)

    def commit_replace(self, prepared: PreparedReplace | StagedReplace, expect: Mapping[SubjectKey, Expect],
                       revision: int, extra: Mapping[SubjectKey, dict[str, Any]] | None = None) -> ReplaceCommit:
        staged = prepared if isinstance(prepared, StagedReplace) else self.stage_replace(prepared)
        prepared = staged.prepared
        record_id = prepared.record_id
        extra_rows, digest = prepared.finish(extra or {})
        commit = ReplaceCommit(prepared.envelope, prepared.subject_types, revision)
        with self._lock:
            self._check_open()
            existing = self._records.get(record_id)
            if existing is not None:
                if existing[0] != digest:
                    raise RecordConflict(record_id)
                return existing[1]  # type: ignore[return-value]
            check_expectations(expect, self._live_revision)
            held = max((self._types[t].top if t in self._types else 0 for t in prepared.subject_types), default=0)
            if revision <= held:
                raise StaleRevision(revision, held)
            dropped: set[str] = set()
            for subject_type, rows in staged.rows.items():
                old = self._types.get(subject_type)
                if old is not None:
                    dropped |= old.records
                    staged.replaced.append(old)  # its last reference is not dropped here
                rows.base = rows.top = revision
                self._types[subject_type] = rows
            for (subject_type, subject_id), text in extra_rows.items():  # the few rows known only now
                rows = self._types[subject_type]
                rows.subjects[subject_id] = (0, text)
                rows.history[subject_id] = [(0, record_id, text)]
                rows.live.add(subject_id)
            for unnamed in dropped:
                if not self._named_elsewhere(unnamed, prepared.subject_types):
                    self._records.pop(unnamed, None)
            self._records[record_id] = (digest, commit)
            return commit

    def _named_elsewhere(self, record_id: str, replaced: frozenset[str]) -> bool:
        """Whether a type the replace left alone still names ``record_id`` in its history."""
        return any(record_id in rows.records for subject_type, rows in self._types.items()
                   if subject_type not in replaced)

    def _live_revision(self, key: SubjectKey) -> int | None:
        rows = self._types.get(key[0])
        head = rows.revision(key[1]) if rows is not None else None
        return head[0] if head is not None and head[1] else None

    # -- reads -------------------------------------------------------------------------------

    def load(self, subject_type: str, subject_id: str) -> Stored | None:
        with self._lock:
            self._check_open()
            rows = self._types.get(subject_type)
            row = rows.subjects.get(subject_id) if rows is not None else None
            if row is None or row[1] is None:
                return None
            revision = row[0] or rows.base
        return batches.stored(subject_type, subject_id, revision, row[1])

    def revision(self, subject_type: str, subject_id: str) -> int | None:
        with self._lock:
            self._check_open()
            return self._live_revision((subject_type, subject_id))

    def list_ids(self, subject_type: str) -> list[str]:
        with self._lock:
            self._check_open()
            rows = self._types.get(subject_type)
            return sorted(rows.live) if rows is not None else []

    def history(self, subject_type: str, subject_id: str) -> list[HistoryEntry]:
        with self._lock:
            self._check_open()
            rows = self._types.get(subject_type)
            entries = list(rows.history.get(subject_id, ())) if rows is not None else []
            base = rows.base if rows is not None else 0
            envelopes = {record_id: self._records[record_id][1].envelope for _, record_id, _ in entries}
        result = []
        for revision, record_id, state_json in entries:
            env = envelopes[record_id]
            result.append(batches.history_entry(revision or base, record_id, env.recorded_at,
                                                env.to_json()["actor"], env.correlation_id, env.causation_id,
                                                state_json))
        return result

    def snapshot(self, subject_types: Iterable[str] | None = None) -> dict[str, dict[str, Stored]]:
        with self._lock:
            self._check_open()
            types = sorted(self._types if subject_types is None else set(subject_types))
            rows = {}
            for t in types:
                held = self._types.get(t)
                if held is not None:
                    rows[t] = [(i, held.subjects[i][0] or held.base, held.subjects[i][1]) for i in sorted(held.live)]
        return {t: {i: batches.stored(t, i, revision, state_json) for i, revision, state_json in entries}
                for t, entries in rows.items() if entries}

    def compact(self, subject_types: Iterable[str]) -> None:
        types = set(subject_types)
        with self._lock:
            self._check_open()
            for subject_type in types & self._types.keys():
                rows = self._types[subject_type]
                for subject_id in [i for i, row in rows.subjects.items() if row[1] is None]:
                    del rows.subjects[subject_id]  # a tombstone: forgotten whole
                    rows.history.pop(subject_id, None)
                for subject_id, entries in rows.history.items():
                    if len(entries) > 1:
                        rows.history[subject_id] = entries[-1:]
                rows.records = {entry[1] for entries in rows.history.values() for entry in entries}
                rows.top = max((row[0] or rows.base for row in rows.subjects.values()), default=rows.base)
            named = set().union(*(rows.records for rows in self._types.values()))
            for record_id in [r for r in self._records if r not in named]:
                del self._records[record_id]

    def close(self) -> None:
        with self._lock:
            self._closed = True

    def _check_open(self) -> None:
        if self._closed:
            raise StoreClosed("the memory store is closed")
