"""A create answered ``201 Created`` with an empty body and a ``Location`` header naming the new
resource (Mailman's REST API) is linked by the header's last path segment, observed in the read of
that id, and served answering a ``Location`` that names the entity serving made."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.interpreter.bundle.jsonvalue import dumps, loads
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

BASE = "http://127.0.0.1:3000"
NOTES = [{"note_id": "3f1c2b7e9d8a4c6b", "text": "first", "created": "2026-01-01T00:00:00.100000"},
         {"note_id": "8a2d4e6f1b3c5d7e", "text": "second", "created": "2026-01-01T00:00:00.200000"}]
NEW = {"note_id": "c4e6a8b0d2f4a6c8", "text": "third", "created": "2026-01-01T00:00:00.600000"}


def notes_app(location: bool) -> HarBuilder:
    headers = [("Location", f"{BASE}/notes/{NEW['note_id']}")] if location else []
    return (HarBuilder()
            .call("GET", "/notes", response=NOTES)
            .call("GET", f"/notes/{NOTES[0]['note_id']}", response=NOTES[0])
            .call("GET", f"/notes/{NOTES[1]['note_id']}", response=NOTES[1])
            .call("POST", "/notes", body={"text": "third"}, status=201, response="", response_type="application/json",
                  response_headers=headers)
            .call("GET", f"/notes/{NEW['note_id']}", response=NEW)
            .call("GET", "/notes", response=[*NOTES, NEW])
            .call("GET", f"/notes/{NEW['note_id']}", response=NEW))


def create_plan(bundle):
    return next(p for p in bundle.view.writes if p.method == "POST")


def test_a_create_named_by_its_location_alone_is_linked_and_served_naming_the_new_entity():
    bundle = build_from(notes_app(location=True))
    plan = create_plan(bundle)
    assert plan.served, plan.reason
    assert plan.response.location is not None and plan.response.location.prefix == f"{BASE}/notes/"
    runtime = EnvironmentRuntime(bundle)
    answer = runtime.http(HttpRequest("POST", "/notes", (), (("content-type", "application/json"),),
                                      dumps({"text": "fourth"})))
    assert answer.status == 201, answer.body
    locations = [value for name, value in answer.headers if name.lower() == "location"]
    assert len(locations) == 1 and locations[0].startswith(f"{BASE}/notes/")
    made = locations[0].rsplit("/", 1)[1]
    assert made not in {n["note_id"] for n in [*NOTES, NEW]}
    read = runtime.http(HttpRequest("GET", f"/notes/{made}", (), (), b""))
    assert read.status == 200 and loads(read.body)["text"] == "fourth"


def test_without_the_location_the_create_is_linked_by_the_list_and_answers_no_location():
    """The next plain list read newly lists one note: the plan is linked and observed by it, and the
    gate replays the call with the values that read recorded (the note's drawn id), as it does with
    a Location; serving answers as the application did, naming nothing, and never invents a header."""
    bundle = build_from(notes_app(location=False))
    plan = create_plan(bundle)
    assert plan.served and plan.response.location is None, plan.reason
    runtime = EnvironmentRuntime(bundle)
    answer = runtime.http(HttpRequest("POST", "/notes", (), (("content-type", "application/json"),),
                                      dumps({"text": "fourth"})))
    assert answer.status == 201 and not answer.body, answer.body
    assert not [value for name, value in answer.headers if name.lower() == "location"]
    listed = loads(runtime.http(HttpRequest("GET", "/notes", (), (), b"")).body)
    assert [n["text"] for n in listed] == ["first", "second", "fourth"]  # the initial state
    assert listed[-1]["note_id"] not in {n["note_id"] for n in [*NOTES, NEW]}
