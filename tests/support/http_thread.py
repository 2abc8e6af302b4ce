"""``run_http(runtime)`` on a free loopback port in a thread of the test process, for tests that
reach a runtime over HTTP without a subprocess; it waits for the server without fixed sleeps."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from capenv.serving.runtime_api import Runtime
from capenv.serving.transport.http_app import HttpServing, run_http

READY_TIMEOUT_SECONDS = 20.0


@contextmanager
def http_in_thread(runtime: Runtime, host: str = "127.0.0.1", port: int = 0, **options: Any) -> Iterator[HttpServing]:
    """``run_http(runtime)`` on a free port of ``host`` (loopback), or on ``port``, in a thread; stopped on exit."""
    ready = threading.Event()
    started: list[HttpServing] = []
    failures: list[BaseException] = []

    def on_ready(serving: HttpServing) -> None:
        started.append(serving)
        ready.set()

    def serve() -> None:
        try:
            run_http(runtime, host, port, on_ready, print_urls=False, **options)
        except BaseException as exc:  # surfaced to the test below
            failures.append(exc)
        finally:
            ready.set()

    thread = threading.Thread(target=serve, name="capenv-test-http", daemon=True)
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


def port_free_on(*hosts: str) -> int:
    """A port no socket of ``hosts`` (loopback addresses) holds: picked on the first, checked on
    the others, for two listeners on one port number at two addresses."""
    for _ in range(20):
        with socket.socket() as probe:
            probe.bind((hosts[0], 0))
            port = probe.getsockname()[1]
        try:
            for host in hosts:
                with socket.socket() as other:
                    other.bind((host, port))
        except OSError:
            continue
        return port
    raise RuntimeError(f"no port free on every one of {hosts}")
