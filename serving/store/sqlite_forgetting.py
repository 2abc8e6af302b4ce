"""The SQLite store's bound on the commits it keeps, inside the transactions of ``sqlite.py``
(``forgetting.py`` says what is forgotten and what is kept)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

from capenv.serving.store.contract import RecordForgotten
from capenv.serving.store.forgetting import BUDGET, FORGOTTEN, covered, fingerprint, stamp, written
from capenv.serving.store.sqlite_schema import HEAD_REVISION, TypeIds

Connection = sqlite3.Connection | sqlite3.Cursor
"""Where a statement runs: a replace runs all of its on one cursor (``SqliteStore.commit_replace``)."""

ORDERED = "INSERT INTO commit_order (record_id) VALUES (?)"
IS_FORGOTTEN = "SELECT 1 FROM forgotten WHERE fingerprint = ?"


def refuse_forgotten(conn: Connection, record_id: str, kept: int | None) -> None:
    """Raise ``RecordForgotten`` when ``record_id``'s commit was forgotten whole (its fingerprint)."""
    if conn.execute(IS_FORGOTTEN, (fingerprint(record_id),)).fetchone() is not None:
        raise RecordForgotten(record_id, kept, BUDGET)


def was_forgotten(conn: Connection, record_id: str) -> bool:
    row = conn.execute("SELECT digest FROM records WHERE record_id = ?", (record_id,)).fetchone()
    if row is not None:
        return bytes(row[0]) == FORGOTTEN
    return conn.execute(IS_FORGOTTEN, (fingerprint(record_id),)).fetchone() is not None


def forget_past(conn: Connection, types: TypeIds, newest: int, kept: int, journals: Iterable[str]) -> None:
    """After the commit numbered ``newest``: forget every commit but the last ``kept``, oldest first.
    The order numbers its commits from 1 (its rowid), so while ``newest`` is within the bound no
    commit is past it and no statement is spent looking."""
    if newest <= kept:
        return
    evicted = conn.execute("DELETE FROM commit_order WHERE seq <= ? RETURNING seq, record_id",
                           (newest - kept,)).fetchall()
    if not evicted:
        return
    journal_ids = _journal_ids(conn, journals)
    for _, record_id in sorted(evicted):
        _forget(conn, types, record_id, journal_ids)


def forget_commits(conn: Connection, types: TypeIds, record_ids: list[str], journals: Iterable[str]) -> None:
    """``Store.forget_commits``: these commits, in the order given (their places in the commit
    order, if any, are passed over when the bound reaches them)."""
    journal_ids = _journal_ids(conn, journals)
    for record_id in record_ids:
        _forget(conn, types, record_id, journal_ids)


def _journal_ids(conn: Connection, journals: Iterable[str]) -> set[int]:
    names = sorted(set(journals))
    return {row[0] for row in conn.execute(
        f"SELECT type_id FROM types WHERE name IN ({', '.join('?' * len(names))})", names)} if names else set()


def _forget(conn: Connection, types: TypeIds, record_id: str, journal_ids: set[int]) -> None:
    row = conn.execute("SELECT digest, writes FROM records WHERE record_id = ?", (record_id,)).fetchone()
    if row is None or bytes(row[0]) == FORGOTTEN:
        return  # a replace or a compaction forgot it already
    touched = {record_id}
    for (type_id, subject_id), revision in _written(conn, types, row[1]).items():
        head = conn.execute(HEAD_REVISION, (type_id, subject_id)).fetchone()
        if head is None or head[0] < revision:
            continue  # a replace rewrote the subject
        if head[0] == revision and (not head[1] or type_id in journal_ids):
            gone = conn.execute("DELETE FROM history WHERE type_id = ? AND subject_id = ? RETURNING record_id",
                                (type_id, subject_id)).fetchall()
            if not head[1]:  # a later creation of this id continues above the tombstone
                conn.execute("INSERT INTO floors (type_id, revision) VALUES (?, ?) ON CONFLICT (type_id) "
                             "DO UPDATE SET revision = max(revision, excluded.revision)", (type_id, revision))
        else:  # every entry up to this commit's, but never the head
            last = revision if head[0] > revision else revision - 1
            gone = conn.execute("DELETE FROM history WHERE type_id = ? AND subject_id = ? AND revision <= ? "
                                "RETURNING record_id", (type_id, subject_id, last)).fetchall()
        touched.update(r for (r,) in gone)
    for touched_id in sorted(touched):
        _settle(conn, types, touched_id, touched_id == record_id)


