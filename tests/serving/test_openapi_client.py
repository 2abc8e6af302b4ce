"""A client driven by the OpenAPI description talks to the served environment (issue #13 item 4,
acceptance): on every capture in captures/, ``openapi-core`` validates each real HTTP request
sent to ``capenv serve --http``'s surface against the document that surface serves at
``/openapi.json``, and each answer against the operation's responses (status, content type,
the rendered body's schema). Every served tool is called at least once: with its recorded calls
whose arguments its input schema accepts, else with the smallest arguments the schema accepts,
at the path the document spells (the format suffix, a glued colon action); the surface's 404 for
a path no tool answers fails the test, since any 404 would otherwise validate as the default."""

from __future__ import annotations

import http.client
import json
from typing import Any
from urllib.parse import urlencode

import pytest
from jsonschema import Draft202012Validator
from openapi_core import Config, OpenAPI
from openapi_core.deserializing.media_types.util import json_loads, plain_loads
from openapi_core.testing import MockRequest, MockResponse

from capenv.interpreter.bundle.io import read_bundle
from capenv.interpreter.bundle.jsonvalue import dumps
from capenv.serving.read_call import path_for
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.catalog.argument_schema import path_value
from support.http_thread import http_in_thread
from support.schema_values import minimal_value
from support.served import capture_names

RECORDED_PER_TOOL = 3


def recorded_arguments(entry, call) -> dict[str, Any]:
    """The MCP arguments a recorded call sends (its path values, query and JSON body)."""
    args = entry.tool.match(call.path) or {}
    names = dict(getattr(entry.inputs, "properties", ())) or {p: p for p in entry.tool.params}
    arguments: dict[str, Any] = {names[param]: value for param, value in args.items()}
    if call.query:
        arguments["query"] = dict(call.query)
    if call.request_is_json and call.request_body is not None and entry.tool.method not in ("GET", "HEAD"):
        arguments["body"] = json.loads(dumps(call.request_body))
    return arguments


def arguments_for(entry, calls) -> list[dict[str, Any]]:
    """Up to RECORDED_PER_TOOL recorded calls the tool's schema accepts, else the smallest valid arguments."""
    schema = entry.spec().input_schema
    validator = Draft202012Validator(schema)
    found = [a for a in (recorded_arguments(entry, c) for c in calls) if validator.is_valid(a)][:RECORDED_PER_TOOL]
    if found:
        return found
    names = dict(getattr(entry.inputs, "properties", ())) or {p: p for p in entry.tool.params}
    samples = {names[p]: values[0] for p, values in entry.inputs.path_samples.items() if values}
    smallest = minimal_value(schema, samples)
    assert validator.is_valid(smallest), (entry.name, smallest)
    return [smallest]


def http_request(entry, arguments: dict[str, Any]) -> tuple[str, dict[str, Any], bytes | None]:
    names = dict(getattr(entry.inputs, "properties", ())) or {p: p for p in entry.tool.params}
    path = path_for(entry.tool, {param: path_value(arguments[name]) for param, name in names.items()})
    path = entry.tool.spelled(path)  # sent as the document spells it (/projects/1.json, /notes/5:archive)
    query = {k: v for k, v in arguments.get("query", {}).items()}
    body = dumps(arguments["body"]) if "body" in arguments else None
    return path, query, body


def send(port: int, method: str, path: str, query: dict[str, Any], body: bytes | None):
    target = path + ("?" + urlencode(query, doseq=True) if query else "")
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        headers = {"content-type": "application/json", "accept": "application/json"} if body is not None else {}
        connection.request(method, target, body=body, headers=headers)
        response = connection.getresponse()
        return response.status, response.getheader("content-type") or "", response.read()
    finally:
        connection.close()


def structured_json_types(document: dict[str, Any]) -> dict[str, Any]:
    """A JSON deserializer for every ``+json`` media type (RFC 6839's structured syntax suffix) the
    document names, such as ``application/vnd.example.items+json``: openapi-core knows JSON only
    under the names it lists and would otherwise leave such a body unparsed bytes."""
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "content" and isinstance(value, dict):
                    found.update(m for m in value if isinstance(m, str) and m.split(";")[0].strip().endswith("+json"))
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
    walk(document)
    return {media: json_loads for media in sorted(found)}


def textual_types(document: dict[str, Any]) -> dict[str, Any]:
    """A text deserializer for every ``text/*`` media type the document names beyond the two
    openapi-core lists (``text/csv``, a CSV download): it would leave such a body bytes, which no
    ``type: string`` schema accepts."""
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "content" and isinstance(value, dict):
                    found.update(m.split(";")[0].strip() for m in value
                                 if isinstance(m, str) and m.split(";")[0].strip().startswith("text/"))
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
    walk(document)
    return {media: plain_loads for media in sorted(found - {"text/html", "text/plain"})}


def unrouted(status: int, answer: bytes) -> bool:
    """The surface's own 404 for a path no served tool answers (``http_surface.route``): a path the
    document names must reach its tool, whatever the tool then answers."""
    if status != 404:
        return False
    try:
        body = json.loads(answer)
    except ValueError:
        return False
    return isinstance(body, dict) and body.get("error") == "not_found" and str(
        body.get("message", "")).startswith("no tool answers")


@pytest.mark.parametrize("capture", capture_names())
def test_openapi_core_validates_real_requests_and_answers(capture: str, bundle_dir) -> None:
    bundle = read_bundle(bundle_dir(capture))
    runtime = EnvironmentRuntime(bundle)
    exchanged: dict[str, int] = {}
    try:
        with http_in_thread(runtime) as serving:
            status, _, served = send(serving.port, "GET", "/_capenv/openapi.json", {}, None)
            assert status == 200
            document = json.loads(served)  # the document the surface serves, checked as it loads
            api = OpenAPI.from_dict(document, config=Config(
                extra_media_type_deserializers={**textual_types(document), **structured_json_types(document)}))
            for entry in runtime.catalog.entries.values():
                for arguments in arguments_for(entry, bundle.replay.tools.get(entry.name, ())):
                    path, query, body = http_request(entry, arguments)
                    request = MockRequest(serving.base_url, entry.tool.method.lower(), path,
                                          args=query, data=body or b"")
                    api.validate_request(request)  # what the schema accepts, the description accepts
                    status, content_type, answer = send(serving.port, entry.tool.method, path, query, body)
                    assert not unrouted(status, answer), (entry.name, path, answer[:300])  # the path it names
                    media = content_type.split(";")[0].strip() or "application/json"
                    try:
                        api.validate_response(request, MockResponse(answer, status_code=status, content_type=media))
                    except Exception as exc:
                        raise AssertionError((entry.name, path, query, status, answer[:300])) from exc
                    exchanged[entry.name] = exchanged.get(entry.name, 0) + 1
    finally:
        runtime.close()
    assert set(exchanged) == set(runtime.catalog.entries)  # every served tool at least once
