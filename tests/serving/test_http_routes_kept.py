"""A request's routing is kept per method and path (``EnvironmentRuntime._route``): a path asked
again answers as it did when routed afresh, under each method its own way, and the memo stays
within its bound."""

from __future__ import annotations

import json

import pytest
from support.capture_runs import build_from, items_app

from capenv.serving import runtime as runtime_module
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpAnswer, HttpRequest


def _runtime() -> EnvironmentRuntime:
    builder = items_app()
    builder.call("POST", "/items", body={"title": "t3"}, status=201, response={"id": 3, "title": "t3"})
    builder.call("GET", "/items/3", response={"id": 3, "title": "t3"})
    builder.call("DELETE", "/items/3", status=204)
    builder.call("GET", "/items/3", status=404, response={"error": "not found"})
    return EnvironmentRuntime(build_from(builder))


def _call(runtime: EnvironmentRuntime, method: str, path: str, body: dict | None = None) -> HttpAnswer:
    headers = (("host", "x"), ("content-type", "application/json")) if body is not None else (("host", "x"),)
    return runtime.http(HttpRequest(method, path, (), headers, json.dumps(body).encode() if body is not None else b""))


def test_a_path_asked_again_answers_as_routed_afresh_under_each_method() -> None:
    kept, fresh = _runtime(), _runtime()
    calls = [("GET", "/items/1"), ("PROPFIND", "/items/1"), ("GET", "/nowhere"), ("GET", "/items/2"),
             ("DELETE", "/items/2"), ("GET", "/items/2"), ("GET", "/items/1"), ("PROPFIND", "/items/1")]
    answers = []
    for method, path in calls:
        answers.append(_call(kept, method, path))
        fresh._routed.clear()  # routed afresh every time
        assert _call(fresh, method, path) == answers[-1], (method, path)
    statuses = [answer.status for answer in answers]
    # the DELETE of a path read before is the delete (not the kept read), and the read after it finds nothing
    assert statuses[3] == 200 and statuses[4] in (200, 204) and statuses[5] == 404, statuses
    assert answers[0] == answers[6] and answers[1] == answers[7] and answers[1].status == 405, statuses


def test_the_kept_routings_stay_within_their_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runtime_module, "ROUTES_KEPT", 5)
    runtime = _runtime()
    for n in range(23):
        assert _call(runtime, "GET", f"/items/{n + 100}").status == 404
        assert len(runtime._routed) <= 5
    assert _call(runtime, "GET", "/items/1").status == 200
