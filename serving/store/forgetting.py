"""What the SQL providers keep of a commit the bound forgot (``Store.bound_records``; the budget
``store_commits``), in the same terms as the memory store (``memory_records.py``).

Each commit is numbered in a ``commit_order`` table; a commit that takes the table past the bound
forgets the oldest, in its own transaction (so a crash keeps both or neither). Forgetting a commit
deletes its history rows that are no subject's head (and a head tombstone, or a subject of a
journal type, whole: a later creation of a tombstone's id continues above its revision, kept in
``floors``). Its record row goes too, and its record id is kept as a 64-bit **fingerprint**, so a
retry is refused (``RecordForgotten``), never committed again as a new request; while a head row
still names the commit (history entries carry their commit's envelope), the record row stays,
its digest replaced by ``FORGOTTEN`` (a retry is refused the same way), until that head moves on
and the bound forgets the commit that moved it.

A fingerprint remembers the types its commit wrote (its *stamp*, as the memory store's): a replace
or a compaction of all of them forgets it, as it forgets the records of the state it replaced.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any

from capenv.interpreter.bundle import jsonvalue

FORGOTTEN = b""
"""A record's digest once its commit was forgotten but a head row still names it (a real digest
is a sha256: never empty)."""

BUDGET = "store_commits"


def fingerprint(record_id: str) -> int:
    """The record id's 64-bit fingerprint, the same in every process (a signed integer: SQLite's
    and PostgreSQL's ``bigint``). Two ids sharing one only make the later one refused: never a
    retry run twice."""
    return int.from_bytes(hashlib.sha256(record_id.encode("utf-8")).digest()[:8], "big", signed=True)


def written(writes_json: str) -> dict[tuple[Any, str], int]:
    """A record's committed writes (``[[type, subject_id, expected, revision, deleted], ...]``):
    each subject with the highest revision the commit gave it. A replace's record lists none."""
    subjects: dict[tuple[Any, str], int] = {}
    for subject_type, subject_id, _, revision, _ in jsonvalue.loads(writes_json):
        key = (subject_type, subject_id)
        subjects[key] = max(revision, subjects.get(key, 0))
    return subjects


def stamp(types: Iterable[Any]) -> list[Any]:
    """The types a commit wrote, sorted: what a replace must cover to forget its fingerprint."""
    return sorted(set(types))


def covered(stamped: Iterable[Any], replaced: set[Any]) -> bool:
    """Whether a replace (or compaction) of ``replaced`` forgets a fingerprint of this stamp:
    every type its commit wrote is replaced (the memory store drops a stamp's group then)."""
    return all(t in replaced for t in stamped)
