"""SqliteStore: the contract in one SQLite file, for embedded durable use (the default provider).

- WAL journal: readers never wait for the writer, and a commit appends to the log instead of
  rewriting pages.
- Every commit is one ``BEGIN IMMEDIATE`` transaction: it takes the file's write lock before it
  reads the record id and the heads, so no other thread or process can slip a write between the
  check and the write. Waiting for that lock is bounded by the busy timeout.
- State, history and the record row are written in that one transaction, so a failure anywhere
  (a refused expectation, a trigger, a full disk) leaves nothing of the batch.
- ``synchronous``: NORMAL (the default) syncs the log at checkpoints only: an acknowledged
  commit survives a crash of the process, but the last commits may roll back on a power cut or OS
  crash; the file is never corrupted. FULL syncs the log on every commit, so an acknowledged
  commit survives a power cut too, at roughly half the commit rate (one fsync per commit).
- Connections come from a small pool (``pool.py``) and are kept open: no reconnect per commit.
- Checkpoints run on a thread of their own (``sqlite_checkpoint.py``), not inside a commit;
  SQLite's own checkpoint stays on, at ten times its usual threshold, in case that thread
  cannot keep up.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from capenv.serving.store import batch as batches
from capenv.serving.store.batch import Head
from capenv.serving.store.contract import (
    Commit,
    Expect,
    HistoryEntry,
    RecordConflict,
    RecordEnvelope,
    Store,
    StoreBackendError,
    StoreUnreachable,
    Stored,
    SubjectWrite,
)
from capenv.serving.store.pool import ConnectionPool
from capenv.serving.store.replace import PreparedReplace, ReplaceCommit
from capenv.serving.store.sqlite_replace import replace_in_transaction
from capenv.serving.store.sqlite_checkpoint import Checkpointer

SYNCHRONOUS_LEVELS = ("NORMAL", "FULL")
# Heads read per statement: SQLite caps expression depth (1000) and bound parameters.
_HEADS_PER_QUERY = 100
FORMAT_VERSION = 1  # kept in PRAGMA user_version; a file of another format is refused on open
FALLBACK_CHECKPOINT_PAGES = 10_000  # SQLite's own checkpoint, should the checkpoint thread fall behind

_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS subjects (
        subject_type TEXT NOT NULL,
        subject_id   TEXT NOT NULL,
        revision     INTEGER NOT NULL,
        state        TEXT,              -- JSON text, NULL for a tombstone (the revision is kept)
        PRIMARY KEY (subject_type, subject_id)
    )""",
    """CREATE TABLE IF NOT EXISTS history (
        subject_type TEXT NOT NULL,
        subject_id   TEXT NOT NULL,
        revision     INTEGER NOT NULL,
        record_id    TEXT NOT NULL,
        state        TEXT,
        PRIMARY KEY (subject_type, subject_id, revision)
    )""",
    """CREATE TABLE IF NOT EXISTS records (
        record_id      TEXT PRIMARY KEY NOT NULL,
        digest         BLOB NOT NULL,   -- sha256 of the canonical request: what an exact retry repeats
        recorded_at    TEXT NOT NULL,
        actor          TEXT,            -- NULL is NO_ACTOR
        correlation_id TEXT,
        causation_id   TEXT,
        writes         TEXT NOT NULL    -- the committed writes, returned again to an exact retry
    ) WITHOUT ROWID"""  # small rows: one b-tree instead of a table and its key index,
)

_UPSERT_SUBJECT = ("INSERT INTO subjects (subject_type, subject_id, revision, state) VALUES (?, ?, ?, ?) "
                   "ON CONFLICT (subject_type, subject_id) DO UPDATE SET revision = excluded.revision, "
                   "state = excluded.state")
_INSERT_HISTORY = "INSERT INTO history (subject_type, subject_id, revision, record_id, state) VALUES (?, ?, ?, ?, ?)"
_INSERT_RECORD = ("INSERT INTO records (record_id, digest, recorded_at, actor, correlation_id, causation_id, writes) "
                  "VALUES (?, ?, ?, ?, ?, ?, ?)")


