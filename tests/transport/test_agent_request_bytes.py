"""A request body the agent sends is bounded by the budget ``agent_request_bytes`` (the
application's paths and MCP), answered 413 with a JSON body that says the limit; the grader's data
plane keeps its own intake (``max_state_bytes``). Before, the agent's bodies were taken up to
33 MiB, the data plane's limit."""

from __future__ import annotations

import json

import httpx2
from transport_example_runtime import ExampleRuntime
from support.http_thread import http_in_thread

from capenv.interpreter.bundle.models import Budgets
from capenv.interpreter.rules_engine.loader import load_rules
from capenv.serving.transport.agent_limits import MCP_ENVELOPE_BYTES
from capenv.serving.transport.http_app import Access

LIMIT = 1024
TOKEN = "t"


class SmallBodies(ExampleRuntime):
    def budgets(self) -> Budgets:
        return Budgets.model_validate({**load_rules().settings["budgets"], "agent_request_bytes": LIMIT})


def body_of(size: int) -> bytes:
    """A JSON object of exactly ``size`` bytes."""
    return json.dumps({"message": "x" * (size - len('{"message": ""}'))}).encode()


def test_an_agents_body_past_the_budget_is_413_saying_the_limit_and_the_data_plane_keeps_its_intake() -> None:
    with http_in_thread(SmallBodies(), access=Access(data_token=TOKEN)) as serving, \
            httpx2.Client(base_url=serving.base_url, trust_env=False, timeout=30) as client:
        json_type = {"content-type": "application/json"}
        assert client.post("/items", content=body_of(LIMIT), headers=json_type).status_code == 201
        refused = client.post("/items", content=body_of(LIMIT + 1), headers=json_type)
        assert refused.status_code == 413
        assert refused.json()["limit_bytes"] == LIMIT
        assert f"larger than {LIMIT} bytes" in refused.json()["message"]
        assert "agent_request_bytes" in refused.json()["message"]
        added = client.post("/_capenv/data/add", content=body_of(8 * LIMIT),
                            headers={**json_type, "authorization": f"Bearer {TOKEN}"})
        assert added.status_code == 200, added.text
        mcp = client.post("/mcp", content=body_of(LIMIT + MCP_ENVELOPE_BYTES + 1),
                          headers={**json_type, "accept": "application/json, text/event-stream"})
        assert mcp.status_code == 413
        error = mcp.json()["error"]
        assert f"larger than {LIMIT + MCP_ENVELOPE_BYTES} bytes" in error["message"], error


def test_the_budgets_defaults_are_the_tables() -> None:
    table = load_rules().settings["budgets"]
    for name in ("agent_request_bytes", "mcp_sessions", "mcp_session_idle_seconds"):
        assert table[name] == Budgets.model_fields[name].default, name
