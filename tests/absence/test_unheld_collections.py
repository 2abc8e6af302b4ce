"""An item of a type collected per parent, read or written in a collection the state does not hold
(the capture never read it, no served write made it): what the application holds there is not
the state's to say, so the learned absence does not answer it, even once no collection of the
type holds the id any more (a RabbitMQ hunt: staging's bindings, never listed, were answered
missing once the one binding of that key the state held, in another vhost, was deleted). In a
held collection the absence stands (docs/absence.md)."""

from __future__ import annotations

import json

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

MISSING = {"message": "Not found"}


def boards_app() -> EnvironmentRuntime:
    """Boards 1, 2 and 3; the notes of 1 and 2 listed, board 3's never read; note 2 deleted."""
    har = HarBuilder().call("GET", "/boards", response=[{"id": b, "name": f"board {b}"} for b in (1, 2, 3)])
    har = har.call("GET", "/boards/1/notes", response=[{"id": 1, "text": "milk"}, {"id": 2, "text": "eggs"}])
    har = har.call("GET", "/boards/2/notes", response=[{"id": 3, "text": "paint the door"}])
    har = har.call("GET", "/boards/1/notes/1", response={"id": 1, "text": "milk"})
    har = har.call("GET", "/boards/1/notes/4242", status=404, response=MISSING)
    har = har.call("DELETE", "/boards/1/notes/2", status=204, response=None)
    har = har.call("GET", "/boards/1/notes/2", status=404, response=MISSING)
    har = har.call("DELETE", "/boards/1/notes/2", status=404, response=MISSING)
    har = har.call("GET", "/boards/1/notes", response=[{"id": 1, "text": "milk"}])
    return EnvironmentRuntime(build_from(har))


def call(runtime: EnvironmentRuntime, method: str, path: str):
    return runtime.http(HttpRequest(method, path, (), (), b""))


def refused_as_unknown(answer) -> bool:
    body = json.loads(answer.body)
    return answer.status == 404 and body != MISSING and "no notes collection at /boards/3/notes" in body["message"]


def test_a_read_in_a_collection_never_read_is_refused_not_answered_missing():
    runtime = boards_app()
    assert refused_as_unknown(call(runtime, "GET", "/boards/3/notes/7"))
    assert json.loads(call(runtime, "GET", "/boards/1/notes/77").body) == MISSING  # held collection: absence stands


def test_a_delete_in_a_collection_never_read_is_refused_with_the_state_unchanged():
    runtime = boards_app()
    assert refused_as_unknown(call(runtime, "DELETE", "/boards/3/notes/1"))
    assert call(runtime, "DELETE", "/boards/1/notes/1").status == 204  # a held note is deleted as recorded
    assert refused_as_unknown(call(runtime, "GET", "/boards/3/notes/1"))  # held nowhere now, still not known there


def tags_app() -> EnvironmentRuntime:
    """A tag made, read, deleted and read missing: no list of tags, nothing read before the write."""
    har = HarBuilder().call("POST", "/tags", status=201, body={"name": "draft"}, response={"id": 5, "name": "draft"})
    har = har.call("GET", "/tags/5", response={"id": 5, "name": "draft"})
    har = har.call("DELETE", "/tags/5", status=204, response=None)
    har = har.call("GET", "/tags/5", status=404, response=MISSING)
    return EnvironmentRuntime(build_from(har))


def test_a_type_the_state_never_held_is_not_answered_missing_for_an_id_no_recording_names():
    runtime = tags_app()
    answer = call(runtime, "GET", "/tags/1")  # a tag the application may hold: nothing shows it missing
    assert answer.status == 404 and json.loads(answer.body) != MISSING
    assert "holds no tags at all" in json.loads(answer.body)["message"]
