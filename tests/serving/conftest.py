"""Bundles built once per session from the real captures, and servers started on loopback."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from capenv.interpreter.bundle.io import Bundle, read_bundle, write_bundle
from capenv.interpreter.pipeline import build_bundle

CAPTURES = Path(__file__).resolve().parents[2] / "captures"
READY_TIMEOUT_SECONDS = 20.0


@pytest.fixture(scope="session")
def bundle_dir(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """``bundle_dir("kinto")``: the capture's bundle directory, built on first use."""
    built: dict[str, Path] = {}

    def get(name: str) -> Path:
        if name not in built:
            directory = tmp_path_factory.mktemp(f"bundle-{name}")
            write_bundle(directory, build_bundle(CAPTURES / name / "capture.har"))
            built[name] = directory
        return built[name]

    return get


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
