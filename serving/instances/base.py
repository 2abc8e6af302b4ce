"""The frozen base every instance of a fleet starts from: the initial state installed once, in a
store of its own that nothing writes again, and kept three ways so an instance costs nothing to
create: its subjects as the store held them (what an instance's overlay store reads through),
its in-process copy (``StateMirror``, what an instance reads until its first write), and what
data/get writes for it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from capenv.interpreter.bundle.jsonvalue import dumps
from capenv.serving.state.mirror import StateMirror
from capenv.serving.state.stored import StoreStateHolder
from capenv.serving.state.subjects import Subjects
from capenv.serving.store import HistoryEntry, MemoryStore

SubjectRow = tuple[int, str]
"""A base subject: its revision and its state as JSON text."""


@dataclass(frozen=True)
class FrozenBase:
    subjects: Subjects
    """The base's own subject types (``capenv/<evidence id>/<kind>``)."""
    rows: dict[str, dict[str, SubjectRow]]
    """kind -> subject id -> (revision, state JSON): every live subject of the base."""
    histories: dict[tuple[str, str], tuple[HistoryEntry, ...]]
    """(kind, subject id) -> the subject's history as the base's store kept it."""
    mirror: StateMirror
    """The in-process copy: shared by every instance until it writes; never changed."""
    encoded: bytes
    """What data/get writes for the base."""

    def row(self, kind: str, subject_id: str) -> SubjectRow | None:
        found = self.rows.get(kind)
        return None if found is None else found.get(subject_id)

    def revision(self, kind: str, subject_id: str) -> int | None:
        row = self.row(kind, subject_id)
        return None if row is None else row[0]

    @classmethod
    def install(cls, bundle: Any, writes: Any, encode: Any) -> FrozenBase:
        """Install the bundle's initial state once, in a store only this base holds."""
        store = MemoryStore()
        holder = StoreStateHolder(store, bundle, writes, encode, shared=False)
        holder.load(bundle.view.state)
        subjects = holder.subjects
        snapshot = store.snapshot(subjects.all_types())
        rows: dict[str, dict[str, SubjectRow]] = {}
        histories: dict[tuple[str, str], tuple[HistoryEntry, ...]] = {}
        for subject_type, stored in snapshot.items():
            kind = subjects.kind_of(subject_type)
            rows[kind] = {i: (s.revision, dumps(s.state).decode("utf-8")) for i, s in stored.items()}
            for subject_id in stored:
                histories[(kind, subject_id)] = tuple(store.history(subject_type, subject_id))
        encoded = holder.encoded()
        mirror = holder._held()  # noqa: SLF001 - the base owns this holder and keeps its copy
        store.close()
        return cls(subjects, rows, histories, mirror, encoded)
