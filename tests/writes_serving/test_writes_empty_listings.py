"""A list the served writes empty is answered from the state only where the capture proves how the
application answers an empty listing: a recorded empty answer of that list, or of a sibling list whose
envelope holds the same members and page arithmetic. Elsewhere the application may answer an empty list
its own way (Alerta's ``{"message": "not found", "pages": 0, ...}``), so serving refuses it, naming why."""

from __future__ import annotations

import json

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest


def _page(word: str, listed: list[dict], paged: bool = True) -> dict:
    counters = {"more": False, "page": 1, "pageSize": 50, "pages": 1 if listed else 0} if paged else {}
    return {word: listed, **counters, "status": "ok", "total": len(listed)}


def _app(*, empty_sibling: bool = False, empty_own: bool = False, paged: bool = True) -> HarBuilder:
    """Things listed under an envelope that counts them (``paged``: and pages them, one page while any
    is listed); one thing created, read, listed, deleted and read missing. ``empty_sibling``: a sibling
    list answering the same envelope empty; ``empty_own``: the things list itself answered empty once
    (its thing deleted then recreated)."""
    def page(word: str, listed: list[dict]) -> dict:
        return _page(word, listed, paged)

    one = {"id": 1, "name": "a"}
    two = {"id": 2, "name": "b"}
    app = HarBuilder(start="2026-01-06T09:00:00Z")
    app.call("GET", "/things", response=page("things", [one]))
    app.call("GET", "/things/1", response={"thing": one})
    if empty_sibling:
        app.call("GET", "/widgets", response=page("widgets", [{"id": 5, "label": "w"}]))
        app.call("DELETE", "/widgets/5", status=200, response={"status": "ok"})
        app.call("GET", "/widgets", response=page("widgets", []))
    if empty_own:
        app.call("DELETE", "/things/1", status=200, response={"status": "ok"})
        app.call("GET", "/things", response=page("things", []))
        app.call("POST", "/things", body={"name": "a"}, status=201, response={"id": 3, "thing": {"id": 3, "name": "a"}, "status": "ok"})
        one = {"id": 3, "name": "a"}
        app.call("GET", "/things", response=page("things", [one]))
    app.call("POST", "/things", body={"name": "b"}, status=201, response={"id": 2, "thing": two, "status": "ok"})
    app.call("GET", "/things/2", response={"thing": two})
    app.call("GET", "/things", response=page("things", [one, two]))
    app.call("DELETE", "/things/2", status=200, response={"status": "ok"})
    app.call("GET", "/things/2", status=404, response={"code": 404, "message": "not found", "status": "error"})
    app.call("GET", "/things", response=page("things", [one]))
    return app


def _http(runtime: EnvironmentRuntime, method: str, path: str):
    return runtime.http(HttpRequest(method, path, (), (("content-type", "application/json"),), b""))


def _emptied(app: HarBuilder, held: int = 1):
    bundle = build_from(app)
    view = next(v for v in bundle.view.views if v.kind == "list" and v.type and v.lines[0].path == "/things")
    runtime = EnvironmentRuntime(bundle)
    before = _http(runtime, "GET", "/things")
    assert before.status == 200 and json.loads(before.body)["total"] == 1, before.body  # the listing is served
    deleted = _http(runtime, "DELETE", f"/things/{held}")
    assert deleted.status == 200, deleted.body
    return view, _http(runtime, "GET", "/things")


def test_an_emptied_list_no_recording_showed_empty_is_refused():
    view, answer = _emptied(_app())
    assert view.empty_answer is None
    assert answer.status >= 400, answer.body
    message = json.loads(answer.body)["message"]
    assert "empty" in message and "never" in message and "non-empty" in message, message


def test_an_emptied_list_whose_sibling_answered_the_same_envelope_empty_is_served():
    view, answer = _emptied(_app(empty_sibling=True, paged=False))
    assert view.empty_answer is not None and view.empty_answer.rule == "empty-answer.sibling-envelope"
    assert answer.status == 200, answer.body
    assert json.loads(answer.body) == _page("things", [], paged=False)


def test_a_sibling_whose_envelope_pages_otherwise_proves_nothing():
    """The sibling's page count went to 0 when it emptied, as a count; this list's never moved from 1
    (a constant here): its empty answer's page count is not shown."""
    view, answer = _emptied(_app(empty_sibling=True))
    assert view.empty_answer is None
    assert answer.status >= 400, answer.body


def test_an_emptied_list_that_answered_empty_itself_is_served():
    view, answer = _emptied(_app(empty_own=True, paged=False))
    assert view.empty_answer is not None and view.empty_answer.rule == "empty-answer.recorded"
    assert answer.status == 200, answer.body
    assert json.loads(answer.body) == _page("things", [], paged=False)
