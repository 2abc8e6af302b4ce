"""A path value escaping a character clients never escape (RFC 3986's unreserved letters, digits,
'-', '.', '_', '~') is refused on the HTTP surface, the state unchanged: most routers decode it
(/notes/%33 reads note 3), some match it as written and find nothing (Koa's, so Feathers answers
404), and a capture of ordinary clients shows neither. Escapes of other characters (a space, an
accent, a slash) are decoded as before."""

from __future__ import annotations

import json

import pytest
from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

NOTES = [{"id": "3", "title": "three"}, {"id": "a b", "title": "spaced"}]


@pytest.fixture(scope="module")
def runtime(tmp_path_factory):
    har = HarBuilder().call("GET", "/notes", response=NOTES)
    har.call("GET", "/notes/3", response=NOTES[0])
    har.call("GET", "/notes/a%20b", response=NOTES[1])
    har.call("DELETE", "/notes/3", status=204)
    har.call("GET", "/notes/3", status=404, response={"detail": "not found"})
    har.call("GET", "/notes", response=NOTES[1:])
    bundle = build_from(har, tmp_path_factory.mktemp("e") / "capture.har")
    return EnvironmentRuntime(bundle)


def get(runtime, method: str, path: str):
    return runtime.http(HttpRequest(method, path, (), (), b""))


@pytest.mark.parametrize("method,path", [("GET", "/notes/%33"), ("GET", "/notes/%61%20b"), ("DELETE", "/notes/%33"),
                                         ("GET", "/notes/a%2db")])
def test_an_escaped_unreserved_character_is_refused(runtime, method, path):
    answer = get(runtime, method, path)
    assert answer.status == 400 and "unescaped" in json.loads(answer.body)["message"], answer.body
    assert get(runtime, "GET", "/notes/3").status == 200  # the refused delete changed nothing


def test_other_escapes_are_decoded_as_before(runtime):
    answer = get(runtime, "GET", "/notes/a%20b")
    assert answer.status == 200 and json.loads(answer.body)["title"] == "spaced"


def test_a_capture_sending_such_a_spelling_has_it_matched(tmp_path):
    har = HarBuilder().call("GET", "/notes", response=NOTES)
    har.call("GET", "/notes/%33", response=NOTES[0])
    runtime = EnvironmentRuntime(build_from(har, tmp_path / "capture.har"))
    answer = get(runtime, "GET", "/notes/%33")
    assert answer.status == 200 and json.loads(answer.body)["title"] == "three"
