"""Bundles built once per session from the real captures, and servers started on loopback."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from capenv.interpreter.bundle.io import Bundle, read_bundle


@pytest.fixture(scope="session")
def json_server_dir(bundle_dir: Callable[[str], Path]) -> Path:
    return bundle_dir("json-server")


@pytest.fixture(scope="session")
def json_server(json_server_dir: Path) -> Bundle:
    return read_bundle(json_server_dir)


sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "transport"))
from transport_servers import serving_http  # noqa: E402  (one helper starts servers for every test set)


@pytest.fixture(scope="session")
def serve_http() -> Callable[..., Any]:
    return serving_http
