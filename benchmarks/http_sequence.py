"""Section (c)'s call sequence, and the clients that send it over HTTP or straight to the runtime."""

from __future__ import annotations

import http.client
import itertools
import json
import time
from dataclasses import dataclass, field
from typing import Any

from benchmarks.servers import Server

NEW_COMMENT = {"postId": 1, "body": "benchmark"}
EDIT = {"body": "edited"}
_BODIES = itertools.count(1)
"""Each create and edit sends a body of its own: two comments are held at once, and the capture
shows every body distinct, so a repeated one is refused."""


def numbered(body: dict[str, Any]) -> dict[str, Any]:
    return {**body, "body": f"{body['body']} {next(_BODIES)}"}
# Comments, not posts: a post's delete also deletes its comments in json-server (a side effect
# capenv does not serve), so the sequence would end in a refusal.
# A sequence deletes the comment the sequence before it made ({previous}), never the newest: a
# create after the newest one's delete is refused where the capture cannot say the id is not reused
# (json-server 0.17 reuses it).
SEQUENCE = (  # (method, path with {id} for the created comment, body, the status json-server answers)
    ("POST", "/comments", NEW_COMMENT, 201),
    ("GET", "/comments/{id}", None, 200),
    ("PATCH", "/comments/{id}", EDIT, 200),
    ("GET", "/comments", None, 200),
    ("DELETE", "/comments/{previous}", None, 200),
    ("GET", "/comments/{previous}", None, 404),
)


@dataclass
class Measured:
    name: str
    samples_ns: list[int] = field(default_factory=list)
    wall_seconds: float = 0.0
    statuses: list[int] = field(default_factory=list)
    """The statuses of the first measured sequence, to show both did the same calls."""
    rounds: list[float] = field(default_factory=list)
    """Calls/s in each round."""
    cpu_per_call: list[float] = field(default_factory=list)
    """The server's CPU seconds per call in each round (servers over HTTP)."""
    client_cpu_per_call: list[float] = field(default_factory=list)
    """The client's (this process's) CPU seconds per call in each round (servers over HTTP): an
    answer with more headers costs the client more to read."""

    @property
    def calls_per_second(self) -> float:
        return len(self.samples_ns) / self.wall_seconds


# --- one sequence, over HTTP or in-process --------------------------------------------------

class HttpClient:
    def __init__(self, server: Server) -> None:
        self.connection = http.client.HTTPConnection(server.host, server.port, timeout=30)
        self.previous: Any = None  # the comment the last sequence made (run_sequence)

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
        self.previous: Any = None  # the comment the last sequence made (run_sequence)

    def send(self, method: str, path: str, body: bytes | None) -> tuple[int, bytes]:
        headers = (("content-type", "application/json"),) if body is not None else ()
        answer = self.runtime.http(self.request(method, path, (), headers, body or b""))
        return answer.status, answer.body

    def close(self) -> None:
        pass


def _create(client: Any) -> Any:
    status, answer = client.send("POST", "/comments", json.dumps(numbered(NEW_COMMENT)).encode())
    return json.loads(answer)["id"] if status == 201 else None


def run_sequence(client: Any, samples: list[int] | None = None) -> list[int]:
    """One sequence; the client keeps the comment it made for the next one to delete (the first
    makes one more, unmeasured)."""
    previous = client.previous
    if previous is None:
        previous = _create(client)
    statuses, created = [], None
    for method, path, body, _ in SEQUENCE:
        body = numbered(body) if body is NEW_COMMENT or body is EDIT else body
        encoded = json.dumps(body).encode() if body is not None else None
        before = time.perf_counter_ns()
        status, answer = client.send(method, path.replace("{id}", str(created)).replace("{previous}", str(previous)),
                                     encoded)
        if samples is not None:
            samples.append(time.perf_counter_ns() - before)
        if created is None:
            created = json.loads(answer).get("id") if status == 201 else "not-created"
        statuses.append(status)
    client.previous = created
    return statuses


def run_sequences(measured: Measured, client: Any, sequences: int) -> float:
    """``sequences`` sequences, their calls' latencies kept in ``measured``; their wall seconds."""
    started = time.perf_counter()
    for _ in range(sequences):
        statuses = run_sequence(client, measured.samples_ns)
        if not measured.statuses:
            measured.statuses = statuses
    took = time.perf_counter() - started
    measured.wall_seconds += took
    return took


def measure_round(measured: Measured, client: Any, sequences: int) -> None:
    measured.rounds.append(sequences * len(SEQUENCE) / run_sequences(measured, client, sequences))
