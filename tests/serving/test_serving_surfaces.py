"""json-server served for real on loopback: every recorded GET before the first write
reproduces exactly through MCP (the official client, over streamable HTTP) and through the
application's own HTTP paths; one state behind MCP, HTTP and the data plane."""

from __future__ import annotations

import http.client
import json
from typing import Any

import anyio
import pytest
from mcp import Client
from support.http_thread import http_in_thread

from capenv.interpreter.bundle.jsonvalue import dumps
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.transport import data_client

CALL_TIMEOUT_SECONDS = 30


def plain(value: Any) -> Any:
    """A recorded JSON value as a client sees it (exact numbers become plain ones)."""
    return json.loads(dumps(value))


def initial_gets(bundle) -> list:
    first_write = bundle.view.window.first_write_ordinal
    calls = [c for calls in bundle.replay.tools.values() for c in calls
             if c.method == "GET" and (first_write is None or c.ordinal < first_write)]
    assert calls
    return sorted(calls, key=lambda c: c.ordinal)


def mcp_arguments(bundle, runtime: EnvironmentRuntime, call) -> tuple[str, dict[str, Any]]:
    tool, args = bundle.manifest.tool_for("GET", call.path)
    entry = runtime.catalog.get(tool.name)
    arguments: dict[str, Any] = {name: args[param] for param, name in entry.inputs.properties}
    if call.query:
        arguments["query"] = dict(call.query)
    return tool.name, arguments


@pytest.fixture(scope="module")
def served(json_server):
    runtime = EnvironmentRuntime(json_server)
    with http_in_thread(runtime) as serving:
        yield runtime, serving


def get(serving, target: str) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", serving.port, timeout=CALL_TIMEOUT_SECONDS)
    try:
        connection.request("GET", target)
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def test_every_initial_get_reproduces_over_http(json_server, served) -> None:
    _, serving = served
    for call in initial_gets(json_server):
        target = call.path + ("?" + "&".join(f"{k}={v}" for k, v in call.query) if call.query else "")
        status, headers, body = get(serving, target)
        assert status == call.response.status, call.ordinal
        assert body == dumps(call.response.body), call.ordinal
        assert headers["content-type"] == call.response.content_type


def test_every_initial_get_reproduces_over_mcp(json_server, served) -> None:
    runtime, serving = served
    calls = initial_gets(json_server)

    async def main() -> None:
        with anyio.fail_after(CALL_TIMEOUT_SECONDS):
            async with Client(serving.url(runtime.reserved_mcp_path())) as client:
                listed = {tool.name for tool in (await client.list_tools()).tools}
                assert listed == set(runtime.catalog.entries)
                for call in calls:
                    name, arguments = mcp_arguments(json_server, runtime, call)
                    result = await client.call_tool(name, arguments)
                    assert result.is_error is False, (call.ordinal, result)
                    content = result.structured_content
                    assert content["status"] == call.response.status, call.ordinal
                    assert content["content_type"] == call.response.content_type
                    assert content["body"] == plain(call.response.body), call.ordinal
                    assert ("state" in content) or content["replay"]["exact_match"] is True
                    assert json.loads(result.content[0].text) == content

    anyio.run(main)


def test_mcp_http_and_the_data_plane_share_one_state(json_server, served) -> None:
    runtime, serving = served
    document = json.loads(data_client.data_get(serving.base_url, token=serving.data_token))
    posts = next(c for c in document["collections"] if c["path"] == "/posts")
    posts["entities"].append({"id": 77, "value": {"id": 77, "title": "added", "author": "x", "views": 0,
                                                  "published": False, "tags": []}, "records": []})
    try:
        data_client.data_add(serving.base_url, json.dumps(document).encode(), token=serving.data_token)
        status, _, body = get(serving, "/posts/77")
        assert status == 200 and json.loads(body)["title"] == "added"

        async def main() -> None:
            with anyio.fail_after(CALL_TIMEOUT_SECONDS):
                async with Client(serving.url("/mcp")) as client:
                    result = await client.call_tool("get_posts", {})
                    assert [p["id"] for p in result.structured_content["body"]] == [1, 2, 3, 77]

        anyio.run(main)
        assert runtime.read("get_posts_by_post_id", {"post_id": "77"})["state"]["view"] == "item"
    finally:
        data_client.data_reset(serving.base_url, token=serving.data_token)
    status, _, _ = get(serving, "/posts/77")
    assert status == 404
