"""``AgentEnvSession`` (serving/transport/agentenv_client) against a served synthetic ``/items``
capture whose create is served: the card, the tools, a create that the framework's data/get then
holds, data/add of a state document and data/reset, all through the framework's own clients."""

from __future__ import annotations

import anyio
import pytest
from support.capture_runs import build_from, items_app, plan
from support.http_thread import http_in_thread

from capenv.interpreter.bundle.jsonvalue import dumps
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.transport.agentenv_client import AgentEnvSession, environment_url
from capenv.serving.transport.http_app import Access
from capenv.serving.transport.agentenv_rpc import AgentEnvRuntime

CREATED = {"id": 3, "title": "c"}


def items_with_a_create():
    builder = items_app().call("POST", "/items", body={"title": "c"}, status=201, response=CREATED)
    bundle = build_from(builder.call("GET", "/items/3", response=CREATED))
    create = plan(bundle, "POST", "/items")
    assert create.served, create
    return bundle, create.tool


def titles(document: dict) -> list[str]:
    return [e["value"]["title"] for c in document["collections"] if c["path"] == "/items" for e in c["entities"]]


def test_a_session_creates_reads_the_state_loads_a_document_and_resets() -> None:
    bundle, create = items_with_a_create()
    runtime = EnvironmentRuntime(bundle)
    with http_in_thread(AgentEnvRuntime(runtime, "items"), access=Access(data_listen=("127.0.0.1", 0))) as serving:

        async def session() -> None:
            async with AgentEnvSession(serving.base_url, data_url=serving.data_url) as env:
                assert env.card["name"] == "items"
                assert create in [tool.name for tool in await env.tools()]
                initial = await env.state()
                answer = await env.call(create, {"body": {"title": "made by the agent"}})
                assert not answer.is_error and answer.structured["state"]["view"] == "create", answer
                assert titles(await env.state()) == titles(initial) + ["made by the agent"]
                refused = await env.call(create, {"body": "not an object"})
                assert refused.is_error and refused.structured["message"], refused
                await env.reset()
                assert await env.state() == initial
                shorter = {**initial, "collections": [{**c, "entities": c["entities"][:1]} if c["path"] == "/items"
                                                       else c for c in initial["collections"]]}
                await env.load(dumps(shorter))
                assert await env.state() == shorter

        anyio.run(session)
    runtime.close()


def test_a_session_not_opened_says_so_and_the_base_url_comes_from_the_mcp_url() -> None:
    with pytest.raises(RuntimeError, match="not open"):
        anyio.run(AgentEnvSession("http://127.0.0.1:1").state)
    assert environment_url("http://127.0.0.1:18765/mcp") == "http://127.0.0.1:18765"
    with pytest.raises(ValueError, match="not an absolute URL"):
        environment_url("/mcp")
