"""What the memory store holds per subject is out of the cyclic collector's reach: a container
that grows with a type's subjects and holds only strings (its rows, its live ids) is one CPython
does not track, so no collection walks it (issue 15, item 4: a 10,000-entity state's live ids,
kept as a set, were walked by the next young collection, inside the next data/add, and by every
full one after)."""

from __future__ import annotations

import gc
from typing import Any

from capenv.serving.store import Expect, MemoryStore, NO_ACTOR, RecordEnvelope, SubjectWrite
from capenv.serving.store.replace import prepare_replace

SUBJECTS = 1_000


def big_tracked_containers(root: object) -> list[str]:
    """The containers reachable from ``root`` holding at least ``SUBJECTS`` items that the
    collector tracks (by type name)."""
    seen, found, stack = set(), [], [root]
    while stack:
        item: Any = stack.pop()
        if id(item) in seen or isinstance(item, (type, str, bytes, int)):
            continue
        seen.add(id(item))
        if isinstance(item, (dict, list, set, frozenset, tuple)) and len(item) >= SUBJECTS and gc.is_tracked(item):
            found.append(type(item).__name__)
        stack.extend(gc.get_referents(item))
    return found


def envelope(record_id: str) -> RecordEnvelope:
    return RecordEnvelope(record_id, "2026-01-01T00:00:00+00:00", NO_ACTOR)


def test_a_replaced_types_rows_and_live_ids_are_not_tracked_and_a_write_keeps_the_live_ids() -> None:
    store = MemoryStore()
    rows = {("post", str(i)): {"id": i, "title": f"post {i}"} for i in range(SUBJECTS)}
    store.commit_replace(prepare_replace(envelope("add-1"), ["post"], rows), {}, 1)
    assert big_tracked_containers(store) == []  # a set of the live ids would be
    store.commit(envelope("delete-0"), [SubjectWrite("post", "0", Expect.revision(1), None)])
    store.commit(envelope("create-new"), [SubjectWrite("post", "new", Expect.absent(), {"id": "new"})])
    ids = store.list_ids("post")
    assert len(ids) == SUBJECTS and "0" not in ids and "new" in ids and store.revision("post", "0") is None
