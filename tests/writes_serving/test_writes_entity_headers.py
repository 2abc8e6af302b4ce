"""Headers that describe one recorded entity (its version, its address) never go out with an
answer the state renders for another: json-server's recordings carry an ETag on every read and a
Location on every create, naming the entity recorded then. A create's Location is rebuilt around
the id of the entity serving made (``LocationRule``)."""

from __future__ import annotations

from capenv.interpreter.bundle.jsonvalue import dumps, loads
from capenv.serving.reads.entity_headers import state_headers
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

from write_calls import NEW_POST

DESCRIBING = {"etag", "last-modified", "location", "content-location"}


def names(headers) -> set[str]:
    return {name.lower() for name, _ in headers}


def test_only_the_headers_naming_the_recorded_entity_are_left_out():
    recorded = (("ETag", 'W/"5f-abc"'), ("Location", "http://app/posts/4"), ("X-Powered-By", "Express"),
                ("Last-Modified", "Tue, 01 Dec 2026 10:00:00 GMT"), ("Content-Type", "application/json"))
    assert state_headers(recorded) == (("X-Powered-By", "Express"), ("Content-Type", "application/json"))
    plain = (("Content-Type", "application/json"),)
    assert state_headers(plain) is plain
    assert state_headers([["etag", "x"], ["vary", "Origin"]]) == (("vary", "Origin"),)  # pairs read back as lists


def test_a_served_create_answers_without_the_recorded_etag_and_with_its_own_location(runtime: EnvironmentRuntime):
    plan = next(p for p in runtime.bundle.view.writes if p.tool == "post_posts")
    assert {"location", "etag"} <= names(plan.response.headers), "the recorded create named its entity"
    answer = runtime.http(HttpRequest("POST", "/posts", (), (("content-type", "application/json"),),
                                      dumps(NEW_POST)))
    assert answer.status == 201, answer.body
    created = loads(answer.body)["id"]
    assert not names(answer.headers) & (DESCRIBING - {"location"})
    locations = [value for name, value in answer.headers if name.lower() == "location"]
    assert len(locations) == 1 and locations[0].endswith(f"/posts/{created}")  # rebuilt around the new id
    read = runtime.http(HttpRequest("GET", f"/posts/{created}", (), (), b""))
    assert read.status == 200 and loads(read.body)["id"] == created
    assert not names(read.headers) & DESCRIBING


def test_an_item_read_from_the_state_answers_without_the_base_recording_etag(runtime: EnvironmentRuntime):
    view = runtime.bundle.view.view("get_posts_by_post_id")
    assert "etag" in names(view.base.headers), "the base recording carried its entity's ETag"
    for post in ("1", "2"):
        answer = runtime.http(HttpRequest("GET", f"/posts/{post}", (), (), b""))
        assert answer.status == 200
        assert not names(answer.headers) & DESCRIBING
