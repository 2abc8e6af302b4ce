"""The json-server bundle, built once per session (``bundle_dir``, tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from capenv.interpreter.bundle.io import Bundle, read_bundle


@pytest.fixture(scope="session")
def json_server_dir(bundle_dir: Callable[[str], Path]) -> Path:
    return bundle_dir("json-server")


@pytest.fixture(scope="session")
def json_server(json_server_dir: Path) -> Bundle:
    return read_bundle(json_server_dir)
