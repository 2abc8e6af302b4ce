"""Agent-ready tools (issue #13 item 1) on every capture in captures/, through the official MCP
Python client in process: every listed tool has a title, the behaviour hints its plan or view
implies, and Draft 2020-12 input and output schemas; every recorded call of every tool is
answered with structured content that validates against the tool's output schema (the client
validates it too, and raises if it does not)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from jsonschema import Draft202012Validator
from mcp import Client

from capenv.interpreter.bundle.io import read_bundle
from capenv.interpreter.bundle.jsonvalue import dumps
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.transport.mcp_server import build_mcp_server

REPO = Path(__file__).resolve().parents[2]
CAPTURES = sorted(p.parent.name for p in (REPO / "captures").glob("*/capture.har"))
CALLS_PER_TOOL = 3  # the first, a middle and the last recording: enough shapes, small CI time


def arguments_of(entry, call) -> dict[str, Any]:
    import json

    args = entry.tool.match(call.path) or {}
    names = entry.inputs.properties if entry.handler == "read" else [(p, p) for p in entry.tool.params]
    arguments: dict[str, Any] = {name: args[param] for param, name in names}
    if call.query and any(name == "query" for name in entry.inputs.schema().get("properties", {})):
        arguments["query"] = {name: value for name, value in call.query}
    if getattr(entry.inputs, "body", None) is not None and call.request_is_json and call.request_body is not None:
        arguments["body"] = json.loads(dumps(call.request_body))
    return arguments


def sampled(calls: tuple) -> list:
    picks = sorted({0, len(calls) // 2, len(calls) - 1}) if calls else []
    return [calls[i] for i in picks][:CALLS_PER_TOOL]


@pytest.mark.parametrize("capture", CAPTURES)
def test_listed_tools_carry_titles_hints_and_schemas_and_answers_validate(capture: str, bundle_dir) -> None:
    bundle = read_bundle(bundle_dir(capture))
    runtime = EnvironmentRuntime(bundle)
    plans = {p.tool: p for p in bundle.view.writes if p.served}

    async def session() -> int:
        answered = 0
        async with Client(build_mcp_server(runtime)) as client:
            tools = (await client.list_tools()).tools
            assert tools, capture
            for tool in tools:
                Draft202012Validator.check_schema(tool.input_schema)
                Draft202012Validator.check_schema(tool.output_schema)
                assert tool.title and tool.annotations is not None and tool.annotations.open_world_hint is False
                hints = tool.annotations
                plan = plans.get(tool.name)
                if plan is None:
                    assert hints.read_only_hint is True and hints.destructive_hint is False, tool.name
                else:
                    assert hints.read_only_hint is False, tool.name
                    effect = plan.bulk_effect if plan.effect == "bulk" and plan.bulk_effect else plan.effect
                    assert hints.destructive_hint is (effect != "create"), tool.name
                    assert hints.idempotent_hint is (plan.method == "PUT" or plan.effect == "document"), tool.name
                validator = Draft202012Validator(tool.output_schema)
                entry = runtime.catalog.get(tool.name)
                # a call spelled as the application does not route (its other trailing slash, answered only
                # with failures: interpreter/manifest/infer._spelling) is held, but names no tool arguments
                recorded = bundle.replay.tools.get(tool.name, ())
                routed = tuple(c for c in recorded if entry.tool.match(c.path) is not None)
                for call in sampled(routed):
                    arguments = arguments_of(entry, call)
                    result = await client.call_tool(tool.name, arguments)  # validates, or raises
                    if not result.is_error:
                        errors = [e.message for e in validator.iter_errors(result.structured_content)]
                        assert not errors, (tool.name, call.ordinal, errors)
                        label = result.structured_content.get("state", {})
                        if label.get("view") in ("item", "list") and "then" in tool.output_schema:
                            # the recorded shape is really held to: another body would not validate
                            wrong = {**result.structured_content, "body": "not an entity"}
                            assert not validator.is_valid(wrong), tool.name
                        answered += 1
        return answered

    assert anyio.run(session) > 0


def test_a_partial_update_the_schema_accepts_is_served(bundle_dir) -> None:
    """issue #13: PATCH a comment with {"body": "edited"} (valid by its schema) is served; the recorded
    answer carried "edited" because its call sent it, and this call does not."""
    runtime = EnvironmentRuntime(read_bundle(bundle_dir("json-server")))
    schema = runtime.catalog.get("patch_comments_by_comment_id").spec().input_schema
    arguments = {"comment_id": 1, "body": {"body": "edited"}}
    assert Draft202012Validator(schema).is_valid(arguments)
    answer = runtime.call_tool("patch_comments_by_comment_id", arguments)
    assert not answer.is_error, answer.structured
    assert answer.structured["body"]["body"] == "edited" and "edited" not in answer.structured["body"]
    read = runtime.call_tool("get_comments_by_comment_id", {"comment_id": "1"}).structured
    assert read["body"] == answer.structured["body"]
