"""Bundles built once per session from the real captures, and fresh runtimes over them."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from capenv.interpreter.bundle.io import Bundle, read_bundle
from capenv.serving.runtime import EnvironmentRuntime


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
