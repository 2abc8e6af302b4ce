"""``SqliteStore.commit_replace``'s transaction (``replace.py`` says what a replace does).

Inside the caller's ``BEGIN IMMEDIATE``: the old rows of the types deleted (the whole table at
once when it holds no other type's rows, ``_holds_only``), the new ones
inserted with one ``executemany`` over the prepared rows (one history row per subject, which is
also its state), the record ids no history row names any more deleted, and the replace's record. A crash at any point leaves the file as it was
before the transaction or after it, never between.
"""

from __future__ import annotations

import itertools
import sqlite3
from collections.abc import Mapping

from capenv.serving.store import sqlite_forgetting as forgetting
from capenv.serving.store.contract import Expect, NoActor, RecordConflict, RecordForgotten
from capenv.serving.store.forgetting import BUDGET, FORGOTTEN
from capenv.serving.store.replace import PreparedReplace, ReplaceCommit, StaleRevision, check_expectations
from capenv.serving.store.sqlite_schema import HEAD_REVISION, INSERT_HISTORY, INSERT_RECORD, TypeIds

SubjectKey = tuple[str, str]

REPLACE_WRITES = "[]"
"""A replace's record keeps no list of writes (its rows are every subject of its types)."""


def replace_in_transaction(conn: sqlite3.Cursor, types: TypeIds, type_ids: Mapping[str, int],
                           prepared: PreparedReplace, extra_rows: Mapping[SubjectKey, str], digest: bytes,
                           expect: Mapping[SubjectKey, Expect], revision: int,
                           kept: int | None) -> tuple[ReplaceCommit, bool]:
    """``type_ids``: the file's id of each type the replace names or expects of; ``kept``: the
    store's bound (named by a refusal of a forgotten record id). With the commit, whether it is new
    (not an exact retry)."""
    ids = sorted(type_ids[t] for t in prepared.subject_types)
    marks = ", ".join("?" * len(ids))
    record_id = prepared.record_id
    record = conn.execute("SELECT digest FROM records WHERE record_id = ?", (record_id,)).fetchone()
    if record is None:
        forgetting.refuse_forgotten(conn, record_id, kept)
    elif bytes(record[0]) == FORGOTTEN:
        raise RecordForgotten(record_id, kept, BUDGET)
    if record is not None:  # an exact retry: the revision the original wrote
        if record[0] != digest:
            raise RecordConflict(record_id)
        written = conn.execute("SELECT max(revision) FROM history WHERE record_id = ?", (record_id,)).fetchone()[0]
        return ReplaceCommit(prepared.envelope, prepared.subject_types, written or revision), False
    check_expectations(expect, lambda key: _live_revision(conn, type_ids[key[0]], key[1]))
    held = conn.execute(f"SELECT max(revision) FROM (SELECT max(revision) AS revision FROM history WHERE type_id IN "
                        f"({marks}) UNION ALL SELECT max(revision) FROM floors WHERE type_id IN ({marks}))",
                        ids + ids).fetchone()[0]
    if revision <= (held or 0):
        raise StaleRevision(revision, held)
    if _holds_only(conn, ids):
        conn.execute("DELETE FROM history")  # SQLite drops the table's pages whole, visiting no row
    else:
        conn.execute(f"DELETE FROM history WHERE type_id IN ({marks})", ids)
    rows = itertools.chain(((key, text) for key, text in prepared.rows.items() if key not in extra_rows),
                           extra_rows.items())
    conn.executemany(INSERT_HISTORY, ((type_ids[t], i, revision, record_id, text) for (t, i), text in rows))
    forgetting.forget_types(conn, types, ids)
    conn.execute("DELETE FROM records WHERE record_id NOT IN (SELECT record_id FROM history)")
    forgetting.drop_order_of_deleted(conn)
    env = prepared.envelope
    conn.execute(INSERT_RECORD, (record_id, digest, env.recorded_at, None if isinstance(env.actor, NoActor) else env.actor,
                                 env.correlation_id, env.causation_id, REPLACE_WRITES))
    return ReplaceCommit(prepared.envelope, prepared.subject_types, revision), True


def _holds_only(conn: sqlite3.Cursor, ids: list[int]) -> bool:
    """Whether every history row is of the types ``ids`` (sorted): the distinct type ids the rows
    hold, each found by one seek of the primary key (the next one above the last), so the check
    reads a few index pages however many rows there are. Then a ``DELETE`` without a condition
    clears the table by its pages (SQLite's truncate optimisation), where deleting by type visits
    every row and its index entry: a data/add over 10,000 entities spent most of its commit there."""
    wanted = set(ids)
    found = conn.execute("SELECT min(type_id) FROM history").fetchone()[0]
    while found is not None:
        if found not in wanted:
            return False
        found = conn.execute("SELECT min(type_id) FROM history WHERE type_id > ?", (found,)).fetchone()[0]
    return True


def _live_revision(conn: sqlite3.Cursor, type_id: int, subject_id: str) -> int | None:
    row = conn.execute(HEAD_REVISION, (type_id, subject_id)).fetchone()
    return row[0] if row is not None and row[1] else None
