"""What one SQLite commit costs in statements and rows (``sqlite_schema.py``): one transaction that
reads the heads in one statement, inserts the record, then one history row per subject write (and,
under a bound, the commit's place in the order it forgets by), and nothing else: no read of the
record first, no read-back, no second copy of a state."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest
from store_conformance import T, create, env, update

from capenv.serving.store import SqliteStore


@pytest.fixture
def statements(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every statement the stores opened in the test run (each row of an executemany too)."""
    seen: list[str] = []
    connect = SqliteStore._connect

    def tracing(self: SqliteStore) -> sqlite3.Connection:
        conn = connect(self)
        conn.set_trace_callback(seen.append)
        return conn

    monkeypatch.setattr(SqliteStore, "_connect", tracing)
    return seen


def rows(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        tables = [name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return sum(conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0] for table in tables)
    finally:
        conn.close()


def test_a_commit_is_one_transaction_of_one_heads_read_the_record_and_a_row_per_write(
        tmp_path: Path, statements: list[str]) -> None:
    path = tmp_path / "s.sqlite"
    with SqliteStore(path) as store:
        store.commit(env("r1"), [create("meta", {"n": 0})])
        before, statements[:] = rows(path), []
        store.commit(env("r2"), [create("a", {"n": 1}), update("meta", 1, {"n": 1}), create("log", {}),
                                 create("record", {"request": "x" * 500})])
        verbs = [" ".join(statement.split()[:3]) for statement in statements]
        # The bound's share (``sqlite_forgetting.py``) is read by the heads' statement too: the
        # floors of the batch's types and the record id's fingerprint (``heads_and_guards``); its
        # place in the commit order is written under a bound only.
        assert verbs == ["BEGIN IMMEDIATE", "SELECT * FROM", "INSERT INTO records"] + [
            "INSERT INTO history"] * 4 + ["COMMIT"], statements
        assert "FROM floors" in statements[1] and "FROM forgotten" in statements[1]
        assert rows(path) == before + 5  # four history rows and the record: no copy of a head elsewhere
        statements[:] = []
        assert store.commit(env("r2"), [create("a", {"n": 1}), update("meta", 1, {"n": 1}), create("log", {}),
                                        create("record", {"request": "x" * 500})]).writes[1].revision == 2
        assert not any(statement.startswith("INSERT INTO history") for statement in statements)  # a retry writes nothing
        assert store.load(T, "meta").revision == 2


@pytest.mark.parametrize("count", [1, 4, 7])
def test_a_batch_of_a_given_size_spells_its_heads_read_the_same_way(tmp_path: Path, statements: list[str],
                                                                   count: int) -> None:
    """SQLite's statement cache is keyed by the text: the heads read of a batch depends only on how
    many subjects it names, not on which, so a served write's statements are prepared once."""
    with SqliteStore(tmp_path / "s.sqlite") as store:
        texts = set()
        for n in range(3):
            statements[:] = []
            store.commit(env(f"r{n}"), [create(f"s{n}-{i}", {"i": i}) for i in range(count)])
            heads = [s for s in statements if s.startswith("SELECT * FROM")]
            assert len(heads) == 1
            # the trace shows the bound values: the subjects' ids and the record id's fingerprint
            texts.add(re.sub(r"fingerprint = -?\d+", "fingerprint = ?", heads[0].replace(f"s{n}-", "s-")))
        assert len(texts) == 1


def test_the_heads_read_of_several_types_builds_no_temporary_table(tmp_path: Path, statements: list[str]) -> None:
    """The floors of a batch's types are read one rowid lookup each: ``type_id IN (...)`` made SQLite
    build an ephemeral table of the ids in every commit (3% of a served create's instructions)."""
    with SqliteStore(tmp_path / "s.sqlite") as store:
        store.commit(env("r0"), [create("meta", {"n": 0}, "meta")])
        statements[:] = []
        store.commit(env("r1"), [create("a", {"n": 1}, "entity"), update("meta", 1, {"n": 1}, "meta"),
                                 create("1", {}, "log")])
    heads = next(s for s in statements if s.startswith("SELECT * FROM"))
    conn = sqlite3.connect(tmp_path / "s.sqlite")
    try:
        plan = [row[1] for row in conn.execute(f"EXPLAIN {heads}")]
    finally:
        conn.close()
    assert "OpenEphemeral" not in plan and plan.count("SeekRowid") >= 4  # three types' floors, the fingerprint


def test_a_batch_of_more_types_than_a_compound_select_has_terms_commits(tmp_path: Path) -> None:
    """Read one lookup per type, the floors of 450 types and 100 heads would be 551 terms of one
    compound select, past SQLite's 500: such a batch reads its floors with one ``IN`` list."""
    with SqliteStore(tmp_path / "s.sqlite") as store:
        store.commit(env("r0"), [create("s", {"i": i}, f"type-{i}") for i in range(450)])
        assert store.load("type-449", "s").state == {"i": 449}
        store.commit(env("r1"), [update("s", 1, {"i": -i}, f"type-{i}") for i in range(450)])
        assert store.load("type-7", "s").revision == 2
