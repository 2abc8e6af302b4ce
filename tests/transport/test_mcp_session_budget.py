"""MCP sessions per environment are bounded (budget ``mcp_sessions``): past it a new session is
refused with a JSON-RPC error that says why and what to do, and a session closed (DELETE) or idle
(``mcp_session_idle_seconds``) frees its room. Before, the SDK's default let one environment hold
10,000 sessions (~38 KB each) for 30 minutes."""

from __future__ import annotations

import time

import httpx2
from transport_example_runtime import ExampleRuntime
from support.http_thread import http_in_thread

from capenv.interpreter.bundle.models import Budgets
from capenv.interpreter.rules_engine.loader import load_rules
from capenv.serving.transport.http_app import Access

MOST = 2
IDLE_SECONDS = 1.0
HEADERS = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}


class TwoSessions(ExampleRuntime):
    def budgets(self) -> Budgets:
        return Budgets.model_validate({**load_rules().settings["budgets"], "mcp_sessions": MOST,
                                       "mcp_session_idle_seconds": IDLE_SECONDS})


def open_session(client: httpx2.Client) -> httpx2.Response:
    return client.post("/mcp", json=INITIALIZE, headers=HEADERS)


def test_a_session_past_the_budget_is_refused_saying_why_and_a_closed_or_idle_one_frees_room() -> None:
    with http_in_thread(TwoSessions(), access=Access(data_token="t")) as serving, \
            httpx2.Client(base_url=serving.base_url, trust_env=False, timeout=30) as client:
        opened = [open_session(client) for _ in range(MOST)]
        assert [o.status_code for o in opened] == [200] * MOST, [o.text for o in opened]
        refused = open_session(client)
        assert refused.status_code == 503
        error = refused.json()["error"]
        assert "already has 2 MCP sessions open" in error["message"] and "mcp_sessions" in error["message"]
        assert "close a session you no longer use (DELETE /mcp with its Mcp-Session-Id" in error["message"]
        closed = client.delete("/mcp", headers={**HEADERS, "mcp-session-id": opened[0].headers["mcp-session-id"]})
        assert closed.status_code == 200
        again = open_session(client)
        assert again.status_code == 200, again.text
        assert open_session(client).status_code == 503
        time.sleep(IDLE_SECONDS * 3)  # every session idles out
        assert [open_session(client).status_code for _ in range(MOST)] == [200] * MOST
        gone = client.post("/mcp", json={"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
                           headers={**HEADERS, "mcp-session-id": again.headers["mcp-session-id"]})
        assert gone.status_code == 404

