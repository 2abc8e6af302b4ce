"""The SQLite store's file layout (format 2), the migration from format 1, and subject type ids.

One row per subject write: ``history`` holds every revision of every subject, and a subject's
current state is simply its row of the highest revision (a tombstone's state is NULL). Format 1
also kept a ``subjects`` table with a copy of each head, so every write wrote its state twice
and touched two more b-trees; a served create (four subjects) wrote 9 rows on ~11 pages, now 5
rows on about half as many pages. Subject types are kept once, in ``types``, and named by a small
integer in ``history``: its primary key index then holds a few bytes per row instead of the
~45-byte type name.

The price: a snapshot or a listing finds each subject's newest revision by scanning the primary
key index over every history entry of the types it reads (index entries only), where format 1
read one row per subject; with 1,000 subjects of 100 revisions each, a snapshot takes ~30 ms
against ~3 ms. A served call reads single heads; a state is snapshot when a runtime starts, after
another process's install, or more than 1,000 writes behind; an install (data/reset, data/add)
leaves one entry per subject.

A file of format 1 is migrated in the transaction that opens it (every history row copied; its
heads are each subject's last history row, as format 1 always wrote them). A process still
running an older version on the same file then fails its next statement instead of writing the
old layout; format 2 files are refused by name by older versions.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping
from functools import lru_cache

from capenv.interpreter.bundle import jsonvalue
from capenv.serving.store.contract import Commit, CommittedWrite, Expect, RecordEnvelope, StoreBackendError

FORMAT_VERSION = 3  # kept in PRAGMA user_version; a file of another format is refused on open
MIGRATES_FROM = (1, 2)  # format 3 adds the bound's tables (``forgetting.py``): format 2 gains them empty

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS types (
        type_id INTEGER PRIMARY KEY,
        name    TEXT NOT NULL UNIQUE
    )""",
    # A rowid table: rows append to its last page; the primary key index finds a subject's rows.
    """CREATE TABLE IF NOT EXISTS history (
        type_id    INTEGER NOT NULL,
        subject_id TEXT NOT NULL,
        revision   INTEGER NOT NULL,
        record_id  TEXT NOT NULL,
        state      TEXT,               -- JSON text, NULL for a tombstone (the revision is kept)
        PRIMARY KEY (type_id, subject_id, revision)
    )""",
    """CREATE TABLE IF NOT EXISTS records (
        record_id      TEXT PRIMARY KEY NOT NULL,
        digest         BLOB NOT NULL,   -- sha256 of the canonical request: what an exact retry repeats
        recorded_at    TEXT NOT NULL,
        actor          TEXT,            -- NULL is NO_ACTOR
        correlation_id TEXT,
        causation_id   TEXT,
        writes         TEXT NOT NULL    -- the committed writes, returned again to an exact retry
    ) WITHOUT ROWID""",  # small rows: one b-tree instead of a table and its key index
    # The bound on the commits kept (``forgetting.py``): every commit in order, appended to the
    # last page; the fingerprints of forgotten record ids, each with the types its commit wrote
    # ("1,4,7"); the revision a forgotten tombstone reached, per type.
    "CREATE TABLE IF NOT EXISTS commit_order (seq INTEGER PRIMARY KEY, record_id TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS forgotten (fingerprint INTEGER PRIMARY KEY, types TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS floors (type_id INTEGER PRIMARY KEY, revision INTEGER NOT NULL)",
)

INSERT_HISTORY = "INSERT INTO history (type_id, subject_id, revision, record_id, state) VALUES (?, ?, ?, ?, ?)"
INSERT_RECORD = ("INSERT INTO records (record_id, digest, recorded_at, actor, correlation_id, causation_id, writes) "
                 "VALUES (?, ?, ?, ?, ?, ?, ?)")
INSERT_NEW_RECORD = INSERT_RECORD + " ON CONFLICT (record_id) DO NOTHING"
INSERT_NEW_UNLINKED_RECORD = ("INSERT INTO records (record_id, digest, recorded_at, actor, writes) VALUES (?, ?, ?, ?, ?) "
                              "ON CONFLICT (record_id) DO NOTHING")
"""``INSERT_NEW_RECORD`` of a record with no correlation nor causation id (a served write's): the
columns left NULL are not bound, each None bound costing the sqlite3 module a failed adapter
lookup (two attribute errors raised and cleared)."""
HEAD = ("SELECT revision, state FROM history WHERE type_id = ? AND subject_id = ? "
        "ORDER BY revision DESC LIMIT 1")
HEAD_REVISION = ("SELECT revision, state IS NOT NULL FROM history WHERE type_id = ? AND subject_id = ? "
                 "ORDER BY revision DESC LIMIT 1")
_HEAD_OF_KEY = ("SELECT * FROM (SELECT type_id, subject_id, revision, state IS NOT NULL FROM history "
                "WHERE type_id = ? AND subject_id = ? ORDER BY revision DESC LIMIT 1)")
COMPOUND_TERMS = 500
"""SQLite's cap on the terms of a compound select (``SQLITE_MAX_COMPOUND_SELECT``)."""
HEADS_PER_QUERY = 100
"""Heads read per statement, well within ``COMPOUND_TERMS``."""


