"""An entity two members deep: ``{"data": {"note": {…}}}`` (an API wrapping every answer in one
envelope around its own root-key envelope), beside lists at ``{"data": {"notes": [...]}}``. The
item view locates the entity inside the envelope member's object (``ShapeReader.item_locators``,
``Locator.within``), a write's answer is found there (``plans.link.entity_in_answer``), a document
write merges into the object two members deep (``document_plan._object_pointer``), and a login
answering its token in an envelope is a session, not a write (``readonly.session-answer``).
Before, such a capture served no update and no document write, and a login at a provider's path
left no read before it to prove anything."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

from capenv.interpreter.bundle.models import Locator
from capenv.serving.runtime import EnvironmentRuntime


def note(n: int, text: str, stars: int = 0) -> dict:
    return {"id": n, "text": text, "stars": stars}


def one(entity: dict) -> dict:
    return {"data": {"note": entity}}


def listing(notes: list) -> dict:
    return {"data": {"notes": notes, "count": len(notes)}}


def app(*, login: bool = False) -> HarBuilder:
    a, b, c = note(1, "a"), note(2, "b"), note(3, "c")
    har = HarBuilder()
    if login:
        har = har.call("POST", "/auth/user/emailpass", body={"email": "x@y.test", "password": "pw"},
                       response={"data": {"token": "eyJhbGciOiJIUzI1NiJ9.e30.c2ln"}})
    return (har
            .call("GET", "/notes", response=listing([a, b]))
            .call("GET", "/notes/1", response=one(a))
            .call("GET", "/notes/2", response=one(b))
            .call("GET", "/settings", response={"data": {"settings": {"theme": "light", "lang": "en"}}})
            .call("POST", "/notes", body={"text": "c"}, status=201, response=one(c))
            .call("GET", "/notes/3", response=one(c))
            .call("PATCH", "/notes/2", body={"stars": 4}, response=one({**b, "stars": 4}))
            .call("GET", "/notes/2", response=one({**b, "stars": 4}))
            .call("PATCH", "/settings", body={"theme": "dark"},
                  response={"data": {"settings": {"theme": "dark", "lang": "en"}}})
            .call("GET", "/settings", response={"data": {"settings": {"theme": "dark", "lang": "en"}}})
            .call("DELETE", "/notes/1", status=204)
            .call("GET", "/notes/1", status=404, response={"error": "no such note"})
            .call("GET", "/notes", response=listing([{**b, "stars": 4}, c])))


def test_the_entity_is_read_two_members_deep_and_every_write_is_served():
    bundle = build_from(app())
    item = bundle.view.view("get_notes_by_note_id")
    assert item.kind == "item" and item.state_backed
    assert item.locator == Locator(kind="member", member="note", within=("data",))
    for method, template in (("POST", "/notes"), ("PATCH", "/notes/{note_id}"), ("DELETE", "/notes/{note_id}"),
                             ("PATCH", "/settings")):
        assert plan(bundle, method, template).served, (method, template, plan(bundle, method, template).build_reason)
    assert plan(bundle, "PATCH", "/settings").document_pointer == "/data/settings"


def test_served_writes_answer_and_read_back_inside_the_envelope():
    runtime = EnvironmentRuntime(build_from(app()))
    created = runtime.read("post_notes", {"body": {"text": "z"}})["body"]
    made = created["data"]["note"]
    assert set(created) == {"data"} and set(created["data"]) == {"note"} and made["text"] == "z"
    listed = runtime.read("get_notes")["body"]["data"]
    assert [n["id"] for n in listed["notes"]] == [1, 2, made["id"]] and listed["count"] == 3
    updated = runtime.read("patch_notes_by_note_id", {"note_id": "1", "body": {"stars": 5}})["body"]
    assert updated == {"data": {"note": {"id": 1, "text": "a", "stars": 5}}}
    assert runtime.read("get_notes_by_note_id", {"note_id": "1"})["body"] == updated
    settings = runtime.read("patch_settings", {"body": {"theme": "dark"}})["body"]
    assert settings == {"data": {"settings": {"theme": "dark", "lang": "en"}}}
    assert runtime.read("get_settings")["body"] == settings


def test_a_login_answering_its_token_in_an_envelope_opens_a_session():
    bundle = build_from(app(login=True))
    assert [p.tool for p in bundle.view.read_only_posts] == ["post_auth_user_emailpass"]
    assert bundle.view.view("get_notes").state_backed
    assert plan(bundle, "PATCH", "/notes/{note_id}").served


def test_an_envelope_holding_an_empty_object_for_an_unknown_id_is_an_absence():
    # found by wrapping every answer of a capture in {"data": …}: an application answering {} (200)
    # for an id it holds nothing under answered {"data": {}}, which no shape explained: the item
    # read became a document, its collection's updates and deletes were not served
    a, b = note(1, "a"), note(2, "b")
    har = (HarBuilder()
           .call("GET", "/notes", response=listing([a, b]))
           .call("GET", "/notes/1", response=one(a))
           .call("GET", "/notes/2", response=one(b))
           .call("GET", "/notes/999", response={"data": {}})
           .call("PATCH", "/notes/2", body={"stars": 4}, response=one({**b, "stars": 4}))
           .call("GET", "/notes/2", response=one({**b, "stars": 4}))
           .call("DELETE", "/notes/1", status=204)
           .call("GET", "/notes/1", response={"data": {}})
           .call("GET", "/notes", response=listing([{**b, "stars": 4}])))
    bundle = build_from(har)
    item = bundle.view.view("get_notes_by_note_id")
    assert item.kind == "item" and item.state_backed, item.reason
    assert item.locator == Locator(kind="member", member="note", within=("data",))
    for method in ("PATCH", "DELETE"):
        assert plan(bundle, method, "/notes/{note_id}").served, plan(bundle, method, "/notes/{note_id}").build_reason
    runtime = EnvironmentRuntime(bundle)
    runtime.read("delete_notes_by_note_id", {"note_id": "2"})
    assert runtime.read("get_notes_by_note_id", {"note_id": "2"})["body"] == {"data": {}}
