"""Every provider's bound on the commits it keeps (``Store.bound_records``: the memory store's budget
``memory_store_commits``, the SQL providers' ``store_commits``; ``serving/store/forgetting.py``).
Counted, not measured: past the bound a store keeps each subject's history from the oldest kept
commit on (its head always), no forgotten tombstone and no journal subject of a forgotten commit,
and on disk its history and record tables stay the same size however many commits follow; an
evicted record id is refused on reuse (``RecordForgotten``), never committed again as a new
request, and a kept one answers its exact retry with the original commit."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

import pytest
from store_support import Provider

from capenv.serving.store import (
    Expect, RecordConflict, RecordEnvelope, RecordForgotten, Store, SubjectWrite, NO_ACTOR,
)
from capenv.serving.store.replace import prepare_replace

STATE, JOURNAL, META = "state", "journal", "meta"
KEPT = 5
WRITES = 40


def env(record_id: str) -> RecordEnvelope:
    return RecordEnvelope(record_id, "2026-01-01T00:00:00+00:00", NO_ACTOR)


@pytest.fixture
def bounded(store: Store) -> Iterator[Store]:
    store.bound_records(KEPT, [JOURNAL])
    yield store


def served_write(store: Store, n: int) -> list[SubjectWrite]:
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


def test_past_the_bound_the_store_keeps_the_last_commits_only(bounded: Store) -> None:
    batches = [served_write(bounded, n) for n in range(WRITES)]
    assert [h.record_id for h in bounded.history(META, "m")] == [f"r{n}" for n in range(WRITES - KEPT, WRITES)]
    assert bounded.list_ids(JOURNAL) == sorted(f"r{n}" for n in range(WRITES - KEPT, WRITES))
    assert bounded.list_ids(STATE) == [f"e{WRITES - 1}"]
    assert bounded.history(STATE, "e0") == []  # a forgotten tombstone goes whole
    for n in range(WRITES - KEPT, WRITES):  # every kept record still answers its exact retry
        assert bounded.commit(env(f"r{n}"), batches[n]).record_id == f"r{n}"
    assert bounded.load(META, "m").state == {"n": WRITES - 1}


def test_a_forgotten_record_id_is_refused_on_reuse_and_writes_nothing(bounded: Store) -> None:
    batches = [served_write(bounded, n) for n in range(WRITES)]
    before = bounded.snapshot()
    assert bounded.forgotten("r0") and not bounded.forgotten(f"r{WRITES - 1}") and not bounded.forgotten("never")
    for attempt in (batches[0], [SubjectWrite(STATE, "other", Expect.absent(), {"new": True})]):
        with pytest.raises(RecordForgotten) as refused:
            bounded.commit(env("r0"), attempt)
        assert isinstance(refused.value, RecordConflict) and bounded.records_budget in str(refused.value)
    assert bounded.snapshot() == before


def test_a_creation_after_a_forgotten_tombstone_continues_above_it(bounded: Store) -> None:
    bounded.commit(env("a1"), SubjectWrite(STATE, "x", Expect.absent(), {"v": 1}))
    bounded.commit(env("a2"), SubjectWrite(STATE, "x", Expect.revision(1), {"v": 2}))
    bounded.commit(env("a3"), SubjectWrite(STATE, "x", Expect.revision(2), None))
    for n in range(KEPT):
        bounded.commit(env(f"b{n}"), SubjectWrite(META, f"m{n}", Expect.absent(), {"n": n}))
    assert bounded.history(STATE, "x") == []  # forgotten whole
    committed = bounded.commit(env("a4"), SubjectWrite(STATE, "x", Expect.absent(), {"v": 4}))
    assert committed.writes[0].revision > 3
    with pytest.raises(RecordForgotten):  # a commit whose every row went is refused by its fingerprint
        bounded.commit(env("a3"), SubjectWrite(STATE, "x", Expect.revision(committed.writes[0].revision), None))


def test_a_live_subject_keeps_its_head_when_its_commit_is_forgotten(bounded: Store) -> None:
    bounded.commit(env("old"), SubjectWrite(STATE, "kept", Expect.absent(), {"v": 1}))
    for n in range(3 * KEPT):
        bounded.commit(env(f"b{n}"), SubjectWrite(META, "m", Expect.absent() if n == 0 else Expect.revision(n),
                                                   {"n": n}))
    assert [(h.revision, h.record_id, h.state) for h in bounded.history(STATE, "kept")] == [(1, "old", {"v": 1})]
    assert bounded.load(STATE, "kept").state == {"v": 1}
    assert bounded.forgotten("old")
    with pytest.raises(RecordForgotten):
        bounded.commit(env("old"), SubjectWrite(STATE, "kept", Expect.absent(), {"v": 1}))
    # the head moves on, and once the commit that moved it is forgotten too, so is the old record
    bounded.commit(env("moved"), SubjectWrite(STATE, "kept", Expect.revision(1), {"v": 2}))
    for n in range(3 * KEPT, 5 * KEPT):
        bounded.commit(env(f"b{n}"), SubjectWrite(META, "m", Expect.revision(n), {"n": n}))
    assert [h.record_id for h in bounded.history(STATE, "kept")] == ["moved"]
    assert bounded.forgotten("old") and bounded.forgotten("moved")


def test_a_replace_frees_the_ids_of_the_state_it_replaced_forgotten_or_not(bounded: Store) -> None:
    batches = [served_write(bounded, n) for n in range(WRITES)]
    prepared = prepare_replace(env("install"), [STATE, JOURNAL, META], {(STATE, "s"): {"fresh": True}})
    bounded.commit_replace(prepared, {(META, "m"): Expect.revision(WRITES)}, WRITES + 1)
    assert not bounded.forgotten("r0")
    # a key of the replaced episode, forgotten or kept, is a new request now
    bounded.commit(env("r0"), [SubjectWrite(STATE, "again", Expect.absent(), {"n": 0})])
    bounded.commit(env(f"r{WRITES - 1}"), batches[-1][1:3])
    assert bounded.load(STATE, "again") is not None


def test_a_fingerprint_outlives_a_replace_of_only_some_of_its_types(bounded: Store) -> None:
    for n in range(WRITES):
        served_write(bounded, n)
    bounded.commit_replace(prepare_replace(env("partial"), [STATE], {(STATE, "s"): {"fresh": True}}), {}, WRITES + 1)
    assert bounded.forgotten("r0")  # it wrote meta and the journal too, which the replace left as they were


def test_without_a_bound_everything_is_kept(store: Store) -> None:
    for n in range(WRITES):
        served_write(store, n)
    assert len(store.history(META, "m")) == WRITES and len(store.list_ids(JOURNAL)) == WRITES
    assert [h.revision for h in store.history(STATE, "e0")] == [1, 2]
    assert not store.forgotten("r0")


def table_rows(provider: Provider, table: str) -> int:
    if provider.name == "sqlite":
        conn = sqlite3.connect(provider.url.removeprefix("sqlite:"))
        try:
            return conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
        finally:
            conn.close()
    import psycopg

    with psycopg.connect(provider.url.split("?")[0]) as conn:
        return conn.execute(f'SELECT count(*) FROM "{provider.schema}".{table}').fetchone()[0]


def test_on_disk_the_tables_stay_at_the_bound(durable_provider: Provider) -> None:
    """The SQL providers: a served write's history rows and record past the bound cost nothing
    more; what grows is one fingerprint per forgotten commit (an integer and its types)."""
    store = durable_provider.open()
    try:
        store.bound_records(KEPT, [JOURNAL])
        sizes = []
        for n in range(4 * WRITES):
            served_write(store, n)
            if n in (WRITES, 4 * WRITES - 1):
                sizes.append({t: table_rows(durable_provider, t) for t in ("history", "records", "commit_order")})
        assert sizes[0] == sizes[1], sizes
        assert sizes[1]["records"] <= KEPT + 1 and sizes[1]["commit_order"] == KEPT
        assert sizes[1]["history"] <= 4 * KEPT + 2  # meta, a created entity and a journal entry per kept commit
        assert table_rows(durable_provider, "forgotten") == 4 * WRITES - KEPT
    finally:
        store.close()


def test_another_handle_on_the_same_file_refuses_a_forgotten_id(durable_provider: Provider) -> None:
    """The fingerprints are in the file (the schema), not in the process that forgot."""
    store = durable_provider.open()
    try:
        store.bound_records(KEPT, [JOURNAL])
        batches = [served_write(store, n) for n in range(WRITES)]
    finally:
        store.close()
    other = durable_provider.open()  # unbounded itself
    try:
        assert other.forgotten("r0")
        with pytest.raises(RecordForgotten):
            other.commit(env("r0"), batches[0])
        assert other.commit(env(f"r{WRITES - 1}"), batches[-1]).record_id == f"r{WRITES - 1}"
    finally:
        other.close()
