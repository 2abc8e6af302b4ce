"""An instance's store: copy-on-write at subject level over the fleet's frozen base.

The instance's subjects are read from the fleet's store (the *delta*) when it holds them, else
from the base, which every instance shares and nothing writes. A write lands in the delta only,
so creating an instance writes nothing and an instance keeps only the subjects it changed.

The contract (``store/contract.py``) holds as for any provider, with these translations:

* revisions: a subject the base holds at revision ``b`` is at ``b + d`` once the delta holds it
  at ``d`` (its first write expects it absent from the delta);
* a deletion of a base subject cannot be a tombstone in the delta (compaction forgets
  tombstones whole, and the base's subject would show through again): it is a live *marker*
  subject in the delta, read as absent;
* record ids are global to a store, and an instance's idempotency keys are its own: the delta
  records them under the instance's prefix, and every answer names them as the caller did.
* the bound on the commits kept (``bound_records``) is the instance's own: the overlay counts the
  commits it made and, past the bound, has the delta forget the oldest (``Store.forget_commits``,
  right after the commit that passed it), so no instance's writes push out another's records.

* an expectation naming the revision at which the instance deleted a base subject is refused
  (the delta holds a live marker there), which costs one read of the delta per written base
  subject but meta, which is never deleted; a batch sees its own earlier writes of a base subject.

The store conformance suite runs against this store (``tests/store/test_store_conformance.py``),
over a base holding subjects and over an empty one (memory, SQLite, PostgreSQL deltas), and
``tests/store/test_overlay_base_subjects.py`` runs the contract's cases on base subjects themselves.
"""

from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence

from capenv.interpreter.bundle.jsonvalue import loads
from capenv.serving.state.subjects import Subjects
from capenv.serving.store import (
    Commit, CommittedWrite, Expect, HistoryEntry, RecordConflict, RecordEnvelope, RecordForgotten, RevisionConflict,
    Store, Stored, SubjectWrite,
)

from .base import FrozenBase

MARKER_MEMBER = "capenv:overlay"
MARKER = {MARKER_MEMBER: "deleted"}
"""The delta's state of a base subject the instance deleted."""


def is_marker(state: dict | None) -> bool:
    return state is not None and state.get(MARKER_MEMBER) == "deleted"


@dataclasses.dataclass(frozen=True)
class Pending:
    """A base subject as the delta holds it: its revision there (0: not at all), and whether that
    is a deletion marker."""

    revision: int
    marker: bool


