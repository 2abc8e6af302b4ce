"""SQLite checkpoints run on the store's own thread, not inside a commit (``sqlite_checkpoint.py``):
the log is copied back into the database file after enough commits, and closing the store
stops the thread."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

from store_conformance import create, env

from capenv.serving.store import SqliteStore
from capenv.serving.store.sqlite_checkpoint import COMMITS_PER_CHECKPOINT


def checkpoint_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("sqlite-checkpoint")]


def rows_in_database_file(path: Path) -> int:
    """The history rows the database file itself holds, ignoring the log (a copy of the file alone)."""
    copy = path.with_name("copy.sqlite")
    copy.write_bytes(path.read_bytes())
    conn = sqlite3.connect(copy)
    try:
        if not conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'history'").fetchone():
            return 0  # not even the schema has left the log yet
        return conn.execute("SELECT count(*) FROM history").fetchone()[0]
    finally:
        conn.close()


def test_the_log_is_checkpointed_by_the_store_thread_and_close_stops_it(tmp_path: Path) -> None:
    path = tmp_path / "state.sqlite"
    before = set(checkpoint_threads())
    store = SqliteStore(path)
    for n in range(COMMITS_PER_CHECKPOINT - 1):
        store.commit(env(f"r{n}"), [create(f"s{n}", {"n": n, "text": "x" * 500})])
    assert rows_in_database_file(path) == 0  # all of it still in the log: SQLite's own checkpoint is far off
    store.commit(env("last"), [create("last", {"n": 0})])
    deadline = time.monotonic() + 10
    while rows_in_database_file(path) < COMMITS_PER_CHECKPOINT and time.monotonic() < deadline:
        time.sleep(0.02)
    assert rows_in_database_file(path) == COMMITS_PER_CHECKPOINT
    assert len(set(checkpoint_threads()) - before) == 1
    store.close()
    assert set(checkpoint_threads()) - before == set()
    with SqliteStore(path) as reopened:
        assert reopened.load("order", "last").state == {"n": 0}
