"""A SQLite file of format 1 (a ``subjects`` table beside ``history``) opens: it is migrated to
the current format in the opening transaction, and answers as it did (states, revisions, tombstones,
histories, exact retries, record conflicts), then keeps serving. A format 1 file whose heads and
history disagree is refused, not guessed."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from store_conformance import T, create, delete, env, update

from capenv.serving.store import RecordConflict, StoreBackendError, SqliteStore
from capenv.serving.store import batch as batches
from capenv.serving.store.sqlite_schema import FORMAT_VERSION

FORMAT_1 = (
    """CREATE TABLE subjects (subject_type TEXT NOT NULL, subject_id TEXT NOT NULL, revision INTEGER NOT NULL,
        state TEXT, PRIMARY KEY (subject_type, subject_id))""",
    """CREATE TABLE history (subject_type TEXT NOT NULL, subject_id TEXT NOT NULL, revision INTEGER NOT NULL,
        record_id TEXT NOT NULL, state TEXT, PRIMARY KEY (subject_type, subject_id, revision))""",
    """CREATE TABLE records (record_id TEXT PRIMARY KEY NOT NULL, digest BLOB NOT NULL, recorded_at TEXT NOT NULL,
        actor TEXT, correlation_id TEXT, causation_id TEXT, writes TEXT NOT NULL) WITHOUT ROWID""",
)
COMMITS = [  # (record id, batch), committed in this order by the format 1 writer below
    ("r1", [create("a", {"n": 1}), create("b", {"n": 1}), create("x", {"n": 1}, subject_type="other")]),
    ("r2", [update("a", 1, {"n": 2})]),
    ("r3", [delete("b", 1)]),
]


def write_format_1(path: Path) -> None:
    """Commit ``COMMITS`` as the format 1 store wrote them: the head in ``subjects``, each
    revision in ``history``, the record with its committed writes."""
    conn = sqlite3.connect(path, isolation_level=None)
    for statement in FORMAT_1:
        conn.execute(statement)
    conn.execute("PRAGMA user_version = 1")
    for record_id, writes in COMMITS:
        prepared = batches.prepare(env(record_id), writes)
        heads = {(t, i): batches.Head(r, s is not None) for t, i, r, s in conn.execute(
            "SELECT subject_type, subject_id, revision, state FROM subjects").fetchall()}
        plan = batches.plan(prepared, heads)
        for key, entry in plan.final.items():
            conn.execute("INSERT OR REPLACE INTO subjects VALUES (?, ?, ?, ?)", (*key, entry.revision, entry.state_json))
        for entry in plan.entries:
            conn.execute("INSERT INTO history VALUES (?, ?, ?, ?, ?)", (*entry.key, entry.revision, record_id,
                                                                          entry.state_json))
        envelope = prepared.envelope.to_json()
        conn.execute("INSERT INTO records VALUES (?, ?, ?, ?, ?, ?, ?)", (
            record_id, prepared.digest, envelope["recorded_at"], envelope["actor"], None, None,
            batches.encode_commit_writes(plan.commit(prepared.envelope))))
    conn.close()


def format_of(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("PRAGMA user_version").fetchone()[0]
    finally:
        conn.close()


def test_a_format_1_file_is_migrated_on_open_and_answers_as_before(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    write_format_1(path)
    with SqliteStore(path) as store:
        assert format_of(path) == FORMAT_VERSION
        loaded = store.load(T, "a")
        assert (loaded.revision, loaded.state) == (2, {"n": 2})
        assert store.load(T, "b") is None and store.revision(T, "b") is None
        assert store.list_ids(T) == ["a"] and store.list_ids("other") == ["x"]
        assert [(h.revision, h.record_id, h.state) for h in store.history(T, "a")] == [(1, "r1", {"n": 1}),
                                                                                       (2, "r2", {"n": 2})]
        assert [(h.revision, h.state) for h in store.history(T, "b")] == [(1, {"n": 1}), (2, None)]
        assert {t: sorted(s) for t, s in store.snapshot().items()} == {"order": ["a"], "other": ["x"]}
        # An exact retry of a record committed before the migration returns the original commit;
        # the same record id with other bytes conflicts.
        retried = store.commit(env("r2"), [update("a", 1, {"n": 2})])
        assert [(w.subject_id, w.revision) for w in retried.writes] == [("a", 2)]
        with pytest.raises(RecordConflict):
            store.commit(env("r2"), [update("a", 1, {"n": 3})])
        # It keeps serving: a creation after the tombstone continues its revisions.
        commit = store.commit(env("r4"), [create("b", {"n": 9}), update("a", 2, {"n": 3})])
        assert [w.revision for w in commit.writes] == [3, 3]
    with SqliteStore(path) as reopened:  # a file of the current format opens as it is
        assert reopened.load(T, "b").state == {"n": 9} and format_of(path) == FORMAT_VERSION


def test_a_format_1_file_whose_heads_and_history_disagree_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "edited.sqlite"
    write_format_1(path)
    conn = sqlite3.connect(path)
    conn.execute("UPDATE subjects SET state = '{\"n\": 7}' WHERE subject_id = 'a'")  # not its last history entry
    conn.commit()
    conn.close()
    with pytest.raises(StoreBackendError, match="1 subject.*cannot be migrated"):
        SqliteStore(path)
    assert format_of(path) == 1  # left as it was
