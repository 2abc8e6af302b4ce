"""Concurrent writers: threads sharing one store handle, and separate processes sharing one SQLite
file or one PostgreSQL schema. Racing creations and updates leave exactly one winner; identical
retries make one commit; read-decide-commit loops over two subjects lose no update and do not
deadlock when the subjects are listed in opposite orders."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from store_support import Provider, race

from capenv.serving.store import (
    NO_ACTOR,
    Commit,
    Expect,
    RecordEnvelope,
    RevisionConflict,
    Store,
    SubjectWrite,
    open_store,
)

WORKERS = 8
AT = "2026-03-01T12:00:00Z"
WORKER_SCRIPT = Path(__file__).with_name("store_race_worker.py")


def create_x(store: Store, record_id: str) -> Commit:
    return store.commit(RecordEnvelope(record_id, AT, NO_ACTOR), [SubjectWrite("race", "x", Expect.absent(),
                                                                               {"by": record_id})])


# -- threads ----------------------------------------------------------------------------------


def test_threads_racing_to_create_leave_one_winner(store: Store) -> None:
    results = race(WORKERS, lambda i: create_x(store, f"t-{i}"))
    winners = [r for r in results if isinstance(r, Commit)]
    losers = [r for r in results if isinstance(r, RevisionConflict)]
    assert len(winners) == 1 and len(losers) == WORKERS - 1, results
    assert all(c.found == 1 for c in losers)
    loaded = store.load("race", "x")
    assert loaded is not None and loaded.revision == 1 and loaded.state == {"by": winners[0].record_id}
    assert len(store.history("race", "x")) == 1


def test_threads_racing_to_update_leave_one_winner(store: Store) -> None:
    create_x(store, "seed")

    def update(i: int) -> Commit:
        return store.commit(RecordEnvelope(f"u-{i}", AT, NO_ACTOR),
                            [SubjectWrite("race", "x", Expect.revision(1), {"by": f"u-{i}"})])

    results = race(WORKERS, update)
    winners = [r for r in results if isinstance(r, Commit)]
    assert len(winners) == 1 and sum(isinstance(r, RevisionConflict) for r in results) == WORKERS - 1, results
    loaded = store.load("race", "x")
    assert loaded is not None and loaded.revision == 2 and loaded.state == {"by": winners[0].record_id}


def test_threads_sending_one_request_make_one_commit(store: Store) -> None:
    results = race(WORKERS, lambda i: create_x(store, "same-request"))
    assert all(isinstance(r, Commit) for r in results), results
    assert all(r == results[0] for r in results)
    assert [h.record_id for h in store.history("race", "x")] == ["same-request"]


def test_threads_incrementing_two_subjects_lose_no_update(store: Store) -> None:
    per_worker = 15
    store.commit(RecordEnvelope("seed", AT, NO_ACTOR), [SubjectWrite("counter", i, Expect.absent(), {"n": 0})
                                                        for i in ("a", "b")])

    def increment(worker: int) -> None:
        order = ["a", "b"] if worker % 2 == 0 else ["b", "a"]
        done = 0
        while done < per_worker:
            loaded = {i: store.load("counter", i) for i in order}
            writes = [SubjectWrite("counter", i, Expect.revision(loaded[i].revision),
                                   {"n": loaded[i].state["n"] + 1}) for i in order]
            try:
                store.commit(RecordEnvelope(f"w{worker}-{done}", AT, NO_ACTOR), writes)
            except RevisionConflict:
                continue
            done += 1

    results = race(4, increment)
    assert results == [None] * 4
    for subject_id in ("a", "b"):
        loaded = store.load("counter", subject_id)
        assert loaded is not None and loaded.state == {"n": 4 * per_worker} and loaded.revision == 4 * per_worker + 1


# -- processes --------------------------------------------------------------------------------


def run_workers(url: str, tmp_path: Path, mode: str, record_ids: list[str], *extra: str) -> list[dict[str, Any]]:
    """Start one worker process per record id, release them together, collect their outcomes."""
    go_file = tmp_path / f"go-{mode}"
    procs = [subprocess.Popen([sys.executable, str(WORKER_SCRIPT), url, str(go_file), mode, rid, *extra],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for rid in record_ids]
    try:
        for proc in procs:
            assert proc.stdout is not None
            line = proc.stdout.readline()
            if line.strip() != "ready":
                raise AssertionError(f"worker did not start: {line!r} {proc.communicate()[1]}")
        go_file.touch()
        outcomes = []
        for proc in procs:
            out, err = proc.communicate(timeout=180)
            assert proc.returncode == 0, err
            outcomes.append(json.loads(out.strip().splitlines()[-1]))
        return outcomes
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


@pytest.mark.slow
def test_processes_racing_to_create_leave_one_winner(durable_provider: Provider, tmp_path: Path) -> None:
    # The workers also race to create the file or schema itself: nothing is opened beforehand.
    outcomes = run_workers(durable_provider.url, tmp_path, "create", [f"p-{i}" for i in range(WORKERS)])
    assert sorted(o["outcome"] for o in outcomes) == ["committed"] + ["conflict"] * (WORKERS - 1), outcomes
    assert all(o["found"] == 1 for o in outcomes if o["outcome"] == "conflict")
    with durable_provider.open() as store:
        assert [h.revision for h in store.history("race", "x")] == [1]


@pytest.mark.slow
def test_processes_racing_to_update_leave_one_winner(durable_provider: Provider, tmp_path: Path) -> None:
    with durable_provider.open() as store:
        create_x(store, "seed")
    outcomes = run_workers(durable_provider.url, tmp_path, "update", [f"p-{i}" for i in range(WORKERS)])
    assert sorted(o["outcome"] for o in outcomes) == ["committed"] + ["conflict"] * (WORKERS - 1), outcomes
    with durable_provider.open() as store:
        loaded = store.load("race", "x")
        assert loaded is not None and loaded.revision == 2 and loaded.state["by"].startswith("p-")


@pytest.mark.slow
def test_processes_sending_one_request_make_one_commit(durable_provider: Provider, tmp_path: Path) -> None:
    outcomes = run_workers(durable_provider.url, tmp_path, "retry", ["same-request"] * WORKERS)
    assert outcomes == [{"outcome": "committed", "revisions": [1, 1]}] * WORKERS
    with durable_provider.open() as store:
        assert [h.record_id for h in store.history("race", "x")] == ["same-request"]
        assert [h.record_id for h in store.history("race", "y")] == ["same-request"]


@pytest.mark.slow
def test_processes_incrementing_two_subjects_lose_no_update(durable_provider: Provider, tmp_path: Path) -> None:
    per_worker, workers = 20, 4
    with durable_provider.open() as store:
        store.commit(RecordEnvelope("seed", AT, NO_ACTOR), [SubjectWrite("counter", i, Expect.absent(), {"n": 0})
                                                            for i in ("a", "b")])
    outcomes = run_workers(durable_provider.url, tmp_path, "increment", [f"w-{i}" for i in range(workers)],
                           str(per_worker))
    assert all(o["outcome"] == "done" for o in outcomes)
    with open_store(durable_provider.url) as store:
        for subject_id in ("a", "b"):
            loaded = store.load("counter", subject_id)
            assert loaded is not None and loaded.state == {"n": workers * per_worker}
            assert loaded.revision == workers * per_worker + 1
