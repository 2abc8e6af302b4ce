"""Replacing whole subject types (``store/replace.py``, what data/reset and data/add install):
every provider that replaces (memory, SQLite, PostgreSQL) against the contract; an SQLite replace
killed with SIGKILL part-way leaves the file as it was before or after, never between; a
PostgreSQL replace held open part-way is unseen by readers and holds other commits back."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest
from store_support import Provider

from capenv.serving.store import (
    Expect, RecordConflict, RecordEnvelope, RevisionConflict, Store, SubjectWrite, open_store,
)
from capenv.serving.store.replace import StaleRevision, prepare_replace

A, B, OTHER = "env/a", "env/b", "other/x"


@pytest.fixture
def store(provider: Provider) -> Store:
    opened = provider.open()
    yield opened
    opened.close()


def env(record_id: str) -> RecordEnvelope:
    return RecordEnvelope(record_id, "2026-03-01T12:00:00Z", "test")


def seeded(store: Store) -> None:
    store.commit(env("seed-1"), [SubjectWrite(A, "1", Expect.absent(), {"n": 1}),
                                 SubjectWrite(A, "2", Expect.absent(), {"n": 2}),
                                 SubjectWrite(OTHER, "1", Expect.absent(), {"kept": True})])
    store.commit(env("seed-2"), [SubjectWrite(A, "1", Expect.revision(1), {"n": 10}),
                                 SubjectWrite(A, "2", Expect.revision(1), None),  # a tombstone
                                 SubjectWrite(B, "m", Expect.absent(), {"meta": 1})])


def everything(store: Store, subject_type: str) -> dict[str, tuple[int, dict]]:
    return {i: (s.revision, s.state) for i, s in store.snapshot([subject_type]).get(subject_type, {}).items()}


def test_a_replace_makes_its_types_hold_exactly_the_new_states_at_one_revision(store: Store) -> None:
    seeded(store)
    prepared = prepare_replace(env("replace-1"), [A, B], {(A, "3"): {"n": 3}, (A, "1"): {"n": 1}})
    committed = store.commit_replace(prepared, {(B, "m"): Expect.revision(1)}, 5, {(B, "m"): {"meta": 2}})
    assert committed.revision == 5 and committed.record_id == "replace-1"
    assert everything(store, A) == {"1": (5, {"n": 1}), "3": (5, {"n": 3})}
    assert everything(store, B) == {"m": (5, {"meta": 2})}
    assert everything(store, OTHER) == {"1": (1, {"kept": True})}  # another type: untouched
    assert [(h.revision, h.record_id, h.state) for h in store.history(A, "1")] == [(5, "replace-1", {"n": 1})]
    assert store.history(A, "2") == []  # the tombstone is forgotten whole
    assert store.history(OTHER, "1")[0].record_id == "seed-1"  # a record still named is kept
    # seed-2 is named by no history entry any more: forgotten, so its id is free again.
    store.commit(env("seed-2"), [SubjectWrite(A, "2", Expect.absent(), {"n": 2})])
    assert store.load(A, "2").revision == 1


def test_a_replace_refused_changes_nothing(store: Store) -> None:
    seeded(store)
    before = {t: everything(store, t) for t in (A, B, OTHER)}
    stale = prepare_replace(env("replace-stale"), [A, B], {(A, "9"): {"n": 9}})
    with pytest.raises(RevisionConflict) as conflict:
        store.commit_replace(stale, {(B, "m"): Expect.revision(7)}, 5)
    assert conflict.value.found == 1
    with pytest.raises(StaleRevision) as low:  # not above the revision B/m holds (A/1 is at 2)
        store.commit_replace(stale, {(B, "m"): Expect.revision(1)}, 2)
    assert low.value.held == 2
    assert {t: everything(store, t) for t in (A, B, OTHER)} == before
    # Neither refusal kept the record id: the same replace commits afterwards.
    assert store.commit_replace(stale, {(B, "m"): Expect.revision(1)}, 3).revision == 3


def test_an_exact_retry_of_a_replace_answers_the_original_and_other_bytes_conflict(store: Store) -> None:
    seeded(store)
    prepared = prepare_replace(env("replace-1"), [A], {(A, "1"): {"n": 1}})
    first = store.commit_replace(prepared, {}, 4)
    store.commit(env("after"), [SubjectWrite(A, "1", Expect.revision(4), {"n": 11})])
    assert store.commit_replace(prepared, {}, 9).revision == first.revision == 4  # the original commit
    assert store.load(A, "1").state == {"n": 11}  # and nothing written again
    other = prepare_replace(env("replace-1"), [A], {(A, "1"): {"n": 2}})
    with pytest.raises(RecordConflict):
        store.commit_replace(other, {}, 9)


def test_a_replace_refuses_rows_outside_its_types_and_bad_states() -> None:
    with pytest.raises(ValueError, match="not of a type"):
        prepare_replace(env("r"), [A], {(B, "1"): {}})
    with pytest.raises(TypeError):
        prepare_replace(env("r"), [A], {(A, "1"): ["not", "an", "object"]})
    with pytest.raises(ValueError, match="non-finite"):
        prepare_replace(env("r"), [A], {(A, "1"): {"x": float("nan")}})


@pytest.mark.parametrize("other_rows", [False, True])
def test_an_sqlite_replace_of_every_held_type_clears_the_file_and_one_of_some_keeps_the_rest(
        tmp_path: Path, other_rows: bool) -> None:
    """The replace clears the history table whole when only its types have rows there (the other
    type's rows deleted, or never written), and by type otherwise: either way its types hold
    exactly the new states and every other type's rows stay."""
    store = open_store(f"sqlite:{tmp_path / 'replace.sqlite'}")
    try:
        seeded(store)
        if not other_rows:
            store.commit(env("drop-other"), [SubjectWrite(OTHER, "1", Expect.revision(1), None)])
            store.compact([OTHER])  # its tombstone forgotten: a type the file names, with no rows
        prepared = prepare_replace(env("replace-1"), [A, B], {(A, "3"): {"n": 3}, (B, "m"): {"meta": 2}})
        store.commit_replace(prepared, {(B, "m"): Expect.revision(1)}, 5)
        assert everything(store, A) == {"3": (5, {"n": 3})}
        assert everything(store, B) == {"m": (5, {"meta": 2})}
        assert everything(store, OTHER) == ({"1": (1, {"kept": True})} if other_rows else {})
        assert store.history(A, "1") == [] and store.history(A, "2") == []
        assert [h.record_id for h in store.history(OTHER, "1")] == (["seed-1"] if other_rows else [])
        prepared = prepare_replace(env("replace-2"), [A, B], {(A, "4"): {"n": 4}})
        store.commit_replace(prepared, {}, 6)  # again over the replaced rows
        assert everything(store, A) == {"4": (6, {"n": 4})} and everything(store, B) == {}
        assert everything(store, OTHER) == ({"1": (1, {"kept": True})} if other_rows else {})
    finally:
        store.close()


_KILLED = textwrap.dedent("""
    import sys
    from capenv.serving.store import RecordEnvelope, open_store
    from capenv.serving.store.replace import prepare_replace
    store = open_store("sqlite:" + sys.argv[1])
    states = [{("env/a", f"{i:05d}"): {"gen": gen, "pad": "x" * 300} for i in range(4000)} for gen in range(2)]
    revision = 1
    while True:
        for gen in range(2):
            revision += 1
            prepared = prepare_replace(RecordEnvelope(f"r-{revision}", "2026-03-01T12:00:00Z", "t"), ["env/a"],
                                       states[gen])
            store.commit_replace(prepared, {}, revision)
            print(revision, flush=True)
""")


def test_an_sqlite_replace_killed_part_way_leaves_the_state_before_or_after(tmp_path: Path) -> None:
    path = tmp_path / "killed.sqlite"
    child = subprocess.Popen([sys.executable, "-c", _KILLED, str(path)], stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert child.stdout is not None
        for _ in range(3):  # a few replaces committed: the next one is the one killed, at some point
            assert child.stdout.readline().strip()
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    store = open_store(f"sqlite:{path}")
    try:
        held = store.snapshot(["env/a"])["env/a"]
        revisions = {s.revision for s in held.values()}
        generations = {s.state["gen"] for s in held.values()}
        assert len(held) == 4000 and len(revisions) == 1 and len(generations) == 1  # one whole replace
        revision = revisions.pop()
        history = store.history("env/a", "00000")
        assert [(h.revision, h.record_id) for h in history] == [(revision, f"r-{revision}")]
        assert generations.pop() == revision % 2  # the state that replace wrote
    finally:
        store.close()


def test_a_staged_replace_changes_nothing_until_committed_and_writes_continue_after_it(store: Store) -> None:
    seeded(store)
    staged = store.stage_replace(prepare_replace(env("replace-1"), [A], {(A, "1"): {"n": 1}, (A, "5"): {"n": 5}}))
    assert everything(store, A) == {"1": (2, {"n": 10})}  # staged only
    store.commit(env("between"), [SubjectWrite(A, "1", Expect.revision(2), {"n": 20})])
    store.commit_replace(staged, {}, 7, {(A, "6"): {"n": 6}})
    assert everything(store, A) == {"1": (7, {"n": 1}), "5": (7, {"n": 5}), "6": (7, {"n": 6})}
    store.commit(env("after"), [SubjectWrite(A, "5", Expect.revision(7), {"n": 50}),
                                SubjectWrite(A, "6", Expect.revision(7), None)])
    assert [(h.revision, h.record_id) for h in store.history(A, "5")] == [(7, "replace-1"), (8, "after")]
    assert store.revision(A, "5") == 8 and store.revision(A, "6") is None and store.list_ids(A) == ["1", "5"]
    store.compact([A])
    assert [(h.revision, h.record_id) for h in store.history(A, "1")] == [(7, "replace-1")]
    assert [(h.revision, h.record_id) for h in store.history(A, "5")] == [(8, "after")]
    # A/1's one entry still names the replace, so compacting kept its record: a retry answers it
    assert store.commit_replace(staged, {}, 7, {(A, "6"): {"n": 6}}).revision == 7
    with pytest.raises(StaleRevision):  # A/5 is at 8 now
        store.commit_replace(prepare_replace(env("replace-2"), [A], {}), {}, 8)
    store.commit_replace(prepare_replace(env("replace-2"), [A], {}), {}, 9)
    assert everything(store, A) == {} and store.list_ids(A) == []


WAIT = 60  # seconds a guard waits before the test fails (a hang, not a timing)


def _waiting_on_lock(url: str, statement: str) -> bool:
    """Whether a backend waits for a lock while running ``statement`` (its text's start)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        return conn.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                            "AND query LIKE %s", (statement + "%",)).fetchone()[0] > 0


def _wait_until(condition, what: str) -> None:
    done = threading.Event()
    for _ in range(WAIT * 20):
        if condition():
            return
        done.wait(0.05)
    raise AssertionError(f"never happened: {what}")


@pytest.mark.postgres
def test_a_postgresql_replace_held_open_is_unseen_by_readers_and_holds_other_commits_back(
        postgres_provider: Provider) -> None:
    import psycopg

    from support.postgres import postgres_url

    url = postgres_url()
    store, reader, writer = (postgres_provider.open() for _ in range(3))
    outcomes: dict[str, object] = {}
    try:
        seeded(store)
        before = {t: everything(reader, t) for t in (A, B, OTHER)}
        prepared = prepare_replace(env("replace-held"), [A, B], {(A, "7"): {"n": 7}})
        with psycopg.connect(url, autocommit=True) as holder:
            with holder.transaction():  # the replace's last step (forgetting records) waits here
                holder.execute(f'LOCK TABLE "{postgres_provider.schema}".records IN EXCLUSIVE MODE')
                replacing = threading.Thread(target=lambda: outcomes.update(
                    replace=store.commit_replace(prepared, {(B, "m"): Expect.revision(1)}, 5)))
                replacing.start()
                _wait_until(lambda: _waiting_on_lock(url, "DELETE FROM"), "the replace reached its last step")
                assert {t: everything(reader, t) for t in (A, B, OTHER)} == before  # old rows deleted, unseen
                assert [h.record_id for h in reader.history(A, "1")] == ["seed-1", "seed-2"]

                def write() -> None:
                    try:
                        writer.commit(env("meanwhile"), [SubjectWrite(A, "1", Expect.revision(2), {"n": 99})])
                    except RevisionConflict as conflict:
                        outcomes["write"] = conflict
                writing = threading.Thread(target=write)
                writing.start()
                _wait_until(lambda: _waiting_on_lock(url, "SELECT subject_type"), "the write waits for the replace")
                assert "write" not in outcomes
        replacing.join(WAIT)
        writing.join(WAIT)
        assert outcomes["replace"].revision == 5
        assert isinstance(outcomes["write"], RevisionConflict) and outcomes["write"].found is None  # A/1 is gone
        assert everything(reader, A) == {"7": (5, {"n": 7})} and everything(reader, B) == {}
        assert everything(reader, OTHER) == before[OTHER]
    finally:
        for opened in (store, reader, writer):
            opened.close()
