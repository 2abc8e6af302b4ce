"""Store providers for the tests: memory, SQLite (a temporary file), PostgreSQL (a fresh schema).

PostgreSQL tests read the server URL from ``CAPENV_TEST_POSTGRES_URL``. When it is unset or the
server does not answer they are skipped, except under ``CI=true``, where they fail: CI must not
pass by silently testing less. Start a throwaway server with ``eval "$(bash .ci/postgres.sh)"``.
Each PostgreSQL test gets its own random schema, dropped afterwards.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

from store_providers import Provider

from capenv.serving.store import MemoryStore, Store, open_store

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


@pytest.fixture
def sqlite_provider(tmp_path: Path) -> Provider:
    path = tmp_path / "state.sqlite"
    return Provider("sqlite", lambda: open_store(f"sqlite:{path}"), f"sqlite:{path}")


@pytest.fixture
def postgres_provider() -> Iterator[Provider]:
    url = postgres_url()
    schema = f"capenv_test_{secrets.token_hex(6)}"
    separator = "&" if "?" in url else "?"
    yield Provider("postgres", lambda: open_store(url, schema=schema), f"{url}{separator}schema={schema}", schema)
    drop_schema(url, schema)


@pytest.fixture
def memory_provider() -> Provider:
    shared = MemoryStore()
    return Provider("memory", lambda: shared, "memory:")


PROVIDERS = [
    pytest.param("memory", id="memory"),
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgres", id="postgres", marks=pytest.mark.postgres),
]


@pytest.fixture(params=PROVIDERS)
def provider(request: pytest.FixtureRequest) -> Provider:
    """Every provider in turn."""
    return request.getfixturevalue(f"{request.param}_provider")


@pytest.fixture(params=PROVIDERS[1:])
def durable_provider(request: pytest.FixtureRequest) -> Provider:
    """The providers that keep their data outside the process (a file, a server)."""
    return request.getfixturevalue(f"{request.param}_provider")


@pytest.fixture
def store(provider: Provider) -> Iterator[Store]:
    handle = provider.open()
    try:
        yield handle
    finally:
        handle.close()
