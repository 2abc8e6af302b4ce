"""A request body the agent sends is bounded by the budget ``agent_request_bytes`` (the
application's paths and MCP, with ``mcp_envelope_bytes`` more), answered 413 with a JSON body that
says the limit; the grader's data plane keeps its own intake (``max_state_bytes``). Before, the
agent's bodies were taken up to 33 MiB, the data plane's limit; the envelope was a constant."""

from __future__ import annotations

import json

import httpx2
import pytest
from transport_example_runtime import ExampleRuntime
from support.http_thread import http_in_thread

from capenv.interpreter.bundle.models import Budgets
from capenv.interpreter.rules_engine.loader import load_rules
from capenv.serving.transport.http_app import Access

LIMIT = 1024
ENVELOPE = 2048
TOKEN = "t"
MCP_HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}


def budgets_with(**values: int) -> Budgets:
    return Budgets.model_validate({**load_rules().settings["budgets"], **values})


class SmallBodies(ExampleRuntime):
    def budgets(self) -> Budgets:
        return budgets_with(agent_request_bytes=LIMIT, mcp_envelope_bytes=ENVELOPE)


class TableEnvelope(ExampleRuntime):
    def budgets(self) -> Budgets:
        return budgets_with(agent_request_bytes=LIMIT)


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
        assert client.post("/mcp", content=body_of(LIMIT + ENVELOPE), headers=MCP_HEADERS).status_code != 413
        mcp = client.post("/mcp", content=body_of(LIMIT + ENVELOPE + 1), headers=MCP_HEADERS)
        assert mcp.status_code == 413
        error = mcp.json()["error"]
        assert f"larger than {LIMIT + ENVELOPE} bytes" in error["message"], error
        assert "mcp_envelope_bytes" in error["message"], error


def test_the_envelope_budget_bounds_an_mcp_body() -> None:
    """The same MCP body past ``agent_request_bytes`` + ``ENVELOPE`` is taken with the table's
    envelope (64 KiB) and refused with a smaller one: the bound is the budget, not a constant."""
    body = body_of(LIMIT + ENVELOPE + 1)
    for runtime, refused in ((TableEnvelope(), False), (SmallBodies(), True)):
        with http_in_thread(runtime, access=Access(data_token=TOKEN)) as serving, \
                httpx2.Client(base_url=serving.base_url, trust_env=False, timeout=30) as client:
            status = client.post("/mcp", content=body, headers=MCP_HEADERS).status_code
            assert (status == 413) is refused, (type(runtime).__name__, status)


class SmallIntake(ExampleRuntime):
    def budgets(self) -> Budgets:
        return budgets_with(max_state_bytes=4 * LIMIT, data_envelope_bytes=LIMIT)


def test_the_data_planes_intake_is_max_state_bytes_and_its_envelope() -> None:
    """A data/add body of ``max_state_bytes`` + ``data_envelope_bytes`` reaches the runtime (which
    refuses it with its own message here, taking 1 KiB), one byte more is refused 413 before it
    does: the intake is the budgets', not a constant (33 MiB before, whatever the bundle said)."""
    intake = 5 * LIMIT
    with http_in_thread(SmallIntake(max_document_bytes=LIMIT), access=Access(data_token=TOKEN)) as serving, \
            httpx2.Client(base_url=serving.base_url, trust_env=False, timeout=30) as client:
        headers = {"content-type": "application/json", "authorization": f"Bearer {TOKEN}"}
        reached = client.post("/_capenv/data/add", content=body_of(intake), headers=headers)
        assert reached.status_code == 413 and f"at most {LIMIT} are accepted" in reached.json()["message"], reached.text
        refused = client.post("/_capenv/data/add", content=body_of(intake + 1), headers=headers)
        assert refused.status_code == 413 and f"larger than {intake} bytes" in refused.json()["message"], refused.text


def test_the_budgets_defaults_are_the_tables() -> None:
    """Every budget with a default (what a bundle built before it was a budget is served with) has
    the table's value: a budget moved from Python keeps its value in both."""
    table = load_rules().settings["budgets"]
    defaulted = [name for name, field in Budgets.model_fields.items() if not field.is_required()]
    assert {"data_envelope_bytes", "fleet_create_bytes", "query_examples", "body_example_characters",
            "recorded_value_characters", "described_values", "quoted_value_characters", "paths_named",
            "missing_statuses", "keep_alive_seconds", "catch_up_entries", "drain_bytes",
            "shutdown_grace_seconds", "path_values_quoted", "names_quoted", "values_quoted",
            "query_values_quoted", "held_values_quoted", "tools_named", "absence_statuses"} <= set(defaulted)
    for name in defaulted:
        default = Budgets.model_fields[name].default
        assert table[name] == (list(default) if isinstance(default, tuple) else default), name


def test_a_refused_body_is_drained_as_far_as_the_budget_drain_bytes() -> None:
    """A body declared past its limit is read and dropped (so the client sees the 413) while it is at
    most ``drain_bytes`` past; further past, nothing of it is read (the connection is closed)."""
    import anyio

    from capenv.serving.transport.http_exchange import BodyTooLarge, read_body

    def received(declared: int, drain: int) -> int:
        chunks = [{"type": "http.request", "body": b"x" * 100, "more_body": True} for _ in range(declared // 100)]
        chunks[-1]["more_body"] = False
        taken: list[dict] = []

        async def receive() -> dict:
            taken.append(chunks[len(taken)])
            return taken[-1]

        scope = {"type": "http", "headers": [(b"content-length", str(declared).encode())]}

        async def read() -> None:
            with pytest.raises(BodyTooLarge):
                await read_body(scope, receive, 1000, drain)

        anyio.run(read)
        return len(taken)

    assert budgets_with().drain_bytes == 64 * 1024 * 1024
    assert received(1500, drain=500) == 5  # 500 past: read, as far as the budget
    assert received(1600, drain=500) == 0  # 600 past: not read at all
    assert received(1600, drain=64 * 1024 * 1024) == 16  # the table's: read whole


class GraceBudget(ExampleRuntime):
    def budgets(self) -> Budgets:
        return budgets_with(shutdown_grace_seconds=7)


def test_a_stopping_server_waits_the_budget_shutdown_grace_seconds(monkeypatch) -> None:
    """uvicorn is handed the bundle's ``shutdown_grace_seconds`` as its graceful shutdown timeout."""
    import uvicorn

    given: list[float] = []

    class Config(uvicorn.Config):
        def __init__(self, *args, **kwargs) -> None:
            given.append(kwargs["timeout_graceful_shutdown"])
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(uvicorn, "Config", Config)
    assert budgets_with().shutdown_grace_seconds == 3
    with http_in_thread(GraceBudget()) as serving, httpx2.Client(base_url=serving.base_url, trust_env=False) as client:
        assert client.get("/anything").status_code < 500
    assert given == [7]
