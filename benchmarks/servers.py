"""Servers the benchmarks talk to over loopback, each in its own process group so the client's
timing is never mixed with the server's work (2 CPUs: one each) and a stop kills only it."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from benchmarks.section import Section

REPO = Path(__file__).resolve().parents[1]
JSON_SERVER_VERSION = "0.17.4"
# Where .ci/live-apps.sh installs: CAPENV_CI_CACHE when set (.ci/run sets a machine-wide folder), else .ci/cache.
JSON_SERVER_DIR = Path(os.environ.get("CAPENV_CI_CACHE") or REPO / ".ci" / "cache") / "npm" / "node_modules"
JSON_SERVER_INSTALL = "bash .ci/live-apps.sh install"
READY_SECONDS = 60.0
DATA_TOKEN = "capenv-benchmark-data-token"
"""The grader's bearer token every benchmark server of capenv is started with (``--data-token``)."""
AUTHORIZATION = {"Authorization": f"Bearer {DATA_TOKEN}"}
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


@dataclass
class Server:
    name: str
    host: str
    port: int
    process: subprocess.Popen
    log: Path

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def cpu_seconds(self) -> float:
        """User + system CPU of the server so far: every process of its group (a server started by
        a script runs as its child), every thread, and the children they waited for."""
        total = 0
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            try:
                fields = Path(entry.path, "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:  # gone meanwhile
                continue
            if int(fields[2]) == self.process.pid:  # its process group (started in a session of its own)
                total += sum(int(f) for f in fields[11:15])  # utime, stime, cutime, cstime
        return total / CLOCK_TICKS

    def stop(self) -> None:
        for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 10)):
            try:
                os.killpg(self.process.pid, sig)  # the group this server was started in, nothing else
            except ProcessLookupError:
                return
            try:
                self.process.wait(timeout=wait)
                return
            except subprocess.TimeoutExpired:
                continue


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_process(name: str, argv: list[str], ready_path: str, port: int, workdir: Path, env: dict[str, str], *,
                  ready_seconds: float = READY_SECONDS) -> Server:
    log = workdir / f"{name}.log"
    with log.open("wb") as out:
        process = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                   env={**os.environ, **env}, cwd=workdir, start_new_session=True)
    server = Server(name, "127.0.0.1", port, process, log)
    deadline = time.monotonic() + ready_seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{name} exited with {process.returncode}:\n{log.read_text()[-2000:]}")
        if _answers(server, ready_path):
            return server
        time.sleep(0.05)
    server.stop()
    raise RuntimeError(f"{name} not ready after {ready_seconds:.0f} s:\n{log.read_text()[-2000:]}")


def _answers(server: Server, path: str) -> bool:
    try:
        connection = http.client.HTTPConnection(server.host, server.port, timeout=2)
        connection.request("GET", path, headers=AUTHORIZATION)
        ok = connection.getresponse().status == 200
        connection.close()
        return ok
    except OSError:
        return False


def capenv_command() -> list[str]:
    script = Path(sys.executable).with_name("capenv")
    return [str(script)] if script.exists() else [sys.executable, "-m", "capenv.interpreter.cli.main"]


def start_capenv(target: Path, workdir: Path, store: str | None = None, *, profile_to: Path | None = None,
                 options: tuple[str, ...] = ()) -> Server:
    """``capenv serve TARGET --http 127.0.0.1:PORT [--store URL] [OPTIONS]``: the command a user runs
    (``run_http``). ``profile_to``: the same serving under two profilers, its serving only
    (``benchmarks/profiled_serve.py``), written to that file when the server stops."""
    port = free_port()
    if profile_to is not None:
        argv = [sys.executable, "-m", "benchmarks.profiled_serve", str(target), str(port), str(profile_to)]
    else:
        argv = [*capenv_command(), "serve", str(target), "--http", f"127.0.0.1:{port}", "--data-token", DATA_TOKEN]
        argv += options
    if store:
        argv += ["--store", store]
    # ready once it answers its OpenAPI description (open to anyone), or a fleet its list of instances
    ready = "/_capenv/instances" if "--instances" in options else "/_capenv/openapi.json"
    env = {"CAPENV_DEBUG": ""} if profile_to is None else {"CAPENV_DEBUG": "", "PYTHONPATH": str(REPO)}
    return start_process("capenv", argv, ready, port, workdir, env)


def json_server_binary() -> Path | None:
    """json-server 0.17.4 where ``.ci/live-apps.sh install`` puts it, or None."""
    manifest = JSON_SERVER_DIR / "json-server" / "package.json"
    binary = JSON_SERVER_DIR / ".bin" / "json-server"
    try:
        version = json.loads(manifest.read_text())["version"]
    except (OSError, ValueError, KeyError):
        return None
    return binary if version == JSON_SERVER_VERSION and binary.exists() else None


def json_server_or_skipped(section: Section, label: str, command: str) -> Path | None:
    """json-server's binary; without it, ``section`` says it was skipped and how to install it."""
    binary = json_server_binary()
    if binary is None:
        message = (f"json-server {JSON_SERVER_VERSION} is not installed (looked in {JSON_SERVER_DIR}): section {label} "
                   f"skipped. Install it with `{JSON_SERVER_INSTALL}` and rerun `{command}`.")
        print(message, file=sys.stderr)
        section.lines = [message]
    return binary


def start_json_server(binary: Path, workdir: Path) -> Server:
    """From the capture's own start.sh, so the seed is the one the capture was recorded on."""
    port = free_port()
    argv = ["bash", str(REPO / "captures" / "json-server" / "start.sh"), str(port)]
    env = {"JSON_SERVER": str(binary), "RUN_DIR": str(workdir / "json-server-run")}
    return start_process("json-server", argv, "/profile", port, workdir, env)


def post(server: Server, path: str) -> int:
    connection = http.client.HTTPConnection(server.host, server.port, timeout=30)
    connection.request("POST", path, body=b"", headers=AUTHORIZATION)
    status = connection.getresponse().status
    connection.close()
    return status


def start_floor(kind: str, workdir: Path) -> Server:
    """``floor`` (a bare ASGI app answering a fixed JSON body) or ``echo`` (the MCP SDK's low-level
    echo server), each on capenv's own uvicorn settings (``benchmarks/floor_servers.py``)."""
    port = free_port()
    argv = [sys.executable, "-m", "benchmarks.floor_servers", kind, str(port)]
    return start_process(f"{kind}-server", argv, "/ready", port, workdir, {"PYTHONPATH": str(REPO)})
