"""A write answered over HTTP names the origin the call reached, as a read does (``reads/origins``): an
update's answer linking to its entity, a missing entity's absence quoting the address asked for
("Resource not found: <url>"). The application names the origin it is reached at; the recording's
would send the caller to the capture's host. Over MCP (no origin) the recorded ones are kept."""

from __future__ import annotations

import json

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

ORIGIN = "http://127.0.0.1:3000"
REACHED = "http://env.test:8080/i/abc"


def note(number: int, title: str) -> dict:
    return {"id": number, "title": title, "url": f"{ORIGIN}/notes/{number}"}


def runtime() -> EnvironmentRuntime:
    missing = {"message": f"Resource not found: {ORIGIN}/notes/9", "context": f"{ORIGIN}/notes"}
    har = (HarBuilder(origin=ORIGIN)
           .call("GET", "/notes", response=[note(1, "a"), note(2, "b")])
           .call("GET", "/notes/1", response=note(1, "a"))
           .call("GET", "/notes/9", status=404, response=missing)
           .call("PATCH", "/notes/1", body={"title": "c"}, response=note(1, "c"))
           .call("GET", "/notes/1", response=note(1, "c"))
           .call("PATCH", "/notes/9", body={"title": "x"}, status=404, response=missing)
           .call("PATCH", "/notes/2", body={"title": "d"}, response=note(2, "d"))
           .call("GET", "/notes", response=[note(1, "c"), note(2, "d")]))
    return EnvironmentRuntime(build_from(har))


def patch(served: EnvironmentRuntime, path: str, origin: str | None):
    answer = served.http(HttpRequest("PATCH", path, (), (("content-type", "application/json"),),
                                     b'{"title": "e"}', origin=origin))
    return answer.status, json.loads(answer.body)


def test_a_write_answer_over_http_names_the_origin_the_call_reached():
    status, body = patch(runtime(), "/notes/2", REACHED)
    assert status == 200 and body["url"] == f"{REACHED}/notes/2"
    status, body = patch(runtime(), "/notes/7", REACHED)
    assert status == 404, body
    assert body == {"message": f"Resource not found: {REACHED}/notes/7", "context": f"{REACHED}/notes"}


def test_without_an_origin_the_write_answer_names_the_recorded_one():
    status, body = patch(runtime(), "/notes/2", None)
    assert status == 200 and body["url"] == f"{ORIGIN}/notes/2"
