"""Catching the local copy up with what other processes (or threads) sharing the store committed
(step 1 of a write, ``stored.py``, and of every read).

Read meta's revision (``Store.revision``: the cheap head check, no state parsed). When it is the
one the copy holds, nothing changed. Otherwise read the log entries since, and reload only the
subjects they name; a reset or an add, a long gap or a missing entry reloads everything, from
one snapshot. A write that lost its race is undone the same way: the subjects it touched are
put back as the store holds them.
"""

from __future__ import annotations

from dataclasses import dataclass

from capenv.serving.store import Store
from capenv.serving.writes.generator_state import WriteMeta

from .mirror import StateMirror, StoreLayoutError
from .records import WRITE
from .subjects import COLLECTION, KNOWN_ID, META_ID, STATE_KINDS, Subjects, position_id

@dataclass(frozen=True)
class Applied:
    """The copy took, in place, the subjects the log named; ``growth``: the change in data/get's
    length, or None when it is not known."""

    growth: int | None


def catch_up(store: Store, subjects: Subjects, mirror: StateMirror, most_entries: int) -> StateMirror | Applied | None:
    """Bring ``mirror`` up to the store's position: None when nothing is to change (a no-op when
    meta has not moved), ``Applied`` when it changed in place, a new mirror when the state had
    to be reloaded whole: past ``most_entries`` log entries behind (budget ``catch_up_entries``),
    one snapshot is cheaper than reading entry by entry."""
    if store.revision(subjects.meta, META_ID) == mirror.position:
        return None  # the head check: meta's revision is the state's position
    head = store.load(subjects.meta, META_ID)
    if head is not None and head.revision == mirror.position:
        return None
    if head is None or not 0 < head.revision - mirror.position <= most_entries:
        whole = load_whole(store, subjects)
        if whole is None:
            raise StoreLayoutError(f"the store no longer holds the state of environment {subjects.environment}")
        return whole
    changed: dict[tuple[str, str], None] = {}
    for position in range(mirror.position + 1, head.revision + 1):
        entry = store.load(subjects.log, position_id(position))
        if entry is None or entry.state["kind"] != WRITE:
            return load_whole(store, subjects)  # None (no state to load): the copy stays as it is
        changed.update(((kind, subject_id), None) for kind, subject_id in entry.state["subjects"])
    growth = apply_subjects(store, subjects, mirror, _in_kind_order(changed))
    mirror.meta = WriteMeta.from_json(head.state, mirror.meta.known)  # a write never changes the spellings
    mirror.index.evidence_id = mirror.meta.evidence_id
    mirror.position = head.revision
    mirror.revisions[(subjects.meta, META_ID)] = head.revision
    return Applied(growth)


def load_whole(store: Store, subjects: Subjects) -> StateMirror | None:
    """The local copy rebuilt from one snapshot; None when the store holds no state."""
    snapshot = store.snapshot(subjects.state_types())
    if META_ID not in snapshot.get(subjects.meta, {}):
        return None
    return StateMirror.from_snapshot(subjects, snapshot)


def apply_subjects(store: Store, subjects: Subjects, mirror: StateMirror, keys: list[tuple[str, str]]) -> int | None:
    """Reload these subjects (``(kind, id)``, collections first) into the local copy; the
    change in data/get's length, or None when it is not known."""
    growth: int | None = 0
    for kind, subject_id in keys:
        subject_type = subjects.type_of(kind)
        delta = mirror.apply(subject_type, subject_id, store.load(subject_type, subject_id))
        if kind == COLLECTION:
            growth = None  # rare; measured again when next needed
        elif growth is not None:
            growth += delta
    return growth


def put_back(store: Store, subjects: Subjects, mirror: StateMirror, touched: list[tuple[str, str]]) -> None:
    """Undo a decided write that did not commit: the touched subjects as the store holds them."""
    apply_subjects(store, subjects, mirror, _in_kind_order(touched))
    known = (subjects.meta, KNOWN_ID)
    if known not in mirror.revisions:  # another process may have moved the spellings out first
        revision = store.revision(*known)
        if revision is not None:
            mirror.revisions[known] = revision


def _in_kind_order(keys: dict[tuple[str, str], None] | list[tuple[str, str]]) -> list[tuple[str, str]]:
    return sorted(keys, key=lambda item: STATE_KINDS.index(item[0]))
