"""Fixtures that run the real applications of captures/ beside the model.

``live_app``, parametrised indirectly with an application's name (a key of ``apps.APPS``): the
application started fresh (seeded) from its capture's start.sh on a free loopback port; the fixture
yields a ``LiveApp`` (its ``url``, ``startup_seconds``) and stops it afterwards. Every test using one is marked ``live``.
Missing applications skip, except under ``CI=true`` where they fail with the install command:
CI must not pass by skipping what it was meant to run.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

import pytest

from .apps import INSTALL_COMMAND, LiveApp, NoCapture, NotInstalled, start_app

LIVE_FIXTURES = frozenset({"live_app"})
STARTUP_PROPERTY = "live_startup_seconds"
"""The user property a test that started an application carries its startup under, which the session's
summary lists (tests/conftest.py): a property, since under xdist the test ran in a worker process."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:  # `-m "not live"` leaves out exactly the tests that start an application
        if LIVE_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.live)


def _live(name: str, tmp_path: Path, node: pytest.Item) -> Iterator[LiveApp]:
    try:
        app = start_app(name, tmp_path / name)
    except NotInstalled as exc:
        message = f"{exc}; run `{INSTALL_COMMAND}`"
        if os.environ.get("CI") == "true":
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    except NoCapture as exc:
        pytest.skip(str(exc))
    node.user_properties.append((STARTUP_PROPERTY, (name, app.startup_seconds)))
    try:
        yield app
    finally:
        app.stop()



@pytest.fixture
def live_app(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[LiveApp]:
    yield from _live(request.param, tmp_path, request.node)