class OverlayStore(Store):
    def __init__(self, base: FrozenBase, delta: Store, subjects: Subjects, record_prefix: str, *,
                 owns_delta: bool = False) -> None:
        """``subjects``: the instance's subject types (they name the base's by their kind);
        ``record_prefix``: what the instance's record ids are kept under in the delta."""
        self.base = base
        self.delta = delta
        self.subjects = subjects
        self.prefix = record_prefix
        self._owns_delta = owns_delta
        self._own_types = set(subjects.all_types())
        self._meta = subjects.meta
        # ``bound_records``: the instance's own last commits (delta record ids, oldest first). The
        # fleet's store is shared, so the bound is the instance's: another's writes forget none of these.
        self._kept: int | None = None
        self._journals: frozenset[str] = frozenset()
        self._order: OrderedDict[str, None] = OrderedDict()
        self._order_lock = threading.Lock()

    # --- the instance's bound on the commits it keeps ---------------------------------------

    @property
    def records_budget(self) -> str:  # type: ignore[override]
        return self.delta.records_budget

    def bound_records(self, commits: int | None, journal_types: Iterable[str] = ()) -> None:
        self._kept = commits
        self._journals = self._journals | frozenset(journal_types)

    def forgotten(self, record_id: str) -> bool:
        return self.delta.forgotten(self.prefix + record_id)

    def _kept_commit(self, record_id: str) -> None:
        """Count a commit this instance made (an exact retry is counted once); forget its oldest
        past the bound. This process's commits only: another process serving the instance keeps its own."""
        kept = self._kept
        if not kept:
            return
        with self._order_lock:
            self._order[record_id] = None
            self._order.move_to_end(record_id)  # a key used again after a reset freed it: its new commit
            past = [self._order.popitem(last=False)[0] for _ in range(len(self._order) - kept)]
        if past:
            self.delta.forget_commits(past, self._journals)

    # --- where a subject lives ----------------------------------------------------------

    def _kind(self, subject_type: str) -> str | None:
        return self.subjects.kind_of(subject_type) if subject_type in self._own_types else None

    def _base_revision(self, subject_type: str, subject_id: str) -> int | None:
        kind = self._kind(subject_type)
        return None if kind is None else self.base.revision(kind, subject_id)

    def _base_stored(self, subject_type: str, subject_id: str) -> Stored | None:
        kind = self._kind(subject_type)
        row = None if kind is None else self.base.row(kind, subject_id)
        return None if row is None else Stored(subject_type, subject_id, row[0], loads(row[1]))

    # --- writing ------------------------------------------------------------------------

    def commit(self, envelope: RecordEnvelope, writes: Sequence[SubjectWrite]) -> Commit:
        writes = (writes,) if isinstance(writes, SubjectWrite) else tuple(writes)
        translated, offsets = [], []
        pending: dict[tuple[str, str], Pending] = {}
        for write in writes:
            base = self._base_revision(*write.key)
            offsets.append(base or 0)
            translated.append(self._delta_write(write, base, pending))
        inner = dataclasses.replace(envelope, record_id=self.prefix + envelope.record_id)
        try:
            committed = self.delta.commit(inner, translated)
        except RecordForgotten:
            raise RecordForgotten(envelope.record_id, self._kept, self.records_budget) from None
        except RecordConflict:
            raise RecordConflict(envelope.record_id) from None
        except RevisionConflict as lost:
            raise self._conflict(writes, translated, lost) from None
        self._kept_commit(inner.record_id)
        return Commit(envelope, tuple(
            CommittedWrite(w.subject_type, w.subject_id, w.expect, done.revision + offset, w.state is None)
            for w, done, offset in zip(writes, committed.writes, offsets)))

    def _delta_write(self, write: SubjectWrite, base: int | None,
                     pending: dict[tuple[str, str], Pending]) -> SubjectWrite:
        """``write`` as the delta takes it; ``pending``: the base subjects the batch wrote before it.

        A numbered expectation becomes ``number - base`` whatever the delta holds, so an exact
        retry translates to the bytes its first commit did and the delta answers it."""
        if base is None:
            return write
        held = pending.get(write.key) or self._held(write, base)
        number = write.expect.number
        if number is None:  # live again after the instance deleted it: the delta holds a marker
            if not held.marker:
                raise RevisionConflict(write.subject_type, write.subject_id, write.expect, base + held.revision)
            expect, revision = Expect.revision(held.revision), held.revision + 1
        else:
            if number < base or (held.marker and number - base == held.revision):
                # below the base, or the revision a deletion left: never a live one
                live = None if held.marker else base + held.revision
                raise RevisionConflict(write.subject_type, write.subject_id, write.expect, live)
            expect = Expect.absent() if number == base else Expect.revision(number - base)
            revision = number - base + 1
        pending[write.key] = Pending(revision, write.state is None)
        return SubjectWrite(*write.key, expect, MARKER if write.state is None else write.state)

    def _held(self, write: SubjectWrite, base: int) -> Pending:
        """What the delta holds of a base subject: its revision there (0: none) and whether it is a
        marker. Meta is never deleted, so its write's expectation says it without a read."""
        number = write.expect.number
        if write.subject_type == self._meta and number is not None and number >= base:
            return Pending(number - base, False)
        held = self.delta.load(*write.key)
        return Pending(0, False) if held is None else Pending(held.revision, is_marker(held.state))

    def _conflict(self, writes: Sequence[SubjectWrite], translated: Sequence[SubjectWrite],
                  lost: RevisionConflict) -> RevisionConflict:
        """The delta's conflict as the caller sees it: its own write and the live revision it met."""
        key = (lost.subject_type, lost.subject_id)
        index = next((i for i, w in enumerate(translated) if w.key == key and w.expect == lost.expected), None)
        if index is None:
            return RevisionConflict(lost.subject_type, lost.subject_id, lost.expected, lost.found)
        write, base = writes[index], self._base_revision(*key)
        if base is None:
            return RevisionConflict(write.subject_type, write.subject_id, write.expect, lost.found)
        earlier = [w for w in writes[:index] if w.key == key]
        if earlier:
            deleted = earlier[-1].state is None
        else:
            held = self.delta.load(*key)
            deleted = held is not None and is_marker(held.state)
        found = None if deleted else base + (lost.found or 0)
        return RevisionConflict(write.subject_type, write.subject_id, write.expect, found)

    # --- reading ------------------------------------------------------------------------

    def load(self, subject_type: str, subject_id: str) -> Stored | None:
        held = self.delta.load(subject_type, subject_id)
        if held is None:
            return self._base_stored(subject_type, subject_id)
        if is_marker(held.state):
            return None
        base = self._base_revision(subject_type, subject_id) or 0
        return held if not base else Stored(subject_type, subject_id, held.revision + base, held.state)

    def revision(self, subject_type: str, subject_id: str) -> int | None:
        if subject_type != self._meta:  # meta is never deleted: only it skips reading the state
            found = self.load(subject_type, subject_id)
            return None if found is None else found.revision
        held = self.delta.revision(subject_type, subject_id)
        base = self._base_revision(subject_type, subject_id)
        if held is None:
            return base
        return held + (base or 0)

    def list_ids(self, subject_type: str) -> list[str]:
        return sorted(self.snapshot([subject_type]).get(subject_type, {}))

    def history(self, subject_type: str, subject_id: str) -> list[HistoryEntry]:
        kind = self._kind(subject_type)
        base = [] if kind is None else list(self.base.histories.get((kind, subject_id), ()))
        offset = base[-1].revision if base else 0
        entries = self.delta.history(subject_type, subject_id)
        if entries and entries[0].revision != 1:  # compacted: the base's entries went before them
            base = []
        return base + [dataclasses.replace(
            e, revision=e.revision + offset, record_id=self._caller_id(e.record_id),
            state=None if is_marker(e.state) else e.state) for e in entries]

    def snapshot(self, subject_types: Iterable[str] | None = None) -> dict[str, dict[str, Stored]]:
        types = sorted(self._own_types if subject_types is None else set(subject_types))
        delta = self.delta.snapshot(types)
        result: dict[str, dict[str, Stored]] = {}
        for subject_type in types:
            kind = self._kind(subject_type)
            rows = {} if kind is None else self.base.rows.get(kind, {})
            merged = {i: Stored(subject_type, i, r, loads(text)) for i, (r, text) in rows.items()}
            for subject_id, held in delta.get(subject_type, {}).items():
                base = rows.get(subject_id)
                if is_marker(held.state):
                    merged.pop(subject_id, None)
                else:
                    merged[subject_id] = held if base is None else Stored(
                        subject_type, subject_id, held.revision + base[0], held.state)
            if merged:
                result[subject_type] = dict(sorted(merged.items()))
        return result

    def compact(self, subject_types: Iterable[str]) -> None:
        self.delta.compact(subject_types)  # markers are live in the delta: they stay

    def close(self) -> None:
        if self._owns_delta:
            self.delta.close()

    def _caller_id(self, record_id: str) -> str:
        return record_id[len(self.prefix):] if record_id.startswith(self.prefix) else record_id
