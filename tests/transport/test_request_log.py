"""``capenv serve --log`` and ``-q`` (issue #13, conventions), and the OpenAPI route: one log line
per request (method, target, status, tool, ms) on stderr, MCP tool calls included, control
characters escaped; ``-q`` prints only the address; ``GET /openapi.json`` and
``/_capenv/openapi.json`` answer the agent without the grader's token."""

from __future__ import annotations

import http.client
import io
import json
import re
import signal
import subprocess
from pathlib import Path

import anyio
from mcp import Client

from capenv.interpreter.bundle.io import read_bundle
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.transport.mcp_server import build_mcp_server
from capenv.serving.transport.request_log import RequestLog
from support.har_builder import HarBuilder
from support.http_thread import http_in_thread
from support.served import GRADER_TOKEN, STOP_TIMEOUT_SECONDS, capenv_command, quiet_env

LINE = re.compile(r"^(\S+) (\S+) (\S+) (\S+) (\d+\.\d) ms$")


def get(port: int, path: str, method: str = "GET", body: bytes | None = None) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        headers = {"content-type": "application/json"} if body is not None else {}
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def test_each_request_is_one_line_with_its_tool(bundle_dir) -> None:
    stream = io.StringIO()
    runtime = EnvironmentRuntime(read_bundle(bundle_dir("json-server")))
    with http_in_thread(runtime, log=RequestLog(stream), access=None) as serving:
        assert get(serving.port, "/posts/1")[0] == 200
        assert get(serving.port, "/posts", "POST", b'{"title": "t"}')[0] == 400  # refused: members missing
        assert get(serving.port, "/nothing%0a?x=1")[0] == 404
        assert get(serving.port, "/_capenv/data/get")[0] == 401  # no token: refused, still logged
    runtime.close()
    lines = [LINE.match(line).groups()[:4] for line in stream.getvalue().splitlines()]
    assert lines == [("GET", "/posts/1", "200", "get_posts_by_post_id"), ("POST", "/posts", "400", "post_posts"),
                     ("GET", "/nothing%0a?x=1", "404", "-"), ("GET", "/_capenv/data/get", "401", "data/get")]


def test_a_control_character_never_splits_a_line() -> None:
    stream = io.StringIO()
    RequestLog(stream).line("GET", "/a\nb\x7f", 200, "t\r", 0.0012)
    assert stream.getvalue() == "GET /a\\x0ab\\x7f 200 t\\x0d 1.2 ms\n"


def test_mcp_tool_calls_are_logged(bundle_dir) -> None:
    stream = io.StringIO()
    runtime = EnvironmentRuntime(read_bundle(bundle_dir("json-server")))

    async def session() -> None:
        async with Client(build_mcp_server(runtime, log=RequestLog(stream))) as client:
            await client.call_tool("get_posts_by_post_id", {"post_id": "1"})
            await client.call_tool("get_posts_by_post_id", {})

    anyio.run(session)
    runtime.close()
    lines = [LINE.match(line).groups()[:4] for line in stream.getvalue().splitlines()]
    assert lines == [("MCP", "tools/call", "ok", "get_posts_by_post_id"),
                     ("MCP", "tools/call", "error", "get_posts_by_post_id")]


def test_openapi_is_served_to_the_agent_without_the_token(bundle_dir) -> None:
    runtime = EnvironmentRuntime(read_bundle(bundle_dir("json-server")))
    from capenv.serving.transport.http_app import Access

    with http_in_thread(runtime, access=Access(data_token=GRADER_TOKEN)) as serving:
        status, body = get(serving.port, "/_capenv/openapi.json")
        assert status == 200 and json.loads(body)["openapi"].startswith("3.1")
        assert get(serving.port, "/openapi.json") == (status, body)
        assert get(serving.port, "/_capenv/openapi.json", "POST", b"{}")[0] == 405
        assert get(serving.port, "/_capenv/data/get")[0] == 401  # the data plane still needs the token
    runtime.close()


def test_an_application_answering_openapi_json_keeps_that_path(tmp_path: Path) -> None:
    from capenv.interpreter.pipeline import build_bundle

    har = (HarBuilder().call("GET", "/openapi.json", response={"openapi": "3.0.0", "mine": True})
           .call("GET", "/items", response=[{"id": 1}])).write(tmp_path / "c.har")
    runtime = EnvironmentRuntime(build_bundle(har))
    with http_in_thread(runtime) as serving:
        status, body = get(serving.port, "/openapi.json")
        assert status == 200 and json.loads(body)["mine"] is True  # the application's own, replayed
        assert json.loads(get(serving.port, "/_capenv/openapi.json")[1])["openapi"] == "3.1.0"
    runtime.close()


def test_quiet_prints_only_the_address_and_log_goes_to_stderr(bundle_dir) -> None:
    command = capenv_command() + ["serve", str(bundle_dir("json-server")), "--http", "127.0.0.1:0",
                                  "--data-token", GRADER_TOKEN, "-q", "--log"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=quiet_env())
    try:
        first = process.stdout.readline()
        assert first.startswith("capenv serving on http://127.0.0.1:"), first + process.stderr.read()
        port = int(first.rsplit(":", 1)[1])
        assert get(port, "/posts/1")[0] == 200
    finally:
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=STOP_TIMEOUT_SECONDS)
    assert out == ""  # nothing after the address: no banner, no MCP or data plane listing
    assert [line for line in err.splitlines() if LINE.match(line)] == [
        next(line for line in err.splitlines() if line.startswith("GET /posts/1 200 get_posts_by_post_id "))]


def test_quiet_still_prints_a_generated_token(bundle_dir) -> None:
    command = capenv_command() + ["serve", str(bundle_dir("json-server")), "--http", "127.0.0.1:0", "-q"]
    env = {k: v for k, v in quiet_env().items() if k != "CAPENV_DATA_TOKEN"}  # no token given at all
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        first, second = process.stdout.readline(), process.stdout.readline()
    finally:
        process.send_signal(signal.SIGINT)
        out, _ = process.communicate(timeout=STOP_TIMEOUT_SECONDS)
    assert first.startswith("capenv serving on ") and re.fullmatch(r"  grader's token: \S{20,}\n", second)
    assert out == ""
