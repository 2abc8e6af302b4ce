"""The memory store's bound on the commits it keeps (``Store.bound_records``; the budget
``memory_store_commits``, issue 15): counted, not measured. Past the bound a store keeps at most
that many records, each subject's history from the oldest kept commit on (its head always), no
forgotten tombstone and no journal subject of a forgotten commit; an evicted record id is refused
on reuse, never committed again as a new request."""

from __future__ import annotations

import pytest

from capenv.serving.store import (
    Expect, MemoryStore, RecordConflict, RecordEnvelope, RecordForgotten, SubjectWrite, NO_ACTOR,
)
from capenv.serving.store.memory_records import MERGE_AT, Fingerprints
from capenv.serving.store.replace import prepare_replace

STATE, JOURNAL, META = "state", "journal", "meta"
KEPT = 5
WRITES = 40


def env(record_id: str) -> RecordEnvelope:
    return RecordEnvelope(record_id, "2026-01-01T00:00:00+00:00", NO_ACTOR)


def bounded() -> MemoryStore:
    store = MemoryStore()
    store.bound_records(KEPT, [JOURNAL])
    return store


def served_write(store: MemoryStore, n: int) -> list[SubjectWrite]:
    """What a served write commits: meta moved on, an entity created (and the previous one
    deleted), its own journal entry."""
    meta = store.revision(META, "m")
    batch = [SubjectWrite(META, "m", Expect.absent() if meta is None else Expect.revision(meta), {"n": n}),
             SubjectWrite(STATE, f"e{n}", Expect.absent(), {"n": n}),
             SubjectWrite(JOURNAL, f"r{n}", Expect.absent(), {"record": n})]
    if n:
        batch.append(SubjectWrite(STATE, f"e{n - 1}", Expect.revision(store.revision(STATE, f"e{n - 1}")), None))
    store.commit(env(f"r{n}"), batch)
    return batch


def test_past_the_bound_the_store_keeps_the_last_commits_only() -> None:
    store = bounded()
    batches = [served_write(store, n) for n in range(WRITES)]
    assert len(store._records) == KEPT  # noqa: SLF001 - the count is the point
    assert len(store.history(META, "m")) == KEPT  # one entry per kept commit
    assert [h.record_id for h in store.history(META, "m")] == [f"r{n}" for n in range(WRITES - KEPT, WRITES)]
    assert store.list_ids(JOURNAL) == sorted(f"r{n}" for n in range(WRITES - KEPT, WRITES))
    assert store.list_ids(STATE) == [f"e{WRITES - 1}"]
    assert store.history(STATE, "e0") == []  # a forgotten tombstone goes whole
    # every kept record still answers its exact retry with the original commit
    for n in range(WRITES - KEPT, WRITES):
        assert store.commit(env(f"r{n}"), batches[n]).record_id == f"r{n}"


def test_a_forgotten_record_id_is_refused_on_reuse_and_writes_nothing() -> None:
    store = bounded()
    batches = [served_write(store, n) for n in range(WRITES)]
    before = store.snapshot()
    assert store.forgotten("r0") and not store.forgotten(f"r{WRITES - 1}") and not store.forgotten("never")
    for attempt in (batches[0], [SubjectWrite(STATE, "other", Expect.absent(), {"new": True})]):
        with pytest.raises(RecordForgotten) as refused:
            store.commit(env("r0"), attempt)
        assert isinstance(refused.value, RecordConflict) and "memory_store_commits" in str(refused.value)
    assert store.snapshot() == before


def test_a_creation_after_a_forgotten_tombstone_continues_above_it() -> None:
    store = bounded()
    store.commit(env("a1"), SubjectWrite(STATE, "x", Expect.absent(), {"v": 1}))
    store.commit(env("a2"), SubjectWrite(STATE, "x", Expect.revision(1), {"v": 2}))
    store.commit(env("a3"), SubjectWrite(STATE, "x", Expect.revision(2), None))
    for n in range(KEPT):
        store.commit(env(f"b{n}"), SubjectWrite(META, f"m{n}", Expect.absent(), {"n": n}))
    assert store.history(STATE, "x") == []  # forgotten whole
    committed = store.commit(env("a4"), SubjectWrite(STATE, "x", Expect.absent(), {"v": 4}))
    assert committed.writes[0].revision > 3


def test_a_live_subject_keeps_its_head_when_its_commit_is_forgotten() -> None:
    store = bounded()
    store.commit(env("old"), SubjectWrite(STATE, "kept", Expect.absent(), {"v": 1}))
    for n in range(3 * KEPT):
        store.commit(env(f"b{n}"), SubjectWrite(META, "m", Expect.absent() if n == 0 else Expect.revision(n), {"n": n}))
    assert [(h.revision, h.record_id, h.state) for h in store.history(STATE, "kept")] == [(1, "old", {"v": 1})]
    assert store.load(STATE, "kept").state == {"v": 1}
    assert store.forgotten("old")


def test_a_replace_frees_the_ids_of_the_state_it_replaced_forgotten_or_not() -> None:
    store = bounded()
    batches = [served_write(store, n) for n in range(WRITES)]
    prepared = prepare_replace(env("install"), [STATE, JOURNAL, META], {(STATE, "s"): {"fresh": True}})
    store.commit_replace(prepared, {(META, "m"): Expect.revision(WRITES)}, WRITES + 1)
    assert not store.forgotten("r0")
    assert len(store._records) == 1  # noqa: SLF001 - only the replace's own
    # a key of the replaced episode, forgotten or kept, is a new request now
    store.commit(env("r0"), [SubjectWrite(STATE, "again", Expect.absent(), {"n": 0})])
    store.commit(env(f"r{WRITES - 1}"), batches[-1][1:3])
    assert store.load(STATE, "again") is not None


def test_without_a_bound_everything_is_kept() -> None:
    store = MemoryStore()
    for n in range(WRITES):
        served_write(store, n)
    assert len(store.history(META, "m")) == WRITES and len(store.list_ids(JOURNAL)) == WRITES
    assert [h.revision for h in store.history(STATE, "e0")] == [1, 2]
    assert not store.forgotten("r0")


def test_fingerprints_hold_every_id_across_merges() -> None:
    held = Fingerprints()
    ids = [f"record-{n}" for n in range(MERGE_AT * 2 + 7)]
    for record_id in ids:
        held.add(record_id)
    assert len(held) == len(ids)
    assert all(record_id in held for record_id in ids)
    assert not any(f"other-{n}" in held for n in range(1000))


def test_a_replace_of_every_type_leaves_no_entry_of_the_old_episode_in_the_commit_order() -> None:
    """Nothing the replaced episode committed stays behind, not even its place in the order the
    bound evicts by: data/add and data/reset cycles keep nothing from one cycle to the next (each
    entry kept, made while a large state was built, pinned an arena of Python's allocator)."""
    store = bounded()
    for cycle in range(3):
        for n in range(KEPT - 1):
            served_write(store, n)  # the ids of the replaced episode are free again
        meta = store.revision(META, "m")
        prepared = prepare_replace(env(f"install-{cycle}"), [STATE, JOURNAL, META], {(META, "m"): {"n": 0}})
        store.commit_replace(prepared, {(META, "m"): Expect.revision(meta)}, meta + 1)
        assert [record_id for _, record_id in store._records.order] == [f"install-{cycle}"]  # noqa: SLF001
