"""``serve --instances`` over real loopback sockets: the grader's routes, each instance's MCP and
application paths, and 100 instances written by 8 concurrent MCP clients (issue 14)."""

from __future__ import annotations

import json

import anyio
import httpx2
import pytest
from mcp import Client
from support.fleets import STORES, TOKEN, serving_fleet

INSTANCES = 100
CLIENTS = 8
CALL_TIMEOUT_SECONDS = 300


def create(grader: httpx2.Client, **body) -> dict:
    answer = grader.post("/_capenv/instances", json=body or None)
    assert answer.status_code == 201, answer.text
    return answer.json()


@pytest.mark.parametrize("store_url", STORES, indirect=True)
def test_one_hundred_instances_written_by_eight_concurrent_mcp_clients(template, store_url) -> None:
    with serving_fleet(template, store_url) as (fleet, serving, grader):
        created = [create(grader) for _ in range(INSTANCES)]
        assert len({c["id"] for c in created}) == INSTANCES
        assert created[0]["mcp_url"] == f"{serving.base_url}/i/{created[0]['id']}/mcp"

        async def client(number: int) -> None:
            for n in range(number, INSTANCES, CLIENTS):
                async with Client(created[n]["mcp_url"]) as session:
                    made = await session.call_tool("post_posts", {"body": {
                        "title": f"post-{n}", "author": "a", "views": n, "published": True, "tags": []}})
                    assert made.is_error is False, made
                    post_id = str(made.structured_content["body"]["id"])
                    patched = await session.call_tool("patch_posts_by_post_id", {"post_id": post_id,
                                                                                  "body": {"views": n + 1000}})
                    assert patched.structured_content["status"] == 200
                    deleted = await session.call_tool("delete_comments_by_comment_id", {"comment_id": str(1 + n % 4)})
                    assert deleted.structured_content["status"] == 200

        async def main() -> None:
            with anyio.fail_after(CALL_TIMEOUT_SECONDS):
                async with anyio.create_task_group() as group:
                    for number in range(CLIENTS):
                        group.start_soon(client, number)

        anyio.run(main)
        first_post_id = None
        for n, instance in enumerate(created):
            document = grader.get(f"/_capenv/instances/{instance['id']}/data/get").json()
            collections = {c["path"]: c["entities"] for c in document["collections"]}
            mine = [e["value"] for e in collections["/posts"] if e["value"]["title"].startswith("post-")]
            assert [(p["title"], p["views"]) for p in mine] == [(f"post-{n}", n + 1000)]
            first_post_id = first_post_id or mine[0]["id"]
            assert mine[0]["id"] == first_post_id  # ids generated per instance, as in a fresh environment
            assert sorted(e["id"] for e in collections["/comments"]) == [i for i in (1, 2, 3, 4) if i != 1 + n % 4]
        listed = grader.get("/_capenv/instances").json()["instances"]
        assert {i["id"] for i in listed} == {c["id"] for c in created}


