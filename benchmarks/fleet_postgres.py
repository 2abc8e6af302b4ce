"""The fleet over HTTP on PostgreSQL (issue 14): two ``capenv serve BUNDLE --instances --store
postgresql://…`` processes on one database serve one set of instances.

A private PostgreSQL cluster is started for the run (``.ci/postgres.sh start``: a new cluster in a
directory of its own, on a free port) and stopped after it; when it cannot start, the figures are
skipped with the reason; a call capenv does not serve fails the run (figures of refusals would
mislead). Through the first process, ``ACTIVE``
instances are created (``POST /_capenv/instances``, timed per request); each writes once, then
``CALLS`` json-server calls (a create, then an item read, in turn, as the in-process figure does) are
spread over them and over the two processes in turn by ``THREADS`` client threads on kept-alive
connections. The baseline is the same calls on one instance through the first process alone.
"""

from __future__ import annotations

import http.client
import json
import shlex
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from benchmarks.scale import pick
from benchmarks.serving import new_post
from benchmarks.servers import AUTHORIZATION, Server, start_capenv
from benchmarks.stats import percentile

REPO = Path(__file__).resolve().parents[1]
ACTIVE = pick(100, 5)
CALLS = pick(4000, 40)
THREADS = 4
POSTGRES_SCRIPT = REPO / ".ci" / "postgres.sh"
START_SECONDS = 300


class NotServed(Exception):
    """A benchmark call capenv refused or failed: a bug of the benchmark or of capenv, never skipped."""


def new_post_body() -> bytes:
    return json.dumps(new_post()["body"]).encode()


@dataclass
class Postgres:
    url: str
    state_dir: str

    def stop(self) -> None:
        subprocess.run(["bash", str(POSTGRES_SCRIPT), "stop", self.state_dir], capture_output=True, timeout=120,
                       check=False)


def start_postgres() -> Postgres | str:
    """A private cluster, or the reason it could not start."""
    try:
        done = subprocess.run(["bash", str(POSTGRES_SCRIPT), "start"], capture_output=True, text=True,
                              timeout=START_SECONDS, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"`.ci/postgres.sh start` failed: {error}"
    exports = dict(word.split("=", 1) for word in shlex.split(done.stdout.strip())[1:] if "=" in word)
    if done.returncode != 0 or "CAPENV_TEST_POSTGRES_URL" not in exports:
        tail = done.stderr.strip().splitlines()[-1:] or ["no output"]
        return f"`.ci/postgres.sh start` exited with {done.returncode} ({tail[0]})"
    return Postgres(exports["CAPENV_TEST_POSTGRES_URL"], exports["CAPENV_PG_STATE_DIR"])


def _request(connection: http.client.HTTPConnection, method: str, path: str, body: bytes | None = None,
             headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    connection.request(method, path, body=body, headers={"Content-Type": "application/json", **(headers or {})})
    answer = connection.getresponse()
    return answer.status, answer.read()


def _connect(server: Server) -> http.client.HTTPConnection:
    return http.client.HTTPConnection(server.host, server.port, timeout=60)


def create_instances(server: Server, count: int) -> tuple[list[str], list[float]]:
    """``count`` instances made through ``server``, and each creation's seconds."""
    connection, made, times = _connect(server), [], []
    for _ in range(count):
        started = time.perf_counter()
        status, body = _request(connection, "POST", "/_capenv/instances", b"", AUTHORIZATION)
        times.append(time.perf_counter() - started)
        if status != 201:
            raise NotServed(f"creating an instance answered {status}: {body[:300]!r}")
        made.append(json.loads(body)["id"])
    connection.close()
    return made, times


def drive(servers: list[Server], instances: list[str]) -> float:
    """Calls per second: call ``n`` goes to ``instances[n % len]`` through ``servers[n % len]``,
    even calls create a post, odd ones read post 1; ``THREADS`` threads share the calls."""
    for number, instance in enumerate(instances):  # active: each has written once
        connection = _connect(servers[number % len(servers)])
        status, body = _request(connection, "POST", f"/i/{instance}/posts", new_post_body())
        connection.close()
        if status != 201:
            raise NotServed(f"the first write to {instance} answered {status}: {body[:300]!r}")
    failures: list[str] = []

    def worker(first: int) -> None:
        connections = [_connect(server) for server in servers]
        for call in range(first, CALLS, THREADS):
            connection, instance = connections[call % len(servers)], instances[call % len(instances)]
            if call % 2:
                status, body = _request(connection, "GET", f"/i/{instance}/posts/1")
            else:
                status, body = _request(connection, "POST", f"/i/{instance}/posts", new_post_body())
            if status not in (200, 201):
                failures.append(f"{status}: {body[:200]!r}")
                break
        for connection in connections:
            connection.close()

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(THREADS)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    took = time.perf_counter() - started
    if failures:
        raise NotServed(f"a served call failed: {failures[0]}")
    return CALLS / took


def measure(bundle_dir: Path, workdir: Path) -> list[str]:
    """The section's lines on PostgreSQL (or why there are none)."""
    postgres = start_postgres()
    if isinstance(postgres, str):
        return [f"Two processes on PostgreSQL: skipped, PostgreSQL could not start ({postgres})."]
    servers: list[Server] = []
    try:
        for _ in range(2):
            servers.append(start_capenv(bundle_dir, workdir, postgres.url, options=("--instances",)))
        made, times = create_instances(servers[0], ACTIVE + 1)
        one = drive(servers[:1], made[:1])
        many = drive(servers, made[1:])
    except RuntimeError as error:
        return [f"Two processes on PostgreSQL: skipped, {str(error).splitlines()[0]}"]
    finally:
        for server in servers:
            server.stop()
        postgres.stop()
    return [f"Two `capenv serve json-server --http --instances --store postgresql://…` processes on one private "
            f"PostgreSQL database (`.ci/postgres.sh`), over HTTP: creating {ACTIVE + 1} instances through one "
            f"process (`POST /_capenv/instances`) p50 {percentile(times, 0.5) * 1e3:.1f} ms, p99 "
            f"{percentile(times, 0.99) * 1e3:.1f} ms. {CALLS:,} calls by {THREADS} client threads on kept-alive "
            f"connections (a create, then `GET /i/ID/posts/1`, in turn, each instance having written once): "
            f"{one:,.0f} calls/s on one instance through one process, {many:,.0f} calls/s across {ACTIVE} "
            f"instances through both processes in turn ({many / one:.0%} of one)."]

