"""The agent/grader split over real sockets (issue "Safe to hand to an agent"): the data plane is
never the agent's, Host and Origin are checked on every listener whatever its bind address,
CORS answers only origins named with --cors, and bodies that are not JSON are refused. Binds at
127.0.0.1, 127.0.0.2 and ::1; loopback only."""

from __future__ import annotations

import http.client
import json
import socket
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from transport_example_runtime import INITIAL_STATE, ExampleRuntime  # noqa: E402

from support.http_thread import READY_TIMEOUT_SECONDS, http_in_thread, port_free_on  # noqa: E402

from capenv.serving.transport.http_app import Access  # noqa: E402
from capenv.serving.transport.http_app import listener_policies  # noqa: E402
from capenv.serving.transport.http_guard import allowed_hosts, check_json_body, policy_for_server  # noqa: E402


def _ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as probe:
            probe.bind(("::1", 0))
        return True
    except OSError:
        return False


BINDS = ["127.0.0.1", "127.0.0.2",
         pytest.param("::1", marks=pytest.mark.skipif(not _ipv6_loopback(), reason="no IPv6 loopback here"))]
MCP_INITIALIZE = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}).encode()


def request(host: str, port: int, method: str, path: str, body: bytes | None = None,
            headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection(host, port, timeout=READY_TIMEOUT_SECONDS)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def own_host(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


@pytest.mark.parametrize("bind", BINDS)
def test_the_agents_listener_never_serves_the_data_plane_without_the_token(bind: str) -> None:
    runtime = ExampleRuntime()
    with http_in_thread(runtime, host=bind) as serving:
        assert serving.data_token  # generated, since neither --data nor --data-token was given
        for method, path in (("GET", "/_capenv/data/get"), ("POST", "/_capenv/data/reset")):
            for auth in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": f"Basic {serving.data_token}"}):
                status, headers, body = request(bind, serving.port, method, path, headers=auth)
                assert status == 401, (path, auth, body)
                assert "Bearer" in headers["www-authenticate"] and b"token" in body
        runtime.state = {"changed": True}
        status, _, body = request(bind, serving.port, "GET", "/_capenv/data/get",
                                  headers={"Authorization": f"Bearer {serving.data_token}"})
        assert status == 200 and json.loads(body) == {"changed": True}


@pytest.mark.parametrize("bind", BINDS)
def test_a_grader_listener_of_its_own_takes_the_data_plane_away_from_the_agent(bind: str) -> None:
    runtime = ExampleRuntime()
    with http_in_thread(runtime, host=bind, access=Access(data_listen=(bind, 0))) as serving:
        assert serving.data_port not in (None, serving.port) and serving.data_token is None
        status, _, body = request(bind, serving.port, "GET", "/_capenv/data/get")
        assert status == 404 and b"not served on this listener" in body
        status, _, body = request(bind, serving.data_port, "GET", "/_capenv/data/get")
        assert status == 200 and json.loads(body) == INITIAL_STATE
        # the grader's listener serves nothing of the agent's
        assert request(bind, serving.data_port, "GET", "/posts/1")[0] == 404
        assert request(bind, serving.data_port, "POST", "/mcp", MCP_INITIALIZE,
                       {"content-type": "application/json", "accept": "application/json, text/event-stream"})[0] == 404
        assert request(bind, serving.port, "GET", "/posts/1")[0] == 200


def test_a_grader_listener_on_the_agents_port_at_another_address_stays_the_graders() -> None:
    # Both listeners on one port number: a request is the grader's only when it reached the
    # grader's socket, whatever Host it names (the agent sets its own Host header).
    port = port_free_on("127.0.0.1", "127.0.0.2")
    runtime = ExampleRuntime()
    with http_in_thread(runtime, "127.0.0.1", port, access=Access(data_listen=("127.0.0.2", port))) as serving:
        assert (serving.port, serving.data_port) == (port, port)
        for host in (f"127.0.0.1:{port}", f"127.0.0.2:{port}"):
            for method, path, body in (("GET", "/_capenv/data/get", None), ("POST", "/_capenv/data/reset", b"{}"),
                                       ("POST", "/_capenv/data/add", json.dumps({"changed": True}).encode())):
                status, _, answer = request("127.0.0.1", port, method, path, body,
                                            {"Host": host, "content-type": "application/json"})
                assert status in (404, 421), (host, path, status, answer)
                assert b"not served on this listener" in answer or b"not a name this server answers to" in answer
        assert runtime.state == INITIAL_STATE
        assert request("127.0.0.1", port, "GET", "/posts/1")[0] == 200
        status, _, body = request("127.0.0.2", port, "GET", "/_capenv/data/get")
        assert status == 200 and json.loads(body) == INITIAL_STATE
        assert request("127.0.0.2", port, "GET", "/posts/1")[0] == 404  # the grader's serves nothing of the agent's


@pytest.mark.parametrize("bind", BINDS)
@pytest.mark.parametrize("path", ["/posts/1", "/mcp", "/_capenv/data/get"])
def test_a_foreign_host_is_refused_on_every_surface(bind: str, path: str) -> None:
    runtime = ExampleRuntime()
    with http_in_thread(runtime, host=bind) as serving:
        auth = {"Authorization": f"Bearer {serving.data_token}"}
        for host in ("evil.example", f"evil.example:{serving.port}", "127.0.0.1.nip.io"):
            status, _, body = request(bind, serving.port, "GET", path, headers={"Host": host, **auth})
            assert status == 421, (host, body)
            assert b"--allow-host" in body
        assert runtime.http_requests == []


@pytest.mark.parametrize("bind", BINDS)
def test_a_foreign_origin_cannot_read_reset_or_write(bind: str) -> None:
    runtime = ExampleRuntime()
    with http_in_thread(runtime, host=bind) as serving:
        evil = {"Origin": "http://evil.example", "Authorization": f"Bearer {serving.data_token}"}
        for method, path, body in (("GET", "/_capenv/data/get", None), ("POST", "/_capenv/data/reset", b""),
                                   ("POST", "/posts", b"{}"), ("POST", "/mcp", MCP_INITIALIZE)):
            headers = {**evil, "content-type": "application/json", "accept": "application/json, text/event-stream"}
            status, answer_headers, answer = request(bind, serving.port, method, path, body, headers)
            assert status == 403, (path, answer)
            assert "access-control-allow-origin" not in answer_headers
        assert runtime.http_requests == []
        # the server's own origin is fine
        own = {"Origin": f"http://{own_host(bind, serving.port)}", "content-type": "application/json"}
        assert request(bind, serving.port, "POST", "/posts", b"{}", own)[0] == 201


@pytest.mark.parametrize("bind", BINDS)
def test_bodies_that_are_not_json_are_refused_with_415(bind: str) -> None:
    runtime = ExampleRuntime()
    with http_in_thread(runtime, host=bind) as serving:
        auth = {"Authorization": f"Bearer {serving.data_token}"}
        for content_type in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"):
            status, _, body = request(bind, serving.port, "POST", "/posts", b'{"title":"x"}',
                                      {"content-type": content_type})
            assert status == 415 and b"must be JSON" in body
            status, _, body = request(bind, serving.port, "POST", "/_capenv/data/add", b'{"a": 1}',
                                      {"content-type": content_type, **auth})
            assert status == 415
        assert runtime.http_requests == [] and runtime.state == INITIAL_STATE
        ok = request(bind, serving.port, "PATCH", "/posts/1", b"{}", {"content-type": "application/merge-patch+json"})
        assert ok[0] == 200


def test_cors_answers_only_the_origins_named() -> None:
    runtime = ExampleRuntime()
    allowed = "http://grader.example:3000"
    with http_in_thread(runtime, access=Access(cors_origins=(allowed,))) as serving:
        preflight = {"Origin": allowed, "Access-Control-Request-Method": "POST",
                     "Access-Control-Request-Headers": "content-type"}
        status, headers, _ = request("127.0.0.1", serving.port, "OPTIONS", "/posts", headers=preflight)
        assert status == 204 and headers["access-control-allow-origin"] == allowed
        assert "POST" in headers["access-control-allow-methods"]
        status, headers, _ = request("127.0.0.1", serving.port, "POST", "/posts", b"{}",
                                     {"Origin": allowed, "content-type": "application/json"})
        assert status == 201 and headers["access-control-allow-origin"] == allowed
        other = {**preflight, "Origin": "http://other.example"}
        assert request("127.0.0.1", serving.port, "OPTIONS", "/posts", headers=other)[0] == 403


def test_allow_host_adds_a_name() -> None:
    runtime = ExampleRuntime()
    with http_in_thread(runtime, access=Access(allow_hosts=("capenv.internal",))) as serving:
        status, _, _ = request("127.0.0.1", serving.port, "GET", "/posts/1",
                               headers={"Host": f"capenv.internal:{serving.port}"})
        assert status == 200


def test_allowed_hosts_follow_the_bind_address() -> None:
    assert allowed_hosts("127.0.0.1", 80) == {"127.0.0.1:80", "localhost:80"}
    assert allowed_hosts("127.0.0.2", 9) == {"127.0.0.2:9"}
    assert allowed_hosts("::1", 9) == {"[::1]:9", "localhost:9"}
    assert allowed_hosts("0.0.0.0", 9) == {"127.0.0.1:9", "localhost:9", "[::1]:9"}
    assert allowed_hosts("127.0.0.1", 9, ["Box.LAN", "proxy:8443"]) >= {"box.lan:9", "proxy:8443"}


def test_json_bodies_pass_and_others_do_not() -> None:
    assert check_json_body("POST", {"content-type": "application/json; charset=utf-8"}, b"{}") is None
    assert check_json_body("PUT", {"content-type": "application/vnd.api+json"}, b"{}") is None
    assert check_json_body("DELETE", {}, b"") is None  # no body, nothing to declare
    assert check_json_body("GET", {"content-type": "text/plain"}, b"x") is None
    assert check_json_body("POST", {}, b"{}").status == 415
    assert check_json_body("POST", {"content-type": "text/json-ish"}, b"{}").status == 415


def test_a_request_gets_the_policy_of_the_socket_it_reached_never_of_its_port_alone() -> None:
    def serves_data(policies, server) -> bool:
        return not policy_for_server(policies, server).serves_application

    one_port = listener_policies(Access(data_listen=("127.0.0.2", 8000)), ("10.0.0.5", 8000), ("127.0.0.2", 8000))
    assert serves_data(one_port, ("127.0.0.2", 8000))
    assert not serves_data(one_port, ("10.0.0.5", 8000))
    assert not serves_data(one_port, ("127.0.0.1", 8000))  # a socket it does not know: the agent's
    assert not serves_data(one_port, None)
    # a wildcard bind of each family on one port (IPv6 sockets bind v6-only): each its own family's
    families = listener_policies(Access(data_listen=("::", 8000)), ("0.0.0.0", 8000), ("::", 8000))
    assert serves_data(families, ("::1", 8000)) and not serves_data(families, ("127.0.0.1", 8000))
    # a bound name (localhost) is keyed by the address its socket holds
    named = listener_policies(Access(data_listen=("localhost", 8001)), ("localhost", 8000), ("localhost", 8001),
                              agent_socket=("127.0.0.1", 8000), data_socket=("127.0.0.1", 8001))
    assert serves_data(named, ("127.0.0.1", 8001)) and not serves_data(named, ("127.0.0.1", 8000))


class CountingRuntime(ExampleRuntime):
    """The example runtime, counting every data-plane call that reached it."""

    def __init__(self) -> None:
        super().__init__()
        self.data_calls: list[str] = []

    def data_get(self) -> bytes:
        self.data_calls.append("get")
        return super().data_get()

    def data_reset(self) -> None:
        self.data_calls.append("reset")
        super().data_reset()

    def data_add(self, document: bytes) -> None:
        self.data_calls.append("add")
        super().data_add(document)


def raw_exchange(port: int, data: bytes) -> list[tuple[int, bytes]]:
    """Send ``data`` as is on one connection (pipelined requests too); each answer's status and bytes."""
    with socket.create_connection(("127.0.0.1", port), timeout=READY_TIMEOUT_SECONDS) as connection:
        connection.sendall(data)
        received = b""
        while chunk := connection.recv(65536):
            received += chunk
    answers = []
    for part in received.split(b"HTTP/1.1 ")[1:]:
        answers.append((int(part[:3]), part))
    return answers


def data_plane_spellings(port: int, token: str) -> list[str]:
    """Request targets an agent might hope the server takes for a data-plane route."""
    tails = ["get", "reset", "add"]
    targets = [f"/_capenv/data/{t}" for t in tails]
    targets += [f"/%5Fcapenv/data/{t}" for t in tails] + ["/%5fcapenv%2fdata%2fget", "/_capenv%2Fdata%2Freset"]
    targets += ["//_capenv/data/get", "/_capenv/../_capenv/data/get", "/x/../_capenv/data/reset", "/_capenv/./data/get",
                "/_CAPENV/data/get", "/_Capenv/Data/Reset", "/_capenv/data/get/", "/_capenv/data/get.",
                "/_capenv/data//reset", f"http://127.0.0.1:{port}/_capenv/data/get",
                f"http://127.0.0.1:{port}/_capenv/data/reset", f"/_capenv/data/get?token={token}",
                f"/_capenv/data/reset?access_token={token}&authorization=Bearer%20{token}"]
    return targets


def test_no_spelling_method_or_header_trick_reaches_the_data_plane_without_the_token() -> None:
    runtime = CountingRuntime()
    with http_in_thread(runtime, access=Access(data_token="grader-secret")) as serving:
        port, token = serving.port, "grader-secret"
        runtime.state = {"changed": True}  # a reset or an add would show
        host = f"Host: 127.0.0.1:{port}\r\nconnection: close\r\n"
        requests = []
        for target in data_plane_spellings(port, token):
            for method in ("GET", "HEAD", "POST", "OPTIONS"):
                body = b'{"posts": []}' if method == "POST" else b""
                requests.append(f"{method} {target} HTTP/1.1\r\n{host}content-type: application/json\r\n"
                                f"content-length: {len(body)}\r\n\r\n".encode() + body)
        for tricks in (
            # the token in another header, a wrong scheme, a wrong token first and the right one after it
            {"X-Forwarded-Authorization": f"Bearer {token}", "X-Original-URL": "/_capenv/data/get"},
            {"Authorization": f"Token {token}"}, {"Authorization": f"Basic {token}"},
            {"Authorization": f"Bearer {token}x"}, {"Authorization": f"Bearer {token[:-1]}"},
            {"Authorization": "Bearer"}, {"Authorization": "Bearer "},
            {"X-Forwarded-For": "127.0.0.1", "X-Forwarded-Host": f"127.0.0.1:{port}", "X-Real-IP": "127.0.0.1"},
        ):
            extra = "".join(f"{name}: {value}\r\n" for name, value in tricks.items())
            requests.append(f"POST /_capenv/data/reset HTTP/1.1\r\n{host}{extra}content-length: 0\r\n\r\n".encode())
        requests.append(f"GET /_capenv/data/get HTTP/1.1\r\n{host}Authorization: Bearer wrong\r\n"
                        f"Authorization: Bearer {token}\r\n\r\n".encode())
        requests.append(f"GET /_capenv/data/get HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        requests.append(b"GET /_capenv/data/get HTTP/1.0\r\n\r\n")
        state = json.dumps({"changed": True}).encode()
        for sent in requests:
            answers = raw_exchange(port, sent)
            assert len(answers) == 1, (sent, answers)
            status, answer = answers[0]
            assert state not in answer, (sent, answer[:300])
            if status < 400:  # a spelling that is the application's path: the application answered it
                assert sent.split(b" ")[1].split(b"?")[0] not in (b"/_capenv/data/get", b"/_capenv/data/reset",
                                                                  b"/_capenv/data/add"), (sent, status)
        assert runtime.data_calls == [] and runtime.state == {"changed": True}
        # a pipelined request after the grader's own carries no token of its predecessor's
        host = f"Host: 127.0.0.1:{port}\r\n"
        graders = f"GET /_capenv/data/get HTTP/1.1\r\n{host}Authorization: Bearer {token}\r\n\r\n".encode()
        agents = f"POST /_capenv/data/reset HTTP/1.1\r\n{host}content-length: 0\r\nconnection: close\r\n\r\n".encode()
        (first, _), (second, _) = raw_exchange(port, graders + agents)
        assert (first, second) == (200, 401) and runtime.data_calls == ["get"] and runtime.state == {"changed": True}
