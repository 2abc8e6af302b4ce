"""Fixtures for serving on the store: the json-server bundle built once per session with
``capenv build``, and the stores a test serves from (memory, a SQLite file, a fresh PostgreSQL
schema dropped afterwards).

PostgreSQL tests read ``CAPENV_TEST_POSTGRES_URL``; without it they skip, except under
``CI=true``, where they fail.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from serving_store_support import fresh_schema
from support.served import CAPTURES, capenv

from capenv.interpreter.bundle.io import Bundle, read_bundle, write_bundle


@pytest.fixture(scope="session")
def bundle_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """json-server's bundle: ``post_posts`` is a served create with an integer sequence id."""
    directory = tmp_path_factory.mktemp("served-bundle") / "json-server"
    result = capenv("build", str(CAPTURES / "json-server" / "capture.har"), "-o", str(directory))
    assert result.returncode == 0, result.stderr.decode()
    # these tests create many posts with one body: the store's work, not what the application accepts, is
    # their point, so the posts' learned distinct titles (write-distinct-values) are left out of the plans
    built = read_bundle(directory)
    writes = tuple(w.model_copy(update={"distinct_members": ()}) for w in built.view.writes)
    write_bundle(directory, built.model_copy(update={"view": built.view.model_copy(update={"writes": writes})}))
    return directory


@pytest.fixture(scope="session")
def bundle(bundle_path: Path) -> Bundle:
    return read_bundle(bundle_path)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:{tmp_path / 'state.sqlite'}"


@pytest.fixture
def postgres_store_url() -> Iterator[str]:
    with fresh_schema() as url:
        yield url


STORES = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgres", id="postgres", marks=pytest.mark.postgres),
]


@pytest.fixture(params=STORES)
def shared_store_url(request: pytest.FixtureRequest) -> str:
    """A store URL several processes can share: a SQLite file, then a PostgreSQL schema."""
    return request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "postgres_store_url")
