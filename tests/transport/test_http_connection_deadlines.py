"""Connections that never finish a request, or stay idle, are closed within a bounded time
(serving/transport/http_deadline; the budgets ``request_deadline_seconds``, ``keep_alive_seconds``):
before, uvicorn held a silent connection, or one trickling its headers, for ever (0 of 20 closed
after 75 s)."""

from __future__ import annotations

import socket
import time

import httpx2

from transport_example_runtime import ExampleRuntime
from support.http_thread import http_in_thread

from capenv.interpreter.bundle.models import Budgets
from capenv.interpreter.rules_engine.loader import load_rules
from capenv.serving.transport.http_app import Access

DEADLINE = 1.0
KEEP_ALIVE = 1.0
BOUND = 8.0  # what "closed" must take at most, deadline and scheduling slack included
TRICKLE_SECONDS = 3 * DEADLINE
"""How long a slow request takes to send: past the shortened deadline, well within the table's."""


class ShortDeadlines(ExampleRuntime):
    def budgets(self) -> Budgets:
        return Budgets.model_validate({**load_rules().settings["budgets"], "request_deadline_seconds": DEADLINE,
                                       "keep_alive_seconds": KEEP_ALIVE})


def closed_within(sock: socket.socket, bound: float) -> float:
    """Seconds until the server closed ``sock`` (it reads what the server sent, if anything)."""
    start = time.monotonic()
    sock.settimeout(bound)
    try:
        while sock.recv(4096):
            pass
    except ConnectionResetError:
        pass
    return time.monotonic() - start


def test_silent_trickling_and_idle_connections_are_closed_and_whole_requests_answered() -> None:
    with http_in_thread(ShortDeadlines(), access=Access(data_token="t")) as serving:
        address = ("127.0.0.1", serving.port)
        silent = [socket.create_connection(address) for _ in range(5)]
        trickling = [socket.create_connection(address) for _ in range(5)]
        for sock in trickling:
            sock.sendall(b"GET /items HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # the blank line never comes
        half_body = socket.create_connection(address)
        half_body.sendall(b"POST /items HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                          b"Content-Length: 100\r\n\r\n{\"a\":")
        kept = socket.create_connection(address)
        kept.sendall(b"GET /nowhere HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert kept.recv(4096).startswith(b"HTTP/1.1 ")  # a whole request is answered; then it idles
        for sock in silent + trickling + [half_body, kept]:
            assert closed_within(sock, BOUND) < BOUND
            sock.close()


def test_the_deadline_budget_decides_whether_a_slow_request_is_answered_or_closed() -> None:
    """The same request, its header lines sent over ``TRICKLE_SECONDS``: answered under the table's
    deadline, its connection closed under a budget of ``DEADLINE``."""
    for runtime, answered in ((ExampleRuntime(), True), (ShortDeadlines(), False)):
        with http_in_thread(runtime, access=Access(data_token="t")) as serving, \
                socket.create_connection(("127.0.0.1", serving.port)) as sock:
            sock.settimeout(BOUND)
            lines = [b"GET /items HTTP/1.1\r\n", b"Host: 127.0.0.1:" + str(serving.port).encode() + b"\r\n",
                     b"Accept: */*\r\n", b"\r\n"]
            for line in lines:
                try:
                    sock.sendall(line)
                except OSError:  # the server closed the connection: the write is reset
                    break
                time.sleep(TRICKLE_SECONDS / (len(lines) - 1))
            try:
                answer = whole_answer(sock)
            except OSError:
                answer = b"(reset)"
            assert answer.startswith(b"HTTP/1.1 200") is answered, (type(runtime).__name__, answer[:40])


def test_an_idle_connection_outlives_the_clients_pool_expiry() -> None:
    """A client's pool reuses an idle connection until its own expiry (httpx, the MCP SDK's client:
    5 s): a server closing it at that moment resets the request the client just sent (ReadError,
    not retried for a POST). At uvicorn's default 5 s, one tool call in a loaded CI run was lost."""
    expiry = httpx2.Limits().keepalive_expiry
    with http_in_thread(ExampleRuntime(), access=Access(data_token="t")) as serving:
        with socket.create_connection(("127.0.0.1", serving.port)) as sock:
            request = b"GET /items HTTP/1.1\r\nHost: 127.0.0.1:" + str(serving.port).encode() + b"\r\n\r\n"
            sock.settimeout(BOUND)
            sock.sendall(request)
            assert whole_answer(sock).startswith(b"HTTP/1.1 200")
            time.sleep(expiry + 1)
            sock.sendall(request)
            assert whole_answer(sock).startswith(b"HTTP/1.1 200")


def whole_answer(sock: socket.socket) -> bytes:
    """One answer read whole (its headers and its Content-Length of body), so the next is next."""
    received = b""
    while b"\r\n\r\n" not in received:
        received += sock.recv(4096) or b"(closed)\r\n\r\n"
    head, _, body = received.partition(b"\r\n\r\n")
    length = next((int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                   if line.lower().startswith(b"content-length:")), 0)
    while len(body) < length:
        body += sock.recv(4096) or b"(closed)"
    return received
