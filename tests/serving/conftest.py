"""Bundles built once per session from the real captures, and servers started on loopback."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from capenv.interpreter.bundle.io import Bundle, read_bundle, write_bundle
from capenv.interpreter.pipeline import build_bundle
from capenv.serving.runtime_api import Runtime
from capenv.serving.transport.http_app import HttpServing, run_http

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


@contextmanager
def serving_http(runtime: Runtime, **options: Any) -> Iterator[HttpServing]:
    """``run_http(runtime)`` on a free loopback port in a thread; stopped on exit."""
    ready = threading.Event()
    started: list[HttpServing] = []
    failures: list[BaseException] = []

    def on_ready(serving: HttpServing) -> None:
        started.append(serving)
        ready.set()

    def serve() -> None:
        try:
            run_http(runtime, "127.0.0.1", 0, on_ready, print_urls=False, **options)
        except BaseException as exc:  # surfaced to the test below
            failures.append(exc)
        finally:
            ready.set()

    thread = threading.Thread(target=serve, name="capenv-serving-test-http", daemon=True)
    thread.start()
    if not ready.wait(READY_TIMEOUT_SECONDS):
        raise TimeoutError("the HTTP server did not start in time")
    if failures or not started:
        raise RuntimeError("the HTTP server failed to start") from (failures[0] if failures else None)
    try:
        yield started[0]
    finally:
        started[0].stop()
        thread.join(READY_TIMEOUT_SECONDS)
        assert not thread.is_alive(), "the HTTP server did not stop"
        assert not failures, failures


@pytest.fixture(scope="session")
def serve_http() -> Callable[..., Any]:
    return serving_http
