"""OpenEnv's session protocol on a fleet (``/_capenv/openenv/ws``): each connection's reset is a
fresh instance, steps are MCP actions on it, state is its data/get; episodes are isolated.
Spoken here with a plain WebSocket client, and with OpenEnv's own client when an environment with
the ``openenv`` package is at hand (``CAPENV_TEST_OPENENV_PYTHON``: its Python)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
from pathlib import Path

import pytest
from support.fleets import TOKEN, serving_fleet
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

pytestmark = pytest.mark.parametrize("store_url", ["memory"], indirect=True)
OPENENV_PYTHON = "CAPENV_TEST_OPENENV_PYTHON"
EPISODES = 20


def post(title: str) -> dict:
    return {"type": "call_tool", "tool_name": "post_posts",
            "arguments": {"body": {"title": title, "author": "a", "views": 1, "published": True, "tags": []}}}


def own_titles(document: dict) -> list[str]:
    posts = next(c for c in document["collections"] if c["path"] == "/posts")["entities"]
    return [p["value"]["title"] for p in posts if p["value"]["title"].startswith("episode-")]


def test_twenty_isolated_episodes_over_the_session_protocol(template, store_url) -> None:
    with serving_fleet(template, store_url) as (fleet, serving, grader):
        url = serving.base_url.replace("http://", "ws://") + "/_capenv/openenv/ws"

        async def episode(number: int) -> None:
            async with connect(url, additional_headers={"authorization": f"Bearer {TOKEN}"}) as ws:
                async def send(message: dict) -> dict:
                    await ws.send(json.dumps(message))
                    return json.loads(await ws.recv())

                assert (await send({"type": "step", "data": post("x")}))["data"]["code"] == "NO_EPISODE"
                started = await send({"type": "reset", "data": {}})
                assert started["type"] == "observation" and started["data"]["reward"] is None
                instance = started["data"]["observation"]["episode_id"]
                assert started["data"]["observation"]["mcp_url"].endswith(f"/i/{instance}/mcp")
                made = await send({"type": "step", "data": post(f"episode-{number}")})
                assert made["data"]["observation"]["result"]["status"] == 201
                wrong = await send({"type": "step", "data": {"type": "call_tool", "tool_name": "nope"}})
                assert wrong["data"]["observation"]["error"].startswith("no tool 'nope'")
                state = await send({"type": "state"})
                assert state["data"]["episode_id"] == instance and state["data"]["step_count"] == 2
                assert own_titles(state["data"]["data"]) == [f"episode-{number}"]
                again = await send({"type": "reset", "data": {}})  # a new episode: a fresh instance
                assert again["data"]["observation"]["episode_id"] != instance
                assert own_titles((await send({"type": "state"}))["data"]["data"]) == []
                await ws.send(json.dumps({"type": "close"}))

        async def main() -> None:
            await asyncio.wait_for(asyncio.gather(*(episode(n) for n in range(EPISODES))), 120)

        asyncio.run(main())
        assert grader.get("/_capenv/instances").json()["instances"] == []  # every episode's instance deleted


def test_the_session_protocol_needs_the_grader_token(template, store_url) -> None:
    with serving_fleet(template, store_url) as (fleet, serving, grader):
        url = serving.base_url.replace("http://", "ws://") + "/_capenv/openenv/ws"

        async def main() -> None:
            with pytest.raises(InvalidStatus):
                async with connect(url, additional_headers={"authorization": "Bearer wrong"}):
                    pass

        asyncio.run(main())
        assert fleet.instances() == []


def test_openenv_own_client_runs_twenty_isolated_episodes(template, store_url) -> None:
    python = os.environ.get(OPENENV_PYTHON)
    if not python and os.environ.get("CI") == "true":
        pytest.fail(f"OpenEnv's client is required under CI=true: {OPENENV_PYTHON} is not set", pytrace=False)
    if not python:
        pytest.skip(f"{OPENENV_PYTHON} is not set (the Python of an environment with `pip install openenv`; "
                    "it pins mcp 1.x, so it cannot be capenv's own)")
    with serving_fleet(template, store_url) as (fleet, serving, grader):
        script = Path(__file__).with_name("openenv_client") / "episodes.py"
        done = subprocess.run([python, str(script), f"{serving.base_url}/_capenv/openenv", TOKEN],
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-3000:]
        episodes = [json.loads(line) for line in done.stdout.splitlines()]
        assert len(episodes) == EPISODES and len({e["id"] for e in episodes}) == EPISODES
        for e in episodes:
            assert e["made"] == 201 and e["tools"] > 0 and e["step_count"] == 3
            assert [t for t in e["titles"] if t.startswith("episode-")] == [f"episode-{e['episode']}"]
            assert own_titles(e["state"]) == [f"episode-{e['episode']}"]
        assert grader.get("/_capenv/instances").json()["instances"] == []
