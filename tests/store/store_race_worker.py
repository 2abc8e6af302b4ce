"""A worker process for the cross-process race tests.

    python store_race_worker.py URL GO_FILE MODE RECORD_ID

Opens the store, prints ``ready``, waits until GO_FILE exists (so every worker starts its commit
at the same moment), runs one commit and prints one JSON line describing the outcome.
Modes: ``create`` (create race/x), ``update`` (update race/x from revision 1), ``retry`` (a
request identical in every worker), ``increment`` (COUNT read-decide-commit increments of a
counter spread over two subjects, retrying on conflict).
"""

from __future__ import annotations

import json
import os
import sys
import time

from capenv.serving.store import (
    NO_ACTOR,
    Expect,
    RecordEnvelope,
    RevisionConflict,
    SubjectWrite,
    open_store,
)

AT = "2026-03-01T12:00:00Z"


def main() -> None:
    url, go_file, mode, record_id = sys.argv[1:5]
    store = open_store(url)
    print("ready", flush=True)
    while not os.path.exists(go_file):
        time.sleep(0.001)
    try:
        if mode == "increment":
            print(json.dumps({"outcome": "done", "conflicts": increment(store, record_id, int(sys.argv[5]))}))
            return
        if mode == "create":
            writes = [SubjectWrite("race", "x", Expect.absent(), {"by": record_id})]
        elif mode == "update":
            writes = [SubjectWrite("race", "x", Expect.revision(1), {"by": record_id})]
        elif mode == "retry":
            writes = [SubjectWrite("race", "x", Expect.absent(), {"by": "everyone"}),
                      SubjectWrite("race", "y", Expect.absent(), {"by": "everyone"})]
        else:
            raise SystemExit(f"unknown mode {mode}")
        try:
            commit = store.commit(RecordEnvelope(record_id, AT, NO_ACTOR), writes)
        except RevisionConflict as conflict:
            print(json.dumps({"outcome": "conflict", "found": conflict.found}))
        else:
            print(json.dumps({"outcome": "committed", "revisions": [w.revision for w in commit.writes]}))
    finally:
        store.close()


def increment(store, worker: str, count: int) -> int:
    """Add 1 to counter/a and counter/b ``count`` times, each time as one batch decided on the
    revisions just read; the batch lists the subjects in an order that depends on the worker, so
    two workers lock them in opposite orders."""
    conflicts = 0
    order = ["a", "b"] if int(worker.rsplit("-", 1)[-1]) % 2 == 0 else ["b", "a"]
    done = 0
    while done < count:
        loaded = {i: store.load("counter", i) for i in order}
        writes = [SubjectWrite("counter", i, Expect.revision(loaded[i].revision), {"n": loaded[i].state["n"] + 1})
                  for i in order]
        try:
            store.commit(RecordEnvelope(f"{worker}-{done}", AT, worker), writes)
        except RevisionConflict:
            conflicts += 1
            continue
        done += 1
    return conflicts


if __name__ == "__main__":
    main()
