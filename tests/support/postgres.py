"""The PostgreSQL test server: its URL, or a skip (a failure under ``CI=true``) when there is none."""

from __future__ import annotations

import os

import pytest

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