@pytest.mark.parametrize("store_url", ["memory"], indirect=True)
def test_the_grader_routes_and_each_instance_surface(template, store_url) -> None:
    with serving_fleet(template, store_url) as (fleet, serving, grader):
        one, two = create(grader), create(grader)
        with httpx2.Client(trust_env=False, timeout=30) as agent:
            made = agent.post(f"{one['http_base']}/posts", json={"title": "http", "author": "a", "views": 1,
                                                                 "published": False, "tags": []})
            assert made.status_code == 201, made.text
            assert agent.get(f"{one['http_base']}/posts/{made.json()['id']}").status_code == 200
            assert agent.get(f"{two['http_base']}/posts/{made.json()['id']}").status_code == 404
            # the agent holds no token: the grader's routes are closed to it
            assert agent.get(f"{serving.base_url}/_capenv/instances").status_code == 401
            assert agent.post(f"{serving.base_url}/_capenv/instances").status_code == 401
            assert agent.get(f"{serving.base_url}/_capenv/instances/{one['id']}/data/get").status_code == 401
            unknown = agent.get(f"{serving.base_url}/i/not-an-instance/posts")
            assert unknown.status_code == 404 and "no instance 'not-an-instance'" in unknown.json()["message"]
            root = agent.get(f"{serving.base_url}/posts")
            assert root.status_code == 404 and "/i/{id}" in root.json()["message"]
        snapshot = grader.post(f"/_capenv/instances/{one['id']}/snapshot")
        assert snapshot.status_code == 201
        taken = grader.get(f"/_capenv/instances/{one['id']}/data/get").content
        copy = create(grader, from_snapshot=snapshot.json()["snapshot_id"])
        assert grader.get(f"/_capenv/instances/{copy['id']}/data/get").content == taken
        assert grader.post(f"/_capenv/instances/{one['id']}/data/reset").status_code == 200
        assert grader.get(f"/_capenv/instances/{one['id']}/data/get").content == \
            grader.get(f"/_capenv/instances/{two['id']}/data/get").content
        missing = grader.post("/_capenv/instances", json={"from_snapshot": "nope"})
        assert missing.status_code == 404 and "no snapshot" in missing.json()["message"]
        assert grader.post("/_capenv/instances", json={"other": 1}).status_code == 400
        assert grader.post("/_capenv/instances", content=b"x", headers={"content-type": "text/plain"}).status_code == 415
        assert grader.delete(f"/_capenv/instances/{two['id']}").status_code == 200
        gone = grader.get(f"/_capenv/instances/{two['id']}/data/get")
        assert gone.status_code == 404 and two["id"] in gone.json()["message"]
        assert grader.delete(f"/_capenv/instances/{two['id']}").status_code == 404
        with httpx2.Client(trust_env=False, timeout=30) as agent:
            assert agent.get(f"{two['http_base']}/posts").status_code == 404

        async def main() -> None:
            with anyio.fail_after(60):
                async with Client(copy["mcp_url"]) as session:
                    listed = await session.call_tool("get_posts", {})
                    assert [p["title"] for p in listed.structured_content["body"]][-1] == "http"

        anyio.run(main)
        assert json.loads(taken)["collections"]


def test_instances_need_http_and_the_state(bundle_dir) -> None:
    from support.served import capenv

    for options in (["--instances"], ["--instances", "--http", "127.0.0.1:0", "--replay-only"]):
        done = capenv("serve", str(bundle_dir("json-server")), *options)
        assert done.returncode == 2 and b"--instances goes with --http" in done.stderr


@pytest.mark.parametrize("store_url", ["memory"], indirect=True)
def test_an_mcp_session_belongs_to_its_instance(template, store_url) -> None:
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}
    headers = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
    with serving_fleet(template, store_url) as (fleet, serving, grader):
        one, two = create(grader), create(grader)
        with httpx2.Client(trust_env=False, timeout=30) as agent:
            opened = agent.post(one["mcp_url"], json=initialize, headers=headers)
            assert opened.status_code == 200
            session = opened.headers["mcp-session-id"]
            listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}
            foreign = agent.post(two["mcp_url"], json=listing, headers={**headers, "mcp-session-id": session})
            assert foreign.status_code in (400, 404)  # instance two never opened that session
            unknown = agent.post(f"{serving.base_url}/i/{one['id']}x/mcp", json=initialize, headers=headers)
            assert unknown.status_code == 404 and "no instance" in unknown.json()["message"]


@pytest.mark.parametrize("store_url", ["memory"], indirect=True)
def test_concurrent_first_sessions_on_one_instance_share_its_state(template, store_url) -> None:
    with serving_fleet(template, store_url) as (fleet, serving, grader):
        instance = create(grader)

        async def writer(number: int) -> None:
            async with Client(instance["mcp_url"]) as session:
                made = await session.call_tool("post_posts", {"body": {
                    "title": f"concurrent-{number}", "author": "a", "views": 1, "published": True, "tags": []}})
                assert made.structured_content["status"] == 201

        async def main() -> None:
            with anyio.fail_after(120):
                async with anyio.create_task_group() as group:
                    for number in range(CLIENTS):
                        group.start_soon(writer, number)

        anyio.run(main)
        document = grader.get(f"/_capenv/instances/{instance['id']}/data/get").json()
        posts = next(c for c in document["collections"] if c["path"] == "/posts")["entities"]
        titles = sorted(p["value"]["title"] for p in posts if p["value"]["title"].startswith("concurrent-"))
        assert titles == sorted(f"concurrent-{n}" for n in range(CLIENTS))
        assert len({p["id"] for p in posts}) == len(posts)
