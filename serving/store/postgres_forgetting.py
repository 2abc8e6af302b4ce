"""The PostgreSQL store's bound on the commits it keeps, inside the transactions of ``postgres.py``
(``forgetting.py`` says what is forgotten and what is kept).

Two commits past the bound at once each forget what they took out of ``commit_order`` (a row
another deleted first is skipped at READ COMMITTED), so no commit is forgotten twice."""

from __future__ import annotations

from collections.abc import Iterable

import psycopg

from capenv.serving.store.contract import RecordForgotten
from capenv.serving.store.forgetting import BUDGET, FORGOTTEN, covered, fingerprint, stamp, written

TABLES = """
CREATE TABLE IF NOT EXISTS {s}.commit_order (
    seq       bigserial PRIMARY KEY,
    record_id text NOT NULL
);
CREATE TABLE IF NOT EXISTS {s}.forgotten (
    fingerprint bigint PRIMARY KEY,
    types       text[] NOT NULL      -- the types its commit wrote
);
CREATE TABLE IF NOT EXISTS {s}.floors (
    subject_type text COLLATE "C" PRIMARY KEY,
    revision     bigint NOT NULL     -- the highest revision of a tombstone the bound forgot
);
"""


def ordered(conn: psycopg.Connection, s: str, record_id: str) -> int:
    """The commit's place in the order the bound forgets by."""
    return conn.execute(f"INSERT INTO {s}.commit_order (record_id) VALUES (%s) RETURNING seq",
                        (record_id,)).fetchone()[0]


def refuse_forgotten(conn: psycopg.Connection, s: str, record_id: str, digest: bytes | None,
                     kept: int | None) -> None:
    """Raise ``RecordForgotten`` when ``record_id``'s commit was forgotten: its record marked
    (``digest``, None when it has no record row), or gone with its fingerprint kept."""
    if digest is not None:
        if digest == FORGOTTEN:
            raise RecordForgotten(record_id, kept, BUDGET)
        return
    if conn.execute(f"SELECT 1 FROM {s}.forgotten WHERE fingerprint = %s", (fingerprint(record_id),)).fetchone():
        raise RecordForgotten(record_id, kept, BUDGET)


def was_forgotten(conn: psycopg.Connection, s: str, record_id: str) -> bool:
    row = conn.execute(f"SELECT digest FROM {s}.records WHERE record_id = %s", (record_id,)).fetchone()
    try:
        refuse_forgotten(conn, s, record_id, None if row is None else bytes(row[0]), None)
    except RecordForgotten:
        return True
    return False


def floors(conn: psycopg.Connection, s: str, types: Iterable[str]) -> dict[str, int]:
    return dict(conn.execute(f"SELECT subject_type, revision FROM {s}.floors WHERE subject_type = ANY(%s)",
                             (sorted(set(types)),)).fetchall())


def forget_past(conn: psycopg.Connection, s: str, newest: int, kept: int, journals: frozenset[str]) -> None:
    """After the commit numbered ``newest``: forget every commit but the last ``kept``, oldest first."""
    evicted = conn.execute(f"DELETE FROM {s}.commit_order WHERE seq <= %s RETURNING seq, record_id",
                           (newest - kept,)).fetchall()
    for _, record_id in sorted(evicted):
        _forget(conn, s, record_id, journals)


def forget_commits(conn: psycopg.Connection, s: str, record_ids: list[str], journals: frozenset[str]) -> None:
    """``Store.forget_commits``: these commits, in the order given (their places in the commit
    order, if any, are passed over when the bound reaches them)."""
    for record_id in record_ids:
        _forget(conn, s, record_id, journals)


