"""Served creates per second in process, per store (not collected by pytest; run it by hand):

    .venv/bin/python tests/serving_store/bench_served_writes.py BUNDLE [STORE_URL ...]

Without URLs it measures the runtime's own in-process store (``None``), ``memory:`` and a
temporary SQLite file (plus PostgreSQL when ``CAPENV_TEST_POSTGRES_URL`` is set, in a schema
dropped afterwards). For each it reports:

* creates/s with the collection kept small (a data/reset every 100 creates), and the share of
  each write spent in the executor (``WriteState.decide``) versus the store and the rest;
* creates/s over 2,000 creates in a row from the initial state (the executor's own scans of the
  collection grow with it);
* the cost a read pays for the head check, and the cost of catching up one write another
  process made.
"""

from __future__ import annotations

import os
import secrets
import sys
import tempfile
import time
from pathlib import Path

from capenv.interpreter.bundle.io import read_bundle
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.writes import generator_state

BODY = {"title": "bench", "author": "a", "views": 1, "published": False, "tags": []}


class ExecutorClock:
    """Time spent inside ``WriteState.decide`` (the executor the gate proved)."""

    def __init__(self) -> None:
        self.seconds = 0.0
        original = generator_state.WriteState.decide

        def timed(holder, *args, **kwargs):
            start = time.perf_counter()
            try:
                return original(holder, *args, **kwargs)
            finally:
                self.seconds += time.perf_counter() - start

        generator_state.WriteState.decide = timed


def creates(runtime: EnvironmentRuntime, count: int) -> float:
    start = time.perf_counter()
    for _ in range(count):
        runtime.call_tool("post_posts", {"body": BODY})
    return time.perf_counter() - start


def measure(bundle, url: str | None, clock: ExecutorClock) -> None:
    runtime = EnvironmentRuntime(bundle, store=url)
    spent, executor, count = 0.0, 0.0, 0
    for _ in range(20):
        runtime.data_reset()
        before = clock.seconds
        spent += creates(runtime, 100)
        executor += clock.seconds - before
        count += 100
    runtime.data_reset()
    grown = creates(runtime, 2000)
    label = url or "in-process (private MemoryStore)"
    print(f"{label}\n  small collection: {count / spent:,.0f} creates/s ({spent / count * 1e6:.0f} us each: "
          f"executor {executor / count * 1e6:.0f} us, store and the rest {(spent - executor) / count * 1e6:.0f} us)\n"
          f"  2,000 in a row from the initial state: {2000 / grown:,.0f} creates/s")
    runtime.data_reset()
    reads = 2000
    start = time.perf_counter()
    for _ in range(reads):
        runtime.read("get_posts_by_post_id", {"post_id": "1"})
    read_us = (time.perf_counter() - start) / reads * 1e6
    if url is not None and not url.startswith("memory"):
        other = EnvironmentRuntime(bundle, store=url)
        total = 0.0
        for _ in range(200):
            other.call_tool("post_posts", {"body": BODY})
            start = time.perf_counter()
            runtime.read("get_posts_by_post_id", {"post_id": "1"})
            total += time.perf_counter() - start
        other.close()
        print(f"  item read: {read_us:.0f} us (head check included); after one write elsewhere: "
              f"{total / 200 * 1e6:.0f} us (head, log entry, the changed entity)")
    else:
        print(f"  item read: {read_us:.0f} us")
    runtime.close()


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    bundle = read_bundle(argv[0])
    clock = ExecutorClock()
    urls: list[str | None] = list(argv[1:])
    schema = None
    with tempfile.TemporaryDirectory() as directory:
        if not urls:
            urls = [None, "memory:", f"sqlite:{Path(directory) / 'bench.sqlite'}"]
            postgres = os.environ.get("CAPENV_TEST_POSTGRES_URL")
            if postgres:
                schema = f"capenv_bench_{secrets.token_hex(4)}"
                urls.append(f"{postgres}{'&' if '?' in postgres else '?'}schema={schema}")
        try:
            for url in urls:
                measure(bundle, url, clock)
        finally:
            if schema is not None:
                import psycopg

                with psycopg.connect(os.environ["CAPENV_TEST_POSTGRES_URL"], autocommit=True) as conn:
                    conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
