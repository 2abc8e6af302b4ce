"""A member that reads of one entity show differently only where a query parameter differs (a
``?raw=1`` showing the stored text where other reads show it rendered), while reads differing in
other parameters show it alike, is selected by that parameter, not changing by itself: it is not
volatile, so the read gate holds every line to it and no line is answered from a state holding the
other spelling (``view-volatile-members``)."""

from __future__ import annotations

import json

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

RENDERED = {1: "<p>Hello <em>there</em></p>", 2: "<p>Second note</p>", 3: "<p>Third one</p>"}
RAW = {1: "Hello *there*", 2: "Second note", 3: "Third one"}


def note(number: int, text: str, clock: str = "2 seconds ago") -> dict:
    return {"id": number, "text": text, "author": f"writer{number}", "seen": clock}


def notes(texts: dict[int, str], numbers: list[int], clock: str = "2 seconds ago") -> dict:
    return {"total": 3, "notes": [note(n, texts[n], clock) for n in numbers]}


def capture(raw_last: bool = True) -> HarBuilder:
    har = HarBuilder()
    har.call("GET", "/notes", response=notes(RENDERED, [1, 2, 3]))
    har.call("GET", "/notes", query={"sort": "newest"}, response=notes(RENDERED, [3, 2, 1], "3 seconds ago"))
    har.call("GET", "/notes", query={"limit": "1", "offset": "1"}, response=notes(RENDERED, [2]))
    har.call("GET", "/notes", query={"limit": "2"}, response=notes(RENDERED, [1, 2]))
    har.call("GET", "/notes", query={"raw": "1"}, response=notes(RAW, [1, 2, 3]))
    if not raw_last:
        har.call("GET", "/notes", query={"sort": "oldest"}, response=notes(RENDERED, [1, 2, 3]))
    har.call("GET", "/notes", response=notes(RENDERED, [1, 2, 3], "4 seconds ago"))
    return har


def test_a_member_a_query_parameter_selects_is_not_volatile():
    view = build_from(capture()).view.view("get_notes")
    assert "text" not in view.volatile_fields
    assert "seen" in view.volatile_fields  # a relative time moving on one request line still is


def test_a_page_is_never_answered_with_the_other_spelling():
    runtime = EnvironmentRuntime(build_from(capture()))
    answer = runtime.http(HttpRequest("GET", "/notes", (("limit", "1"), ("offset", "1")), (), b""))
    assert answer.status == 200
    assert json.loads(answer.body)["notes"][0]["text"] == RENDERED[2]


def test_the_member_stays_volatile_when_reads_alike_in_the_parameter_differ():
    har = capture(raw_last=False)
    har.call("GET", "/notes", query={"sort": "oldest", "limit": "3"}, response=notes(RAW, [1, 2, 3]))
    har.call("GET", "/notes", query={"sort": "oldest", "limit": "2"}, response=notes(RENDERED, [1, 2]))
    view = build_from(har).view.view("get_notes")
    assert "text" in view.volatile_fields
