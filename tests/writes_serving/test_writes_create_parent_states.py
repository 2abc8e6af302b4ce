"""A create under a parent in a state no successful recorded create found it in is refused, state
unchanged, saying what is accepted (``create-parent-states``): applications often accept a child
only in some states of its parent. A Glance hunt (session 21) found a member added to an image that
is not shared answered 200, where Glance answers 403: every recorded member create was under a
shared image."""

from __future__ import annotations

import json

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

BOARDS = [{"id": "b1", "name": "ops", "visibility": "shared"}, {"id": "b2", "name": "dev", "visibility": "public"},
          {"id": "b3", "name": "qa", "visibility": "public"}]


def capture(*, under_public: bool = False) -> HarBuilder:
    """Boards b1 (shared), b2 and b3 (public) listed, each board's notes listed and read; a note
    created in b1 (and with ``under_public`` one in b2 too), read back and listed."""
    har = HarBuilder()
    har.call("GET", "/boards", response=BOARDS)
    for board in BOARDS:
        har.call("GET", f"/boards/{board['id']}", response=board)
    har.call("GET", "/boards/b1/notes", response=[{"id": 1, "text": "milk"}])
    har.call("GET", "/boards/b2/notes", response=[{"id": 2, "text": "paint"}])
    har.call("GET", "/boards/b3/notes", response=[])
    har.call("GET", "/boards/b1/notes/1", response={"id": 1, "text": "milk"})
    har.call("GET", "/boards/b2/notes/2", response={"id": 2, "text": "paint"})
    har.call("POST", "/boards/b1/notes", status=201, body={"text": "eggs"}, response={"id": 3, "text": "eggs"})
    har.call("GET", "/boards/b1/notes/3", response={"id": 3, "text": "eggs"})
    har.call("GET", "/boards/b1/notes", response=[{"id": 1, "text": "milk"}, {"id": 3, "text": "eggs"}])
    if under_public:
        har.call("POST", "/boards/b2/notes", status=201, body={"text": "tape"}, response={"id": 4, "text": "tape"})
        har.call("GET", "/boards/b2/notes/4", response={"id": 4, "text": "tape"})
    return har


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    return build_from(capture(), tmp_path_factory.mktemp("parent-states") / "capture.har")


def call(runtime: EnvironmentRuntime, method: str, path: str, body: object = None):
    headers = (("content-type", "application/json"),) if body is not None else ()
    answer = runtime.http(HttpRequest(method, path, (), headers, json.dumps(body).encode() if body else b""))
    return answer.status, json.loads(answer.body) if answer.body else None


def test_a_create_under_a_parent_in_an_unrecorded_state_is_refused(bundle) -> None:
    create = plan(bundle, "POST", "/boards/{board_id}/notes")
    assert create.served, create.reason
    assert [(s.member, s.values) for s in create.parent_states] == [("visibility", ("shared",))]
    runtime = EnvironmentRuntime(bundle)
    status, answer = call(runtime, "POST", "/boards/b2/notes", {"text": "varnish"})
    assert status >= 400, (status, answer)  # must not: 201 under a public board
    assert "visibility is 'public'" in answer["message"] and '"shared"' in answer["message"], answer
    assert call(runtime, "GET", "/boards/b2/notes")[1] == [{"id": 2, "text": "paint"}]  # nothing was made
    status, answer = call(runtime, "POST", "/boards/b1/notes", {"text": "flour"})  # a shared board takes it
    assert status == 201 and answer["text"] == "flour", (status, answer)


def test_creates_recorded_under_every_state_are_served_under_each(tmp_path) -> None:
    bundle = build_from(capture(under_public=True), tmp_path / "capture.har")
    create = plan(bundle, "POST", "/boards/{board_id}/notes")
    assert create.served and not create.parent_states, (create.reason, create.parent_states)
    status, answer = call(EnvironmentRuntime(bundle), "POST", "/boards/b3/notes", {"text": "glue"})
    assert status == 201 and answer["text"] == "glue", (status, answer)
