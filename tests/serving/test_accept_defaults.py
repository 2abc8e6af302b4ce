"""A read tool whose every recording asked for one specific media type (``view-accept-defaults``):
``GET /nodes`` was recorded only with ``Accept: application/json``, so the capture never shows what
the application answers a call sending none (Node-RED answers its HTML editor list). Over HTTP,
such a call, a ``*/*`` and any other Accept value are refused (406, naming the value to send),
while the recorded value is answered; a tool recorded with ``*/*`` answers a call sending none as
before, and an MCP call (no Accept: the tool's recorded representation) is answered.
"""

from __future__ import annotations

import json

import pytest
from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

NODES = [{"id": "inject", "module": "core"}, {"id": "debug", "module": "core"}]
FLOWS = [{"id": "f1", "label": "one"}]


def capture() -> HarBuilder:
    har = HarBuilder()
    har.call("GET", "/nodes", response=NODES, headers=[("accept", "application/json")])
    har.call("GET", "/flows", response=FLOWS, headers=[("accept", "*/*")])
    return har.call("GET", "/settings", response={"theme": "dark"})


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    return build_from(capture(), tmp_path_factory.mktemp("accept-defaults") / "capture.har")


def get(runtime: EnvironmentRuntime, path: str, accept: str | None):
    headers = (("accept", accept),) if accept is not None else ()
    return runtime.http(HttpRequest("GET", path, (), headers, b""))


def test_only_the_tool_recorded_with_a_specific_accept_requires_it(bundle) -> None:
    assert bundle.replay.required_accept == {"get_nodes": ("application/json",)}


@pytest.mark.parametrize("accept", [None, "", "*/*", "application/json, text/plain, */*"])
def test_a_call_leaving_the_representation_open_is_refused(bundle, accept) -> None:
    runtime = EnvironmentRuntime(bundle)
    try:
        answer = get(runtime, "/nodes", accept)
        assert answer.status == 406, answer
        assert "send Accept: application/json" in json.loads(answer.body)["message"]
    finally:
        runtime.close()


@pytest.mark.parametrize("accept", ["application/json", "Application/JSON"])
def test_the_recorded_accept_is_answered(bundle, accept) -> None:
    runtime = EnvironmentRuntime(bundle)
    try:
        answer = get(runtime, "/nodes", accept)
        assert answer.status == 200 and json.loads(answer.body) == NODES
    finally:
        runtime.close()


@pytest.mark.parametrize("path", ["/flows", "/settings"])
def test_tools_recorded_with_a_wildcard_or_none_answer_a_call_sending_none(bundle, path) -> None:
    runtime = EnvironmentRuntime(bundle)
    try:
        assert get(runtime, path, None).status == 200
    finally:
        runtime.close()


def test_an_mcp_call_takes_the_recorded_representation(bundle) -> None:
    runtime = EnvironmentRuntime(bundle)
    try:
        answer = runtime.call_tool("get_nodes", {})
        assert not answer.is_error and answer.structured["body"] == NODES
    finally:
        runtime.close()
