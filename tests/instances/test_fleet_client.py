"""``capenv.fleet`` (sync and async) and ``capenv fleet`` against a served fleet over loopback."""

from __future__ import annotations

import json

import anyio
import pytest
from mcp import Client
from support.fleets import TOKEN, serving_fleet
from support.served import capenv

from capenv.fleet import AsyncFleet, Fleet, FleetError


@pytest.mark.parametrize("store_url", ["memory"], indirect=True)
def test_the_sync_client_creates_grades_and_deletes(template, store_url) -> None:
    with serving_fleet(template, store_url) as (fleet, serving, _), Fleet(serving.base_url, TOKEN) as client:
        with client.create() as env:
            assert env.mcp_url.endswith(f"/i/{env.id}/mcp")
            initial = env.grader.get_bytes()

            async def agent() -> None:
                async with Client(env.mcp_url) as session:
                    await session.call_tool("delete_comments_by_comment_id", {"comment_id": "1"})

            anyio.run(agent)
            assert 1 not in [e["id"] for c in env.grader.get()["collections"] if c["path"] == "/comments"
                             for e in c["entities"]]
            snapshot = env.snapshot()
            env.grader.reset()
            assert env.grader.get_bytes() == initial
            with client.create(from_snapshot=snapshot) as copy:
                assert copy.grader.get_bytes() != initial
            client.delete_snapshot(snapshot)
            with pytest.raises(FleetError, match="no snapshot"):
                client.create(from_snapshot=snapshot)
            assert [i["id"] for i in client.list()] == [env.id]
        assert client.list() == []
        with pytest.raises(FleetError, match="404"):
            client.delete(env.id)
    with pytest.raises(FleetError, match="cannot reach"):
        Fleet(serving.base_url, TOKEN).list()


@pytest.mark.parametrize("store_url", ["memory"], indirect=True)
def test_the_async_client(template, store_url) -> None:
    with serving_fleet(template, store_url) as (fleet, serving, _):
        async def main() -> None:
            async with AsyncFleet(serving.base_url, TOKEN) as client:
                async with client.create() as env:
                    document = await env.grader.get()
                    assert document["collections"]
                    assert [i["id"] for i in await client.list()] == [env.id]
                    await env.grader.reset()
                assert await client.list() == []
                made = await client.create()
                await client.delete(made.id)
            async with AsyncFleet(serving.base_url, "wrong") as intruder:
                with pytest.raises(FleetError, match="401"):
                    await intruder.list()

        anyio.run(main)


@pytest.mark.parametrize("store_url", ["memory"], indirect=True)
def test_the_command_line(template, store_url) -> None:
    with serving_fleet(template, store_url) as (fleet, serving, _):
        url = ["--url", serving.base_url, "--token", TOKEN]
        made = capenv("fleet", "create", *url, "--json")
        assert made.returncode == 0, made.stderr
        instance = json.loads(made.stdout)["id"]
        listed = json.loads(capenv("fleet", "list", *url, "--json").stdout)["instances"]
        assert [i["id"] for i in listed] == [instance]
        snapshot = capenv("fleet", "snapshot", instance, *url).stdout.decode().strip()
        copy = capenv("fleet", "create", *url, "--from-snapshot", snapshot)
        assert copy.returncode == 0 and "/mcp" in copy.stdout.decode()
        assert capenv("fleet", "delete", instance, *url).returncode == 0
        copied = json.loads(capenv("fleet", "list", *url, "--json").stdout)["instances"]
        assert capenv("fleet", "delete", copied[0]["id"], *url).returncode == 0
        assert capenv("fleet", "list", *url).stdout.decode().strip() == "no instances"
        gone = capenv("fleet", "delete", instance, *url)
        assert gone.returncode == 2 and b"no instance" in gone.stderr
        refused = capenv("fleet", "list", "--url", serving.base_url, "--token", "wrong")
        assert refused.returncode == 2 and b"401" in refused.stderr
