"""What a listener bounds before the app is reached (serving/transport/http_deadline): the
connections it keeps open at once (the budget ``listener_connections``; the grader's listener
counts its own), and a request h11 cannot take, answered with a JSON body that says why. Before,
connections were unbounded (uvicorn held as many as the process could open) and h11's refusals
were uvicorn's plain-text 400 "Invalid HTTP request received.". Loopback only; no timing asserted."""

from __future__ import annotations

import json
import socket

from transport_example_runtime import ExampleRuntime
from support.http_thread import http_in_thread

from capenv.interpreter.bundle.models import Budgets
from capenv.interpreter.rules_engine.loader import load_rules
from capenv.serving.transport.http_app import Access

CONNECTIONS = 3
TOKEN = "t"
BOUND = 10.0  # seconds a socket waits for an answer before the test fails (never reached when it passes)


class FewConnections(ExampleRuntime):
    def budgets(self) -> Budgets:
        return Budgets.model_validate({**load_rules().settings["budgets"], "listener_connections": CONNECTIONS})


def connect(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port))
    sock.settimeout(BOUND)
    return sock


def answer(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """One whole answer: status, headers (lower-case names), body (its Content-Length)."""
    received = b""
    while b"\r\n\r\n" not in received:
        chunk = sock.recv(65536)
        assert chunk, f"closed before an answer: {received!r}"
        received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {name.strip().lower(): value.strip() for name, value in (line.split(":", 1) for line in lines[1:])}
    while len(body) < int(headers.get("content-length", "0")):
        chunk = sock.recv(65536)
        assert chunk, "closed within the body"
        body += chunk
    return int(lines[0].split()[1]), headers, body


def closed(sock: socket.socket) -> bool:
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:
        return True


def get(sock: socket.socket, path: str, port: int, *extra: bytes) -> tuple[int, dict[str, str], bytes]:
    sock.sendall(b"GET " + path.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1:" + str(port).encode() + b"\r\n"
                 + b"".join(extra) + b"\r\n")
    return answer(sock)


def test_a_connection_past_the_budget_is_refused_saying_so_and_a_closed_one_frees_its_place() -> None:
    with http_in_thread(FewConnections(), access=Access(data_listen=("127.0.0.1", 0), data_token=TOKEN)) as serving:
        port = serving.port
        held = [connect(port) for _ in range(CONNECTIONS)]
        for sock in held:
            assert get(sock, "/items", port)[0] == 200  # answered, and kept alive
        past = connect(port)
        status, headers, body = get(past, "/items", port)
        refusal = json.loads(body)
        assert status == 503 and headers["content-type"] == "application/json", (status, body)
        assert refusal["error"] == "resource_constraint" and refusal["limit_connections"] == CONNECTIONS
        assert f"already has {CONNECTIONS} connections open" in refusal["message"]
        assert "listener_connections" in refusal["message"]
        assert closed(past)
        for sock in held:  # the connections admitted are unaffected
            assert get(sock, "/items", port)[0] == 200
        # the grader's listener keeps its own count: answered while the agent's is full
        with connect(serving.data_port) as grader:
            status, _, body = get(grader, "/_capenv/data/get", serving.data_port,
                                  b"Authorization: Bearer " + TOKEN.encode() + b"\r\n")
            assert status == 200, body
        held.pop().close()
        for _ in range(200):  # until the server has seen the close (a bounded loop, no timing)
            with connect(port) as again:
                status = get(again, "/items", port)[0]
            if status == 200:
                break
            assert status == 503
        assert status == 200
        for sock in held:
            sock.close()


def test_a_head_past_h11s_limit_is_431_with_a_json_body_saying_why() -> None:
    with http_in_thread(ExampleRuntime(), access=Access(data_token=TOKEN)) as serving, connect(serving.port) as sock:
        # 20 KiB of one header, unended: past h11's 16 KiB, and read whole (so closing resets nothing)
        sock.sendall(b"GET /items HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Long: " + b"a" * 20480)
        status, headers, body = answer(sock)
        assert status == 431 and headers["content-type"] == "application/json", (status, body)
        refused = json.loads(body)
        assert refused["error"] == "invalid_request" and "over 16384 bytes" in refused["message"], refused
        assert closed(sock)


class SmallHeads(ExampleRuntime):
    def budgets(self) -> Budgets:
        return Budgets.model_validate({**load_rules().settings["budgets"], "request_head_bytes": 4096})


def test_the_head_limit_is_the_budget_request_head_bytes() -> None:
    with http_in_thread(SmallHeads(), access=Access(data_token=TOKEN)) as serving:
        with connect(serving.port) as sock:  # 3 KiB of headers: under the budget, answered
            assert get(sock, "/items", serving.port, b"X-Long: " + b"a" * 3072 + b"\r\n")[0] == 200
        with connect(serving.port) as sock:  # 6 KiB, unended: past it (under h11's own 16 KiB)
            sock.sendall(b"GET /items HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Long: " + b"a" * 6144)
            status, _, body = answer(sock)
            refused = json.loads(body)
            assert status == 431 and "over 4096 bytes" in refused["message"], (status, body)
            assert "budget request_head_bytes" in refused["message"]


def test_a_request_h11_cannot_parse_is_400_with_a_json_body() -> None:
    with http_in_thread(ExampleRuntime(), access=Access(data_token=TOKEN)) as serving, connect(serving.port) as sock:
        sock.sendall(b"GET /items HTTP/1.1\r\nHost: 127.0.0.1\r\nNot a header line\r\n\r\n")
        status, headers, body = answer(sock)
        assert status == 400 and headers["content-type"] == "application/json", (status, body)
        assert "not HTTP/1.1 this server can parse" in json.loads(body)["message"]
        assert closed(sock)
