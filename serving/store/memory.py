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
so the rows need not know that revision before the swap; such a row is the state's text alone, not
a ``(revision, text)`` pair. Nor does a replaced subject get a history list of its own: its one
entry is implied by its row and the replace's envelope (``TypeRows.installed``), and made a list
only when a commit writes the subject again. Each such pair, list and entry was one more object
per subject to build with the state and to free with it: a data/add over 10,000 entities spent
a quarter of freeing the state it replaced on them.

Record ids live in ``memory_records.Records``, filed by the types their commit wrote, so a
replace drops its types' records in one step. ``bound_records`` bounds what the store keeps to
the last N commits: an older commit's record id is forgotten (a retry of it is refused with
``RecordForgotten``), its history entries go (each subject keeps at least its head), a tombstone
goes whole (its type's ``floor`` keeps the revisions of a later creation above it), and the
subjects it wrote in a journal type (written once, read only as that commit's own record: the
runtime's log and history entries) go with it.
"""

from __future__ import annotations

import hashlib
import itertools
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from capenv.interpreter.bundle import jsonvalue
from capenv.serving.store import batch as batches
from capenv.serving.store.batch import SubjectKey
from capenv.serving.store.contract import (
    Commit,
    Expect,
    HistoryEntry,
    RecordConflict,
    RecordEnvelope,
    RecordForgotten,
    RevisionConflict,
    Store,
    StoreClosed,
    Stored,
    SubjectWrite,
    accepted_commit,
    committed_write,
)
from capenv.serving.store.memory_records import Records, Stamp
from capenv.serving.store.replace import PreparedReplace, ReplaceCommit, StaleRevision, check_expectations


_generations = itertools.count(1)


class TypeRows:
    """The subjects of one type: id -> (revision, state JSON or None for a tombstone), or the state
    JSON alone for a row the replace wrote (revision 0, read as ``row``), each one's history
    [(revision, envelope of its commit, state JSON or None)] and the live ids. Revision 0 stands
    for ``base``, the revision of the replace that wrote the row, and ``installed`` is that
    replace's envelope: a subject at revision 0 with no history list has the one entry
    ``(0, installed, its state)`` (``entries``). ``generation`` names these rows (a replace's rows
    have a new one); ``floor`` is the highest revision of a tombstone the bound forgot: a subject
    with no row starts above it."""

    __slots__ = ("subjects", "history", "live", "base", "top", "floor", "generation", "installed")

    def __init__(self, base: int = 0) -> None:
        self.subjects: dict[str, tuple[int, str | None] | str] = {}
        self.history: dict[str, list[tuple[int, RecordEnvelope, str | None]]] = {}
        # The live ids as a dict's keys, not a set: a dict holding only strings and None is not
        # tracked by the cyclic collector, where a set always is; a 10,000-entity state's set
        # was walked by the next young collection (0.5 ms of the next data/add) and by every
        # full one after.
        self.live: dict[str, None] = {}
        self.base = base
        self.top = base  # the highest revision a row of the type holds (or held before a compaction)
        self.floor = 0
        self.generation = next(_generations)
        self.installed: RecordEnvelope | None = None

    def row(self, subject_id: str) -> tuple[int, str | None] | None:
        """(revision, state JSON or None) of a subject with a row (revision 0: ``base``), else None."""
        row = self.subjects.get(subject_id)
        return (0, row) if type(row) is str else row

    def revision(self, subject_id: str) -> tuple[int, bool] | None:
        """(revision, live) of a subject with a row, else None."""
        row = self.row(subject_id)
        return None if row is None else (row[0] or self.base, row[1] is not None)

    def entries(self, subject_id: str) -> list[tuple[int, RecordEnvelope, str | None]] | None:
        """The subject's history list, made from its implied replace entry when it has none yet
        (None: no history at all). The list is the one kept: the caller may extend or cut it."""
        entries = self.history.get(subject_id)
        if entries is None:
            implied = self.implied(subject_id)
            if implied is not None:
                entries = self.history[subject_id] = [implied]
        return entries

    def implied(self, subject_id: str) -> tuple[int, RecordEnvelope, str | None] | None:
        """The replace's entry of a subject that has no history list, if it has one."""
        if self.installed is None or subject_id in self.history:
            return None
        row = self.subjects.get(subject_id)
        return (0, self.installed, row) if type(row) is str else None



@dataclass(frozen=True)
class StagedReplace:
    """A replace staged beside a memory store: its types' rows, built whole (``stage_replace``),
    and, once committed, the rows it swapped out and the records only they named (``replaced``:
    freed with this object, by whoever drops it, outside the store's lock)."""

    prepared: PreparedReplace
    rows: dict[str, TypeRows]
    replaced: list[Any] = field(default_factory=list)


def _same_request(existing: tuple[Any, Commit | ReplaceCommit], envelope: RecordEnvelope,
                  encoded: tuple[batches.PreparedWrite, ...]) -> bool:
    """Whether a write's batch repeats the one ``existing`` recorded under its record id.

    A write's record keeps its states' texts beside the commit (which names each entry's subject
    and expectation); a replace's keeps its digest. A retry is exact when its digest (``batch.
    prepare``'s, over the canonical JSON of envelope and writes) is the original's: here both are
    taken from the texts, only when a record id comes again, not on every commit."""
    texts, original = existing
    if not isinstance(original, Commit) or len(texts) != len(encoded):
        return False
    before = [(w.subject_type, w.subject_id, w.expect, text) for w, text in zip(original.writes, texts)]
    now = [(w.key[0], w.key[1], w.expect, w.state_json) for w in encoded]
    return (envelope == original.envelope and before == now) or _digest(envelope, now) == _digest(
        original.envelope, before)


def _digest(envelope: RecordEnvelope, writes: list[tuple[str, str, Expect, str | None]]) -> bytes:
    request = {"envelope": envelope.to_json(), "writes": [
        [subject_type, subject_id, expect.number, None if text is None else jsonvalue.loads(text)]
        for subject_type, subject_id, expect, text in writes]}
    return hashlib.sha256(jsonvalue.canonical(request)).digest()


class MemoryStore(Store):
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._closed = False
        self._types: dict[str, TypeRows] = {}
        # record id -> (a write's state texts or a replace's request digest, the commit as accepted),
        # by the types the commit wrote
        self._records = Records()
        # the stamp of a set of types (or of a commit's types in order), while their rows last
        self._stamps: dict[frozenset[str] | tuple[str, ...], Stamp] = {}
        self._journals: frozenset[str] = frozenset()

    def bound_records(self, commits: int | None, journal_types: Iterable[str] = ()) -> None:
        with self._lock:
            self._records.limit = commits
            self._journals = self._journals | frozenset(journal_types)

    def forgotten(self, record_id: str) -> bool:
        with self._lock:
            return self._records.was_forgotten(record_id)

    def forget_commits(self, record_ids: Iterable[str], journal_types: Iterable[str] = ()) -> None:
        journals = self._journals | frozenset(journal_types)
        with self._lock:
            self._check_open()
            for record_id in record_ids:
                evicted = self._records.evict(record_id)
                if evicted is not None:
                    self._forget(evicted, journals)

    def commit(self, envelope: RecordEnvelope, writes: Sequence[SubjectWrite]) -> Commit:
        _, encoded = batches.encode(envelope, writes)  # each state serialised once, no digest taken
        record_id = envelope.record_id
        with self._lock:
            if self._closed:
                self._check_open()
            records = self._records
            existing = records.find(record_id)
            if existing is not None:
                if not _same_request(existing, envelope, encoded):
                    raise RecordConflict(record_id)
                return existing[1]  # type: ignore[return-value]
            if records.forgotten and records.was_forgotten(record_id):
                raise RecordForgotten(record_id, records.limit)
            # ``batch.plan``'s checks in one pass over the rows themselves (no heads gathered
            # first, no planned entries built): each expectation against the head as the store
            # holds it, or as an earlier entry of the batch left it; raises before anything changes
            types = self._types
            final: dict[SubjectKey, tuple[int, bool]] = {}  # per subject, (revision, live) the batch leaves
            committed = []
            # Per write, its type's rows (None: the type has none yet) and whether the subject is new
            # to the store (no row, not written earlier in the batch): a new subject has no history
            # list and no implied replace entry (a history list never outlives its row), so its first
            # entry is made at once rather than looked for (``TypeRows.entries``).
            found: list[tuple[TypeRows | None, bool]] = []
            listed = []  # the types of ``final``'s keys, in its order (``_stamp_of``)
            for write in encoded:
                key = write.key
                head = final.get(key)
                rows = types.get(key[0])
                fresh = False
                if head is not None:
                    revision, live = head
                else:
                    listed.append(key[0])
                    row = rows.subjects.get(key[1]) if rows is not None else None
                    if type(row) is str:
                        revision, live = rows.base, True  # a row the replace wrote
                    elif row is not None:
                        revision, live = row[0] or rows.base, row[1] is not None
                    elif rows is not None and rows.floor:
                        revision, live, fresh = rows.floor, False, True  # above a tombstone the bound forgot
                    else:
                        revision, live, fresh = 0, False, True
                found.append((rows, fresh))
                live_revision = revision if live else None
                expected = write.expect
                if expected.number != live_revision:
                    raise RevisionConflict(key[0], key[1], expected, live_revision)
                # A creation after a tombstone continues the tombstone's revisions: they never restart.
                deleted = write.state_json is None
                final[key] = (revision + 1, not deleted)
                committed.append(committed_write(key[0], key[1], expected, revision + 1, deleted))
            texts = []
            for write, done, (rows, fresh) in zip(encoded, committed, found):
                key = write.key
                texts.append(write.state_json)
                if rows is None:
                    rows = types.get(key[0])  # made by an earlier entry of this batch
                    if rows is None:
                        rows = types[key[0]] = TypeRows()
                        self._stamps.clear()
                subject_id, revision, state_json = key[1], done.revision, write.state_json
                if fresh:
                    rows.history[subject_id] = [(revision, envelope, state_json)]
                elif (history := rows.history.get(subject_id)) is None and (
                        rows.installed is None or (history := rows.entries(subject_id)) is None):
                    rows.history[subject_id] = [(revision, envelope, state_json)]
                else:
                    history.append((revision, envelope, state_json))
                if final[key][0] != revision:
                    continue  # a later entry of the batch writes the subject's row
                rows.subjects[subject_id] = (revision, state_json)
                if revision > rows.top:
                    rows.top = revision
                if state_json is None:
                    rows.live.pop(subject_id, None)
                else:
                    rows.live[subject_id] = None
            commit = accepted_commit(envelope, tuple(committed))
            records.add(self._stamp_of(tuple(listed)), record_id, (tuple(texts), commit))
            if records.limit is not None and len(records.order) > records.limit:
                for evicted in records.evictions():
                    self._forget(evicted)
            return commit

    def _stamp_of(self, names: tuple[str, ...]) -> Stamp:
        """The stamp of the types a commit wrote (each subject's type, in the batch's order of the
        subjects' first writes), looked up by that tuple: cheaper to build and hash on every commit
        than a frozenset."""
        stamp = self._stamps.get(names)
        if stamp is None:
            stamp = self._stamps[names] = self._stamp(frozenset(names))
        return stamp

    def _stamp(self, names: frozenset[str]) -> Stamp:
        stamp = self._stamps.get(names)
        if stamp is None:
            stamp = self._stamps[names] = tuple(sorted((t, self._types[t].generation) for t in names))
        return stamp

    def _kept(self, subject_type: str, generation: int) -> bool:
        rows = self._types.get(subject_type)
        return rows is not None and rows.generation == generation

    def _forget(self, commit: Commit | ReplaceCommit, journals: frozenset[str] | None = None) -> None:
        """Prune what the bound no longer keeps of ``commit`` (its record is gone already): in
        each subject it wrote, every history entry up to its own but the subject's head; a head
        tombstone, or a subject of a journal type, whole. A replace's entries stay until a later
        commit of their subject goes (nothing is walked per subject of a whole state)."""
        if type(commit) is not Commit:
            return
        envelope = commit.envelope
        types = self._types
        journals = self._journals if journals is None else journals
        for written in commit.writes:
            subject_type, subject_id = written.subject_type, written.subject_id
            rows = types.get(subject_type)
            entries = rows.history.get(subject_id) if rows is not None else None
            if not entries:
                continue  # a replace's implied entry is not this commit's
            if entries[0][1] is envelope:
                at = 0
            else:
                at = next((i for i, entry in enumerate(entries) if entry[1] is envelope), -1)
                if at < 0:
                    continue  # a replace or a compaction dropped it
            last = len(entries) - 1
            if at < last:
                del entries[:at + 1]
            elif subject_type in journals or entries[last][2] is None:
                if entries[last][2] is None:
                    rows.floor = max(rows.floor, entries[last][0] or rows.base)
                del rows.history[subject_id]
                del rows.subjects[subject_id]
                rows.live.pop(subject_id, None)
            elif at:
                del entries[:at]

    # -- replacing whole types ---------------------------------------------------------------

    replaces_whole = True

    def stage_replace(self, prepared: PreparedReplace) -> StagedReplace:
        """Build the replace's rows beside the store (reads and changes nothing it holds)."""
        rows = {subject_type: TypeRows() for subject_type in prepared.subject_types}
        for held in rows.values():
            held.installed = prepared.envelope  # each row's one history entry, implied
        for (subject_type, subject_id), text in prepared.rows.items():
            held = rows[subject_type]
            held.subjects[subject_id] = text  # revision 0, without a tuple per row
            held.live[subject_id] = None
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
            records = self._records
            existing = records.find(record_id)
            if existing is not None:
                if existing[0] != digest:
                    raise RecordConflict(record_id)
                return existing[1]  # type: ignore[return-value]
            if records.forgotten and records.was_forgotten(record_id):
                raise RecordForgotten(record_id, records.limit)
            check_expectations(expect, self._live_revision)
            held = max((self._types[t].top if t in self._types else 0 for t in prepared.subject_types), default=0)
            if revision <= held:
                raise StaleRevision(revision, held)
            for subject_type, rows in staged.rows.items():
                old = self._types.get(subject_type)
                if old is not None:
                    staged.replaced.append(old)  # its last reference is not dropped here
                rows.base = rows.top = revision
                self._types[subject_type] = rows
            self._stamps.clear()
            for (subject_type, subject_id), text in extra_rows.items():  # the few rows known only now
                rows = self._types[subject_type]
                rows.subjects[subject_id] = text  # revision 0; its implied history entry reads this text
                rows.live[subject_id] = None
            # The records only the replaced rows named: their groups whole, freed with ``staged``.
            staged.replaced.extend(records.drop_replaced(self._kept))
            records.add(self._stamp(prepared.subject_types), record_id, (digest, commit))
            for evicted in records.evictions():
                self._forget(evicted)
            return commit

    def _live_revision(self, key: SubjectKey) -> int | None:
        rows = self._types.get(key[0])
        head = rows.revision(key[1]) if rows is not None else None
        return head[0] if head is not None and head[1] else None

    # -- reads -------------------------------------------------------------------------------

    def load(self, subject_type: str, subject_id: str) -> Stored | None:
        with self._lock:
            self._check_open()
            rows = self._types.get(subject_type)
            row = rows.row(subject_id) if rows is not None else None
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
            if rows is not None and not entries and (implied := rows.implied(subject_id)) is not None:
                entries = [implied]
            base = rows.base if rows is not None else 0
        result = []
        for revision, env, state_json in entries:
            result.append(batches.history_entry(revision or base, env.record_id, env.recorded_at,
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
                    rows[t] = [(i, row[0] or held.base, row[1]) for i in sorted(held.live) if (row := held.row(i))]
        return {t: {i: batches.stored(t, i, revision, state_json) for i, revision, state_json in entries}
                for t, entries in rows.items() if entries}

    def compact(self, subject_types: Iterable[str]) -> None:
        types = set(subject_types)
        with self._lock:
            self._check_open()
            for subject_type in types & self._types.keys():
                rows = self._types[subject_type]
                for subject_id in [i for i, row in rows.subjects.items() if type(row) is tuple and row[1] is None]:
                    del rows.subjects[subject_id]  # a tombstone: forgotten whole
                    rows.history.pop(subject_id, None)
                for subject_id, entries in rows.history.items():
                    if len(entries) > 1:
                        rows.history[subject_id] = entries[-1:]
                rows.top = max((row[0] or rows.base if type(row) is tuple else rows.base
                                for row in rows.subjects.values()), default=rows.base)
                rows.floor = 0
            # The records of commits that wrote these types, kept only while a history entry names them.
            touching = self._records.stamps_touching(types)
            near = {t for stamp in touching for t, _ in stamp if t in self._types}
            named = {entry[1].record_id for t in near for entries in self._types[t].history.values()
                     for entry in entries}
            named.update(rows.installed.record_id for t in near if (rows := self._types[t]).installed is not None
                         and any(type(row) is str and i not in rows.history for i, row in rows.subjects.items()))
            self._records.drop_unnamed(touching, named)
            self._records.drop_fingerprints(types)

    def close(self) -> None:
        with self._lock:
            self._closed = True

    def _check_open(self) -> None:
        if self._closed:
            raise StoreClosed("the memory store is closed")
