"""The boundary (write-effects "Acceptance": a write tool changes the next read over MCP):
``capenv serve`` on captures/json-server as a subprocess, used through the official MCP client
over stdio and over streamable HTTP. A create shows in its item read and in the list with a
new sequence id, an update shows in the item read, a deleted comment reads as the recorded 404
labelled ``state.view: "missing"``, and data/reset gives back data/get byte for byte.

Over stdio the state lives in a SQLite store, so the data plane is read offline from the same
store (``capenv data get --bundle B --store URL``), as a grader beside a stdio server would."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
from mcp import Client

from support.served import (
    CALL_TIMEOUT_SECONDS, data_get_store, data_get_url, data_reset_store, data_reset_url, serving_http,
    stdio_parameters,
)

NEW_POST = {"title": "Boundary post", "author": "mcp-client", "views": 7, "published": False, "tags": ["edge"]}


def plain(value: Any) -> Any:
    from capenv.interpreter.bundle.jsonvalue import dumps

    return json.loads(dumps(value))


def post_ids(document: bytes) -> list[int]:
    collections = json.loads(document)["collections"]
    return [e["id"] for c in collections if c["path"] == "/posts" for e in c["entities"]]


async def call(client: Client, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(name, arguments)
    assert result.is_error is False, (name, result.structured_content)
    return result.structured_content


async def write_then_read(client: Client, initial_ids: list[int], recorded_404: dict[str, Any]) -> int:
    """The session: create, read, list, update, read, delete a comment, read it. Returns the new id."""
    created = await call(client, "post_posts", {"body": NEW_POST})
    assert created["status"] == 201
    new_id = created["state"]["id"]
    assert created["state"] == {"source": "state", "view": "create", "type": "posts", "collection": "/posts",
                                "id": new_id}
    assert isinstance(new_id, int) and new_id > max(initial_ids)  # a new sequence value
    assert created["body"] == {**NEW_POST, "id": new_id}

    item = await call(client, "get_posts_by_post_id", {"post_id": str(new_id)})
    assert item["status"] == 200 and item["body"] == {**NEW_POST, "id": new_id}
    assert item["state"] == {"source": "state", "view": "item", "type": "posts", "collection": "/posts",
                             "id": new_id}
    listing = await call(client, "get_posts", {})
    assert [p["id"] for p in listing["body"]] == initial_ids + [new_id]
    assert listing["body"][-1] == {**NEW_POST, "id": new_id}

    updated = await call(client, "patch_posts_by_post_id", {"post_id": str(new_id), "body": {"views": 8}})
    assert updated["state"]["view"] == "update" and updated["body"]["views"] == 8
    item = await call(client, "get_posts_by_post_id", {"post_id": str(new_id)})
    assert item["body"] == {**NEW_POST, "views": 8, "id": new_id}

    deleted = await call(client, "delete_comments_by_comment_id", {"comment_id": "1"})
    assert deleted["state"] == {"source": "state", "view": "delete", "type": "comments",
                                "collection": "/comments", "id": 1}
    gone = await call(client, "get_comments_by_comment_id", {"comment_id": "1"})
    assert gone["state"]["view"] == "missing"
    assert (gone["status"], gone["body"]) == (recorded_404["status"], recorded_404["body"])
    return new_id


async def after_reset(client: Client, new_id: int) -> None:
    post = await call(client, "get_posts_by_post_id", {"post_id": str(new_id)})
    assert post["state"]["view"] == "missing"
    comment = await call(client, "get_comments_by_comment_id", {"comment_id": "1"})
    assert comment["status"] == 200 and comment["state"]["view"] == "item"


def run_session(target: Any, data_get: Callable[[], bytes], data_reset: Callable[[], None],
                recorded_404: dict[str, Any]) -> None:
    async def main() -> None:
        with anyio.fail_after(3 * CALL_TIMEOUT_SECONDS):
            async with Client(target) as client:
                before = await anyio.to_thread.run_sync(data_get)
                new_id = await write_then_read(client, post_ids(before), recorded_404)
                changed = await anyio.to_thread.run_sync(data_get)
                assert changed != before and new_id in post_ids(changed)
                await anyio.to_thread.run_sync(data_reset)
                assert await anyio.to_thread.run_sync(data_get) == before  # byte for byte
                await after_reset(client, new_id)

    anyio.run(main)


def recorded_missing(bundle) -> dict[str, Any]:
    missing = bundle.view.view("get_comments_by_comment_id").missing
    assert missing is not None and missing.status == 404
    return {"status": missing.status, "body": plain(missing.body)}


def test_a_write_changes_the_next_read_over_stdio(bundle_dir, json_server_bundle, tmp_path: Path) -> None:
    directory = bundle_dir("json-server")
    store = f"sqlite:{tmp_path / 'state.db'}"
    run_session(stdio_parameters(directory, "--store", store), lambda: data_get_store(directory, store),
                lambda: data_reset_store(directory, store), recorded_missing(json_server_bundle))


def test_a_write_changes_the_next_read_over_streamable_http(bundle_dir, json_server_bundle) -> None:
    with serving_http(bundle_dir("json-server")) as url:
        run_session(url + "/mcp", lambda: data_get_url(url), lambda: data_reset_url(url),
                    recorded_missing(json_server_bundle))
