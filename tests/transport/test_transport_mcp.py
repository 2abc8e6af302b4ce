"""MCP over stdio and streamable HTTP, through the official SDK client, in both protocol eras.

``mode="legacy"`` speaks the initialize handshake (2025-11-25); ``mode="auto"`` discovers
and adopts the 2026-07-28 per-request protocol. One session per case does every check,
so the suite stays fast.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import anyio
import pytest
from mcp import Client

sys.path.insert(0, str(Path(__file__).resolve().parent))

from transport_example_runtime import ECHO_SCHEMA, EXPLODE_SCHEMA, SECRET, ExampleRuntime  # noqa: E402
from transport_servers import stdio_parameters  # noqa: E402

from support.http_thread import http_in_thread  # noqa: E402

from capenv.serving.transport.mcp_server import IDEMPOTENCY_META_KEY, INTERNAL_ERROR_MESSAGE  # noqa: E402

MODES = ["legacy", "auto"]
CALL_TIMEOUT_SECONDS = 20


async def exercise(client: Client) -> None:
    listing = await client.list_tools()
    schemas = {tool.name: tool.input_schema for tool in listing.tools}
    assert [tool.name for tool in listing.tools] == ["echo", "explode"]
    assert schemas == {"echo": ECHO_SCHEMA, "explode": EXPLODE_SCHEMA}
    assert listing.tools[0].description == "Echo a message back."

    served = await client.call_tool("echo", {"message": "hi"}, meta={IDEMPOTENCY_META_KEY: "key-1"})
    assert served.is_error is False
    assert served.structured_content == {
        "status": 200,
        "content_type": "application/json",
        "body": {"echo": "hi", "idempotency_key": "key-1", "ratio": 0.5},
        "state": {"posts": 1},
    }
    assert [block.type for block in served.content] == ["text"]
    assert json.loads(served.content[0].text) == served.structured_content

    unkeyed = await client.call_tool("echo", {"message": "again"})
    assert unkeyed.structured_content["body"]["idempotency_key"] is None

    refused = await client.call_tool("echo", {})
    assert refused.is_error is True
    assert "message (a string, required)" in refused.structured_content["message"]
    assert json.loads(refused.content[0].text) == refused.structured_content

    bad_key = await client.call_tool("echo", {"message": "x"}, meta={IDEMPOTENCY_META_KEY: 7})
    assert bad_key.is_error is True
    assert IDEMPOTENCY_META_KEY in bad_key.structured_content["message"]

    exploded = await client.call_tool("explode", {})
    assert exploded.is_error is True
    assert exploded.structured_content == {"error": "internal", "message": INTERNAL_ERROR_MESSAGE}
    wire = exploded.model_dump_json(by_alias=True)
    assert SECRET not in wire and "Traceback" not in wire


@pytest.mark.parametrize("mode", MODES)
def test_mcp_over_stdio(mode: str) -> None:
    async def main() -> None:
        with anyio.fail_after(CALL_TIMEOUT_SECONDS):
            async with Client(stdio_parameters(), mode=mode) as client:
                await exercise(client)

    anyio.run(main)


@pytest.fixture(scope="module")
def http_server():
    runtime = ExampleRuntime()
    with http_in_thread(runtime) as serving:
        yield runtime, serving


@pytest.mark.parametrize("mode", MODES)
def test_mcp_over_streamable_http(http_server, mode: str) -> None:
    runtime, serving = http_server
    runtime.calls.clear()

    async def main() -> None:
        with anyio.fail_after(CALL_TIMEOUT_SECONDS):
            async with Client(serving.url("/mcp"), mode=mode) as client:
                await exercise(client)

    anyio.run(main)
    assert runtime.calls[0] == ("echo", {"message": "hi"}, "key-1")


def test_mcp_path_moves_when_the_application_uses_mcp() -> None:
    import httpx2

    runtime = ExampleRuntime(mcp_path="/_mcp_alt")
    with http_in_thread(runtime) as serving:

        async def main() -> None:
            with anyio.fail_after(CALL_TIMEOUT_SECONDS):
                async with Client(serving.url("/_mcp_alt")) as client:
                    assert [tool.name for tool in (await client.list_tools()).tools] == ["echo", "explode"]

        anyio.run(main)
        answer = httpx2.post(serving.url("/mcp"), content=b"{}", headers={"content-type": "application/json"}, trust_env=False)
        assert answer.status_code == 201
        assert answer.json()["path"] == "/mcp"


class CountingRuntime(ExampleRuntime):
    def __init__(self) -> None:
        super().__init__()
        self.listings = 0

    def tools(self):
        self.listings += 1
        return super().tools()


@pytest.mark.parametrize("mode", MODES)
def test_the_tool_listing_is_built_once_not_per_call(mode: str) -> None:
    # The SDK's 2026-07-28 entry checks a call's Mcp-Param-* headers against the tool's input
    # schema; it gets it by name from the listing built at start, not from a tools/list per call.
    runtime = CountingRuntime()
    with http_in_thread(runtime) as serving:

        async def main() -> None:
            with anyio.fail_after(CALL_TIMEOUT_SECONDS):
                async with Client(serving.url("/mcp"), mode=mode) as client:
                    for turn in range(5):
                        served = await client.call_tool("echo", {"message": f"m{turn}"})
                        assert served.structured_content["body"]["echo"] == f"m{turn}"
                    assert [tool.name for tool in (await client.list_tools()).tools] == ["echo", "explode"]
                    assert (await client.list_tools()).tools[0].input_schema == ECHO_SCHEMA

        anyio.run(main)
    assert runtime.listings == 1
    assert [name for name, _, _ in runtime.calls] == ["echo"] * 5


MODERN = "2026-07-28"
ENVELOPE = {"io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {}}


def test_mcp_posts_are_answered_with_one_json_message(http_server) -> None:
    # The transport spec lets a server answer a POST with application/json or an event stream;
    # capenv sends nothing while a call runs, so it answers JSON (no stream to set up and watch).
    import httpx2

    runtime, serving = http_server
    accept = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
    call = {"jsonrpc": "2.0", "id": 7, "method": "tools/call",
            "params": {"name": "echo", "arguments": {"message": "hi"}, "_meta": ENVELOPE}}
    modern = httpx2.post(serving.url("/mcp"), json=call, trust_env=False,
                         headers={**accept, "mcp-protocol-version": MODERN, "mcp-method": "tools/call",
                                  "mcp-name": "echo"})
    assert modern.status_code == 200, modern.text
    assert modern.headers["content-type"].startswith("application/json")
    assert modern.json()["id"] == 7
    assert modern.json()["result"]["structuredContent"]["body"]["echo"] == "hi"

    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                  "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                             "clientInfo": {"name": "test", "version": "1"}}}
    legacy = httpx2.post(serving.url("/mcp"), json=initialize, headers=accept, trust_env=False)
    assert legacy.status_code == 200, legacy.text
    assert legacy.headers["content-type"].startswith("application/json")
    assert legacy.json()["result"]["serverInfo"]["name"] == "capenv"
    assert legacy.headers["mcp-session-id"]