class SqliteStore(Store):
    def __init__(self, path: str | os.PathLike[str], *, synchronous: str = "NORMAL",
                 busy_timeout: float = 30.0) -> None:
        level = str(synchronous).upper()
        if level not in SYNCHRONOUS_LEVELS:
            raise ValueError(f"synchronous must be one of {', '.join(SYNCHRONOUS_LEVELS)}, not {synchronous!r}")
        self.path = os.fspath(path)
        self.synchronous = level
        self._busy_timeout = busy_timeout
        self._write_lock = threading.Lock()
        self._pool: ConnectionPool[sqlite3.Connection] = ConnectionPool(
            self._connect, _disconnect, _healthy, name="sqlite")
        conn = self._connect()
        try:
            self._initialise(conn)
        except BaseException:
            conn.close()
            raise
        self._pool.checkin(conn)
        self._checkpointer = Checkpointer(self._connect, self.path)

    # -- connections ---------------------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        try:
            # isolation_level=None: the module never opens transactions behind our back; each
            # commit says BEGIN IMMEDIATE itself. check_same_thread=False: the pool hands one
            # connection to one thread at a time, but not always the same thread.
            conn = sqlite3.connect(self.path, timeout=self._busy_timeout, isolation_level=None,
                                   check_same_thread=False)
            conn.execute(f"PRAGMA synchronous = {self.synchronous}")
            conn.execute(f"PRAGMA wal_autocheckpoint = {FALLBACK_CHECKPOINT_PAGES}")
        except sqlite3.Error as exc:
            raise StoreUnreachable(f"cannot open the SQLite store {self.path!r}: {exc}") from exc
        return conn

    def _initialise(self, conn: sqlite3.Connection) -> None:
        try:
            mode = self._enter_wal(conn)
            if str(mode).lower() != "wal":
                raise StoreBackendError(f"SQLite store {self.path!r} cannot use WAL (journal mode {mode})")
            conn.execute("BEGIN IMMEDIATE")  # another process may be creating the same file
            try:
                version = conn.execute("PRAGMA user_version").fetchone()[0]
                if version not in (0, FORMAT_VERSION):
                    raise StoreBackendError(f"SQLite store {self.path!r} has format {version}; "
                                            f"this version reads format {FORMAT_VERSION}")
                for statement in _SCHEMA:
                    conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {FORMAT_VERSION}")
                conn.execute("COMMIT")
            except BaseException:
                _rollback(conn)
                raise
        except sqlite3.DatabaseError as exc:
            raise StoreUnreachable(f"cannot open the SQLite store {self.path!r}: {exc}") from exc

    def _enter_wal(self, conn: sqlite3.Connection) -> str:
        # Switching a fresh file to WAL takes an exclusive lock and SQLite does not call the busy
        # handler for it: processes opening the same new file at once see "database is locked".
        # Retry until the busy timeout has passed, as the busy handler would have.
        deadline = time.monotonic() + self._busy_timeout
        pause = 0.005
        while True:
            try:
                return str(conn.execute("PRAGMA journal_mode = WAL").fetchone()[0])
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) and "busy" not in str(exc):
                    raise
                if time.monotonic() + pause > deadline:
                    raise
                time.sleep(pause)
                pause = min(pause * 2, 0.2)

    # -- the contract --------------------------------------------------------------------------

    def commit(self, envelope: RecordEnvelope, writes: Sequence[SubjectWrite]) -> Commit:
        prepared = batches.prepare(envelope, writes)
        # Threads of this process queue on a lock rather than in SQLite's busy handler, which
        # polls with sleeps of up to 100 ms; other processes still meet at BEGIN IMMEDIATE.
        with self._write_lock, self._pool.connection() as conn:
            try:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    return self._commit_in_transaction(conn, prepared)
                except BaseException:
                    _rollback(conn)
                    raise
            except sqlite3.Error as exc:
                raise StoreBackendError(f"SQLite refused commit {prepared.record_id!r}: {exc}") from exc

    replaces_whole = True

    def commit_replace(self, prepared: PreparedReplace, expect: Mapping[tuple[str, str], Expect], revision: int,
                       extra: Mapping[tuple[str, str], dict[str, Any]] | None = None) -> ReplaceCommit:
        extra_rows, digest = prepared.finish(extra or {})
        with self._write_lock, self._pool.connection() as conn:
            try:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    commit = replace_in_transaction(conn, prepared, extra_rows, digest, expect, revision)
                    conn.execute("COMMIT")
                except BaseException:
                    _rollback(conn)
                    raise
            except sqlite3.Error as exc:
                raise StoreBackendError(f"SQLite refused replace {prepared.record_id!r}: {exc}") from exc
        self._checkpointer.committed()
        return commit

    def compact(self, subject_types: Iterable[str]) -> None:
        types = sorted(set(subject_types))
        if not types:
            return
        marks = ", ".join("?" * len(types))
        with self._write_lock, self._pool.connection() as conn:
            try:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    conn.execute(f"DELETE FROM history WHERE subject_type IN ({marks}) AND revision < "
                                 "(SELECT s.revision FROM subjects s WHERE s.subject_type = history.subject_type "
                                 "AND s.subject_id = history.subject_id AND s.state IS NOT NULL)", types)
                    conn.execute(f"DELETE FROM history WHERE subject_type IN ({marks}) AND EXISTS (SELECT 1 FROM "
                                 "subjects s WHERE s.subject_type = history.subject_type AND s.subject_id = "
                                 "history.subject_id AND s.state IS NULL)", types)
                    conn.execute(f"DELETE FROM subjects WHERE subject_type IN ({marks}) AND state IS NULL", types)
                    conn.execute("DELETE FROM records WHERE record_id NOT IN (SELECT record_id FROM history)")
                    conn.execute("COMMIT")
                except BaseException:
                    _rollback(conn)
                    raise
            except sqlite3.Error as exc:
                raise StoreBackendError(f"SQLite refused to compact {', '.join(types)}: {exc}") from exc

    def _commit_in_transaction(self, conn: sqlite3.Connection, prepared: batches.PreparedBatch) -> Commit:
        record = conn.execute("SELECT digest, writes FROM records WHERE record_id = ?",
                              (prepared.record_id,)).fetchone()
        if record is not None:
            _rollback(conn)
            if record[0] != prepared.digest:
                raise RecordConflict(prepared.record_id)
            return batches.decode_commit(prepared.envelope, record[1])
        # BEGIN IMMEDIATE already holds the file's write lock, so the heads cannot move under us.
        heads = {}
        keys = prepared.keys()
        for start in range(0, len(keys), _HEADS_PER_QUERY):
            chunk = keys[start:start + _HEADS_PER_QUERY]
            # OR of equalities, not a row-value IN: SQLite answers the OR from the primary key.
            rows = conn.execute("SELECT subject_type, subject_id, revision, state IS NOT NULL FROM subjects WHERE "
                                + " OR ".join(["(subject_type = ? AND subject_id = ?)"] * len(chunk)),
                                [part for key in chunk for part in key]).fetchall()
            heads.update(((t, i), Head(revision, bool(live))) for t, i, revision, live in rows)
        plan = batches.plan(prepared, heads)
        conn.executemany(_UPSERT_SUBJECT, [(*key, e.revision, e.state_json) for key, e in plan.final.items()])
        conn.executemany(_INSERT_HISTORY, [(*e.key, e.revision, prepared.record_id, e.state_json)
                                           for e in plan.entries])
        commit = plan.commit(prepared.envelope)
        env = prepared.envelope.to_json()
        conn.execute(_INSERT_RECORD, (prepared.record_id, prepared.digest, env["recorded_at"], env["actor"],
                                      env["correlation_id"], env["causation_id"],
                                      batches.encode_commit_writes(commit)))
        conn.execute("COMMIT")
        self._checkpointer.committed()
        return commit

    def load(self, subject_type: str, subject_id: str) -> Stored | None:
        row = self._read_one("SELECT revision, state FROM subjects WHERE subject_type = ? AND subject_id = ? "
                             "AND state IS NOT NULL", (subject_type, subject_id))
        return None if row is None else batches.stored(subject_type, subject_id, row[0], row[1])

    def revision(self, subject_type: str, subject_id: str) -> int | None:
        row = self._read_one("SELECT revision FROM subjects WHERE subject_type = ? AND subject_id = ? "
                             "AND state IS NOT NULL", (subject_type, subject_id))
        return None if row is None else row[0]

    def list_ids(self, subject_type: str) -> list[str]:
        rows = self._read_all("SELECT subject_id FROM subjects WHERE subject_type = ? AND state IS NOT NULL "
                              "ORDER BY subject_id", (subject_type,))
        return [row[0] for row in rows]

    def history(self, subject_type: str, subject_id: str) -> list[HistoryEntry]:
        # One statement: SQLite reads it from one snapshot, so the entries are consistent.
        rows = self._read_all(
            "SELECT h.revision, h.record_id, r.recorded_at, r.actor, r.correlation_id, r.causation_id, h.state "
            "FROM history h JOIN records r ON r.record_id = h.record_id "
            "WHERE h.subject_type = ? AND h.subject_id = ? ORDER BY h.revision", (subject_type, subject_id))
        return [batches.history_entry(*row) for row in rows]

    def snapshot(self, subject_types: Iterable[str] | None = None) -> dict[str, dict[str, Stored]]:
        sql = "SELECT subject_type, subject_id, revision, state FROM subjects WHERE state IS NOT NULL"
        params: tuple[str, ...] = ()
        if subject_types is not None:
            params = tuple(sorted(set(subject_types)))
            if not params:
                return {}
            sql += f" AND subject_type IN ({', '.join('?' * len(params))})"
        result: dict[str, dict[str, Stored]] = {}
        for subject_type, subject_id, revision, state in self._read_all(
                sql + " ORDER BY subject_type, subject_id", params):
            result.setdefault(subject_type, {})[subject_id] = batches.stored(subject_type, subject_id, revision, state)
        return result

    def close(self) -> None:
        self._checkpointer.close()
        self._pool.close()

    # -- reads ---------------------------------------------------------------------------------

    def _read_one(self, sql: str, params: tuple[object, ...]) -> tuple | None:
        with self._pool.connection() as conn:
            try:
                return conn.execute(sql, params).fetchone()
            except sqlite3.Error as exc:
                raise StoreBackendError(f"SQLite read failed: {exc}") from exc

    def _read_all(self, sql: str, params: tuple[object, ...]) -> list[tuple]:
        with self._pool.connection() as conn:
            try:
                return conn.execute(sql, params).fetchall()
            except sqlite3.Error as exc:
                raise StoreBackendError(f"SQLite read failed: {exc}") from exc


def _rollback(conn: sqlite3.Connection) -> None:
    if conn.in_transaction:
        try:
            conn.execute("ROLLBACK")
        except sqlite3.Error:
            pass  # the connection is then unhealthy and the pool drops it


def _healthy(conn: sqlite3.Connection) -> bool:
    return not conn.in_transaction


def _disconnect(conn: sqlite3.Connection) -> None:
    try:
        conn.close()
    except sqlite3.Error:
        pass