def _forget(conn: psycopg.Connection, s: str, record_id: str, journals: frozenset[str]) -> None:
    row = conn.execute(f"SELECT digest, writes FROM {s}.records WHERE record_id = %s", (record_id,)).fetchone()
    if row is None or bytes(row[0]) == FORGOTTEN:
        return  # a replace or a compaction forgot it already
    subjects = written(row[1])
    keys = sorted(subjects)
    heads = {(t, i): (revision, live) for t, i, revision, live in conn.execute(
        f"SELECT subject_type, subject_id, revision, state IS NOT NULL FROM {s}.subjects WHERE (subject_type, "
        "subject_id) IN (SELECT * FROM unnest(%s::text[], %s::text[]))",
        ([t for t, _ in keys], [i for _, i in keys])).fetchall()}
    touched = {record_id}
    for (subject_type, subject_id), revision in subjects.items():
        head = heads.get((subject_type, subject_id))
        if head is None or head[0] < revision:
            continue  # a replace rewrote the subject
        if head[0] == revision and (not head[1] or subject_type in journals):
            # The head row first, as it still is: a concurrent commit that moved it on keeps it.
            if not conn.execute(f"DELETE FROM {s}.subjects WHERE subject_type = %s AND subject_id = %s AND "
                                "revision = %s RETURNING 1", (subject_type, subject_id, revision)).fetchall():
                continue
            gone = conn.execute(f"DELETE FROM {s}.history WHERE subject_type = %s AND subject_id = %s "
                                "RETURNING record_id", (subject_type, subject_id)).fetchall()
            if not head[1]:  # a later creation of this id continues above the tombstone
                conn.execute(f"INSERT INTO {s}.floors (subject_type, revision) VALUES (%s, %s) ON CONFLICT "
                             "(subject_type) DO UPDATE SET revision = greatest(floors.revision, excluded.revision)",
                             (subject_type, revision))
        else:  # every entry up to this commit's, but never the head
            last = revision if head[0] > revision else revision - 1
            gone = conn.execute(f"DELETE FROM {s}.history WHERE subject_type = %s AND subject_id = %s AND "
                                "revision <= %s RETURNING record_id", (subject_type, subject_id, last)).fetchall()
        touched.update(r for (r,) in gone)
    for touched_id in sorted(touched):
        _settle(conn, s, touched_id, touched_id == record_id)


def _settle(conn: psycopg.Connection, s: str, record_id: str, evicted: bool) -> None:
    """The record of a forgotten commit: marked while a history row names it, else deleted and
    fingerprinted. A record the bound still keeps stays as it is."""
    row = conn.execute(f"SELECT digest, writes FROM {s}.records WHERE record_id = %s", (record_id,)).fetchone()
    if row is None or not (evicted or bytes(row[0]) == FORGOTTEN):
        return
    keys = sorted(written(row[1]))
    named = not keys or conn.execute(  # a replace's record lists no writes: kept until a replace forgets it
        f"SELECT 1 FROM {s}.history WHERE record_id = %s AND (subject_type, subject_id) IN "
        "(SELECT * FROM unnest(%s::text[], %s::text[])) LIMIT 1",
        (record_id, [t for t, _ in keys], [i for _, i in keys])).fetchone() is not None
    if named:
        conn.execute(f"UPDATE {s}.records SET digest = %s WHERE record_id = %s", (FORGOTTEN, record_id))
    else:
        conn.execute(f"DELETE FROM {s}.records WHERE record_id = %s", (record_id,))
        conn.execute(f"INSERT INTO {s}.forgotten (fingerprint, types) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                     (fingerprint(record_id), stamp(t for t, _ in keys)))


def forget_types(conn: psycopg.Connection, s: str, types: list[str]) -> None:
    """After a replace or a compaction of ``types`` deleted their rows, before the records no
    history row names are deleted: a marked record goes on as a fingerprint unless its every type
    was replaced; the fingerprints and floors of those types go."""
    replaced = set(types)
    for record_id, writes in conn.execute(
            f"SELECT record_id, writes FROM {s}.records r WHERE digest = %s AND NOT EXISTS "
            f"(SELECT 1 FROM {s}.history h WHERE h.record_id = r.record_id)", (FORGOTTEN,)).fetchall():
        stamped = stamp(t for t, _ in written(writes))
        if stamped and not covered(stamped, replaced):
            conn.execute(f"INSERT INTO {s}.forgotten (fingerprint, types) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                         (fingerprint(record_id), stamped))
    conn.execute(f"DELETE FROM {s}.forgotten WHERE types <@ %s::text[]", (sorted(replaced),))
    conn.execute(f"DELETE FROM {s}.floors WHERE subject_type = ANY(%s)", (sorted(replaced),))


def drop_order_of_deleted(conn: psycopg.Connection, s: str) -> None:
    """After records were deleted wholesale (a replace, a compaction): their places in the order go."""
    conn.execute(f"DELETE FROM {s}.commit_order o WHERE NOT EXISTS (SELECT 1 FROM {s}.records r "
                 "WHERE r.record_id = o.record_id)")
