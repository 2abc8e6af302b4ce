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
_startup_times: list[tuple[str, float]] = []


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:  # `-m "not live"` leaves out exactly the tests that start an application
        if LIVE_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.live)


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    if _startup_times:
        figures = ", ".join(f"{name} {seconds:.1f}s" for name, seconds in _startup_times)
        terminalreporter.write_line(f"live applications started (fresh, seeded): {figures}")


def _live(name: str, tmp_path: Path) -> Iterator[LiveApp]:
    try:
        app = start_app(name, tmp_path / name)
    except NotInstalled as exc:
        message = f"{exc}; run `{INSTALL_COMMAND}`"
        if os.environ.get("CI") == "true":
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    except NoCapture as exc:
        pytest.skip(str(exc))
    _startup_times.append((name, app.startup_seconds))
    try:
        yield app
    finally:
        app.stop()



@pytest.fixture
def live_app(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[LiveApp]:
    yield from _live(request.param, tmp_path)