# Not a budget: a memo of a pure function (one statement per batch size, every size a batch can
# have), shared by every bundle the process serves; no answer depends on its size.
@lru_cache(maxsize=HEADS_PER_QUERY)
def heads_query(count: int) -> str:
    """One statement reading the head rows ``(type_id, subject_id, revision, live)`` of ``count``
    subjects: each from the primary key, newest first. A batch of a given size always spells the
    same text, so SQLite's statement cache prepares it once per connection."""
    return " UNION ALL ".join([_HEAD_OF_KEY] * count)


FLOOR_ROW = 2
"""``heads_and_guards``' mark (its fourth column) of a type's floor row, beside a head's live (0 or 1)."""
FORGOTTEN_ROW = 3
"""``heads_and_guards``' mark of the row saying the record id's fingerprint was forgotten."""


# Not a budget: a memo of a pure function, shared by every bundle the process serves and sized at import;
# no answer depends on its size (a statement is spelled again when it was let go).
@lru_cache(maxsize=256)
def heads_and_guards(count: int, types: int) -> str:
    """``heads_query(count)`` and, in the same statement, what a commit reads besides before it
    checks its expectations: the floor of each of ``types`` type ids that has one
    (``(type_id, NULL, revision, FLOOR_ROW)``) and, when the record id's fingerprint (the last
    parameter) was forgotten, one ``(NULL, NULL, NULL, FORGOTTEN_ROW)``. One step of SQLite per
    served write instead of three (each statement a lookup in the statement cache, its parameters
    bound, a step and a reset). Each type's floor is its own lookup by rowid: ``type_id IN (...)``
    built an ephemeral table of the ids per commit (~32,000 instructions, 3% of a served create)."""
    floor = f"SELECT type_id, NULL, revision, {FLOOR_ROW} FROM floors WHERE type_id "
    if count + types + 1 <= COMPOUND_TERMS:
        floors = " UNION ALL ".join([f"{floor}= ?"] * types)
    else:  # a batch of more types than a compound select may have terms
        floors = f"{floor}IN ({', '.join('?' * types)})"
    return (f"{heads_query(count)} UNION ALL {floors} "
            f"UNION ALL SELECT NULL, NULL, NULL, {FORGOTTEN_ROW} FROM forgotten WHERE fingerprint = ?")


def latest_rows(type_filter: str, columns: str = "h.subject_id") -> str:
    """``columns`` of every live subject's last row (``h``, its type ``t``), of the types
    ``type_filter`` (a condition on ``type_id``) admits: the newest revisions are found from the
    primary key index alone, then their rows are read. One statement: one snapshot of the file."""
    return (f"SELECT {columns} FROM (SELECT type_id, subject_id, max(revision) AS revision FROM history "
            f"WHERE {type_filter} GROUP BY type_id, subject_id) m "
            "JOIN history h ON h.type_id = m.type_id AND h.subject_id = m.subject_id AND h.revision = m.revision "
            "JOIN types t ON t.type_id = m.type_id WHERE h.state IS NOT NULL")


def named_types(count: int) -> str:
    """A ``latest_rows`` filter for the types of ``count`` bound names, resolved in the same
    statement (not from a cache), so a type created by the commit a snapshot follows is seen with
    the rest of that commit."""
    return f"type_id IN (SELECT type_id FROM types WHERE name IN ({', '.join('?' * count)}))"


def encode_writes(commit: Commit, type_ids: Mapping[str, int]) -> str:
    """A record's committed writes (returned again to an exact retry), each naming its type by id:
    ``[[type_id, subject_id, expected, revision, deleted], ...]``."""
    rows = []
    for w in commit.writes:  # a loop: a comprehension makes a function per commit
        rows.append([type_ids[w.subject_type], w.subject_id, w.expect.number, w.revision, w.deleted])
    return jsonvalue.dumps(rows).decode("utf-8")


def decode_writes(conn: sqlite3.Connection, types: TypeIds, envelope: RecordEnvelope, text: str) -> Commit:
    """``encode_writes`` read back; a record written by format 1 names each type in full."""
    return Commit(envelope, tuple(CommittedWrite(t if type(t) is str else types.name(conn, t), i, Expect(e), r, bool(d))
                                  for t, i, e, r, d in jsonvalue.loads(text)))


