"""SqliteStore: the contract in one SQLite file, for embedded durable use (the default provider).

- WAL journal: readers never wait for the writer, and a commit appends to the log instead of
  rewriting pages.
- Every commit is one ``BEGIN IMMEDIATE`` transaction: it takes the file's write lock before it
  reads the record id and the heads, so no other thread or process can slip a write between the
  check and the write. Waiting for that lock is bounded by the busy timeout.
- One row per subject write (``sqlite_schema.py``: a subject's state is its last history row)
  and one record row per commit, written in that one transaction, so a failure anywhere (a
  refused expectation, a trigger, a full disk) leaves nothing of the batch.
- ``synchronous``: NORMAL (the default) syncs the log at checkpoints only: an acknowledged
  commit survives a crash of the process, but the last commits may roll back on a power cut or OS
  crash; the file is never corrupted. FULL syncs the log on every commit, so an acknowledged
  commit survives a power cut too, at one fsync per commit: the disk's sync rate bounds the commit
  rate (on the benchmark's machine ~230 commits/s against ~3,200/s with NORMAL).
- ``secure_delete`` FAST: deleted content is zeroed only where the page is written anyway.
  Debian's SQLite is built with it fully on, which also writes zeros over every page a delete
  frees: a data/add over 10,000 entities spent a quarter of its commit zeroing the pages of the
  state it replaced.
- Connections come from a small pool (``pool.py``) and are kept open: no reconnect per commit.
- ``bound_records`` (the budget ``store_commits``) keeps the last commits' history rows and records
  only, forgetting the oldest in the transaction of the commit that passes the bound
  (``forgetting.py``, ``sqlite_forgetting.py``).
- Checkpoints run on a thread of their own (``sqlite_checkpoint.py``), not inside a commit;
  SQLite's own checkpoint stays on, at ten times its usual threshold, in case that thread
  cannot keep up.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from capenv.serving.store import batch as batches
from capenv.serving.store.batch import Head
from capenv.serving.store import sqlite_forgetting as forgetting
from capenv.serving.store.contract import (
    Commit,
    Expect,
    HistoryEntry,
    NoActor,
    RecordConflict,
    RecordEnvelope,
    RecordForgotten,
    RevisionConflict,
    Store,
    StoreBackendError,
    StoreUnreachable,
    Stored,
    SubjectWrite,
)
from capenv.serving.store.forgetting import BUDGET, FORGOTTEN, fingerprint
from capenv.serving.store.pool import ConnectionPool
from capenv.serving.store.replace import PreparedReplace, ReplaceCommit
from capenv.serving.store.sqlite_replace import replace_in_transaction
from capenv.serving.store.sqlite_checkpoint import Checkpointer
from capenv.serving.store.sqlite_schema import (
    FLOOR_ROW, FORGOTTEN_ROW, HEAD, HEAD_REVISION, HEADS_PER_QUERY, INSERT_HISTORY, INSERT_NEW_RECORD,
    INSERT_NEW_UNLINKED_RECORD, TypeIds,
    create_or_migrate, decode_writes, encode_writes, heads_and_guards, heads_query, latest_rows, named_types,
)

SYNCHRONOUS_LEVELS = ("NORMAL", "FULL")
FALLBACK_CHECKPOINT_PAGES = 10_000  # SQLite's own checkpoint, should the checkpoint thread fall behind


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
        self._types = TypeIds()
        self._kept: int | None = None  # ``bound_records``: the commits whose records and history stay
        self._journals: frozenset[str] = frozenset()
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
            conn.execute("PRAGMA secure_delete = FAST")
        except sqlite3.Error as exc:
            raise StoreUnreachable(f"cannot open the SQLite store {self.path!r}: {exc}") from exc
        return conn

    def _initialise(self, conn: sqlite3.Connection) -> None:
        try:
            mode = self._enter_wal(conn)
            if str(mode).lower() != "wal":
                raise StoreBackendError(f"SQLite store {self.path!r} cannot use WAL (journal mode {mode})")
            with _immediate(conn):  # another process may be creating (or migrating) the same file
                create_or_migrate(conn, self.path)
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

    records_budget = BUDGET

    def bound_records(self, commits: int | None, journal_types: Iterable[str] = ()) -> None:
        self._kept = commits
        self._journals = self._journals | frozenset(journal_types)

    def forgotten(self, record_id: str) -> bool:
        with self._reading() as conn:
            return forgetting.was_forgotten(conn, record_id)

    def forget_commits(self, record_ids: Iterable[str], journal_types: Iterable[str] = ()) -> None:
        ids = list(record_ids)
        if not ids:
            return
        journals = self._journals | frozenset(journal_types)
        with self._write_lock, self._pool.connection() as conn:
            try:
                with _immediate(conn):
                    forgetting.forget_commits(conn, self._types, ids, journals)
            except sqlite3.Error as exc:
                raise StoreBackendError(f"SQLite refused to forget {len(ids)} commit(s): {exc}") from exc

    def commit(self, envelope: RecordEnvelope, writes: Sequence[SubjectWrite]) -> Commit:
        prepared = batches.prepare(envelope, writes)
        # Threads of this process queue on a lock rather than in SQLite's busy handler, which
        # polls with sleeps of up to 100 ms; other processes still meet at BEGIN IMMEDIATE.
        with self._write_lock:
            pool = self._pool
            conn = pool.checkout()
            try:
                # One cursor for the commit's statements: each ``conn.execute`` makes a cursor (and the
                # connection a weak reference to it), six per served write.
                cursor = conn.cursor()
                cursor.execute("BEGIN IMMEDIATE")
                return self._commit_in_transaction(cursor, prepared)
            except BaseException as exc:
                _rollback(conn)
                if isinstance(exc, sqlite3.Error):
                    raise StoreBackendError(f"SQLite refused commit {prepared.record_id!r}: {exc}") from exc
                raise
            finally:
                pool.checkin(conn, broken=conn.in_transaction)

    replaces_whole = True
    reads_never_wait = True
    """In WAL mode a reader waits for no writer, nor for a PASSIVE checkpoint (the only kind the
    store runs while open): only in SQLite's rare recovery of the log (after a crash, or while
    another process closing the file's last connection checkpoints it). A read checks a
    connection out of the pool (never waiting for one: a new one is opened when none is idle)
    and takes no lock a commit holds (``_write_lock`` is the writers')."""

    def commit_replace(self, prepared: PreparedReplace, expect: Mapping[tuple[str, str], Expect], revision: int,
                       extra: Mapping[tuple[str, str], dict[str, Any]] | None = None) -> ReplaceCommit:
        extra_rows, digest = prepared.finish(extra or {})
        type_ids: dict[str, int] = {}
        with self._write_lock, self._pool.connection() as conn:
            try:
                with _immediate(conn):
                    # One cursor for the replace's statements: each ``conn.execute`` makes one, and the
                    # connection keeps a weak reference to each until its next sweep (every 200 made),
                    # so a data/reset would leave one block per statement among a large added state's.
                    cursor = conn.cursor()
                    self._types.assign(cursor, sorted(prepared.subject_types | {t for t, _ in expect}), type_ids)
                    commit, fresh = replace_in_transaction(cursor, self._types, type_ids, prepared, extra_rows,
                                                           digest, expect, revision, self._kept)
                    if fresh and self._kept:
                        self._forget_past(cursor, cursor.execute(forgetting.ORDERED, (prepared.record_id,)).lastrowid)
            except sqlite3.Error as exc:
                raise StoreBackendError(f"SQLite refused replace {prepared.record_id!r}: {exc}") from exc
        self._types.learn(type_ids)
        self._checkpointer.committed()
        return commit

    def compact(self, subject_types: Iterable[str]) -> None:
        types = sorted(set(subject_types))
        if not types:
            return
        with self._write_lock, self._pool.connection() as conn:
            try:
                with _immediate(conn):
                    # Looked up under the lock (nothing written yet, so what it learns is committed).
                    ids = list(self._types.find_all(conn, types).values())
                    if ids:  # else the file never held a subject of these types
                        marks = ", ".join("?" * len(ids))
                        # Every entry but each subject's last; then the subjects whose last is a tombstone.
                        conn.execute(f"DELETE FROM history WHERE type_id IN ({marks}) AND EXISTS (SELECT 1 FROM "
                                     "history later WHERE later.type_id = history.type_id AND later.subject_id = "
                                     "history.subject_id AND later.revision > history.revision)", ids)
                        conn.execute(f"DELETE FROM history WHERE type_id IN ({marks}) AND state IS NULL", ids)
                        forgetting.forget_types(conn, self._types, ids)
                        conn.execute("DELETE FROM records WHERE record_id NOT IN (SELECT record_id FROM history)")
                        forgetting.drop_order_of_deleted(conn)
            except sqlite3.Error as exc:
                raise StoreBackendError(f"SQLite refused to compact {', '.join(types)}: {exc}") from exc

    def _commit_in_transaction(self, conn: sqlite3.Cursor, prepared: batches.PreparedBatch) -> Commit:
        """``conn``: the cursor every statement of the commit runs on, in its ``BEGIN IMMEDIATE``."""
        record_id = prepared.record_id
        keys = []  # the batch's subjects, each once; no lock order to keep: one file lock
        for write in prepared.writes:  # a loop: a generator makes a function and a frame per step
            if write.key not in keys:  # a handful of subjects: a list beats a dict here
                keys.append(write.key)
        type_ids = self._types.assigned(conn, keys)  # a cursor runs statements as its connection does
        names = {}
        for name, type_id in type_ids.items():  # a loop: a comprehension makes a function per commit
            names[type_id] = name
        # BEGIN IMMEDIATE already holds the file's write lock, so the heads cannot move under us.
        # The first statement also reads the floors of the batch's types (a subject with no row
        # starts above its type's) and whether the record id was forgotten (``heads_and_guards``).
        heads = {}
        floors: dict[str, int] = {}
        forgotten = False
        for start in range(0, len(keys), HEADS_PER_QUERY):
            chunk = keys[start:start + HEADS_PER_QUERY]
            params: list[Any] = []
            for subject_type, subject_id in chunk:
                params += (type_ids[subject_type], subject_id)
            if start:
                rows = conn.execute(heads_query(len(chunk)), params).fetchall()
            else:
                params += names  # the batch's type ids
                params.append(fingerprint(record_id))
                rows = conn.execute(heads_and_guards(len(chunk), len(names)), params).fetchall()
            for t, i, revision, mark in rows:
                if mark == FLOOR_ROW:
                    floors[names[t]] = revision
                elif mark == FORGOTTEN_ROW:
                    forgotten = True
                else:
                    heads[(names[t], i)] = Head(revision, bool(mark))
        if forgotten:  # before any expectation is checked
            raise RecordForgotten(record_id, self._kept, BUDGET)
        try:
            plan = batches.plan(prepared, heads, floors or None)
        except RevisionConflict:
            original = self._committed_before(conn, prepared)  # an exact retry after the subjects moved on
            if original is None:
                raise
            return original
        commit = plan.commit(prepared.envelope)
        env = prepared.envelope
        actor = None if isinstance(env.actor, NoActor) else env.actor
        # The record first: a record id committed before inserts nothing, and the batch stops there
        # (no statement spent looking for it beforehand).
        if env.correlation_id is None and env.causation_id is None:
            inserted = conn.execute(INSERT_NEW_UNLINKED_RECORD, (record_id, prepared.digest, env.recorded_at, actor,
                                                                 encode_writes(commit, type_ids)))
        else:
            inserted = conn.execute(INSERT_NEW_RECORD, (record_id, prepared.digest, env.recorded_at, actor,
                                                        env.correlation_id, env.causation_id,
                                                        encode_writes(commit, type_ids)))
        if not inserted.rowcount:
            original = self._committed_before(conn, prepared)
            assert original is not None
            return original
        rows = []
        for e in plan.entries:  # a loop: a comprehension makes a function per commit
            rows.append((type_ids[e.key[0]], e.key[1], e.revision, record_id, e.state_json))
        conn.executemany(INSERT_HISTORY, rows)
        if self._kept:  # the order is kept under a bound only: an unbounded store does not grow it
            self._forget_past(conn, conn.execute(forgetting.ORDERED, (record_id,)).lastrowid)
        conn.execute("COMMIT")
        self._types.learn(type_ids)
        self._checkpointer.committed()
        return commit

    def _committed_before(self, conn: sqlite3.Cursor, prepared: batches.PreparedBatch) -> Commit | None:
        """The original commit of ``prepared``'s record id, if one was committed (the transaction
        is then rolled back); ``RecordConflict`` when its bytes differ."""
        record = conn.execute("SELECT digest, writes FROM records WHERE record_id = ?",
                              (prepared.record_id,)).fetchone()
        if record is None:
            return None
        _rollback(conn.connection)
        if bytes(record[0]) == FORGOTTEN:
            raise RecordForgotten(prepared.record_id, self._kept, BUDGET)
        if record[0] != prepared.digest:
            raise RecordConflict(prepared.record_id)
        return decode_writes(conn, self._types, prepared.envelope, record[1])

    def _forget_past(self, conn: sqlite3.Connection | sqlite3.Cursor, newest: int) -> None:
        if self._kept:
            forgetting.forget_past(conn, self._types, newest, self._kept, self._journals)

    def load(self, subject_type: str, subject_id: str) -> Stored | None:
        row = self._head(HEAD, subject_type, subject_id)
        if row is None or row[1] is None:
            return None
        return batches.stored(subject_type, subject_id, row[0], row[1])

    def revision(self, subject_type: str, subject_id: str) -> int | None:
        row = self._head(HEAD_REVISION, subject_type, subject_id)
        return row[0] if row is not None and row[1] else None

    def list_ids(self, subject_type: str) -> list[str]:
        with self._reading() as conn:
            type_id = self._types.find(conn, subject_type)
            if type_id is None:
                return []
            rows = conn.execute(latest_rows("type_id = ?") + " ORDER BY h.subject_id", (type_id,)).fetchall()
        return [row[0] for row in rows]

    def history(self, subject_type: str, subject_id: str) -> list[HistoryEntry]:
        with self._reading() as conn:
            type_id = self._types.find(conn, subject_type)
            if type_id is None:
                return []
            # One statement: SQLite reads it from one snapshot, so the entries are consistent.
            rows = conn.execute(
                "SELECT h.revision, h.record_id, r.recorded_at, r.actor, r.correlation_id, r.causation_id, h.state "
                "FROM history h JOIN records r ON r.record_id = h.record_id "
                "WHERE h.type_id = ? AND h.subject_id = ? ORDER BY h.revision", (type_id, subject_id)).fetchall()
        return [batches.history_entry(*row) for row in rows]

    def snapshot(self, subject_types: Iterable[str] | None = None) -> dict[str, dict[str, Stored]]:
        names: tuple[str, ...] = ()
        type_filter = "1"
        if subject_types is not None:
            names = tuple(sorted(set(subject_types)))
            if not names:
                return {}
            type_filter = named_types(len(names))
        with self._reading() as conn:
            # One statement, types resolved in it: one snapshot of the file.
            rows = conn.execute(latest_rows(type_filter, "t.name, h.subject_id, h.revision, h.state")
                                + " ORDER BY t.name, h.subject_id", names).fetchall()
        result: dict[str, dict[str, Stored]] = {}
        for subject_type, subject_id, revision, state in rows:
            result.setdefault(subject_type, {})[subject_id] = batches.stored(subject_type, subject_id, revision, state)
        return result

    def close(self) -> None:
        self._checkpointer.close()
        self._pool.close()

    # -- reads ---------------------------------------------------------------------------------

    def _head(self, sql: str, subject_type: str, subject_id: str) -> tuple | None:
        """A subject's last row (``HEAD`` or ``HEAD_REVISION``); every served call reads one, so
        this is ``_reading`` spelled out, without its two context managers."""
        pool = self._pool
        conn = pool.checkout()
        try:
            type_id = self._types.find(conn, subject_type)
            return None if type_id is None else conn.execute(sql, (type_id, subject_id)).fetchone()
        except sqlite3.Error as exc:
            raise StoreBackendError(f"SQLite read failed: {exc}") from exc
        finally:
            pool.checkin(conn, broken=conn.in_transaction)

    @contextlib.contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        with self._pool.connection() as conn:
            try:
                yield conn
            except sqlite3.Error as exc:
                raise StoreBackendError(f"SQLite read failed: {exc}") from exc


@contextlib.contextmanager
def _immediate(conn: sqlite3.Connection) -> Iterator[None]:
    """One ``BEGIN IMMEDIATE`` transaction: committed when the block ends, rolled back when it raises."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
        conn.execute("COMMIT")
    except BaseException:
        _rollback(conn)
        raise


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
