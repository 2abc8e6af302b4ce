"""``PostgresStore.commit_replace``'s transaction (``replace.py`` says what a replace does).

One transaction, in the order the other commits take their locks, so none can deadlock with it:

- the advisory lock on (schema, record id) every commit takes first: an exact retry meanwhile
  waits, then finds the record and answers the original replace;
- the ``subjects`` table locked in EXCLUSIVE mode: every commit of this schema waits for the replace
  (each locks rows ``FOR UPDATE``, which this mode excludes), while plain reads go on and see the
  state before until the replace commits, then the state after, never between;
- the expectations and the revision checked; the old rows of the types deleted, the new ones
  copied in (``COPY``: one stream, however many rows), the record ids no history row names any
  more deleted, and the replace's record.

A failure at any point rolls the whole transaction back.
"""

from __future__ import annotations

from collections.abc import Mapping

import psycopg

from capenv.serving.store import postgres_forgetting as forgetting
from capenv.serving.store.contract import Expect, RecordConflict
from capenv.serving.store.replace import (
    REPLACE_WRITES, PreparedReplace, ReplaceCommit, StaleRevision, check_expectations,
)

SubjectKey = tuple[str, str]


def replace_in_transaction(conn: psycopg.Connection, schema: str, prepared: PreparedReplace,
                           extra_rows: Mapping[SubjectKey, str], digest: bytes, expect: Mapping[SubjectKey, Expect],
                           revision: int, kept: int | None = None,
                           journals: frozenset[str] = frozenset()) -> ReplaceCommit:
    s = f'"{schema}"'  # validated by PostgresStore: safe to place in SQL text
    types = sorted(prepared.subject_types)
    record_id = prepared.record_id
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s), hashtext(%s))", (schema, record_id))
        record = conn.execute(f"SELECT digest FROM {s}.records WHERE record_id = %s", (record_id,)).fetchone()
        forgetting.refuse_forgotten(conn, s, record_id, None if record is None else bytes(record[0]), kept)
        if record is not None:  # an exact retry: the revision the original wrote
            if bytes(record[0]) != digest:
                raise RecordConflict(record_id)
            written = conn.execute(f"SELECT max(revision) FROM {s}.history WHERE record_id = %s",
                                   (record_id,)).fetchone()[0]
            return ReplaceCommit(prepared.envelope, prepared.subject_types, written or revision)
        conn.execute(f"LOCK TABLE {s}.subjects IN EXCLUSIVE MODE")
        check_expectations(expect, lambda key: _live_revision(conn, s, key))
        held = conn.execute(f"SELECT max(revision) FROM (SELECT revision FROM {s}.subjects WHERE subject_type = "
                            f"ANY(%s) UNION ALL SELECT revision FROM {s}.floors WHERE subject_type = ANY(%s)) r",
                            (types, types)).fetchone()[0]
        if revision <= (held or 0):
            raise StaleRevision(revision, held)
        conn.execute(f"DELETE FROM {s}.subjects WHERE subject_type = ANY(%s)", (types,))
        conn.execute(f"DELETE FROM {s}.history WHERE subject_type = ANY(%s)", (types,))
        with conn.cursor() as cursor:
            with cursor.copy(f"COPY {s}.subjects (subject_type, subject_id, revision, state) FROM STDIN") as copy:
                for (subject_type, subject_id), text in _rows(prepared, extra_rows):
                    copy.write_row((subject_type, subject_id, revision, text))
            with cursor.copy(f"COPY {s}.history (subject_type, subject_id, revision, record_id, state) "
                             "FROM STDIN") as copy:
                for (subject_type, subject_id), text in _rows(prepared, extra_rows):
                    copy.write_row((subject_type, subject_id, revision, record_id, text))
        forgetting.forget_types(conn, s, types)
        conn.execute(f"DELETE FROM {s}.records r WHERE NOT EXISTS (SELECT 1 FROM {s}.history h "
                     "WHERE h.record_id = r.record_id)")
        forgetting.drop_order_of_deleted(conn, s)
        env = prepared.envelope.to_json()
        conn.execute(f"INSERT INTO {s}.records (record_id, digest, recorded_at, actor, correlation_id, causation_id, "
                     "writes) VALUES (%s, %s, %s, %s, %s, %s, %s)",
                     (record_id, digest, env["recorded_at"], env["actor"], env["correlation_id"],
                      env["causation_id"], REPLACE_WRITES))
        if kept:  # the order is kept under a bound only
            forgetting.forget_past(conn, s, forgetting.ordered(conn, s, record_id), kept, journals)
    return ReplaceCommit(prepared.envelope, prepared.subject_types, revision)


def _rows(prepared: PreparedReplace, extra_rows: Mapping[SubjectKey, str]):
    """The prepared rows, those ``extra_rows`` names replaced by theirs."""
    for key, text in prepared.rows.items():
        if key not in extra_rows:
            yield key, text
    yield from extra_rows.items()


def _live_revision(conn: psycopg.Connection, s: str, key: SubjectKey) -> int | None:
    row = conn.execute(f"SELECT revision FROM {s}.subjects WHERE subject_type = %s AND subject_id = %s "
                       "AND state IS NOT NULL", key).fetchone()
    return None if row is None else row[0]
