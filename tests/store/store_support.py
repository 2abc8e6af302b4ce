"""Helpers shared by the store tests: the provider handle the fixtures build, dropping a
PostgreSQL test schema, and a thread race (the test server's URL: ``support.postgres``)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from capenv.serving.store import Store


@dataclass
class Provider:
    """One backing store; ``open()`` gives a new handle on it (a second process would use ``url``)."""

    name: str
    open: Callable[[], Store]
    url: str  # an open_store URL naming the same backend (memory: names a new, empty store)
    schema: str | None = None






def drop_schema(url: str, schema: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def race(count: int, action: Callable[[int], Any]) -> list[Any]:
    """Run ``action(i)`` in ``count`` threads released together; each result or exception."""
    barrier = threading.Barrier(count)
    results: list[Any] = [None] * count

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = action(i)
        except Exception as exc:  # collected and inspected by the test
            results[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return results
