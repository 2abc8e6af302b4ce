"""``SqliteStore.commit_replace``'s transaction (``replace.py`` says what a replace does).

Inside the caller's ``BEGIN IMMEDIATE``: the old rows of the types deleted, the new ones
inserted with two ``executemany`` over the prepared rows, the record ids no history row names
any more deleted, and the replace's record. A crash at any point leaves the file as it was
before the transaction or after it, never between.
"""

from __future__ import annotations

import itertools
import sqlite3
from collections.abc import Mapping

from capenv.serving.store.contract import Expect, RecordConflict
from capenv.serving.store.replace import PreparedReplace, ReplaceCommit, StaleRevision, check_expectations

SubjectKey = tuple[str, str]

_INSERT_SUBJECT = "INSERT INTO subjects (subject_type, subject_id, revision, state) VALUES (?, ?, ?, ?)"
_INSERT_HISTORY = "INSERT INTO history (subject_type, subject_id, revision, record_id, state) VALUES (?, ?, ?, ?, ?)"
_INSERT_RECORD = ("INSERT INTO records (record_id, digest, recorded_at, actor, correlation_id, causation_id, writes) "
                  "VALUES (?, ?, ?, ?, ?, ?, ?)")
REPLACE_WRITES = "[]"
"""A replace's record keeps no list of writes (its rows are every subject of its types)."""


def replace_in_transaction(conn: sqlite3.Connection, prepared: PreparedReplace, extra_rows: Mapping[SubjectKey, str],
                           digest: bytes, expect: Mapping[SubjectKey, Expect], revision: int) -> ReplaceCommit:
    types = sorted(prepared.subject_types)
    marks = ", ".join("?" * len(types))
    record_id = prepared.record_id
    record = conn.execute("SELECT digest FROM records WHERE record_id = ?", (record_id,)).fetchone()
    if record is not None:  # an exact retry: the revision the original wrote
        if record[0] != digest:
            raise RecordConflict(record_id)
        written = conn.execute("SELECT max(revision) FROM history WHERE record_id = ?", (record_id,)).fetchone()[0]
        return ReplaceCommit(prepared.envelope, prepared.subject_types, written or revision)
    check_expectations(expect, lambda key: _live_revision(conn, key))
    held = conn.execute(f"SELECT max(revision) FROM subjects WHERE subject_type IN ({marks})", types).fetchone()[0]
    if revision <= (held or 0):
        raise StaleRevision(revision, held)
    conn.execute(f"DELETE FROM subjects WHERE subject_type IN ({marks})", types)
    conn.execute(f"DELETE FROM history WHERE subject_type IN ({marks})", types)
    rows = list(itertools.chain(((key, text) for key, text in prepared.rows.items() if key not in extra_rows),
                                extra_rows.items()))
    conn.executemany(_INSERT_SUBJECT, ((t, i, revision, text) for (t, i), text in rows))
    conn.executemany(_INSERT_HISTORY, ((t, i, revision, record_id, text) for (t, i), text in rows))
    conn.execute("DELETE FROM records WHERE record_id NOT IN (SELECT record_id FROM history)")
    env = prepared.envelope.to_json()
    conn.execute(_INSERT_RECORD, (record_id, digest, env["recorded_at"], env["actor"], env["correlation_id"],
                                  env["causation_id"], REPLACE_WRITES))
    return ReplaceCommit(prepared.envelope, prepared.subject_types, revision)


def _live_revision(conn: sqlite3.Connection, key: SubjectKey) -> int | None:
    row = conn.execute("SELECT revision FROM subjects WHERE subject_type = ? AND subject_id = ? "
                       "AND state IS NOT NULL", key).fetchone()
    return None if row is None else row[0]