def _settle(conn: Connection, types: TypeIds, record_id: str, evicted: bool) -> None:
    """The record of a forgotten commit: marked while a history row names it, else deleted and
    fingerprinted. A record the bound still keeps stays as it is."""
    row = conn.execute("SELECT digest, writes FROM records WHERE record_id = ?", (record_id,)).fetchone()
    if row is None or not (evicted or bytes(row[0]) == FORGOTTEN):
        return
    subjects = _written(conn, types, row[1])
    named = not subjects or any(  # a replace's record lists no writes: kept until a replace forgets it
        conn.execute("SELECT 1 FROM history WHERE type_id = ? AND subject_id = ? AND record_id = ? LIMIT 1",
                     (t, i, record_id)).fetchone() is not None for t, i in subjects)
    if named:
        conn.execute("UPDATE records SET digest = ? WHERE record_id = ?", (FORGOTTEN, record_id))
    else:
        conn.execute("DELETE FROM records WHERE record_id = ?", (record_id,))
        conn.execute("INSERT OR IGNORE INTO forgotten (fingerprint, types) VALUES (?, ?)",
                     (fingerprint(record_id), ",".join(map(str, stamp(t for t, _ in subjects)))))


def forget_types(conn: Connection, types: TypeIds, type_ids: Iterable[int]) -> None:
    """After a replace or a compaction of ``type_ids`` deleted their rows, before the records no
    history row names are deleted: a marked record goes on as a fingerprint unless its every type
    was replaced; the fingerprints and floors of those types go, and the order of records gone."""
    replaced = set(type_ids)
    for record_id, writes in conn.execute("SELECT record_id, writes FROM records WHERE digest = ? AND record_id "
                                          "NOT IN (SELECT record_id FROM history)", (FORGOTTEN,)).fetchall():
        stamped = stamp(t for t, _ in _written(conn, types, writes))
        if stamped and not covered(stamped, replaced):
            conn.execute("INSERT OR IGNORE INTO forgotten (fingerprint, types) VALUES (?, ?)",
                         (fingerprint(record_id), ",".join(map(str, stamped))))
    gone = [text for (text,) in conn.execute("SELECT DISTINCT types FROM forgotten").fetchall()
            if covered((int(t) for t in text.split(",")), replaced)]
    if gone:
        conn.execute(f"DELETE FROM forgotten WHERE types IN ({', '.join('?' * len(gone))})", gone)
    if replaced:
        ids = sorted(replaced)
        conn.execute(f"DELETE FROM floors WHERE type_id IN ({', '.join('?' * len(ids))})", ids)


def drop_order_of_deleted(conn: Connection) -> None:
    """After records were deleted wholesale (a replace, a compaction): their places in the order go."""
    conn.execute("DELETE FROM commit_order WHERE record_id NOT IN (SELECT record_id FROM records)")


def _written(conn: Connection, types: TypeIds, writes_json: str) -> dict[tuple[int, str], int]:
    """``forgetting.written`` with each type as the file's id (a format 1 record names it in full)."""
    subjects: dict[tuple[int, str], int] = {}
    for (subject_type, subject_id), revision in written(writes_json).items():
        type_id = subject_type if type(subject_type) is int else types.find_in_transaction(conn, subject_type)
        if type_id is not None:
            subjects[(type_id, subject_id)] = revision
    return subjects
