"""Bundles built once per session from the real captures, and fresh runtimes over them."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from served_processes import capture_path  # noqa: E402

from capenv.interpreter.bundle.io import Bundle, read_bundle, write_bundle  # noqa: E402
from capenv.interpreter.pipeline import build_bundle  # noqa: E402
from capenv.serving.runtime import EnvironmentRuntime  # noqa: E402


@pytest.fixture(scope="session")
def bundle_dir(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """``bundle_dir("json-server")``: that capture's bundle directory, built on first use."""
    built: dict[str, Path] = {}

    def get(name: str) -> Path:
        if name not in built:
            directory = tmp_path_factory.mktemp(f"writes-bundle-{name}")
            write_bundle(directory, build_bundle(capture_path(name)))
            built[name] = directory
        return built[name]

    return get


@pytest.fixture(scope="session")
def bundle_of(bundle_dir: Callable[[str], Path]) -> Callable[[str], Bundle]:
    read: dict[str, Bundle] = {}

    def get(name: str) -> Bundle:
        if name not in read:
            read[name] = read_bundle(bundle_dir(name))
        return read[name]

    return get


@pytest.fixture(scope="session")
def json_server_bundle(bundle_of: Callable[[str], Bundle]) -> Bundle:
    return bundle_of("json-server")


@pytest.fixture
def runtime(json_server_bundle: Bundle) -> EnvironmentRuntime:
    """A fresh json-server runtime (its state in memory) for one test."""
    served = EnvironmentRuntime(json_server_bundle)
    yield served
    served.close()
