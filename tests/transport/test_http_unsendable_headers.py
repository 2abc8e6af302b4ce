"""Recorded headers no HTTP/1.1 server can send (an HTTP/2 ``:status``, a NUL in a value, a space in
a name) are dropped when served, and ``capenv report`` names them; before, every HTTP answer
carrying them was an empty reply, though a POST still committed."""

from __future__ import annotations

import http.client
import json

from support.capture_runs import build_from, items_app
from support.http_thread import http_in_thread

from capenv.interpreter.report import render_report_text
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.transport.http_app import Access

BAD = [(":status", "201"), ("x-nul", "a\x00b"), ("x bad", "v"), ("x-padded", " kept ")]
C = {"id": 3, "title": "c"}


def bundle():
    builder = items_app().call("POST", "/items", body={"title": "c"}, status=201, response=C, response_headers=BAD)
    builder.call("GET", "/items/3", response=C, response_headers=BAD)
    return build_from(builder)


def test_unsendable_headers_are_dropped_the_client_gets_its_status_and_the_report_says_so() -> None:
    built = bundle()
    notes = {(n["tool"], n["header"]) for n in built.report.get("unsendable_headers", [])}
    assert {h for _, h in notes} == {":status", "x-nul", "x bad"}, notes
    text = render_report_text(built.report, "capture")
    assert "':status' is dropped when served over HTTP" in text
    runtime = EnvironmentRuntime(built)
    with http_in_thread(runtime, access=Access(data_token="t")) as serving:
        conn = http.client.HTTPConnection("127.0.0.1", serving.port, timeout=10)
        conn.request("POST", "/items", body=b'{"title": "d"}', headers={"content-type": "application/json"})
        answer = conn.getresponse()
        body = json.loads(answer.read())
        assert answer.status == 201 and body["title"] == "d", body
        assert answer.getheader("x-padded") == "kept" and answer.getheader("x-nul") is None
        conn.request("GET", f"/items/{body['id']}")
        read = conn.getresponse()
        assert read.status == 200 and json.loads(read.read()) == body
        conn.close()
