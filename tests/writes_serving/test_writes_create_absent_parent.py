"""A create in a collection under a parent the state answers absent (its held collection lacks
it) is refused, never made there: the state would answer the parent missing and the child found,
where the application answers such a create as it answers the parent. A PowerDNS hunt (session
17) found metadata created under a zone that never existed answered 201 and read back, where
PowerDNS answers 404."""

from __future__ import annotations

import json

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

MISSING = {"error": "Not Found"}


def capture() -> HarBuilder:
    """Boards b1 and b2 listed, each board's notes listed and read; a note created in b1, read back and
    listed; a board that never existed read 404."""
    har = HarBuilder()
    har.call("GET", "/boards", response=[{"id": "b1", "name": "ops"}, {"id": "b2", "name": "dev"}])
    har.call("GET", "/boards/b1", response={"id": "b1", "name": "ops"})
    har.call("GET", "/boards/b9", status=404, response=MISSING)
    har.call("GET", "/boards/b1/notes", response=[{"id": 1, "text": "milk"}])
    har.call("GET", "/boards/b2/notes", response=[{"id": 2, "text": "paint"}])
    har.call("GET", "/boards/b1/notes/1", response={"id": 1, "text": "milk"})
    har.call("GET", "/boards/b2/notes/2", response={"id": 2, "text": "paint"})
    har.call("POST", "/boards/b1/notes", status=201, body={"text": "eggs"}, response={"id": 3, "text": "eggs"})
    har.call("GET", "/boards/b1/notes/3", response={"id": 3, "text": "eggs"})
    har.call("GET", "/boards/b1/notes", response=[{"id": 1, "text": "milk"}, {"id": 3, "text": "eggs"}])
    return har


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    return build_from(capture(), tmp_path_factory.mktemp("create-parent") / "capture.har")


def call(runtime: EnvironmentRuntime, method: str, path: str, body: object = None):
    headers = (("content-type", "application/json"),) if body is not None else ()
    answer = runtime.http(HttpRequest(method, path, (), headers, json.dumps(body).encode() if body else b""))
    return answer.status, json.loads(answer.body) if answer.body else None


def test_a_create_under_a_parent_the_state_answers_missing_is_refused(bundle) -> None:
    create = plan(bundle, "POST", "/boards/{board_id}/notes")
    assert create.served, create.reason
    runtime = EnvironmentRuntime(bundle)
    assert call(runtime, "GET", "/boards/b7")[0] == 404  # the state answers the board missing
    status, answer = call(runtime, "POST", "/boards/b7/notes", {"text": "nowhere"})
    assert status == 404 and answer != MISSING, (status, answer)  # must not: 201 under a missing board
    assert "the state holds no boards" in answer["message"] and "b7" in answer["message"], answer
    assert call(runtime, "GET", "/boards/b7/notes")[0] != 200  # nothing was made there
    status, answer = call(runtime, "POST", "/boards/b2/notes", {"text": "varnish"})  # a held board takes it
    assert status == 201 and answer["text"] == "varnish", (status, answer)
