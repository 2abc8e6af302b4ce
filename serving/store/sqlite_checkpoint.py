"""WAL checkpoints off the commit path, for ``SqliteStore``.

SQLite's automatic checkpoint runs inside the commit that crosses its threshold: that commit
copies the log back into the database file and syncs it, so every few dozen commits one pays
for all of them (about 40 µs per commit on average on the benchmark's machine, and its p99).
The store's connections turn that off, count their commits, and every ``COMMITS_PER_CHECKPOINT``
wake this thread, which checkpoints on its own connection with ``PASSIVE``: it copies what no
reader still needs and never waits for, nor blocks, a writer or a reader. What a commit
guarantees does not change: it is in the log when acknowledged, synced as ``synchronous`` says,
and a process killed mid-checkpoint leaves a log the next open recovers from. Closing the store
stops the thread first; the last connection to close checkpoints what is left.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable

COMMITS_PER_CHECKPOINT = 100
"""About SQLite's own threshold (1,000 log pages) at the ~10 pages a served write appends."""


class Checkpointer:
    def __init__(self, connect: Callable[[], sqlite3.Connection], name: str) -> None:
        self._connect = connect
        self._wake = threading.Event()
        self._stopping = False
        self._lock = threading.Lock()
        self._commits = 0
        self._name = name
        self._thread: threading.Thread | None = None  # started at the first checkpoint due

    def committed(self) -> None:
        """Count one commit; every ``COMMITS_PER_CHECKPOINT`` wakes the thread."""
        with self._lock:
            self._commits += 1
            if self._commits % COMMITS_PER_CHECKPOINT or self._stopping:
                return
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=f"sqlite-checkpoint {self._name}",
                                                daemon=True)
                self._thread.start()
        self._wake.set()

    def close(self) -> None:
        with self._lock:
            self._stopping = True
            thread = self._thread
        self._wake.set()
        if thread is not None:
            thread.join()

    def _run(self) -> None:
        conn: sqlite3.Connection | None = None
        try:
            while True:
                self._wake.wait()
                self._wake.clear()
                if self._stopping:
                    return
                try:
                    conn = conn or self._connect()
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                except Exception:  # noqa: BLE001 - a failed checkpoint is retried at the next wake
                    if conn is not None:
                        conn.close()
                    conn = None
        finally:
            if conn is not None:
                conn.close()
