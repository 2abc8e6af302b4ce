"""The memory store's bound on the commits it keeps (``Store.bound_records``; the budget
``memory_store_commits``, issue 15): counted, not measured. Past the bound a store keeps at most
that many records, each subject's history from the oldest kept commit on (its head always), no
forgotten tombstone and no journal subject of a forgotten commit; an evicted record id is refused
on reuse, never committed again as a new request. What every provider must do under a bound is
``test_store_bound.py``; here, what only the memory store holds (its record groups, fingerprints
and commit order)."""

from __future__ import annotations

from capenv.serving.store import Expect, MemoryStore, RecordEnvelope, SubjectWrite, NO_ACTOR
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