def create_or_migrate(conn: sqlite3.Connection, path: str) -> None:
    """Inside the caller's ``BEGIN IMMEDIATE``: create the tables, or migrate a format 1 file."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version == FORMAT_VERSION:
        return
    if version == 1:
        _migrate_from_1(conn, path)
    elif version not in (0, *MIGRATES_FROM):
        raise StoreBackendError(f"SQLite store {path!r} has format {version}; "
                                f"this version reads format {FORMAT_VERSION} (and migrates formats 1 and 2)")
    for statement in SCHEMA:
        conn.execute(statement)
    conn.execute(f"PRAGMA user_version = {FORMAT_VERSION}")


def _migrate_from_1(conn: sqlite3.Connection, path: str) -> None:
    # Format 1 wrote each head to ``subjects`` and ``history`` alike and deleted them together, so
    # history holds every head; a file that disagrees was edited, and is refused rather than guessed.
    missing = conn.execute("SELECT count(*) FROM subjects s WHERE NOT EXISTS (SELECT 1 FROM history h WHERE "
                           "h.subject_type = s.subject_type AND h.subject_id = s.subject_id AND h.revision = "
                           "s.revision AND h.state IS s.state) OR EXISTS (SELECT 1 FROM history h WHERE "
                           "h.subject_type = s.subject_type AND h.subject_id = s.subject_id AND "
                           "h.revision > s.revision)").fetchone()[0]
    missing += conn.execute("SELECT count(*) FROM (SELECT DISTINCT subject_type, subject_id FROM history) h "
                            "WHERE NOT EXISTS (SELECT 1 FROM subjects s WHERE s.subject_type = h.subject_type "
                            "AND s.subject_id = h.subject_id)").fetchone()[0]
    if missing:
        raise StoreBackendError(f"SQLite store {path!r} (format 1) has {missing} subject(s) whose state is not "
                                "their last history entry; it cannot be migrated to format 2")
    conn.execute(SCHEMA[0])
    conn.execute("INSERT INTO types (name) SELECT DISTINCT subject_type FROM history ORDER BY subject_type")
    conn.execute("ALTER TABLE history RENAME TO history_format_1")
    conn.execute(SCHEMA[1])
    conn.execute("INSERT INTO history (type_id, subject_id, revision, record_id, state) "
                 "SELECT t.type_id, h.subject_id, h.revision, h.record_id, h.state FROM history_format_1 h "
                 "JOIN types t ON t.name = h.subject_type ORDER BY h.rowid")
    conn.execute("DROP TABLE history_format_1")
    conn.execute("DROP TABLE subjects")


class TypeIds:
    """Subject type names and the file's ids for them. An id, once committed, never changes and is
    never reused, so what one connection learnt holds for every other, in any process; an id a
    transaction assigns is learnt only after that transaction commits (``learn``)."""

    def __init__(self) -> None:
        self._ids: dict[str, int] = {}
        self._names: dict[int, str] = {}

    def find(self, conn: sqlite3.Connection, name: str) -> int | None:
        """The id of ``name``, or None when the file has never held a subject of that type.
        Outside a write transaction only (it learns what it reads)."""
        found = self._ids.get(name)
        if found is None:
            row = conn.execute("SELECT type_id FROM types WHERE name = ?", (name,)).fetchone()
            if row is not None:
                found = row[0]
                self._learn_one(name, found)
        return found

    def find_all(self, conn: sqlite3.Connection, names: Iterable[str]) -> dict[str, int]:
        return {name: found for name in names if (found := self.find(conn, name)) is not None}

    def find_in_transaction(self, conn: sqlite3.Connection, name: str) -> int | None:
        """``find`` inside a write transaction: learns nothing (an id read there may be one this
        transaction assigned, which a rollback takes back)."""
        found = self._ids.get(name)
        if found is None:
            row = conn.execute("SELECT type_id FROM types WHERE name = ?", (name,)).fetchone()
            found = None if row is None else row[0]
        return found

    def name(self, conn: sqlite3.Connection, type_id: int) -> str:
        found = self._names.get(type_id)
        if found is None:
            found = conn.execute("SELECT name FROM types WHERE type_id = ?", (type_id,)).fetchone()[0]
            self._learn_one(found, type_id)
        return found

    def assigned(self, conn: sqlite3.Connection, keys: Iterable[tuple[str, str]]) -> dict[str, int]:
        """Inside a write transaction: the id of the type of each of ``keys``, adding the types the
        file lacks. Call ``learn`` with the answer once the transaction committed."""
        ids = self._ids
        try:
            known = {}
            for subject_type, _ in keys:  # a loop: a comprehension makes a function per commit
                known[subject_type] = ids[subject_type]  # known: the usual case
            return known
        except KeyError:
            pending: dict[str, int] = {}
            self.assign(conn, [subject_type for subject_type, _ in keys], pending)
            return pending

    def assign(self, conn: sqlite3.Connection, names: Iterable[str], pending: dict[str, int]) -> None:
        """Inside a write transaction: put the id of each of ``names`` in ``pending``, adding the
        types the file lacks. Call ``learn(pending)`` once the transaction committed."""
        for name in names:
            if name in pending:
                continue
            found = self._ids.get(name)
            if found is None:
                row = conn.execute("SELECT type_id FROM types WHERE name = ?", (name,)).fetchone()
                if row is None:
                    row = conn.execute("INSERT INTO types (name) VALUES (?) RETURNING type_id", (name,)).fetchone()
                found = row[0]
            pending[name] = found

    def learn(self, pending: dict[str, int]) -> None:
        for name, type_id in pending.items():
            if name not in self._ids:
                self._learn_one(name, type_id)

    def _learn_one(self, name: str, type_id: int) -> None:
        self._names[type_id] = name
        self._ids[name] = type_id
