"""The OpenAPI 3.1 description of the served HTTP surface (issue #13 item 4): on every capture it
validates with openapi-spec-validator, names exactly the served tools (the unserved writes under
``x-capenv-not-served`` with their reasons), and the recorded calls, sent to the environment's
HTTP surface, are answered as it describes (status among its responses, bodies valid against
the schema of their status)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from openapi_schema_validator import OAS31Validator
from openapi_spec_validator import validate

from capenv.interpreter.bundle.io import read_bundle
from capenv.interpreter.bundle.jsonvalue import dumps
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest
from support.served import capenv, capture_names

CAPTURES = capture_names()


def _document(runtime: EnvironmentRuntime) -> dict:
    return json.loads(runtime.openapi())


@pytest.mark.parametrize("capture", CAPTURES)
def test_every_capture_describes_its_served_tools_and_validates(capture: str, bundle_dir) -> None:
    bundle = read_bundle(bundle_dir(capture))
    runtime = EnvironmentRuntime(bundle)
    try:
        document = _document(runtime)
        validate(document)  # raises with the offending pointer
        assert document["openapi"].startswith("3.1")
        operations = {op["operationId"]: (path, method)
                      for path, item in document["paths"].items() for method, op in item.items()}
        assert set(operations) == set(runtime.catalog.entries)
        for name, (path, method) in operations.items():
            tool = runtime.catalog.entries[name].tool
            assert (path, method) == (tool.spelled_template, tool.method.lower())  # as a client sends it
            operation = document["paths"][path][method]
            shown = f"{tool.method} {tool.spelled_template}"  # the title and description show that path too
            assert shown in operation["summary"] and shown in operation["description"], (name, shown)
        not_served = {n["tool"]: n["reason"] for n in document.get("x-capenv-not-served", [])}
        for plan in bundle.view.writes:
            assert (plan.tool in operations) is plan.served, plan.tool
            if not plan.served:
                assert not_served[plan.tool] == plan.reason
        assert EnvironmentRuntime(bundle).openapi() == runtime.openapi()  # deterministic
    finally:
        runtime.close()


def test_recorded_reads_are_answered_as_described(bundle_dir) -> None:
    bundle = read_bundle(bundle_dir("json-server"))
    runtime = EnvironmentRuntime(bundle)
    document = _document(runtime)
    checked = 0
    try:
        for entry in runtime.catalog.entries.values():
            if entry.handler != "read":
                continue
            operation = document["paths"][entry.tool.spelled_template][entry.tool.method.lower()]
            for call in bundle.replay.tools[entry.name]:
                answer = runtime.http(HttpRequest(call.method, call.path, tuple(call.query), (), b""))
                responses = operation["responses"]
                described = responses.get(str(answer.status), responses["default"])
                media = described.get("content", {}).get("application/json", {})
                if "schema" in media and answer.body:
                    OAS31Validator(media["schema"]).validate(json.loads(answer.body))
                    checked += 1
                assert str(answer.status) in responses or answer.status >= 400, (entry.name, answer.status)
    finally:
        runtime.close()
    assert checked >= 5  # the state-backed reads' bodies were held to their rendered shape


def test_a_write_operation_carries_its_plan_body_and_a_recorded_example(bundle_dir) -> None:
    bundle = read_bundle(bundle_dir("json-server"))
    runtime = EnvironmentRuntime(bundle)
    try:
        operation = _document(runtime)["paths"]["/posts"]["post"]
        body = operation["requestBody"]["content"]["application/json"]
        assert body["schema"] == runtime.catalog.entries["post_posts"].inputs.schema()["properties"]["body"]
        assert operation["requestBody"]["required"] is True
        assert isinstance(body["example"], dict) and "title" in body["example"]
        assert "201" in operation["responses"] and "default" in operation["responses"]
        item = _document(runtime)["paths"]["/posts/{post_id}"]["get"]
        assert [p["name"] for p in item["parameters"] if p["in"] == "path"] == ["post_id"]
    finally:
        runtime.close()


def test_the_cli_writes_the_same_document(bundle_dir, tmp_path: Path) -> None:
    bundle = bundle_dir("json-server")
    output = tmp_path / "openapi.json"
    done = capenv("openapi", str(bundle), "-o", str(output))
    assert done.returncode == 0, done.stderr
    runtime = EnvironmentRuntime(read_bundle(bundle))
    try:
        assert output.read_bytes() == runtime.openapi() + b"\n"
    finally:
        runtime.close()
    missing = capenv("openapi", str(tmp_path / "nothing"))
    assert missing.returncode == 2 and len(missing.stderr.decode().strip().splitlines()) == 1


def test_replay_only_describes_no_write(bundle_dir) -> None:
    runtime = EnvironmentRuntime(read_bundle(bundle_dir("json-server")), replay_only=True)
    try:
        document = _document(runtime)
        methods = {m for item in document["paths"].values() for m in item}
        assert methods == {"get"}
        assert json.loads(dumps(document))["x-capenv-not-served"]
    finally:
        runtime.close()


def test_a_query_parameter_recorded_empty_is_described_as_allowed_empty() -> None:
    """A search recorded with ``?q=`` (the application answered it 400): the tool takes the empty
    text, so the document says so (``allowEmptyValue``), or an OpenAPI client refuses the call
    before it is sent (regression: openapi-core raised EmptyQueryParameterValue)."""
    from support.capture_runs import build_from
    from support.har_builder import HarBuilder

    har = (HarBuilder()
           .call("GET", "/search", query=[("q", "lamp")], response={"hits": [{"id": 1, "name": "lamp"}]})
           .call("GET", "/search", query=[("q", "desk")], response={"hits": []})
           .call("GET", "/search", query=[("q", "")], status=400, response={"error": "q must be set"}))
    document = _document(EnvironmentRuntime(build_from(har)))
    validate(document)
    parameters = [p for item in document["paths"].values() for op in item.values() for p in op.get("parameters", ())
                  if p["in"] == "query" and p["name"] == "q"]
    assert parameters and all(p.get("allowEmptyValue") is True for p in parameters), parameters
