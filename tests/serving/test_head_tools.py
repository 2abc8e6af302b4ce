"""A HEAD the capture recorded (a membership check answering 204 or 404) is its own tool: the HTTP
surface routes a HEAD to it rather than to the GET of its path (where no GET was recorded, that
answered 405), and the OpenAPI description declares its answers without a body. A HEAD the capture
did not record is refused (405, allow: GET), not answered as the GET of its path: applications
differ (TiddlyWiki's server 404s a HEAD of a tiddler it answers GET for)."""

from __future__ import annotations

import http.client
import json

from capenv.serving.runtime import EnvironmentRuntime

from support.capture_runs import build_from
from support.har_builder import HarBuilder
from support.http_thread import http_in_thread

MEMBERS = {"users": [{"id": "u1", "name": "ann"}]}


def _app():
    return (HarBuilder()
            .call("GET", "/groups/g1/users", response=MEMBERS)
            .call("HEAD", "/groups/g1/users/u1", status=204)
            .call("HEAD", "/groups/g1/users/u2", status=404))


def _head(port: int, path: str) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("HEAD", path)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def test_a_recorded_head_is_answered_by_its_own_tool_with_no_body():
    runtime = EnvironmentRuntime(build_from(_app()))
    with http_in_thread(runtime) as serving:
        assert _head(serving.port, "/groups/g1/users/u1") == (204, b"")
        connection = http.client.HTTPConnection("127.0.0.1", serving.port, timeout=30)
        connection.request("GET", "/_capenv/openapi.json")
        document = json.loads(connection.getresponse().read())
        connection.close()
    head = next(op["head"] for op in document["paths"].values() if "head" in op)
    assert head["responses"] and all("content" not in answer for answer in head["responses"].values())


def _get(port: int, path: str) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def test_a_head_never_recorded_is_refused_not_answered_as_the_get():
    runtime = EnvironmentRuntime(build_from(_app()))
    with http_in_thread(runtime) as serving:
        assert _get(serving.port, "/groups/g1/users") == 200
        connection = http.client.HTTPConnection("127.0.0.1", serving.port, timeout=30)
        try:
            connection.request("HEAD", "/groups/g1/users")
            response = connection.getresponse()
            response.read()
            assert response.status == 405 and response.getheader("allow") == "GET"
        finally:
            connection.close()
