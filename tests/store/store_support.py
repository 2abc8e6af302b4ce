"""Helpers shared by the store tests: the provider handle the fixtures build, the PostgreSQL test
server, and a thread race."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from capenv.serving.store import Store


@dataclass
class Provider:
    """One backing store; ``open()`` gives a new handle on it (a second process would use ``url``)."""

    name: str
    open: Callable[[], Store]
    url: str  # an open_store URL naming the same backend (memory: names a new, empty store)
    schema: str | None = None


POSTGRES_URL_ENV = "CAPENV_TEST_POSTGRES_URL"
_reachability: dict[str, str | None] = {}  # url -> None when reachable, else why not


def postgres_url() -> str:
    """The test server's URL, or skip (fail under CI=true) when there is none."""
    url = os.environ.get(POSTGRES_URL_ENV, "").strip()
    problem = None
    if not url:
        problem = f"{POSTGRES_URL_ENV} is not set (start a server: eval \"$(bash .ci/postgres.sh)\")"
    else:
        if url not in _reachability:
            _reachability[url] = _probe(url)
        problem = _reachability[url]
    if problem is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"PostgreSQL is required under CI=true: {problem}", pytrace=False)
        pytest.skip(problem)
    return url


def _probe(url: str) -> str | None:
    try:
        import psycopg
    except ImportError:
        return "psycopg is not installed"
    try:
        psycopg.connect(url, connect_timeout=3).close()
    except psycopg.Error as exc:
        return f"PostgreSQL at {POSTGRES_URL_ENV} is unreachable: {str(exc).strip().splitlines()[0]}"
    return None


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
