"""An agent's session run in the AgentEnv framework (write-effects "Acceptance › Real captures":
"One environment, chosen at random among those serving a write tool, is exported, run in the
AgentEnv framework, and graded from data/get after an agent's create, update and delete").

The environment is chosen as in test_agent_graded_session (the seed is printed;
``CAPENV_AGENT_SEED=N`` repeats a run), exported with ``capenv export``, and served as the framework
deploys a server: ``python -m capenv.serving.transport.agentenv DIR`` with the name the framework
registered in ``ENVIRONMENT_NAME``. Everything after that goes through the framework's own clients
(``agentenv_protocol``): the card from its well-known address, the tools over its ``ToolSession``
at the MCP address the card gives, the state over its data-plane client (``data/get``,
``data/reset``). The grader checks the agent's create, update and delete and nothing else; the
framework's data/get carries capenv's own document byte for byte, and data/reset gives the
initial one back byte for byte."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from agentenv_protocol import ToolSession, client as protocol

from grader import ExpectedChange, grade
from support.served import CALL_TIMEOUT_SECONDS, STOP_TIMEOUT_SECONDS, data_get_url, quiet_env, served_process
from test_agent_graded_session import (create_update_delete, export_a_random_choice, initial_entities,
                                      refused_for_this_entity, removable_entities)
from valid_arguments import amended, write_arguments

from capenv.interpreter.bundle.io import read_bundle

DATA_GET = {"jsonrpc": "2.0", "id": 1, "method": "data/get"}


def framework_data_get(url: str) -> bytes | None:
    """data/get as the framework sends it (JSON-RPC at /agentenv), the answer's bytes as sent; None
    when the listener does not serve the data plane (404)."""
    with httpx2.Client(timeout=CALL_TIMEOUT_SECONDS, trust_env=False) as http:
        response = http.post(url + "/agentenv", json=DATA_GET)
    if response.status_code == 404:
        return None
    assert response.status_code == 200, response.text
    return response.content


def grader_url(agent_url: str, announced: list[str]) -> str:
    """The data listener's base URL, from the lines the server printed before it was ready."""
    line = next(line for line in announced if "grader's data plane" in line)
    return line.split(": ", 1)[1].split("/_capenv/")[0]


def as_framework_answer(document: bytes) -> bytes:
    return b'{"jsonrpc":"2.0","id":1,"result":{"parts":[{"kind":"data","data":' + document + b"}]}}"


class FrameworkAgent:
    """The scripted agent of test_agent_graded_session on the framework's ``ToolSession``: it knows
    the tools by their listing alone (its results carry capenv's structured answer as JSON text), and
    the state by data/get (``state``: the ids a member naming a held entity takes)."""

    def __init__(self, session: ToolSession, rng: random.Random, templates: dict[str, str], state: Any) -> None:
        self.session, self.rng, self.templates, self.state = session, rng, templates, state
        self.schemas: dict[str, dict[str, Any]] = {}

    async def look(self) -> list[str]:
        self.schemas = {tool.name: tool.inputSchema for tool in await self.session.list_tools()}
        return list(self.schemas)

    async def call(self, tool: str, collection: str, entity_id: Any, protected_too: bool = True
                   ) -> tuple[dict[str, Any], dict[str, Any]] | None:
        schema = self.schemas[tool]
        arguments = write_arguments(schema, self.templates[tool], collection, entity_id, self.rng, "agent",
                                    self.state)
        refused, answer = await self._call(tool, arguments)
        if refused:
            retry = amended(arguments, schema, answer.get("message", ""), self.rng, "agent")
            if retry is not None:
                arguments = retry
                refused, answer = await self._call(tool, retry)
        if not protected_too and refused_for_this_entity(refused, answer):
            return None
        assert not refused, (tool, arguments, answer)
        return arguments, answer

    async def _call(self, tool: str, arguments: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
        result = await self.session.call_tool(tool, arguments)
        return result.isError, json.loads(result.text)


def test_an_agents_session_in_the_agentenv_framework_is_graded_from_data_get(tmp_path: Path, request) -> None:
    rng, choice, note, directory, templates = export_a_random_choice(tmp_path, request, "AgentEnv session")
    name = f"capenv-{choice.capture}"
    command = [sys.executable, "-m", "capenv.serving.transport.agentenv", str(directory), "--http", "127.0.0.1:0"]

    with served_process(command, {**quiet_env(), "ENVIRONMENT_NAME": name}, STOP_TIMEOUT_SECONDS) as (url, lines):
        data_url = grader_url(url, lines)  # the grader's own listener: the framework's client sends no token
        assert framework_data_get(url) is None, "the agent's listener served the framework's data plane"
        initial_bytes = framework_data_get(data_url)
        document = data_get_url(data_url)
        removable = removable_entities(document, choice, initial_entities(document, choice.type)[0])
        if not removable:
            pytest.skip(f"{note}: other held entities name every {choice.type} entity, so the delete refuses each")
        assert initial_bytes == as_framework_answer(data_get_url(data_url)), "the framework's data/get is not capenv's"

        async def play() -> tuple[dict, dict, list[ExpectedChange]]:
            with anyio.fail_after(4 * CALL_TIMEOUT_SECONDS):
                card = await protocol.get_card(url)
                assert card["name"] == name and card["url"] == "/agentenv", card
                assert card["capabilities"]["operations"] == ["data/reset", "data/add", "data/get"], card
                before = (await protocol.get_data(data_url)).parts[0].data
                collection, held = initial_entities(json.dumps(before).encode(), choice.type)
                updated = rng.sample(held, len(held))
                deleted = rng.choice([i for i in removable if i != updated[0]] or removable)
                async with ToolSession(mcp_url=url + protocol.mcp_path(card), timeout=CALL_TIMEOUT_SECONDS) as session:
                    agent = FrameworkAgent(session, rng, templates, before)
                    assert await agent.look() == [t["name"] for t in card["capabilities"]["tools"]], note
                    expected = await create_update_delete(agent, choice, collection, updated, deleted, note,
                                                          read_bundle(directory))
                after = (await protocol.get_data(data_url)).parts[0].data
                await protocol.reset_data(data_url)
            return before, after, expected

        before, after, expected = anyio.run(play)
        problems = grade(before, after, expected)
        assert problems == [], f"{note}: " + "; ".join(problems)
        assert framework_data_get(data_url) == initial_bytes, f"{note}: data/reset did not restore the state byte for byte"
