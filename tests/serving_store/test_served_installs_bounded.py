"""What a store holds stays the size of one episode across data/add and data/reset cycles (issue
11: eight cycles of a 32 MB add and a reset grew the memory store from 76 MB to 1.6 GB, and the
SQLite file by ~31 MB a cycle, every revision, document and idempotency record being kept).
Counted, not measured in bytes: every subject, history entry and record the store holds after
each cycle, which must be the same from the first cycle on; and a key used before a reset is
forgotten by the store, not only refused."""

from __future__ import annotations

import json
import sqlite3

import pytest
from serving_store_support import POST_BODY, posts_of

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.state.subjects import Subjects
from capenv.serving.store import MemoryStore, Store, open_store

CYCLES = 5


def held(store: Store, subjects: Subjects) -> tuple[int, int, int]:
    """Subjects, history entries and distinct record ids the environment's types hold."""
    live = entries = 0
    records: set[str] = set()
    for subject_type in subjects.all_types():
        for subject_id in store.list_ids(subject_type):
            live += 1
            history = store.history(subject_type, subject_id)
            entries += len(history)
            records.update(entry.record_id for entry in history)
    return live, entries, len(records)


def sqlite_rows(path: str) -> tuple[int, ...]:
    with sqlite3.connect(path) as conn:
        tables = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        return tuple(conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0] for table in tables)


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
def test_add_and_reset_cycles_leave_the_store_the_size_of_one_episode(bundle, tmp_path, kind: str) -> None:
    path = str(tmp_path / "state.sqlite")
    store = MemoryStore() if kind == "memory" else open_store(f"sqlite:{path}")
    runtime = EnvironmentRuntime(bundle, store=store)
    subjects = Subjects(bundle.view.evidence_id)
    document = json.loads(runtime.data_get())
    template = posts_of(document)[0]
    posts_of(document).extend({**template, "id": 1000 + n, "value": {**template["value"], "id": 1000 + n}}
                              for n in range(200))
    added = json.dumps(document).encode()
    after: list[tuple] = []
    for cycle in range(CYCLES):
        runtime.data_add(added)
        for n in range(3):  # writes under keys, kept until the reset
            answer = runtime.call_tool("post_posts", {"body": POST_BODY}, idempotency_key=f"k-{cycle}-{n}")
            assert not answer.is_error, answer.structured
        runtime.data_reset()
        assert store.load(subjects.write, f"k-{cycle}-0") is None  # the episode's keys are gone
        after.append(held(store, subjects) + (sqlite_rows(path) if kind == "sqlite" else ()))
    assert all(counts == after[0] for counts in after), after
    live, entries, records = after[0][:3]
    assert entries == live and records == 1  # one entry each, all the reset's
    runtime.close()
