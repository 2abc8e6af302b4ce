"""A query parameter every recorded call sent (Icinga's ``?attrs=display_name``) defaults to its
recorded value in an MCP call, whose schema says so; an HTTP call leaving it out is refused, naming
it: the application answers such a call otherwise (every attribute, not the recorded projection),
and the capture does not show how."""

from __future__ import annotations

import json

import pytest
from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

GROUPS = [{"name": "ops", "attrs": {"display_name": "Operations"}},
          {"name": "devs", "attrs": {"display_name": "Developers"}}]


@pytest.fixture(scope="module")
def runtime():
    har = HarBuilder()
    for _ in range(2):
        for group in GROUPS:
            har.call("GET", f"/usergroups/{group['name']}", query="attrs=display_name", response=group)
    return EnvironmentRuntime(build_from(har))


def test_an_http_call_leaving_out_an_always_sent_parameter_is_refused(runtime):
    answer = runtime.http(HttpRequest("GET", "/usergroups/ops", (), (), b""))
    assert answer.status == 400, answer.body  # once: 200 with the display_name projection
    message = json.loads(answer.body)["message"]
    assert "sent by every recorded call" in message and "attrs=display_name" in message
    sent = runtime.http(HttpRequest("GET", "/usergroups/ops", (("attrs", "display_name"),), (), b""))
    assert sent.status == 200 and json.loads(sent.body) == GROUPS[0]


def test_an_mcp_call_takes_the_default_its_schema_names(runtime):
    tool = next(t for t in runtime.tools() if t.name.startswith("get_usergroups"))
    assert tool.input_schema["properties"]["query"]["properties"]["attrs"]["default"] == "display_name"
    answer = runtime.call_tool(tool.name, {next(iter(tool.input_schema["required"])): "ops"})
    assert not answer.is_error and answer.structured["body"] == GROUPS[0], answer.structured
