"""``capenv`` as a user runs it, for tests: the real captures, ``capenv`` commands as
subprocesses, ``capenv serve`` as a subprocess (stdio parameters for the official MCP client,
or streamable HTTP on a free loopback port, stopped after) and ``capenv data`` for the data
plane."""

from __future__ import annotations

import functools
import http.client
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mcp import StdioServerParameters

    from capenv.interpreter.bundle.io import Bundle

CAPTURES = Path(__file__).resolve().parents[2] / "captures"
CALL_TIMEOUT_SECONDS = 30
STOP_TIMEOUT_SECONDS = 20


def capture_path(name: str) -> Path:
    return CAPTURES / name / "capture.har"


@functools.cache
def built_capture(name: str) -> Bundle:
    """That real capture's bundle, built once per test process: the modules parametrised over every
    capture share it (a bundle's models are frozen) instead of building all of them again."""
    from capenv.interpreter.pipeline import build_bundle

    return build_bundle(capture_path(name))


def capture_names() -> list[str]:
    return sorted(p.parent.name for p in CAPTURES.glob("*/capture.har"))


def capenv_command() -> list[str]:
    script = Path(sys.executable).with_name("capenv")
    return [str(script)] if script.exists() else [sys.executable, "-m", "capenv.interpreter.cli.main"]


GRADER_TOKEN = "test-grader-token"
"""The data plane's bearer token of the servers the tests start (``--data-token``), which
``capenv data --url`` reads from ``CAPENV_DATA_TOKEN``."""


def quiet_env() -> dict[str, str]:
    """The environment without CAPENV_DEBUG, so errors reach us as the one line a user sees, and with
    the grader's token for ``capenv data --url``."""
    env = {k: v for k, v in os.environ.items() if k != "CAPENV_DEBUG"}
    env["CAPENV_DATA_TOKEN"] = GRADER_TOKEN
    return env


def capenv(*argv: str, stdin: bytes = b"", timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(capenv_command() + list(argv), input=stdin, capture_output=True, timeout=timeout,
                          env=quiet_env())


def stdio_parameters(target: Path | str, *options: str) -> StdioServerParameters:
    """``capenv serve TARGET --stdio [options]`` for ``mcp.Client`` (mcp imported here, so the
    suites that serve no MCP do not load it)."""
    from mcp import StdioServerParameters

    command = capenv_command()
    return StdioServerParameters(command=command[0], args=command[1:] + ["serve", str(target), "--stdio", *options],
                                 env=quiet_env())


@contextmanager
def serving_http(target: Path | str, *options: str) -> Iterator[str]:
    """``capenv serve TARGET --http 127.0.0.1:0``; yields the base URL it prints (MCP at /mcp)."""
    command = capenv_command() + ["serve", str(target), "--http", "127.0.0.1:0", "--data-token", GRADER_TOKEN, *options]
    with served_process(command, quiet_env(), STOP_TIMEOUT_SECONDS) as (base_url, _):
        yield base_url


def data_get_url(url: str) -> bytes:
    """data/get of a running server, as ``capenv data get --url`` writes it (one trailing newline)."""
    done = capenv("data", "get", "--url", url, timeout=CALL_TIMEOUT_SECONDS)
    assert done.returncode == 0, done.stderr
    return done.stdout.removesuffix(b"\n")


def data_get_as(base_url: str, token: str | None) -> tuple[int, bytes]:
    """GET data/get of the data plane at ``base_url`` with ``token`` as the bearer (none when None)."""
    from urllib.parse import urlsplit

    parts = urlsplit(base_url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        connection.request("GET", "/_capenv/data/get", headers={"Authorization": f"Bearer {token}"} if token else {})
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def data_reset_url(url: str) -> None:
    done = capenv("data", "reset", "--url", url, timeout=CALL_TIMEOUT_SECONDS)
    assert done.returncode == 0, done.stderr


def data_get_store(bundle: Path | str, store: str) -> bytes:
    """data/get of the state a server keeps in ``store``, read offline as a grader can."""
    done = capenv("data", "get", "--bundle", str(bundle), "--store", store, timeout=CALL_TIMEOUT_SECONDS)
    assert done.returncode == 0, done.stderr
    return done.stdout.removesuffix(b"\n")


def data_reset_store(bundle: Path | str, store: str) -> None:
    done = capenv("data", "reset", "--bundle", str(bundle), "--store", store, timeout=CALL_TIMEOUT_SECONDS)
    assert done.returncode == 0, done.stderr


@contextmanager
def served_process(command: list[str], env: dict[str, str], stop_timeout: float = 20
                   ) -> Iterator[tuple[str, list[str]]]:
    """Start ``command``; yield (the base URL it announces, the lines it printed until then)."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        lines, base_url = [], None
        for line in process.stdout:  # the server prints its URLs once it accepts connections
            lines.append(line)
            if line.startswith("capenv serving on "):
                base_url = line.split()[-1]
            if base_url and "grader's data plane" in line:  # the last address it announces
                break
        assert base_url, "".join(lines) + process.stderr.read()
        yield base_url, lines
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(stop_timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
