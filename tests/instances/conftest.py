"""A fleet of the json-server bundle's environments, on each store the tests can reach
(PostgreSQL skips without ``CAPENV_TEST_POSTGRES_URL``, as the store tests do)."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from support.fleets import open_fleet_store
from support.postgres import postgres_url

from capenv.interpreter.bundle.io import Bundle, read_bundle
from capenv.serving.instances.fleet import InstanceFleet
from capenv.serving.runtime import EnvironmentRuntime


@pytest.fixture(scope="session")
def json_server(bundle_dir: Callable[[str], Path]) -> Bundle:
    return read_bundle(bundle_dir("json-server"))


@pytest.fixture(scope="session")
def template(json_server: Bundle) -> EnvironmentRuntime:
    return EnvironmentRuntime(json_server)


@pytest.fixture
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str | None]:
    """The fleet's store URL (None: the fleet's own memory store)."""
    kind = getattr(request, "param", "memory")
    if kind == "memory":
        yield None
    elif kind == "sqlite":
        yield f"sqlite:{tmp_path / 'fleet.db'}"
    else:
        schema = f"fleet_{secrets.token_hex(6)}"
        yield f"{postgres_url()}{'&' if '?' in postgres_url() else '?'}schema={schema}"
        _drop_schema(schema)


def _drop_schema(schema: str) -> None:
    import psycopg

    with psycopg.connect(postgres_url(), autocommit=True) as connection:
        connection.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


@pytest.fixture
def fleet(template: EnvironmentRuntime, store_url: str | None) -> Iterator[InstanceFleet]:
    made = InstanceFleet(template, open_fleet_store(store_url))
    yield made
    made.close()
