"""(c) The HTTP mock surface against json-server itself, on the same CRUD call sequence.

Both run as servers on loopback, started fresh from the same seed, in one run: ``capenv serve
captures/json-server/capture.har --http`` (the model, its state in the process) and json-server
0.17.4 from ``captures/json-server/start.sh`` (the application, installed by
``bash .ci/live-apps.sh install``). One keep-alive client sends the sequence create, item read,
update, list read, delete, read of the deleted, alternating between the servers round by
round so drift hits both alike. The runtime alone (``EnvironmentRuntime.http`` in this
process, no transport) gives the ceiling the transport takes its share from; where the target is
missed, the section profiles both the runtime and the server's event-loop thread.

    python -m benchmarks http
"""

from __future__ import annotations

import http.client
import json
import pstats
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks import profiling, runner
from benchmarks.scale import pick
from benchmarks.section import Section
from benchmarks.servers import (
    JSON_SERVER_VERSION, REPO, Server, json_server_or_skipped, start_capenv, start_json_server,
)
from benchmarks.stats import microseconds, percentile, table, thousands, verdict

CAPTURE = REPO / "captures" / "json-server" / "capture.har"
NEW_COMMENT = {"postId": 1, "body": "benchmark"}
# Comments, not posts: a post's delete also deletes its comments in json-server (a side effect
# capenv does not serve), so the sequence would end in a refusal.
SEQUENCE = (  # (method, path with {id} for the created comment, body, the status json-server answers)
    ("POST", "/comments", NEW_COMMENT, 201),
    ("GET", "/comments/{id}", None, 200),
    ("PATCH", "/comments/{id}", {"body": "edited"}, 200),
    ("GET", "/comments", None, 200),
    ("DELETE", "/comments/{id}", None, 200),
    ("GET", "/comments/{id}", None, 404),
)
WARMUP_SEQUENCES = pick(20, 2)
ROUNDS = pick(3, 1)
SEQUENCES_PER_ROUND = pick(100, 5)
PROFILED_SEQUENCES = pick(100, 5)
TARGET_RATIO = 1.5
JSON_SERVER = f"json-server {JSON_SERVER_VERSION}"


@dataclass
class Measured:
    name: str
    samples_ns: list[int] = field(default_factory=list)
    wall_seconds: float = 0.0
    statuses: list[int] = field(default_factory=list)
    """The statuses of the first measured sequence, to show both did the same calls."""

    @property
    def calls_per_second(self) -> float:
        return len(self.samples_ns) / self.wall_seconds


# --- one sequence, over HTTP or in-process --------------------------------------------------

class HttpClient:
    def __init__(self, server: Server) -> None:
        self.connection = http.client.HTTPConnection(server.host, server.port, timeout=30)

    def send(self, method: str, path: str, body: bytes | None) -> tuple[int, bytes]:
        headers = {"content-type": "application/json"} if body is not None else {}
        self.connection.request(method, path, body=body, headers=headers)
        response = self.connection.getresponse()
        return response.status, response.read()

    def close(self) -> None:
        self.connection.close()


class InProcessClient:
    """``EnvironmentRuntime.http``: the same calls with no transport at all."""

    def __init__(self, runtime: Any) -> None:
        from capenv.serving.runtime_api import HttpRequest

        self.runtime, self.request = runtime, HttpRequest

    def send(self, method: str, path: str, body: bytes | None) -> tuple[int, bytes]:
        headers = (("content-type", "application/json"),) if body is not None else ()
        answer = self.runtime.http(self.request(method, path, (), headers, body or b""))
        return answer.status, answer.body

    def close(self) -> None:
        pass


def run_sequence(client: Any, samples: list[int] | None = None) -> list[int]:
    statuses, created = [], None
    for method, path, body, _ in SEQUENCE:
        encoded = json.dumps(body).encode() if body is not None else None
        before = time.perf_counter_ns()
        status, answer = client.send(method, path.replace("{id}", str(created)), encoded)
        if samples is not None:
            samples.append(time.perf_counter_ns() - before)
        if created is None:
            created = json.loads(answer)["id"]
        statuses.append(status)
    return statuses


def measure_round(measured: Measured, client: Any) -> None:
    started = time.perf_counter()
    for _ in range(SEQUENCES_PER_ROUND):
        statuses = run_sequence(client, measured.samples_ns)
        if not measured.statuses:
            measured.statuses = statuses
    measured.wall_seconds += time.perf_counter() - started


# --- the section ----------------------------------------------------------------------------

CAPENV = "capenv serve (no --store)"


def run() -> Section:
    section = Section("http", "(c) The HTTP mock surface against json-server 0.17.4", "python -m benchmarks http")
    binary = json_server_or_skipped(section, "(c)", "python -m benchmarks http")
    if binary is None:
        return section
    with tempfile.TemporaryDirectory(prefix="capenv-bench-") as tmp:
        directory = Path(tmp)
        servers = {CAPENV: start_capenv(CAPTURE, directory),
                   "capenv serve (`sqlite:` store)": start_capenv(CAPTURE, directory,
                                                                  f"sqlite:{directory / 'state.sqlite'}"),
                   JSON_SERVER: start_json_server(binary, directory)}
        try:
            results = compare(servers)
        finally:
            for server in servers.values():
                server.stop()
        ceiling = in_process_ceiling()
        by_name = {m.name: m for m in results}
        ratio = by_name[CAPENV].calls_per_second / by_name[JSON_SERVER].calls_per_second
        profiles = {}
        if ratio < TARGET_RATIO:
            profiles["the runtime alone (`EnvironmentRuntime.http`, this process)"] = profile_in_process()
            profiles["the server's event-loop thread (the transport: uvicorn, the ASGI app; the runtime runs on "
                     "its worker thread and is not in this profile)"] = profile_server_transport(directory)
    section.lines = render(results, ceiling, ratio, profiles)
    return section


