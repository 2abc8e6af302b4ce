"""The boundary: ``capenv serve BUNDLE`` as a subprocess, used through the official MCP client
over stdio and over streamable HTTP, and its data plane through ``capenv data --url``."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest
from mcp import Client
from support.served import (
    CALL_TIMEOUT_SECONDS, GRADER_TOKEN, capenv, capenv_command, quiet_env, served_process, stdio_parameters,
)

START_TIMEOUT_SECONDS = 30


async def exercise_reads(client: Client) -> None:
    tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert {"get_posts", "get_posts_by_post_id", "get_profile"} <= set(tools)
    item_tool = tools["get_posts_by_post_id"]
    assert item_tool.input_schema["required"] == ["post_id"]
    assert '"posts"' in item_tool.description and "served state" in item_tool.description

    item = await client.call_tool("get_posts_by_post_id", {"post_id": "1"})
    assert item.is_error is False
    assert item.structured_content["body"]["title"] == "json-server"
    assert item.structured_content["state"] == {"source": "state", "view": "item", "type": "posts",
                                                "collection": "/posts", "id": 1}

    listing = await client.call_tool("get_posts", {})
    assert [p["id"] for p in listing.structured_content["body"]] == [1, 2, 3]
    assert listing.structured_content["state"]["view"] == "list"

    missing = await client.call_tool("get_posts_by_post_id", {"post_id": "999"})
    assert missing.is_error is False
    assert missing.structured_content["status"] == 404
    assert missing.structured_content["state"]["view"] == "missing"

    refused = await client.call_tool("get_posts_by_post_id", {})
    assert refused.is_error is True and "post_id" in refused.structured_content["message"]


def test_serve_over_stdio_with_the_official_client(json_server_dir: Path) -> None:
    parameters = stdio_parameters(json_server_dir)

    async def main() -> None:
        with anyio.fail_after(CALL_TIMEOUT_SECONDS):
            async with Client(parameters) as client:
                await exercise_reads(client)

    anyio.run(main)


def expected_tool_count(bundle_path: Path) -> int:
    """Read tools (GET and read-only POSTs) plus the write tools the gate serves."""
    from capenv.interpreter.bundle.io import read_bundle

    bundle = read_bundle(bundle_path)
    reads = [t for t in bundle.manifest.tools if t.method == "GET"] + list(bundle.view.read_only_posts)
    return len(reads) + sum(1 for plan in bundle.view.writes if plan.served)


@pytest.fixture
def http_server(json_server_dir: Path) -> Iterator[str]:
    """``capenv serve BUNDLE --http 127.0.0.1:0``; yields the base URL it prints."""
    command = capenv_command() + ["serve", str(json_server_dir), "--http", "127.0.0.1:0", "--data-token", GRADER_TOKEN]
    with served_process(command, quiet_env(), START_TIMEOUT_SECONDS) as (base_url, lines):
        expected = expected_tool_count(json_server_dir)
        assert any(line.startswith(f"capenv: {expected} tools") for line in lines), lines
        yield base_url


def data(*argv: str, stdin: bytes = b"") -> subprocess.CompletedProcess:
    return capenv("data", *argv, stdin=stdin, timeout=CALL_TIMEOUT_SECONDS)


def test_serve_over_streamable_http_with_the_data_plane(http_server: str, tmp_path: Path) -> None:
    async def main() -> None:
        with anyio.fail_after(CALL_TIMEOUT_SECONDS):
            async with Client(http_server + "/mcp") as client:
                await exercise_reads(client)

    anyio.run(main)

    first = data("get", "--url", http_server, str(tmp_path / "state.json"))
    assert first.returncode == 0, first.stderr
    document = (tmp_path / "state.json").read_bytes()
    assert json.loads(document)["collections"]

    added = data("add", str(tmp_path / "state.json"), "--url", http_server)
    assert added.returncode == 0, added.stderr
    again = data("get", "--url", http_server)
    assert again.returncode == 0 and again.stdout.rstrip(b"\n") == document

    smaller = json.loads(document)
    next(c for c in smaller["collections"] if c["path"] == "/posts")["entities"] = []
    (tmp_path / "smaller.json").write_text(json.dumps(smaller))
    assert data("add", str(tmp_path / "smaller.json"), "--url", http_server).returncode == 0

    async def gone() -> None:
        with anyio.fail_after(CALL_TIMEOUT_SECONDS):
            async with Client(http_server + "/mcp") as client:
                listing = await client.call_tool("get_posts", {})
                # a whole line of a collection now empty: the capture never listed posts empty, so the
                # listing of nothing is refused (how the application answers one is not shown)
                assert listing.structured_content["error"] == "refused", listing.structured_content
                assert "would list nothing" in listing.structured_content["message"]

    anyio.run(gone)

    reset = data("reset", "--url", http_server)
    assert reset.returncode == 0, reset.stderr
    assert data("get", "--url", http_server).stdout.rstrip(b"\n") == document

    refused = data("add", "-", "--url", http_server)  # empty stdin
    assert refused.returncode == 2
    assert len(refused.stderr.decode().strip().splitlines()) == 1
