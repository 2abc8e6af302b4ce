"""PostgresStore: the contract on a PostgreSQL server, for several processes sharing one state.

- Each environment lives in its own schema, created on open if missing, so several environments
  and several server processes share one server.
- Commits run at READ COMMITTED. Concurrency is settled by locks, not by retrying
  serialisation failures:
  * a transaction-scoped advisory lock on (schema, record id) serialises commits that carry the
    same record id, so concurrent identical retries produce one commit and the others return it;
  * ``SELECT ... FOR UPDATE`` locks the existing rows of every subject in the batch, in sorted
    order (so two batches over the same subjects cannot deadlock); a row updated meanwhile is
    read at its newest revision;
  * a subject with no row is created with a plain INSERT: a concurrent creator makes it wait for
    that creator's outcome and, if it committed, fail on the primary key; the commit is then
    decided again from the rows as they are (a ``RevisionConflict`` naming the winner's revision).
- A commit takes two round trips (pipeline mode): locks and reads, then writes and COMMIT.
- State, history and the record row are written in one transaction: a failure leaves nothing.
- A replace of whole types (data/reset, data/add: ``replace.py``) is one transaction too
  (``postgres_replace.py``): the schema's other commits wait for it, reads see before or after.
- States are stored as JSON text (not jsonb, which would reorder members and refuse ``\\u0000``).
- Connections (psycopg 3, autocommit, explicit transactions) come from a small pool and are kept.
- ``bound_records`` (the budget ``store_commits``) keeps the last commits' history rows and records
  only, forgetting the oldest in the transaction of the commit that passes the bound
  (``forgetting.py``, ``postgres_forgetting.py``). Format 2 adds its tables; a format 1 schema
  gains them empty on open.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import psycopg
from psycopg import errors as pg_errors
from psycopg.conninfo import conninfo_to_dict

from capenv.serving.store import batch as batches
from capenv.serving.store import postgres_forgetting as forgetting
from capenv.serving.store.batch import Head, PreparedBatch
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
from capenv.serving.store.forgetting import BUDGET, fingerprint
from capenv.serving.store.pool import ConnectionPool
from capenv.serving.store.postgres_replace import replace_in_transaction
from capenv.serving.store.replace import PreparedReplace, ReplaceCommit

DEFAULT_SCHEMA = "capenv"
FORMAT_VERSION = "2"
MIGRATES_FROM = ("1",)  # format 2 adds the bound's tables (``postgres_forgetting.TABLES``)
SCHEMA_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")
_RETRIES = 5  # attempts after a deadlock or a lost creation race, each of which rolls back


class _LostCreation(Exception):
    """A subject this commit meant to create was created by a concurrent commit first."""


_TABLES = """
CREATE TABLE IF NOT EXISTS {s}.subjects (
    subject_type text COLLATE "C" NOT NULL,
    subject_id   text COLLATE "C" NOT NULL,
    revision     bigint NOT NULL,
    state        text,             -- JSON text; NULL is a tombstone (the revision is kept)
    PRIMARY KEY (subject_type, subject_id)
);
CREATE TABLE IF NOT EXISTS {s}.history (
    subject_type text COLLATE "C" NOT NULL,
    subject_id   text COLLATE "C" NOT NULL,
    revision     bigint NOT NULL,
    record_id    text NOT NULL,
    state        text,
    PRIMARY KEY (subject_type, subject_id, revision)
);
CREATE TABLE IF NOT EXISTS {s}.records (
    record_id      text PRIMARY KEY,
    digest         bytea NOT NULL,  -- sha256 of the canonical request: what an exact retry repeats
    recorded_at    text NOT NULL,
    actor          text,            -- NULL is NO_ACTOR
    correlation_id text,
    causation_id   text,
    writes         text NOT NULL    -- the committed writes, returned again to an exact retry
);
CREATE TABLE IF NOT EXISTS {s}.store_format (
    key   text PRIMARY KEY,
    value text NOT NULL
);
"""


class PostgresStore(Store):
    def __init__(self, conninfo: str, *, schema: str = DEFAULT_SCHEMA, connect_timeout: int = 10) -> None:
        if not SCHEMA_NAME.fullmatch(schema):
            raise ValueError(f"schema must match {SCHEMA_NAME.pattern} (lowercase, PostgreSQL identifier), "
                             f"not {schema!r}")
        self.schema = schema
        self._conninfo = conninfo
        self._kept: int | None = None  # ``bound_records``: the commits whose records and history stay
        self._journals: frozenset[str] = frozenset()
        try:
            given = conninfo_to_dict(conninfo)
        except psycopg.ProgrammingError as exc:
            raise ValueError(f"not a PostgreSQL connection URL: {_first_line(exc)}") from None
        # A timeout in the URL wins; without one, a dead host must not hang an open for minutes.
        self._connect_options = {} if "connect_timeout" in given else {"connect_timeout": connect_timeout}
        s = f'"{schema}"'  # validated above: safe to place in SQL text
        self._sql = {
            "lock_record": "SELECT pg_advisory_xact_lock(hashtext(%s), hashtext(%s))",
            "find_record": f"SELECT digest, writes FROM {s}.records WHERE record_id = %s",
            "find_forgotten": f"SELECT 1 FROM {s}.forgotten WHERE fingerprint = %s",
            "floors": f"SELECT subject_type, revision FROM {s}.floors WHERE subject_type = ANY(%s)",
            "lock_heads": (f"SELECT subject_type, subject_id, revision, state IS NOT NULL FROM {s}.subjects "
                           "WHERE (subject_type, subject_id) IN (SELECT * FROM unnest(%s::text[], %s::text[])) "
                           "ORDER BY subject_type, subject_id FOR UPDATE"),
            "create": (f"INSERT INTO {s}.subjects (subject_type, subject_id, revision, state) "
                       "SELECT * FROM unnest(%s::text[], %s::text[], %s::bigint[], %s::text[])"),
            "update": (f"UPDATE {s}.subjects AS t SET revision = u.revision, state = u.state "
                       "FROM unnest(%s::text[], %s::text[], %s::bigint[], %s::text[]) "
                       "AS u(subject_type, subject_id, revision, state) "
                       "WHERE t.subject_type = u.subject_type AND t.subject_id = u.subject_id"),
            "history": (f"INSERT INTO {s}.history (subject_type, subject_id, revision, record_id, state) "
                        "SELECT t, i, r, %s, st FROM unnest(%s::text[], %s::text[], %s::bigint[], %s::text[]) "
                        "AS u(t, i, r, st)"),
            "record": (f"INSERT INTO {s}.records (record_id, digest, recorded_at, actor, correlation_id, "
                       "causation_id, writes) VALUES (%s, %s, %s, %s, %s, %s, %s)"),
            "load": (f"SELECT revision, state FROM {s}.subjects WHERE subject_type = %s AND subject_id = %s "
                     "AND state IS NOT NULL"),
            "revision": (f"SELECT revision FROM {s}.subjects WHERE subject_type = %s AND subject_id = %s "
                         "AND state IS NOT NULL"),
            "list": (f"SELECT subject_id FROM {s}.subjects WHERE subject_type = %s AND state IS NOT NULL "
                     "ORDER BY subject_id"),
            "read_history": ("SELECT h.revision, h.record_id, r.recorded_at, r.actor, r.correlation_id, "
                             f"r.causation_id, h.state FROM {s}.history h JOIN {s}.records r "
                             "ON r.record_id = h.record_id WHERE h.subject_type = %s AND h.subject_id = %s "
                             "ORDER BY h.revision"),
            "snapshot": (f"SELECT subject_type, subject_id, revision, state FROM {s}.subjects "
                         "WHERE state IS NOT NULL AND (%s::text[] IS NULL OR subject_type = ANY(%s::text[])) "
                         "ORDER BY subject_type, subject_id"),
        }
        self._pool: ConnectionPool[psycopg.Connection] = ConnectionPool(
            self._connect, _disconnect, _healthy, name="postgres")
        conn = self._connect()
        try:
            self._initialise(conn)
        except BaseException:
            _disconnect(conn)
            raise
        self._pool.checkin(conn)

    # -- connections ---------------------------------------------------------------------------

    def _connect(self) -> psycopg.Connection:
        try:
            conn = psycopg.connect(self._conninfo, autocommit=True, **self._connect_options)
        except psycopg.OperationalError as exc:
            raise StoreUnreachable(f"cannot reach the PostgreSQL store: {_first_line(exc)}") from exc
        conn.isolation_level = psycopg.IsolationLevel.READ_COMMITTED
        return conn

    def _initialise(self, conn: psycopg.Connection) -> None:
        s = f'"{self.schema}"'
        try:
            with conn.transaction():
                # CREATE ... IF NOT EXISTS is not safe against a concurrent creator: serialise the
                # processes opening one environment for the first time.
                conn.execute("SELECT pg_advisory_xact_lock(hashtext('capenv.store.schema'), hashtext(%s))",
                             (self.schema,))
                conn.execute(f"CREATE SCHEMA IF NOT EXISTS {s}")
                conn.execute(_TABLES.format(s=s))
                conn.execute(forgetting.TABLES.format(s=s))
                row = conn.execute(f"SELECT value FROM {s}.store_format WHERE key = 'format'").fetchone()
                if row is None:
                    conn.execute(f"INSERT INTO {s}.store_format (key, value) VALUES ('format', %s)",
                                 (FORMAT_VERSION,))
                elif row[0] in MIGRATES_FROM:
                    conn.execute(f"UPDATE {s}.store_format SET value = %s WHERE key = 'format'", (FORMAT_VERSION,))
                elif row[0] != FORMAT_VERSION:
                    raise StoreBackendError(f"schema {self.schema!r} holds store format {row[0]}; "
                                            f"this version reads format {FORMAT_VERSION}")
        except psycopg.Error as exc:
            raise self._backend_error(conn, f"cannot prepare schema {self.schema!r}", exc) from exc

    # -- the contract --------------------------------------------------------------------------

    records_budget = BUDGET

    def bound_records(self, commits: int | None, journal_types: Iterable[str] = ()) -> None:
        self._kept = commits
        self._journals = self._journals | frozenset(journal_types)

    def forgotten(self, record_id: str) -> bool:
        with self._pool.connection() as conn:
            try:
                return forgetting.was_forgotten(conn, f'"{self.schema}"', record_id)
            except psycopg.Error as exc:
                raise self._backend_error(conn, "read failed", exc) from exc

    def forget_commits(self, record_ids: Iterable[str], journal_types: Iterable[str] = ()) -> None:
        ids = list(record_ids)
        if not ids:
            return
        journals = self._journals | frozenset(journal_types)
        with self._pool.connection() as conn:
            try:
                with conn.transaction():
                    forgetting.forget_commits(conn, f'"{self.schema}"', ids, journals)
            except psycopg.Error as exc:
                raise self._backend_error(conn, f"cannot forget {len(ids)} commit(s)", exc) from exc

    def commit(self, envelope: RecordEnvelope, writes: Sequence[SubjectWrite]) -> Commit:
        prepared = batches.prepare(envelope, writes)
        reconnected = False
        for attempt in range(_RETRIES + 1):
            with self._pool.connection() as conn:
                try:
                    return self._commit_once(conn, prepared)
                except (pg_errors.DeadlockDetected, _LostCreation) as exc:
                    # The transaction rolled back, and deciding again from the rows as they are now
                    # is exactly the contract: the next attempt reads the other writer's subject
                    # and reports a RevisionConflict (or succeeds, if that subject was deleted).
                    if attempt == _RETRIES:
                        raise StoreBackendError(f"commit {prepared.record_id!r} kept colliding with "
                                                "concurrent commits") from exc
                except psycopg.Error as exc:
                    # A pooled connection may have died while idle. Taking the commit again on a
                    # fresh connection is safe whatever happened: if the first attempt did land,
                    # the record id returns it.
                    if conn.broken and not reconnected:
                        reconnected = True
                        continue
                    raise self._backend_error(conn, f"commit {prepared.record_id!r} failed", exc,
                                              uncertain=True) from exc
        raise AssertionError("unreachable")

    def _commit_once(self, conn: psycopg.Connection, prepared: PreparedBatch) -> Commit:
        """One attempt in one transaction, in two round trips (pipeline mode): the locks and reads,
        then the writes and COMMIT."""
        sql = self._sql
        s = f'"{self.schema}"'
        creating = False
        try:
            with conn.pipeline(), conn.transaction():
                conn.execute(sql["lock_record"], (self.schema, prepared.record_id))
                record_cursor = conn.execute(sql["find_record"], (prepared.record_id,))
                keys = prepared.keys()
                heads_cursor = conn.execute(sql["lock_heads"], ([k[0] for k in keys], [k[1] for k in keys]))
                fingerprint_cursor = conn.execute(sql["find_forgotten"], (fingerprint(prepared.record_id),))
                floors_cursor = conn.execute(sql["floors"], (sorted({k[0] for k in keys}),))
                record = record_cursor.fetchone()  # the first round trip ends here
                if record is not None or fingerprint_cursor.fetchone() is not None:
                    forgetting.refuse_forgotten(conn, s, prepared.record_id,
                                                None if record is None else bytes(record[0]), self._kept)
                if record is not None:
                    if bytes(record[0]) != prepared.digest:
                        raise RecordConflict(prepared.record_id)
                    return batches.decode_commit(prepared.envelope, record[1])
                heads = {(t, i): Head(revision, live) for t, i, revision, live in heads_cursor.fetchall()}
                plan = batches.plan(prepared, heads, dict(floors_cursor.fetchall()))
                if plan.created:
                    # A plain INSERT: if a concurrent transaction created one of these subjects
                    # and commits first, this fails with a unique violation (see commit()).
                    creating = True
                    conn.execute(sql["create"], _columns([plan.final[key] for key in sorted(plan.created)]))
                updated = [plan.final[key] for key in sorted(plan.final) if key not in plan.created]
                if updated:
                    conn.execute(sql["update"], _columns(updated))
                conn.execute(sql["history"], (prepared.record_id, *_columns(plan.entries)))
                commit = plan.commit(prepared.envelope)
                env = prepared.envelope.to_json()
                conn.execute(sql["record"], (prepared.record_id, prepared.digest, env["recorded_at"], env["actor"],
                                             env["correlation_id"], env["causation_id"],
                                             batches.encode_commit_writes(commit)))
                if self._kept:  # the order is kept under a bound only: an unbounded store does not grow it
                    newest = forgetting.ordered(conn, s, prepared.record_id)
                    forgetting.forget_past(conn, s, newest, self._kept, self._journals)
            return commit
        except pg_errors.UniqueViolation as exc:
            if creating and exc.diag.table_name == "subjects":
                raise _LostCreation(prepared.record_id) from exc
            raise

    replaces_whole = True

    def commit_replace(self, prepared: PreparedReplace, expect: Mapping[tuple[str, str], Expect], revision: int,
                       extra: Mapping[tuple[str, str], dict[str, Any]] | None = None) -> ReplaceCommit:
        """One transaction (``postgres_replace.py``): other commits of the schema wait for it, reads
        see the state before it until it commits."""
        extra_rows, digest = prepared.finish(extra or {})
        reconnected = False
        for attempt in range(_RETRIES + 1):
            with self._pool.connection() as conn:
                try:
                    return replace_in_transaction(conn, self.schema, prepared, extra_rows, digest, expect, revision,
                                                  self._kept, self._journals)
                except pg_errors.DeadlockDetected as exc:  # rolled back: take it again from the rows as they are
                    if attempt == _RETRIES:
                        raise StoreBackendError(f"replace {prepared.record_id!r} kept colliding with "
                                                "concurrent commits") from exc
                except psycopg.Error as exc:
                    if conn.broken and not reconnected:  # a pooled connection died idle; the record id
                        reconnected = True               # returns the replace if it did land
                        continue
                    raise self._backend_error(conn, f"replace {prepared.record_id!r} failed", exc,
                                              uncertain=True) from exc
        raise AssertionError("unreachable")

    def load(self, subject_type: str, subject_id: str) -> Stored | None:
        rows = self._read("load", (subject_type, subject_id))
        return None if not rows else batches.stored(subject_type, subject_id, rows[0][0], rows[0][1])

    def revision(self, subject_type: str, subject_id: str) -> int | None:
        rows = self._read("revision", (subject_type, subject_id))
        return None if not rows else rows[0][0]

    def list_ids(self, subject_type: str) -> list[str]:
        return [row[0] for row in self._read("list", (subject_type,))]

    def history(self, subject_type: str, subject_id: str) -> list[HistoryEntry]:
        # One statement reads from one snapshot, so the entries are consistent with each other.
        return [batches.history_entry(*row) for row in self._read("read_history", (subject_type, subject_id))]

    def snapshot(self, subject_types: Iterable[str] | None = None) -> dict[str, dict[str, Stored]]:
        types = None if subject_types is None else sorted(set(subject_types))
        result: dict[str, dict[str, Stored]] = {}
        for subject_type, subject_id, revision, state in self._read("snapshot", (types, types)):
            result.setdefault(subject_type, {})[subject_id] = batches.stored(subject_type, subject_id, revision, state)
        return result

    def compact(self, subject_types: Iterable[str]) -> None:
        types = sorted(set(subject_types))
        if not types:
            return
        s = f'"{self.schema}"'
        with self._pool.connection() as conn:
            try:
                with conn.transaction():
                    conn.execute(f"DELETE FROM {s}.history h USING {s}.subjects x WHERE h.subject_type = ANY(%s) "
                                 "AND x.subject_type = h.subject_type AND x.subject_id = h.subject_id "
                                 "AND (x.state IS NULL OR h.revision < x.revision)", (types,))
                    conn.execute(f"DELETE FROM {s}.subjects WHERE subject_type = ANY(%s) AND state IS NULL", (types,))
                    forgetting.forget_types(conn, s, types)
                    conn.execute(f"DELETE FROM {s}.records r WHERE NOT EXISTS (SELECT 1 FROM {s}.history h "
                                 "WHERE h.record_id = r.record_id)")
                    forgetting.drop_order_of_deleted(conn, s)
            except psycopg.Error as exc:
                raise self._backend_error(conn, f"cannot compact {', '.join(types)}", exc) from exc

    def close(self) -> None:
        self._pool.close()

    # -- reads ---------------------------------------------------------------------------------

    def _read(self, name: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        # A pooled connection may have died while idle (server restart): a read is safe to take
        # again once on a fresh connection.
        for attempt in range(2):
            with self._pool.connection() as conn:
                try:
                    return conn.execute(self._sql[name], params).fetchall()
                except psycopg.Error as exc:
                    if attempt == 0 and conn.broken:
                        continue
                    raise self._backend_error(conn, "read failed", exc) from exc
        raise AssertionError("unreachable")

    def _backend_error(self, conn: psycopg.Connection, what: str, exc: psycopg.Error, *,
                       uncertain: bool = False) -> Exception:
        if conn.broken or conn.closed:
            outcome = " (the outcome is unknown: retry with the same record id)" if uncertain else ""
            return StoreUnreachable(f"PostgreSQL store {self.schema!r}: {what}: connection lost{outcome}: "
                                    f"{_first_line(exc)}")
        return StoreBackendError(f"PostgreSQL store {self.schema!r}: {what}: {_first_line(exc)}")


def _columns(rows: Sequence[batches.PlannedWrite]) -> tuple[list[Any], ...]:
    return ([r.key[0] for r in rows], [r.key[1] for r in rows], [r.revision for r in rows],
            [r.state_json for r in rows])


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _healthy(conn: psycopg.Connection) -> bool:
    return not conn.closed and not conn.broken and conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE


def _disconnect(conn: psycopg.Connection) -> None:
    try:
        conn.close()
    except psycopg.Error:
        pass
