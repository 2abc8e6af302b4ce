"""Store providers for the tests: memory, SQLite (a temporary file), PostgreSQL (a fresh schema).

PostgreSQL tests read the server URL from ``CAPENV_TEST_POSTGRES_URL``. When it is unset or the
server does not answer they are skipped, except under ``CI=true``, where they fail: CI must not
pass by silently testing less. Start a throwaway server with ``eval "$(bash .ci/postgres.sh)"``.
Each PostgreSQL test gets its own random schema, dropped afterwards.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from store_support import Provider, drop_schema
from support.postgres import postgres_url

from capenv.serving.store import MemoryStore, Store, open_store


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
