"""The MCP session budget (``mcp_sessions``, ``mcp_session_idle_seconds``) in a fleet: each instance
keeps its own sessions, bounded independently, so one instance's agent opening sessions without
closing them cannot take another instance's room; the refusal is a JSON-RPC error naming the
budget and what to do, with the instance's own MCP path; a closed (DELETE) or idle session, or a
deleted instance, frees its room."""

from __future__ import annotations

import time

import httpx2
import pytest
from support.fleets import serving_fleet

from capenv.serving.runtime import EnvironmentRuntime

MOST = 2
IDLE_SECONDS = 1.5
HEADERS = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}


@pytest.fixture
def small_template(json_server) -> EnvironmentRuntime:
    budgets = json_server.view.budgets.model_copy(update={"mcp_sessions": MOST, "mcp_session_idle_seconds": IDLE_SECONDS})
    return EnvironmentRuntime(json_server.model_copy(update={
        "view": json_server.view.model_copy(update={"budgets": budgets})}))


def open_session(agent: httpx2.Client, instance: dict) -> httpx2.Response:
    return agent.post(instance["mcp_url"], json=INITIALIZE, headers=HEADERS)


def close_session(agent: httpx2.Client, instance: dict, opened: httpx2.Response) -> httpx2.Response:
    return agent.delete(instance["mcp_url"], headers={**HEADERS, "mcp-session-id": opened.headers["mcp-session-id"]})


@pytest.mark.parametrize("store_url", ["memory"], indirect=True)
def test_each_instance_keeps_its_own_sessions_and_one_agent_cannot_take_anothers(small_template, store_url) -> None:
    with serving_fleet(small_template, store_url) as (fleet, serving, grader), \
            httpx2.Client(trust_env=False, timeout=30) as agent:
        one, two, three = (grader.post("/_capenv/instances").json() for _ in range(3))
        held = [open_session(agent, one) for _ in range(MOST)]
        assert [h.status_code for h in held] == [200] * MOST, [h.text for h in held]
        refused = open_session(agent, one)
        assert refused.status_code == 503
        message = refused.json()["error"]["message"]
        assert f"already has {MOST} MCP sessions open" in message and "budget mcp_sessions" in message, message
        assert f"DELETE /i/{one['id']}/mcp with its Mcp-Session-Id header" in message, message  # the path it uses
        # instance one is full: the others still open their own sessions, up to the same bound
        others = [open_session(agent, two) for _ in range(MOST)]
        assert [o.status_code for o in others] == [200] * MOST
        assert open_session(agent, two).status_code == 503
        assert open_session(agent, three).status_code == 200
        # the sessions held work, each on its own instance
        listed = agent.post(one["mcp_url"], json={"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
                            headers={**HEADERS, "mcp-session-id": held[0].headers["mcp-session-id"]})
        assert listed.status_code == 200 and listed.json()["result"]["tools"]
        elsewhere = agent.post(two["mcp_url"], json={"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
                               headers={**HEADERS, "mcp-session-id": held[0].headers["mcp-session-id"]})
        assert elsewhere.status_code == 404  # a session id is its instance's only
        # a session closed on one instance frees room there, not on another
        assert close_session(agent, one, held[0]).status_code == 200
        assert open_session(agent, two).status_code == 503
        assert open_session(agent, one).status_code == 200
        assert open_session(agent, one).status_code == 503
        # a deleted instance's sessions go with it; the others keep theirs
        assert grader.delete(f"/_capenv/instances/{two['id']}").status_code == 200
        assert open_session(agent, two).status_code == 404
        assert open_session(agent, one).status_code == 503
        time.sleep(IDLE_SECONDS * 3)  # every session idles out, on every instance
        assert [open_session(agent, one).status_code for _ in range(MOST)] == [200] * MOST
        assert [open_session(agent, three).status_code for _ in range(MOST)] == [200] * MOST
