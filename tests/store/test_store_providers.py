"""Provider-specific promises: a failure late in a commit rolls back all of it (shown with a
trigger installed from a second connection), data survives close and reopen, a closed store
refuses use, and PostgreSQL environments are isolated by schema and survive dropped connections."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from store_conformance import T, create, env, update
from store_support import Provider, drop_schema, race
from support.postgres import postgres_url

from capenv.serving.store import (
    NO_ACTOR,
    Expect,
    RecordConflict,
    RevisionConflict,
    StoreBackendError,
    StoreClosed,
    SqliteStore,
    open_store,
)

TRIGGER_TABLES = ["subjects", "history", "records"]  # the batch writes them in this order
SQLITE_TRIGGER_TABLES = ["history", "records"]  # one row per subject write (sqlite_schema.py), then the record


def assert_doomed_batch_left_nothing(store) -> None:
    loaded = store.load(T, "a")
    assert loaded is not None and (loaded.revision, loaded.state) == (1, {"n": 1})
    assert store.load(T, "fresh") is None and store.load(T, "doomed") is None
    assert store.list_ids(T) == ["a"]
    assert [h.record_id for h in store.history(T, "a")] == ["r1"]
    assert store.history(T, "fresh") == [] and store.history(T, "doomed") == []


DOOMED_BATCH = [update("a", 1, {"n": 2}), create("fresh", {"n": 1}), create("doomed", {"n": 1})]


# -- SQLite -----------------------------------------------------------------------------------


@pytest.mark.parametrize("table", SQLITE_TRIGGER_TABLES)
def test_sqlite_failing_trigger_rolls_back_the_whole_batch(tmp_path: Path, table: str) -> None:
    path = tmp_path / "state.sqlite"
    with SqliteStore(path) as store:
        store.commit(env("r1"), [create("a", {"n": 1})])
        # Installed from a second connection, while the store's own connection stays open.
        other = sqlite3.connect(path)
        condition = "NEW.record_id = 'doomed-record'" if table == "records" else "NEW.subject_id = 'doomed'"
        other.execute(f"CREATE TRIGGER refuse BEFORE INSERT ON {table} WHEN {condition} "
                      "BEGIN SELECT RAISE(ABORT, 'refused by the test trigger'); END")
        other.commit()
        with pytest.raises(StoreBackendError, match="refused by the test trigger"):
            store.commit(env("doomed-record"), DOOMED_BATCH)
        assert_doomed_batch_left_nothing(store)
        assert other.execute("SELECT count(*) FROM records WHERE record_id = 'doomed-record'").fetchone() == (0,)
        assert other.execute("SELECT count(*) FROM history").fetchone() == (1,)
        # The store still works, and the record id was not reserved.
        other.execute("DROP TRIGGER refuse")
        other.commit()
        other.close()
        commit = store.commit(env("doomed-record"), DOOMED_BATCH)
        assert [w.revision for w in commit.writes] == [2, 1, 1]


def test_sqlite_synchronous_level_is_applied(tmp_path: Path) -> None:
    for level, code in [("NORMAL", 1), ("FULL", 2), ("normal", 1)]:
        with SqliteStore(tmp_path / "s.sqlite", synchronous=level) as store:
            with store._pool.connection() as conn:  # the level is per connection
                assert conn.execute("PRAGMA synchronous").fetchone() == (code,)
                assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    with pytest.raises(ValueError, match="synchronous"):
        SqliteStore(tmp_path / "s.sqlite", synchronous="OFF")


def test_sqlite_refuses_a_file_of_another_format(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    with pytest.raises(StoreBackendError, match="format 99"):
        SqliteStore(path)


# -- PostgreSQL -------------------------------------------------------------------------------


@pytest.mark.postgres
@pytest.mark.parametrize("table", TRIGGER_TABLES)
def test_postgres_failing_trigger_rolls_back_the_whole_batch(postgres_provider: Provider, table: str) -> None:
    import psycopg

    schema = postgres_provider.schema
    with postgres_provider.open() as store:
        store.commit(env("r1"), [create("a", {"n": 1})])
        condition = "NEW.record_id = 'doomed-record'" if table == "records" else "NEW.subject_id = 'doomed'"
        with psycopg.connect(store._conninfo, autocommit=True) as other:
            other.execute(f'''
                CREATE FUNCTION "{schema}".refuse() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF {condition} THEN RAISE EXCEPTION 'refused by the test trigger'; END IF;
                    RETURN NEW;
                END $$''')
            other.execute(f'CREATE TRIGGER refuse BEFORE INSERT ON "{schema}".{table} '
                          f'FOR EACH ROW EXECUTE FUNCTION "{schema}".refuse()')
            with pytest.raises(StoreBackendError, match="refused by the test trigger"):
                store.commit(env("doomed-record"), DOOMED_BATCH)
            assert_doomed_batch_left_nothing(store)
            assert other.execute(f'SELECT count(*) FROM "{schema}".records '
                                 "WHERE record_id = 'doomed-record'").fetchone() == (0,)
            assert other.execute(f'SELECT count(*) FROM "{schema}".history').fetchone() == (1,)
            other.execute(f'DROP TRIGGER refuse ON "{schema}".{table}')
        commit = store.commit(env("doomed-record"), DOOMED_BATCH)
        assert [w.revision for w in commit.writes] == [2, 1, 1]


@pytest.mark.postgres
def test_postgres_schemas_isolate_environments(postgres_provider: Provider) -> None:
    url = postgres_url()
    other_schema = f"{postgres_provider.schema}_other"
    try:
        with postgres_provider.open() as first, open_store(f"{url}?schema={other_schema}") as second:
            first.commit(env("r1"), [create("a", {"env": 1})])
            assert second.load(T, "a") is None and second.list_ids(T) == []
            second.commit(env("r1"), [create("a", {"env": 2})])  # record ids are per environment too
            assert first.load(T, "a").state == {"env": 1}
            assert second.load(T, "a").state == {"env": 2}
    finally:
        drop_schema(url, other_schema)


@pytest.mark.postgres
def test_postgres_survives_connections_dropped_by_the_server(postgres_provider: Provider) -> None:
    import psycopg

    with postgres_provider.open() as store:
        store.commit(env("r1"), [create("a", {"n": 1})])
        with psycopg.connect(store._conninfo, autocommit=True) as admin:
            # Ends every other session on the database: the store's pooled connection dies idle.
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                          "WHERE datname = current_database() AND pid <> pg_backend_pid()")
            assert store.load(T, "a").revision == 1  # read again on a fresh connection
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                          "WHERE datname = current_database() AND pid <> pg_backend_pid()")
            assert store.commit(env("r2"), [update("a", 1, {"n": 2})]).writes[0].revision == 2
        assert [h.record_id for h in store.history(T, "a")] == ["r1", "r2"]


@pytest.mark.postgres
def test_postgres_creation_lost_to_a_concurrent_creator_is_a_revision_conflict(postgres_provider: Provider) -> None:
    """The creator's INSERT waits on the other transaction's uncommitted row; once that commits,
    the commit is decided again and refused, naming the winner's revision."""
    import threading
    import time

    import psycopg

    schema = postgres_provider.schema
    with postgres_provider.open() as store, psycopg.connect(store._conninfo) as other:
        other.execute(f'INSERT INTO "{schema}".subjects VALUES (%s, %s, 1, %s)', (T, "a", '{"by": "other"}'))
        outcome: list[object] = []
        thread = threading.Thread(target=lambda: outcome.append(_capture(
            lambda: store.commit(env("mine"), [create("a", {"by": "me"})]))))
        thread.start()
        with psycopg.connect(store._conninfo, autocommit=True) as watcher:
            for _ in range(500):  # until the commit waits on the other transaction's row lock
                waiting = watcher.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                                          "AND datname = current_database()").fetchone()[0]
                if waiting:
                    break
                time.sleep(0.01)
            assert waiting, "the commit never waited for the concurrent creation"
        other.commit()
        thread.join(timeout=30)
        assert len(outcome) == 1 and isinstance(outcome[0], RevisionConflict), outcome
        assert outcome[0].found == 1 and outcome[0].expected == Expect.absent()
        assert store.load(T, "a").state == {"by": "other"}
        assert store.commit(env("mine"), [update("a", 1, {"by": "me"})]).writes[0].revision == 2


