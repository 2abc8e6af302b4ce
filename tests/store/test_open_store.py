"""open_store: each accepted URL form opens the right provider; anything else is a clear ValueError;
an unreachable backend is StoreUnreachable, never an empty store."""

from __future__ import annotations

import secrets
import sqlite3
from pathlib import Path

import pytest
from store_support import drop_schema
from support.postgres import postgres_url

from capenv.serving.store import MemoryStore, SqliteStore, StoreUnreachable, open_store


@pytest.mark.parametrize("url", ["memory:", "memory://", "MEMORY:"])
def test_memory_forms(url: str) -> None:
    with open_store(url) as store:
        assert isinstance(store, MemoryStore)


def test_sqlite_forms(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    absolute = tmp_path / "abs.sqlite"
    for url in [f"sqlite:{absolute}", f"sqlite://{absolute}"]:
        with open_store(url) as store:
            assert isinstance(store, SqliteStore) and store.path == str(absolute)
            assert store.synchronous == "NORMAL"
    monkeypatch.chdir(tmp_path)
    with open_store("sqlite:relative.sqlite?synchronous=FULL") as store:
        assert store.path == "relative.sqlite" and store.synchronous == "FULL"
    assert (tmp_path / "relative.sqlite").exists()
    with open_store("sqlite:relative.sqlite", synchronous="full") as store:
        assert store.synchronous == "FULL"
    with open_store("sqlite:with%20space.sqlite") as store:
        assert store.path == "with space.sqlite"


@pytest.mark.parametrize("url, why", [
    ("", "no scheme"),
    ("state.sqlite", "no scheme"),
    ("mysql://localhost/db", "unknown scheme 'mysql'"),
    ("memory:extra", "memory: takes nothing"),
    ("sqlite:", "needs a file path"),
    ("sqlite://host/path.sqlite", "absolute path"),
    ("sqlite:x.sqlite?synchronous=NORMAL&synchronous=FULL", "more than once"),
    ("sqlite:x.sqlite?journal=wal", "unknown option 'journal'"),
])
def test_unaccepted_urls_name_the_accepted_forms(url: str, why: str) -> None:
    with pytest.raises(ValueError) as caught:
        open_store(url)
    assert why in str(caught.value)
    assert "accepted forms: memory:, sqlite:PATH" in str(caught.value) and "postgresql://" in str(caught.value)


def test_options_that_do_not_apply_or_disagree_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="synchronous must be one of NORMAL, FULL"):
        open_store(f"sqlite:{tmp_path}/x.sqlite?synchronous=OFF")
    with pytest.raises(ValueError, match="'NORMAL' in the store URL but 'FULL'"):
        open_store(f"sqlite:{tmp_path}/x.sqlite?synchronous=NORMAL", synchronous="FULL")
    with pytest.raises(ValueError, match="schema= does not apply"):
        open_store(f"sqlite:{tmp_path}/x.sqlite", schema="s")
    with pytest.raises(ValueError, match="schema= does not apply"):
        open_store("memory:", schema="s")
    with pytest.raises(ValueError, match="synchronous= does not apply"):
        open_store("postgresql://127.0.0.1:1/db", synchronous="FULL")
    with pytest.raises(ValueError, match="schema is 'a' in the store URL but 'b'"):
        open_store("postgresql://127.0.0.1:1/db?schema=a", schema="b")
    with pytest.raises(ValueError, match="schema must match"):
        open_store("postgresql://127.0.0.1:1/db?schema=Bad-Name")


def test_unreachable_backends_are_not_empty_stores(tmp_path: Path) -> None:
    with pytest.raises(StoreUnreachable):
        open_store(f"sqlite:{tmp_path}/missing/dir/x.sqlite")
    for scheme in ("postgresql", "postgres"):
        with pytest.raises(StoreUnreachable, match="cannot reach the PostgreSQL store"):
            open_store(f"{scheme}://nobody@127.0.0.1:1/db?connect_timeout=2")


@pytest.mark.postgres
@pytest.mark.parametrize("scheme", ["postgresql", "postgres"])
def test_postgres_forms(scheme: str) -> None:
    url = postgres_url()
    schema = f"capenv_test_{secrets.token_hex(6)}"
    rewritten = scheme + url[url.index(":"):]
    separator = "&" if "?" in url else "?"
    try:
        with open_store(f"{rewritten}{separator}schema={schema}&application_name=capenv-test") as store:
            assert store.schema == schema
        with open_store(rewritten, schema=schema) as store:
            assert store.schema == schema
    finally:
        drop_schema(url, schema)


class _LockedAtFirst:
    """A connection whose first switches to WAL meet another process's lock, as a fresh file
    opened by several processes at once does (SQLite answers them without its busy handler)."""

    def __init__(self, conn: object, refusals: int) -> None:
        self._conn = conn
        self._refusals = refusals

    def execute(self, sql: str, *args: object) -> object:
        if sql.startswith("PRAGMA journal_mode") and self._refusals:
            self._refusals -= 1
            raise sqlite3.OperationalError("database is locked")
        return self._conn.execute(sql, *args)  # type: ignore[attr-defined]

    def __getattr__(self, name: str) -> object:
        return getattr(self._conn, name)


def test_sqlite_waits_out_a_racing_opener(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    connect = SqliteStore._connect
    monkeypatch.setattr(SqliteStore, "_connect", lambda self: _LockedAtFirst(connect(self), 3))
    with SqliteStore(tmp_path / "raced.sqlite", busy_timeout=5) as store:
        assert store.path.endswith("raced.sqlite")


def test_sqlite_gives_up_on_a_lock_past_the_busy_timeout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    connect = SqliteStore._connect
    monkeypatch.setattr(SqliteStore, "_connect", lambda self: _LockedAtFirst(connect(self), 10**6))
    with pytest.raises(StoreUnreachable, match="locked"):
        SqliteStore(tmp_path / "held.sqlite", busy_timeout=0.05)
