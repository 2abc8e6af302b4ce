"""Kinto and Prefect: every read tool is listed and every recorded read call answers (from the
state or by replay) without an internal error, over MCP and over HTTP; data/get round trips."""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from mcp import Client
from support.http_thread import http_in_thread

from capenv.interpreter.bundle.io import read_bundle
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

CAPTURES = ["kinto", "prefect"]


@pytest.fixture(scope="module", params=CAPTURES)
def served(request, bundle_dir) -> tuple[Any, EnvironmentRuntime]:
    bundle = read_bundle(bundle_dir(request.param))
    return bundle, EnvironmentRuntime(bundle)


def read_tools(bundle) -> list[str]:
    read_only = {p.tool for p in bundle.view.read_only_posts}
    return [t.name for t in bundle.manifest.tools if t.method == "GET" or t.name in read_only]


def listed_tools(bundle) -> list[str]:
    """The catalog: every read tool, then every write tool the gate serves."""
    return read_tools(bundle) + [p.tool for p in bundle.view.writes if p.served]


def arguments_of(runtime: EnvironmentRuntime, call) -> dict[str, Any]:
    entries = runtime.catalog.entries.values()
    entry = next((e for e in entries if call.ordinal in e.tool.record_ordinals),
                 None) or next(e for e in entries if e.tool.match(call.path) is not None and e.tool.method == call.method)
    args = entry.tool.match(call.path)
    arguments: dict[str, Any] = {name: args[param] for param, name in entry.inputs.properties}
    if call.query:
        arguments["query"] = {name: value for name, value in call.query}
    if entry.inputs.body is not None and call.request_is_json:
        arguments["body"] = call.request_body
    return arguments


def test_every_read_tool_is_listed(served) -> None:
    bundle, runtime = served
    assert [spec.name for spec in runtime.tools()] == listed_tools(bundle)
    report = runtime.catalog_report()
    assert report["hits"] == [] and report["characters"] <= bundle.view.budgets.discovery_characters
    for spec in runtime.tools():
        assert spec.description and spec.input_schema["type"] == "object"


def test_every_recorded_read_answers_without_an_internal_error(served) -> None:
    bundle, runtime = served
    for name in read_tools(bundle):
        calls = bundle.replay.tools[name]
        first = runtime.call_tool(name, arguments_of(runtime, calls[0]))
        if calls[0].initial or name not in bundle.replay.reads_types:
            assert not first.is_error, (name, first.structured)
            assert "state" in first.structured or "replay" in first.structured
        for call in calls:
            result = runtime.call_tool(name, arguments_of(runtime, call))
            if result.is_error:  # an entity the state does not hold with no recorded absence, or a
                # recording of the capture's own writes, which the served state has not made
                assert result.structured["error"] == "refused", result.structured
                assert any(phrase in result.structured["message"] for phrase in (
                    "the state holds no", "not modelled over the current state")), result.structured
            answer = runtime.http(HttpRequest(call.method, call.path, call.query, (), _body(call)))
            assert answer.status != 500 or call.response.status == 500, (name, call.ordinal, answer)


def test_initial_reads_reproduce(served) -> None:
    bundle, runtime = served
    first_write = bundle.view.window.first_write_ordinal or 10**9
    for name in read_tools(bundle):
        for call in bundle.replay.tools[name]:
            if call.ordinal >= first_write or call.method != "GET":
                continue
            result = runtime.call_tool(name, arguments_of(runtime, call)).structured
            assert result["status"] == call.response.status, (name, call.ordinal)
            expected = call.response.body if call.response.is_json else call.response.text
            assert result["body"] == expected, (name, call.ordinal, result)


def test_data_get_round_trips(served) -> None:
    _, runtime = served
    before = runtime.data_get()
    runtime.data_add(before)
    assert runtime.data_get() == before


def test_listed_over_mcp(served) -> None:
    bundle, runtime = served

    async def main() -> None:
        with anyio.fail_after(30):
            async with Client(serving.url(runtime.reserved_mcp_path())) as client:
                listed = [tool.name for tool in (await client.list_tools()).tools]
                assert listed == listed_tools(bundle)
                name = [n for n in read_tools(bundle) if bundle.replay.tools[n][0].initial][-1]
                result = await client.call_tool(name, arguments_of(runtime, bundle.replay.tools[name][0]))
                assert result.is_error is False, result

    with http_in_thread(runtime) as serving:
        anyio.run(main)


def _body(call) -> bytes:
    from capenv.interpreter.bundle.jsonvalue import dumps

    if call.request_is_json:
        return dumps(call.request_body)
    return (call.request_text or "").encode()