def compare(servers: dict[str, Server]) -> list[Measured]:
    results = [Measured(name) for name in servers]
    for server in servers.values():  # warm-up, and a check that each answers the sequence as json-server does
        client = HttpClient(server)
        for _ in range(WARMUP_SEQUENCES):
            statuses = run_sequence(client)
        client.close()
        expected = [status for *_, status in SEQUENCE]
        if statuses != expected:
            raise RuntimeError(f"{server.name} answered {statuses}, json-server's sequence is {expected}")
    for round_number in range(ROUNDS):
        for measured, server in zip(results, servers.values()):
            client = HttpClient(server)
            measure_round(measured, client)
            client.close()
        print(f"http: round {round_number + 1}/{ROUNDS} done", file=sys.stderr)
    return results


def _runtime() -> Any:
    from capenv.interpreter.pipeline import build_bundle
    from capenv.serving.runtime import EnvironmentRuntime

    return EnvironmentRuntime(build_bundle(CAPTURE))


def in_process_ceiling() -> Measured:
    runtime = _runtime()
    client = InProcessClient(runtime)
    for _ in range(WARMUP_SEQUENCES):
        run_sequence(client)
    measured = Measured("capenv runtime alone, no transport (`EnvironmentRuntime.http`)")
    for _ in range(ROUNDS):
        measure_round(measured, client)
    runtime.close()
    return measured


def profile_in_process() -> profiling.Profile:
    runtime = _runtime()
    client = InProcessClient(runtime)
    profile = profiling.profile_call(lambda: [run_sequence(client) for _ in range(PROFILED_SEQUENCES)], top=12)
    runtime.close()
    return profile


def profile_server_transport(directory: Path) -> profiling.Profile:
    """The server under ``python -m cProfile``, which profiles the main thread: the event loop
    (uvicorn, the ASGI app). It writes the profile when the server shuts down."""
    output = directory / "server.prof"
    server = start_capenv(CAPTURE, directory, profile_to=output)
    try:
        client = HttpClient(server)
        for _ in range(PROFILED_SEQUENCES):
            run_sequence(client)
        client.close()
    finally:
        server.stop()
    return profiling.summarise(pstats.Stats(str(output)), top=12)


def render(results: list[Measured], ceiling: Measured, ratio: float,
           profiles: dict[str, profiling.Profile]) -> list[str]:
    rows = []
    for measured in [*results, ceiling]:
        rows.append([measured.name, thousands(len(measured.samples_ns)), thousands(measured.calls_per_second),
                     thousands(measured.calls_per_second / len(SEQUENCE)),
                     microseconds(percentile(measured.samples_ns, 0.5)),
                     microseconds(percentile(measured.samples_ns, 0.99)),
                     " ".join(str(s) for s in measured.statuses)])
    calls = ", ".join(f"{method} {path}" for method, path, *_ in SEQUENCE)
    lines = [f"Sequence ({len(SEQUENCE)} calls): {calls}, the last reading the comment just deleted. "
             f"{WARMUP_SEQUENCES} warm-up sequences per server, then {ROUNDS} rounds of {SEQUENCES_PER_ROUND} "
             "sequences alternating between the servers, one keep-alive connection (Python's http.client) per "
             "round. The statuses are those of the first measured sequence: the same on every server.", ""]
    lines += table(["server", "calls", "calls/s", "sequences/s", "p50 µs", "p99 µs", "statuses"], rows, labels=1)
    lines += ["", "p50 µs by call of the sequence:", ""]
    lines += table(["server", *[f"{method} {path}" for method, path, *_ in SEQUENCE]],
                   [[m.name, *[microseconds(percentile(m.samples_ns[step::len(SEQUENCE)], 0.5))
                               for step in range(len(SEQUENCE))]] for m in [*results, ceiling]])
    per_call = 1e6 / next(m for m in results if m.name == CAPENV).calls_per_second
    runtime_per_call = 1e6 / ceiling.calls_per_second
    lines += ["", f"Target (reported, not asserted): the HTTP surface ≥ {TARGET_RATIO}× json-server's throughput. "
                  f"Measured: {ratio:.2f}× ({verdict(ratio >= TARGET_RATIO)}). A call over HTTP takes "
                  f"{per_call:,.0f} µs, of which the runtime is {runtime_per_call:,.0f} µs "
                  f"({runtime_per_call / per_call:.0%}); the rest is the client, the transport and the hop to the "
                  "runtime's worker thread."]
    for title, profile in profiles.items():
        lines += ["", *profiling.markdown(profile, f"Hot spots of {PROFILED_SEQUENCES} sequences in {title}")]
    return lines


if __name__ == "__main__":
    sys.exit(runner.main(["http", *sys.argv[1:]], {"http": run}))
