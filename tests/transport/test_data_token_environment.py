"""``capenv serve`` takes the grader's token from ``CAPENV_DATA_TOKEN`` when ``--data-token`` is not
given: a variable of the process is not in ``/proc/PID/cmdline``, which any process of the agent's
user reads. The data plane then needs that token, on the agent's listener and on the grader's own
(``--data``, as an exported image runs), the token is never in the server's command line nor
echoed in its banner, and ``--data-token`` still wins."""

from __future__ import annotations

import argparse
import json
import signal
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from capenv.serving.transport.listen import DATA_TOKEN_VARIABLE, access_from, add_access_options
from support.har_builder import HarBuilder
from support.served import STOP_TIMEOUT_SECONDS, capenv_command, data_get_as, quiet_env

ENV_TOKEN = "grader-token-from-the-environment"


@pytest.fixture(scope="module")
def capture(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("token-env")
    return (HarBuilder().call("GET", "/items", response=[{"id": 1}])
            .call("GET", "/items/1", response={"id": 1})).write(folder / "c.har")


@contextmanager
def serving(capture: Path, *options: str, token: str | None = ENV_TOKEN) -> Iterator[tuple[int, str, list[str]]]:
    """``capenv serve CAPTURE --http 127.0.0.1:0 OPTIONS`` with ``CAPENV_DATA_TOKEN`` set to ``token``
    (unset when None); yields (pid, the grader's data-plane base URL, the banner's lines)."""
    env = quiet_env()
    env.pop(DATA_TOKEN_VARIABLE, None)
    if token is not None:
        env[DATA_TOKEN_VARIABLE] = token
    command = capenv_command() + ["serve", str(capture), "--http", "127.0.0.1:0", *options]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        lines, data_url = [], None
        for line in process.stdout:  # the grader's data plane is announced last but for the token
            lines.append(line)
            if line.startswith("  grader's data plane"):
                data_url = line.split(": ", 1)[1].split("/_capenv/")[0]
            if line.startswith("  grader's token"):
                break
        assert data_url, "".join(lines) + process.stderr.read()
        yield process.pid, data_url, lines
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.communicate(timeout=STOP_TIMEOUT_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()


@pytest.mark.parametrize("options", [(), ("--data", "127.0.0.1:0")], ids=["agent-listener", "own-listener"])
def test_the_token_from_the_environment_guards_the_data_plane(capture: Path, options: tuple[str, ...]) -> None:
    with serving(capture, *options) as (pid, data_url, lines):
        status, body = data_get_as(data_url, ENV_TOKEN)
        assert status == 200 and "collections" in json.loads(body)
        for wrong in (None, ENV_TOKEN[:-1], "another-token"):
            status, body = data_get_as(data_url, wrong)
            assert status == 401 and b"collections" not in body
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        assert ENV_TOKEN.encode() not in cmdline  # what the agent's user may read of the process
        banner = "".join(lines)
        assert ENV_TOKEN not in banner and "grader's token: the one given" in banner


def test_the_option_wins_over_the_environment(capture: Path) -> None:
    with serving(capture, "--data-token", "the-option-token") as (_, data_url, _lines):
        assert data_get_as(data_url, "the-option-token")[0] == 200
        assert data_get_as(data_url, ENV_TOKEN)[0] == 401


def test_without_either_a_token_is_generated_and_printed(capture: Path) -> None:
    with serving(capture, token="") as (_, data_url, lines):  # set but empty counts as not given
        token = lines[-1].split("grader's token: ", 1)[1].split()[0]
        assert len(token) >= 20 and data_get_as(data_url, token)[0] == 200
        assert data_get_as(data_url, None)[0] == 401


def test_only_capenv_serve_reads_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    # The AgentEnv server's data-plane client sends no token: it keeps its own listener open to it.
    parser = argparse.ArgumentParser()
    add_access_options(parser)
    arguments = parser.parse_args(["--data", "127.0.0.1:0"])
    monkeypatch.setenv(DATA_TOKEN_VARIABLE, ENV_TOKEN)
    assert access_from(arguments).data_token is None
    assert access_from(arguments, token_from_environment=True).data_token == ENV_TOKEN
    monkeypatch.setenv(DATA_TOKEN_VARIABLE, "")
    assert access_from(arguments, token_from_environment=True).data_token is None


def test_serve_help_names_the_variable() -> None:
    done = subprocess.run(capenv_command() + ["serve", "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and f"${DATA_TOKEN_VARIABLE}" in " ".join(done.stdout.split())