def _capture(action):
    try:
        return action()
    except Exception as exc:  # handed back to the test thread
        return exc


@pytest.mark.postgres
def test_postgres_opening_one_new_schema_from_many_threads_at_once(postgres_provider: Provider) -> None:
    results = race(6, lambda i: postgres_provider.open())
    try:
        assert all(not isinstance(r, Exception) for r in results), results
    finally:
        for handle in results:
            if not isinstance(handle, Exception):
                handle.close()


# -- every durable provider -------------------------------------------------------------------


def test_reopen_after_close_keeps_everything(durable_provider: Provider) -> None:
    with durable_provider.open() as store:
        first = store.commit(env("r1", actor="alice"), [create("a", {"n": 1}), create("b", {"n": 1})])
        store.commit(env("r2", correlation_id="c"), [update("a", 1, {"n": 2}), update("b", 1, {"n": 2})])
        store.commit(env("r3"), [update("b", 2, None)])
        before = (store.snapshot(), store.history(T, "a"), store.history(T, "b"), store.list_ids(T))
    with pytest.raises(StoreClosed):
        store.load(T, "a")
    with pytest.raises(StoreClosed):
        store.commit(env("r4"), [create("c", {})])
    store.close()  # closing twice is harmless
    with durable_provider.open() as reopened:
        assert (reopened.snapshot(), reopened.history(T, "a"), reopened.history(T, "b"),
                reopened.list_ids(T)) == before
        assert reopened.history(T, "a")[0].actor == "alice" and reopened.history(T, "b")[-1].actor is NO_ACTOR
        # Record ids survive too: the exact retry returns the original, a changed one conflicts.
        assert reopened.commit(env("r1", actor="alice"), [create("a", {"n": 1}), create("b", {"n": 1})]) == first
        with pytest.raises(RecordConflict):
            reopened.commit(env("r1", actor="bob"), [create("a", {"n": 1})])
        assert reopened.commit(env("r5"), [create("b", {"n": "back"})]).writes[0].revision == 4


def test_memory_store_refuses_use_after_close(memory_provider: Provider) -> None:
    store = memory_provider.open()
    store.close()
    with pytest.raises(StoreClosed):
        store.list_ids(T)


def test_a_large_batch_commits_and_rolls_back_as_one(store) -> None:
    # data/add installs a whole state document as one batch: thousands of subjects at once.
    count = 3000
    commit = store.commit(env("bulk"), [create(f"id-{i:05}", {"i": i}) for i in range(count)])
    assert len(commit.writes) == count and store.list_ids(T)[:2] == ["id-00000", "id-00001"]
    with pytest.raises(RevisionConflict):
        store.commit(env("bulk-2"), [update(f"id-{i:05}", 1, {"i": -i}) for i in range(count)]
                     + [create("id-00000", {})])
    assert len(store.snapshot([T])[T]) == count
    assert all(s.revision == 1 for s in store.snapshot([T])[T].values())
