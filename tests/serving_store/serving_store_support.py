"""Helpers for the tests of serving on the store: the PostgreSQL test server, ``capenv`` as a
subprocess, a server process on loopback, and small HTTP and MCP clients."""

from __future__ import annotations

import http.client
import json
import re
import secrets
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from support.postgres import postgres_url
from support.served import GRADER_TOKEN, capenv_command

START_TIMEOUT_SECONDS = 60.0
CALL_TIMEOUT_SECONDS = 30.0
POST_BODY = {"title": "load", "author": "tester", "views": 1, "published": False, "tags": ["x"]}



# --- PostgreSQL -----------------------------------------------------------------------------




@contextmanager
def fresh_schema() -> Iterator[str]:
    """A store URL naming a new schema on the test server; the schema is dropped afterwards."""
    import psycopg

    url = postgres_url()
    schema = f"capenv_served_{secrets.token_hex(6)}"
    try:
        yield f"{url}{'&' if '?' in url else '?'}schema={schema}"
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


# --- capenv serve as a subprocess that keeps running ------------------------------------------


@dataclass
class ServerProcess:
    process: subprocess.Popen
    base_url: str
    log: Path

    @property
    def port(self) -> int:
        return int(self.base_url.rsplit(":", 1)[1])

    def kill(self) -> None:
        """SIGKILL: no cleanup of any kind runs."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=START_TIMEOUT_SECONDS)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=START_TIMEOUT_SECONDS)
            except subprocess.TimeoutExpired:
                self.kill()


_SERVING_LINE = re.compile(r"capenv serving on (http://\S+)")


def start_server(bundle: Path, store_url: str, log: Path) -> ServerProcess:
    """``capenv serve BUNDLE --http 127.0.0.1:0 --store URL``, once it prints where it listens."""
    errors = log.open("wb")
    process = subprocess.Popen(capenv_command() + ["serve", str(bundle), "--http", "127.0.0.1:0", "--store", store_url,
                                                   "--data-token", GRADER_TOKEN],
                               stdout=subprocess.PIPE, stderr=errors, text=True)
    errors.close()
    found: list[str] = []

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:  # read to the end, so the pipe never fills
            match = _SERVING_LINE.search(line)
            if match and not found:
                found.append(match.group(1))

    threading.Thread(target=read, daemon=True).start()
    deadline = time.monotonic() + START_TIMEOUT_SECONDS
    while not found and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.02)
    if not found:
        process.kill()
        raise RuntimeError(f"capenv serve did not start: {log.read_text(errors='replace')[-2000:]}")
    return ServerProcess(process, found[0], log)


@contextmanager
def serving(bundle: Path, store_url: str, log: Path) -> Iterator[ServerProcess]:
    server = start_server(bundle, store_url, log)
    try:
        yield server
    finally:
        server.stop()


# --- clients ---------------------------------------------------------------------------------


class HttpClient:
    """Requests to a server's application paths and data plane.

    One connection per request: on a reused connection the server's second small write of an
    answer can wait for the client's delayed ACK (about 40 ms) while its listening socket is
    made without TCP_NODELAY, which would make a write load measure that wait instead.
    """

    def __init__(self, port: int) -> None:
        self.port = port

    def request(self, method: str, path: str, body: Any = None,
                headers: dict[str, str] | None = None) -> tuple[int, bytes]:
        data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
        sent = {"content-type": "application/json", **(headers or {})} if data is not None else dict(headers or {})
        if path.startswith("/_capenv/"):  # the grader's calls carry its token
            sent.setdefault("authorization", f"Bearer {GRADER_TOKEN}")
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=CALL_TIMEOUT_SECONDS)
        try:
            connection.request(method, path, body=data, headers=sent)
            response = connection.getresponse()
            return response.status, response.read()
        finally:
            connection.close()

    def json(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> Any:
        status, data = self.request(method, path, body, headers)
        assert 200 <= status < 300, (status, data[:500])
        return json.loads(data)

    def close(self) -> None:
        return None


def posts_of(document: dict[str, Any]) -> list[dict[str, Any]]:
    """The entities of ``/posts`` in a data/get document."""
    collection = next(c for c in document["collections"] if c["path"] == "/posts")
    return collection["entities"]
