"""The plain HTTP side of ``capenv serve --http``: the application's paths, the data plane,
body limits, and the ``capenv data`` client. Loopback only."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from transport_example_runtime import INITIAL_STATE, SECRET, ExampleRuntime  # noqa: E402
from example_http_server import EXAMPLE_TOKEN  # noqa: E402
from transport_servers import HTTP_SERVER_SCRIPT  # noqa: E402

from support.http_thread import READY_TIMEOUT_SECONDS, http_in_thread  # noqa: E402

from capenv.serving.transport import data_client  # noqa: E402
from capenv.serving.transport.data_client import DataPlaneError  # noqa: E402
from capenv.serving.transport.agent_limits import AgentLimits  # noqa: E402
from capenv.serving.transport.http_app import HttpServing, run_http  # noqa: E402
from capenv.serving.transport.http_exchange import raw_target, split_query  # noqa: E402

SMALL_LIMIT = 4096  # the transport's body limit in most tests, so oversize bodies stay small


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[ExampleRuntime, HttpServing]]:
    runtime = ExampleRuntime(max_document_bytes=1024)
    with http_in_thread(runtime, body_limit=SMALL_LIMIT) as serving:
        yield runtime, serving


def exchange(serving: HttpServing, method: str, target: str, body: bytes | None = None,
             headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """One request with ``http.client``, which sends the target exactly as given."""
    connection = http.client.HTTPConnection("127.0.0.1", serving.port, timeout=READY_TIMEOUT_SECONDS)
    sent = dict(headers or {})
    if body is not None and not any(k.lower() == "content-type" for k in sent):
        sent["Content-Type"] = "application/json"
    if target.startswith("/_capenv/") and serving.data_token:  # the grader's calls carry its token
        sent.setdefault("Authorization", f"Bearer {serving.data_token}")
    try:
        connection.request(method, target, body=body, headers=sent)
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


# --- the application's own surface ------------------------------------------------


def test_raw_path_and_query_reach_the_runtime_as_sent(server) -> None:
    runtime, serving = server
    status, headers, body = exchange(serving, "GET", "/a%61/b?x=%20&x=2", headers={"X-Trace": "t-1"})
    assert status == 200
    echoed = json.loads(body)
    assert echoed["path"] == "/a%61/b"
    assert echoed["query"] == [["x", "%20"], ["x", "2"]]
    assert echoed["query_string"] == "x=%20&x=2"
    assert ["x-trace", "t-1"] in echoed["headers"]
    request = runtime.http_requests[-1]
    assert (request.method, request.path, request.query) == ("GET", "/a%61/b", (("x", "%20"), ("x", "2")))
    # The runtime's recorded content-length (999) is replaced by the real one.
    assert headers["content-length"] == str(len(body))
    assert headers["x-app"] == "example"
    assert "server" not in headers and "date" not in headers


def test_any_method_and_body_reach_the_runtime(server) -> None:
    runtime, serving = server
    status, _, body = exchange(serving, "PATCH", "/posts/1?", body=b'{"title":"x"}',
                               headers={"Content-Type": "application/json"})
    assert status == 200
    echoed = json.loads(body)
    seen = (echoed["method"], echoed["path"], echoed["query"], echoed["body"])
    assert seen == ("PATCH", "/posts/1", [], '{"title":"x"}')
    assert exchange(serving, "POST", "/posts", body=b"{}")[0] == 201


def test_reserved_paths_spelled_differently_belong_to_the_application(server) -> None:
    _, serving = server
    status, _, body = exchange(serving, "GET", "/_capenv%2Fdata/get")
    assert status == 200 and json.loads(body)["path"] == "/_capenv%2Fdata/get"


def test_runtime_exception_is_a_500_without_detail(server) -> None:
    _, serving = server
    status, headers, body = exchange(serving, "GET", "/boom")
    assert status == 500
    assert headers["content-type"] == "application/json"
    assert json.loads(body) == {"error": "internal", "message": "internal error"}
    assert SECRET.encode() not in body and b"Traceback" not in body


def test_application_body_past_the_limit_is_refused(server) -> None:
    runtime, serving = server
    before = len(runtime.http_requests)
    status, _, body = exchange(serving, "POST", "/posts", body=b"x" * (SMALL_LIMIT + 1))
    assert status == 413 and json.loads(body)["error"] == "resource_constraint"
    assert len(runtime.http_requests) == before


# --- the data plane ----------------------------------------------------------------


def test_data_plane_round_trip(server) -> None:
    _, serving = server
    url = serving.base_url
    data_client.data_reset(url, token=serving.data_token)
    assert json.loads(data_client.data_get(url, token=serving.data_token)) == INITIAL_STATE
    document = json.dumps({"posts": [{"id": 2, "title": "two"}]}).encode()
    data_client.data_add(url, document, token=serving.data_token)
    assert json.loads(data_client.data_get(url + "/", token=serving.data_token)) == {"posts": [{"id": 2, "title": "two"}]}
    status, headers, body = exchange(serving, "GET", "/_capenv/data/get")
    assert (status, headers["content-type"]) == (200, "application/json")
    data_client.data_reset(url, token=serving.data_token)
    assert json.loads(data_client.data_get(url, token=serving.data_token)) == INITIAL_STATE


def test_data_add_refusals_map_to_status_codes(server) -> None:
    _, serving = server
    status, _, body = exchange(serving, "POST", "/_capenv/data/add", body=b"[1, 2]")
    assert status == 400
    assert json.loads(body) == {"error": "invalid", "message": "a state document is a JSON object"}

    # Under the transport's limit but over the runtime's: the runtime's own refusal.
    status, _, body = exchange(serving, "POST", "/_capenv/data/add", body=json.dumps({"a": "x" * 2000}).encode())
    assert status == 413
    refusal = json.loads(body)
    assert refusal["error"] == "resource_constraint" and "at most 1024" in refusal["message"]

    with pytest.raises(DataPlaneError) as caught:
        data_client.data_add(serving.base_url, b"not json", token=serving.data_token)
    assert (caught.value.status, caught.value.kind) == (400, "invalid")
    assert caught.value.message.startswith("data/add refused (400 invalid): not JSON")
    assert "\n" not in caught.value.message


def test_data_add_past_the_transport_limit_is_413(server) -> None:
    runtime, serving = server
    oversize = b"{" + b" " * (SMALL_LIMIT + 10) + b"}"
    status, _, body = exchange(serving, "POST", "/_capenv/data/add", body=oversize)
    assert status == 413
    refusal = json.loads(body)
    assert (refusal["error"], refusal["limit_bytes"]) == ("resource_constraint", SMALL_LIMIT)
    assert refusal["message"].startswith(f"the document is larger than {SMALL_LIMIT} bytes, the most the grader's "
                                         "data plane takes (the body limit this server was started with)")

    # Without a content-length (chunked), the limit is found while reading.
    def chunks() -> Iterator[bytes]:
        for _ in range(4):
            yield b" " * (SMALL_LIMIT // 2)

    connection = http.client.HTTPConnection("127.0.0.1", serving.port, timeout=READY_TIMEOUT_SECONDS)
    try:
        connection.request("POST", "/_capenv/data/add", body=chunks(), encode_chunked=True,
                           headers={"Authorization": f"Bearer {serving.data_token}"})
        response = connection.getresponse()
        assert response.status == 413 and json.loads(response.read())["error"] == "resource_constraint"
    finally:
        connection.close()
    assert json.loads(data_client.data_get(serving.base_url, token=serving.data_token)) == runtime.state


def test_data_plane_runtime_exception_is_a_500_without_detail(server) -> None:
    _, serving = server
    status, _, body = exchange(serving, "POST", "/_capenv/data/add", body=b'{"explode": true}')
    assert status == 500
    assert json.loads(body) == {"error": "internal", "message": "internal error"}
    assert SECRET.encode() not in body
    with pytest.raises(DataPlaneError) as caught:
        data_client.data_add(serving.base_url, b'{"explode": true}', token=serving.data_token)
    assert caught.value.status == 500 and "internal error" in caught.value.message


def test_data_plane_unknown_route_and_wrong_method(server) -> None:
    runtime, serving = server
    before = len(runtime.http_requests)
    status, _, body = exchange(serving, "GET", "/_capenv/data/nope")
    assert status == 404 and "POST /_capenv/data/add" in json.loads(body)["message"]
    status, headers, _ = exchange(serving, "GET", "/_capenv/data/add")
    assert status == 405 and headers["allow"] == "POST"
    assert len(runtime.http_requests) == before  # the reserved prefix never reaches the application


def test_default_limit_refuses_a_document_past_it() -> None:
    """A runtime with no budgets of its own: the budgets' defaults' intake (32 MiB + 1 MiB)."""
    intake = AgentLimits.of(None).data_request_bytes
    assert intake == 33 * 1024 * 1024
    with http_in_thread(ExampleRuntime()) as serving:
        status, _, body = exchange(serving, "POST", "/_capenv/data/add", body=b" " * (intake + 1))
    refusal = json.loads(body)
    assert status == 413 and refusal["error"] == "resource_constraint" and refusal["limit_bytes"] == intake
    assert "(budgets max_state_bytes + data_envelope_bytes, rules/budgets.yaml)" in refusal["message"]


def test_data_client_connection_refused_is_one_line() -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(DataPlaneError) as caught:
        data_client.data_get(f"http://127.0.0.1:{port}")
    assert caught.value.message.startswith(f"cannot reach a capenv server at http://127.0.0.1:{port}/_capenv/data/get")
    assert "\n" not in caught.value.message and caught.value.status is None
    with pytest.raises(DataPlaneError, match="not a usable server URL"):
        data_client.data_reset("127.0.0.1:1")


# --- running it --------------------------------------------------------------------


def test_run_http_refuses_a_port_in_use(server) -> None:
    _, serving = server
    with pytest.raises(OSError, match=f"cannot listen on 127.0.0.1:{serving.port}"):
        run_http(ExampleRuntime(), "127.0.0.1", serving.port, print_urls=False)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_serve_prints_its_urls_and_stops_gracefully_on_a_signal(sig: signal.Signals) -> None:
    process = subprocess.Popen([sys.executable, str(HTTP_SERVER_SCRIPT)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        first_line = process.stdout.readline()  # blocks until the server announces itself
        assert first_line.startswith("capenv serving on http://127.0.0.1:"), first_line
        base_url = first_line.split()[-1]
        assert process.stdout.readline().strip() == f"MCP (streamable HTTP): {base_url}/mcp"
        assert json.loads(data_client.data_get(base_url, token=EXAMPLE_TOKEN)) == INITIAL_STATE
        process.send_signal(sig)
        remaining, errors = process.communicate(timeout=READY_TIMEOUT_SECONDS)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, errors
    assert "stopped" in remaining
    assert "Traceback" not in errors


# --- raw request parts ---------------------------------------------------------------


def test_split_query_keeps_everything_raw() -> None:
    assert split_query("a=1&b=%20&c&&d=x=y&=e") == (("a", "1"), ("b", "%20"), ("c", ""), ("d", "x=y"), ("", "e"))
    assert split_query("") == ()


def test_raw_target_prefers_the_bytes_as_sent() -> None:
    scope = {"path": "/a/b", "raw_path": b"/a%2Fb", "query_string": b"q=%2F"}
    assert raw_target(scope) == ("/a%2Fb", "q=%2F")
    assert raw_target({"path": "/caf\u00e9", "raw_path": "/café".encode(), "query_string": b""}) == ("/caf%C3%A9", "")
    assert raw_target({"path": "/x y", "query_string": b""}) == ("/x%20y", "")
