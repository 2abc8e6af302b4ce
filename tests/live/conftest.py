"""Fixtures that run the real applications of captures/ beside the model.

``live_json_server``, ``live_kinto``, ``live_prefect``, ``live_datasette``, ``live_jupyter_server``,
``live_mlflow``, ``live_strapi``, ``live_label_studio``: the application started fresh (seeded)
from its capture's start.sh on a free loopback port; the fixture yields a ``LiveApp`` (its
``url``, ``startup_seconds``) and stops it afterwards. Every test using one is marked ``live``.
Missing applications skip, except under ``CI=true`` where they fail with the install command:
CI must not pass by skipping what it was meant to run.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

import pytest

from .apps import INSTALL_COMMAND, LiveApp, NoCapture, NotInstalled, start_app

LIVE_FIXTURES = frozenset({"live_json_server", "live_kinto", "live_prefect", "live_datasette", "live_jupyter_server",
                           "live_mlflow", "live_strapi", "live_label_studio"})
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
def live_json_server(tmp_path: Path) -> Iterator[LiveApp]:
    yield from _live("json-server", tmp_path)


@pytest.fixture
def live_kinto(tmp_path: Path) -> Iterator[LiveApp]:
    yield from _live("kinto", tmp_path)


@pytest.fixture
def live_prefect(tmp_path: Path) -> Iterator[LiveApp]:
    yield from _live("prefect", tmp_path)


@pytest.fixture
def live_datasette(tmp_path: Path) -> Iterator[LiveApp]:
    yield from _live("datasette", tmp_path)


@pytest.fixture
def live_jupyter_server(tmp_path: Path) -> Iterator[LiveApp]:
    yield from _live("jupyter-server", tmp_path)


@pytest.fixture
def live_mlflow(tmp_path: Path) -> Iterator[LiveApp]:
    yield from _live("mlflow", tmp_path)


@pytest.fixture
def live_strapi(tmp_path: Path) -> Iterator[LiveApp]:
    yield from _live("strapi", tmp_path)


@pytest.fixture
def live_label_studio(tmp_path: Path) -> Iterator[LiveApp]:
    yield from _live("label-studio", tmp_path)
