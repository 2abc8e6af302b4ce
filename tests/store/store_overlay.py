"""The overlay as a store provider: an instance's copy-on-write store (``serving/instances/overlay.py``)
over a frozen base holding some subjects, its delta on a memory or SQLite store.

The base holds subjects of its own type (``seed``, which the conformance cases never write), one
of them at revision 3 with a history, so every case runs with the base showing through beside
what the case commits. ``base_subjects`` installs given subjects as the base (the overlay's own
tests in ``test_overlay_base_subjects.py`` write over and delete them)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from capenv.interpreter.bundle.jsonvalue import dumps
from capenv.serving.instances.base import FrozenBase
from capenv.serving.instances.overlay import OverlayStore
from capenv.serving.store import Expect, MemoryStore, RecordEnvelope, Store, SubjectWrite, open_store

SEED = "seed"
TYPES = ("order", "line", "other", "unknown", SEED)
PREFIX = "i/instance-under-test/"


@dataclass(frozen=True)
class TestSubjects:
    """The overlay's view of the instance's subject types: the cases' plain type names."""

    __test__ = False
    meta: str = "meta"

    def all_types(self) -> list[str]:
        return list(TYPES)

    def kind_of(self, subject_type: str) -> str:
        return subject_type


def base_subjects(commits: list[list[SubjectWrite]]) -> FrozenBase:
    """A frozen base holding what ``commits`` leave, with their histories (records ``base-N``)."""
    store = MemoryStore()
    for number, writes in enumerate(commits, 1):
        store.commit(RecordEnvelope(f"base-{number}", "2026-01-01T00:00:00Z", "installer", None, None), writes)
    rows, histories = {}, {}
    for subject_type, stored in store.snapshot().items():
        rows[subject_type] = {i: (s.revision, dumps(s.state).decode("utf-8")) for i, s in stored.items()}
        for subject_id in stored:
            histories[(subject_type, subject_id)] = tuple(store.history(subject_type, subject_id))
    store.close()
    return FrozenBase(None, rows, histories, None, b"")  # type: ignore[arg-type]  # the overlay reads rows only


def seeded_base() -> FrozenBase:
    return base_subjects([
        [SubjectWrite(SEED, "s1", Expect.absent(), {"n": 1}), SubjectWrite(SEED, "s2", Expect.absent(), {"n": 1})],
        [SubjectWrite(SEED, "s2", Expect.revision(1), {"n": 2})],
        [SubjectWrite(SEED, "s2", Expect.revision(2), {"n": 3})],
    ])


def overlay_opener(base: FrozenBase, open_delta: Callable[[], Store], owns_delta: bool) -> Callable[[], Store]:
    subjects = TestSubjects()
    return lambda: OverlayStore(base, open_delta(), subjects, PREFIX, owns_delta=owns_delta)  # type: ignore[arg-type]


def open_overlay(kind: str, base: FrozenBase, request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    """An overlay over ``base`` whose delta is the ``kind`` of store: ``memory…``, ``sqlite`` or
    ``postgres`` (a fresh schema from the ``postgres_provider`` fixture, skipped without a server)."""
    if kind.startswith("memory"):
        delta = MemoryStore()
        opener = overlay_opener(base, lambda: delta, owns_delta=True)
    elif kind == "postgres":
        opener = overlay_opener(base, request.getfixturevalue("postgres_provider").open, True)
    else:
        opener = overlay_opener(base, lambda: open_store(f"sqlite:{tmp_path / 'fleet.sqlite'}"), True)
    return opener()
