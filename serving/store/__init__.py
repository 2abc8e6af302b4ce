"""The state store: JSON subjects at revisions, changed by atomic, recorded, idempotent batches.

See ``contract.py`` for the contract and ``url.py`` for ``open_store``. Providers:
``MemoryStore`` (``memory.py``), ``SqliteStore`` (``sqlite.py``), ``PostgresStore``
(``postgres.py``, imported on first use so psycopg is needed only for PostgreSQL).

May import: the build side's ``bundle`` (the JSON codec) only; it knows subjects and batches,
not what the state means (that is ``serving.state``).
"""

from __future__ import annotations

from typing import Any

from capenv.serving.store.contract import (
    NO_ACTOR,
    Commit,
    CommittedWrite,
    EmptyBatch,
    Expect,
    HistoryEntry,
    NoActor,
    RecordConflict,
    RecordEnvelope,
    RecordForgotten,
    RevisionConflict,
    Store,
    StoreBackendError,
    StoreClosed,
    StoreError,
    StoreUnreachable,
    Stored,
    SubjectWrite,
)
from capenv.serving.store.memory import MemoryStore
from capenv.serving.store.sqlite import SqliteStore
from capenv.serving.store.url import open_store

__all__ = [
    "NO_ACTOR", "Commit", "CommittedWrite", "EmptyBatch", "Expect", "HistoryEntry", "MemoryStore", "NoActor",
    "PostgresStore", "RecordConflict", "RecordEnvelope", "RecordForgotten", "RevisionConflict", "SqliteStore", "Store",
    "StoreBackendError", "StoreClosed", "StoreError", "StoreUnreachable", "Stored", "SubjectWrite", "open_store",
]


def __getattr__(name: str) -> Any:
    if name == "PostgresStore":
        from capenv.serving.store.postgres import PostgresStore

        return PostgresStore
    raise AttributeError(name)
