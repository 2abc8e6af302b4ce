"""A document read above a collection (a database page at ``/db`` over its tables at ``/db/notes``)
may show what the collection holds (a row count): the state keeps the document as recorded and no
write plan changes it, so once a served write has changed the collection below it, the document is
refused (409, saying why) rather than answered as the capture began (Datasette's ``/blog.json`` kept
counting the tags the seed held after a served insert: its later recording followed a table create,
a write no plan explains, so the gate could not weigh it). A document the capture shows unchanged
across a write still answers."""

from __future__ import annotations

import json

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

JSON = (("content-type", "application/json"),)


def notes_app(later_page: dict) -> HarBuilder:
    notes = [{"id": 1, "title": "one"}, {"id": 2, "title": "two"}]
    har = (HarBuilder()
           .call("GET", "/db", response={"database": "db", "counts": {"notes": 2}})
           .call("GET", "/db/notes", response=notes)
           .call("GET", "/db/notes/1", response=notes[0])
           .call("GET", "/db/notes/2", response=notes[1]))
    for ident, title in ((3, "three"), (4, "four"), (5, "five")):
        created = {"id": ident, "title": title}
        notes = notes + [created]
        har = (har.call("POST", "/db/notes", body={"title": title}, status=201, response=created)
               .call("GET", f"/db/notes/{ident}", response=created)
               .call("GET", "/db/notes", response=notes))
    # a write no plan explains (a new table) stands between the creates and the page's later recording
    return (har.call("POST", "/db/-/create", body={"table": "tags"}, status=201, response={"ok": True})
            .call("GET", "/db", response=later_page))


def send(runtime: EnvironmentRuntime, method: str, path: str, body: object = None):
    data = json.dumps(body).encode() if body is not None else b""
    return runtime.http(HttpRequest(method, path, (), JSON if body is not None else (), data))


def test_the_page_answers_while_the_collection_below_is_as_the_capture_began():
    runtime = EnvironmentRuntime(build_from(notes_app({"database": "db", "counts": {"notes": 5}})))
    answer = send(runtime, "GET", "/db")
    assert answer.status == 200 and json.loads(answer.body)["counts"]["notes"] == 2, answer.body


def test_a_page_counting_the_collection_is_refused_after_a_served_create_below_it():
    runtime = EnvironmentRuntime(build_from(notes_app({"database": "db", "counts": {"notes": 5}})))
    created = send(runtime, "POST", "/db/notes", {"title": "six"})
    assert created.status == 201, created.body
    answer = send(runtime, "GET", "/db")
    assert answer.status == 409 and b"lies above" in answer.body, answer.body


def test_a_page_the_capture_shows_unchanged_across_writes_still_answers():
    runtime = EnvironmentRuntime(build_from(notes_app({"database": "db", "counts": {"notes": 2}})))
    assert send(runtime, "POST", "/db/notes", {"title": "six"}).status == 201
    answer = send(runtime, "GET", "/db")
    assert answer.status == 200 and json.loads(answer.body)["counts"]["notes"] == 2, answer.body


def status_app(status_member: str) -> HarBuilder:
    """A status document beside the collection, not above it (Jupyter Server's ``/api/status``
    ``{"kernels": 1}`` beside ``/api/kernels``)."""
    notes = [{"id": 1, "title": "one"}, {"id": 2, "title": "two"}]
    har = (HarBuilder()
           .call("GET", "/api/status", response={"started": "2026-01-01T00:00:00Z", status_member: 2})
           .call("GET", "/api/notes", response=notes)
           .call("GET", "/api/notes/1", response=notes[0])
           .call("GET", "/api/notes/2", response=notes[1]))
    for ident, title in ((3, "three"), (4, "four")):
        created = {"id": ident, "title": title}
        notes = notes + [created]
        har = (har.call("POST", "/api/notes", body={"title": title}, status=201, response=created)
               .call("GET", f"/api/notes/{ident}", response=created)
               .call("GET", "/api/notes", response=notes))
    return har


def test_a_document_counting_a_collection_under_its_word_is_refused_after_a_served_create():
    runtime = EnvironmentRuntime(build_from(status_app("notes")))
    assert send(runtime, "GET", "/api/status").status == 200
    assert send(runtime, "POST", "/api/notes", {"title": "five"}).status == 201
    answer = send(runtime, "GET", "/api/status")
    assert answer.status == 409 and b"(or counts) the 'notes'" in answer.body, answer.body


def test_a_document_holding_no_number_under_the_collections_word_still_answers():
    runtime = EnvironmentRuntime(build_from(status_app("connections")))
    assert send(runtime, "POST", "/api/notes", {"title": "five"}).status == 201
    assert send(runtime, "GET", "/api/status").status == 200


def keyed_app(document: dict) -> HarBuilder:
    """A document beside the collection holding what it holds otherwise than as a list: an object
    keyed by the entities' ids (changedetection.io's ``/api/v1/tags``), a list of their ids, or a
    count under a member name holding the collection's word (``tag_count``)."""
    notes = [{"id": 1, "title": "one"}, {"id": 2, "title": "two"}]
    har = (HarBuilder()
           .call("GET", "/api/overview", response=document)
           .call("GET", "/api/notes", response=notes)
           .call("GET", "/api/notes/1", response=notes[0])
           .call("GET", "/api/notes/2", response=notes[1]))
    for ident, title in ((3, "three"), (4, "four")):
        created = {"id": ident, "title": title}
        notes = notes + [created]
        har = (har.call("POST", "/api/notes", body={"title": title}, status=201, response=created)
               .call("GET", f"/api/notes/{ident}", response=created)
               .call("GET", "/api/notes", response=notes))
    return har


def _refused_after_a_create(document: dict) -> bytes:
    runtime = EnvironmentRuntime(build_from(keyed_app(document)))
    assert send(runtime, "GET", "/api/overview").status == 200
    assert send(runtime, "POST", "/api/notes", {"title": "five"}).status == 201
    answer = send(runtime, "GET", "/api/overview")
    assert answer.status == 409 and b"'notes'" in answer.body, answer.body
    return answer.body


def test_a_document_keyed_by_the_collections_ids_is_refused_after_a_served_create():
    _refused_after_a_create({"1": {"title": "one"}, "2": {"title": "two"}})


def test_a_document_listing_the_collections_ids_is_refused_after_a_served_create():
    _refused_after_a_create({"version": "1.0", "stale": ["2"]})


def test_a_document_counting_under_a_member_name_holding_the_word_is_refused_after_a_served_create():
    _refused_after_a_create({"version": "1.0", "notes_count": 2})


def test_a_document_naming_no_entity_and_counting_nothing_still_answers():
    runtime = EnvironmentRuntime(build_from(keyed_app({"version": "1.0", "uptime_count": 2, "other": ["9"]})))
    assert send(runtime, "POST", "/api/notes", {"title": "five"}).status == 201
    assert send(runtime, "GET", "/api/overview").status == 200
