"""What an agent holding one instance's URLs (and no grader token) can reach: its own instance's
MCP tools and application paths, nothing of the grader's. Every spelling of a data-plane or
management route under its instance prefix (reserved paths, percent-escaped, the AgentEnv path,
another instance's routes), and every MCP tool, leaves each instance's state byte for byte as it
was; no answer the agent gets names another instance's id or the grader's token; and a write on
one instance shows in no read of another."""

from __future__ import annotations

import anyio
import httpx2
import pytest
from mcp import Client
from support.fleets import TOKEN, serving_fleet
from support.http_thread import http_in_thread, port_free_on

from test_fleet_http import create

from capenv.serving.instances.fleet import InstanceFleet
from capenv.serving.transport.fleet_app import FleetHttpApp
from capenv.serving.transport.http_app import Access

GRADER_WORDS = ("data/get", "data/reset", "data/add", "_capenv", "agentenv", "instances", "snapshot")


def grader_paths(own: str, other: str) -> list[tuple[str, str]]:
    """(method, path under the agent's own instance prefix) reaching for grader powers."""
    tails = ["/_capenv/data/get", "/_capenv/data/reset", "/_capenv/data/add", "/%5Fcapenv/data/get",
             "/%5fcapenv/data/reset", "/_capenv%2Fdata%2Fget", "/_capenv/instances", f"/_capenv/instances/{other}/data/get",
             f"/_capenv/instances/{other}/data/reset", f"/_capenv/instances/{own}/snapshot", "/agentenv",
             "/.well-known/agent-env.json", f"/%2e%2e/{other}/posts", f"/%2E%2E/{other}/posts", "/_capenv/openenv/ws"]
    return [(method, tail) for tail in tails for method in ("GET", "POST")]


@pytest.mark.parametrize("store_url", ["memory"], indirect=True)
def test_no_path_under_an_instance_gives_the_agent_a_grader_power(template, store_url) -> None:
    with serving_fleet(template, store_url) as (fleet, serving, grader):
        one, two = create(grader), create(grader)
        states = {i["id"]: grader.get(f"/_capenv/instances/{i['id']}/data/get").content for i in (one, two)}
        listed = grader.get("/_capenv/instances").json()["instances"]
        with httpx2.Client(trust_env=False, timeout=30) as agent:
            for method, tail in grader_paths(one["id"], two["id"]):
                body = {"jsonrpc": "2.0", "id": 1, "method": "data/reset"} if method == "POST" else None
                answer = agent.request(method, one["http_base"] + tail, json=body)
                assert answer.status_code >= 400, (method, tail, answer.status_code, answer.text[:200])
                assert TOKEN not in answer.text, (method, tail)
                if two["id"] not in tail:  # an id the agent sent may be quoted back; no other is ever named
                    assert two["id"] not in answer.text, (method, tail, answer.text[:200])
                assert b'"collections"' not in answer.content, (method, tail)  # no state document
        assert {i["id"]: grader.get(f"/_capenv/instances/{i['id']}/data/get").content for i in (one, two)} == states
        assert grader.get("/_capenv/instances").json()["instances"] == listed  # none made, none deleted


@pytest.mark.parametrize("store_url", ["memory"], indirect=True)
def test_the_agents_tools_are_the_applications_alone_and_stay_in_their_instance(template, store_url) -> None:
    with serving_fleet(template, store_url) as (fleet, serving, grader):
        one, two = create(grader), create(grader)
        initial = grader.get(f"/_capenv/instances/{two['id']}/data/get").content

        async def main() -> list[str]:
            with anyio.fail_after(60):
                async with Client(one["mcp_url"]) as session:
                    names = [tool.name for tool in (await session.list_tools()).tools]
                    made = await session.call_tool("post_posts", {"body": {
                        "title": "only in one", "author": "a", "views": 1, "published": False, "tags": []}})
                    assert not made.is_error, made
                    listed = await session.call_tool("get_posts", {})
                    assert "only in one" in str(listed.structured_content)
                    return names

        names = anyio.run(main)
        application = {tool.name for tool in template.tools()}
        assert set(names) == application  # no tool of capenv's own (data plane, instances)
        assert not [n for n in names if any(w.replace("/", "_") in n.lower() for w in GRADER_WORDS)]
        assert grader.get(f"/_capenv/instances/{two['id']}/data/get").content == initial
        with httpx2.Client(trust_env=False, timeout=30) as agent:
            assert "only in one" not in agent.get(f"{two['http_base']}/posts").text
            assert "only in one" in agent.get(f"{one['http_base']}/posts").text


def test_a_grader_listener_on_the_agents_port_keeps_the_fleet_the_graders(template) -> None:
    # --http 127.0.0.1:P --data 127.0.0.2:P: the agent names the grader's Host on its own socket
    port = port_free_on("127.0.0.1", "127.0.0.2")
    fleet = InstanceFleet(template, None)
    make_app = lambda policies, **options: FleetHttpApp(fleet, policies, **options)  # noqa: E731
    try:
        with http_in_thread(template, "127.0.0.1", port, access=Access(data_listen=("127.0.0.2", port)),
                            make_app=make_app), \
                httpx2.Client(base_url=f"http://127.0.0.2:{port}", trust_env=False, timeout=60) as grader, \
                httpx2.Client(base_url=f"http://127.0.0.1:{port}", trust_env=False, timeout=60) as agent:
            one = create(grader)
            state = grader.get(f"/_capenv/instances/{one['id']}/data/get").content
            listed = grader.get("/_capenv/instances").json()["instances"]
            for host in (f"127.0.0.1:{port}", f"127.0.0.2:{port}"):
                for method, path in (("GET", "/_capenv/instances"), ("POST", "/_capenv/instances"),
                                     ("GET", f"/_capenv/instances/{one['id']}/data/get"),
                                     ("POST", f"/_capenv/instances/{one['id']}/data/reset"),
                                     ("DELETE", f"/_capenv/instances/{one['id']}"),
                                     ("GET", f"/i/{one['id']}/_capenv/data/get")):
                    answer = agent.request(method, path, headers={"host": host})
                    assert answer.status_code in (404, 421), (host, method, path, answer.status_code, answer.text[:200])
            assert agent.get(f"/i/{one['id']}/posts").status_code == 200
            assert grader.get(f"/_capenv/instances/{one['id']}/data/get").content == state
            assert grader.get("/_capenv/instances").json()["instances"] == listed
    finally:
        fleet.close()
