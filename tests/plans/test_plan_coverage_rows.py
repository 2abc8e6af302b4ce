"""Plan sentences the spec-coverage table had no test for (write-effects, "Write plans", "Calls
that only read", "Item actions", creates, "Exemplar", "Documents")."""

from __future__ import annotations

import json

import pytest
from support.capture_runs import build_from, items_app, plan, summary
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

C = {"id": 3, "title": "c"}


# --- W2: write_clock ----------------------------------------------------------------------------

def test_the_write_clock_is_the_last_recorded_instant_in_whole_seconds():
    """W2: the served clock starts at the latest instant a recorded call finished (here the first
    call, which ran longest), truncated to whole seconds, not at the last call's start."""
    bundle = build_from(items_app(builder=HarBuilder().call("GET", "/health", response={"ok": True},
                                                            started="2026-01-01T00:00:00Z", duration_ms=9700))
                        .call("PATCH", "/items/1", body={"title": "x"}, response={"id": 1, "title": "x"},
                              started="2026-01-01T00:00:03Z"))
    assert bundle.view.write_clock == "2026-01-01T00:00:09+00:00"


# --- R2: a read-only POST ends no observation search ------------------------------------------

@pytest.mark.parametrize("between, observed", [("/items/search", True), ("/items/import", False)],
                         ids=["read-only-search", "a-write"])
def test_a_read_only_posts_call_ends_no_observation_search(between, observed):
    """R2: an update answering nothing is observed by the next item read of its entity; a call of a
    POST tool the capture shows only reading (a search) between them is no write and ends nothing,
    while a POST that writes there does."""
    bundle = build_from(items_app()
                        .call("PATCH", "/items/1", body={"title": "x"}, status=204)              # 4
                        .call("POST", between, body={"q": "t"}, response=[{"id": 1, "title": "x"}])  # 5
                        .call("GET", "/items/1", response={"id": 1, "title": "x"}))             # 6
    update = plan(bundle, "PATCH", "/items/{item_id}")
    if observed:
        assert not any(p.tool.startswith("post_items_search") for p in bundle.view.writes)
        assert update.build_reason is None and update.observation == 6, summary(bundle)
    else:
        assert update.build_reason == "no-observation", summary(bundle)


# --- A2: an action answering anything else made a sub-resource ---------------------------------

@pytest.mark.parametrize("answer", [{"id": 77, "text": "hello"}, {"id": 2}],
                         ids=["another-object", "lacking-a-field-every-read-shows"])
def test_an_item_post_answering_something_other_than_its_entity_stays_none(answer):
    """A2: a 200 answer that is not the entity (another id, or the id without the fields every item
    read shows) made a sub-resource: no action."""
    bundle = build_from(items_app()
                        .call("POST", "/items/2/reply", body={"text": "hello"}, response=answer))
    assert plan(bundle, "POST", "/items/{item_id}/reply").effect == "none"


def test_an_item_post_answering_its_entity_is_an_action():
    """A2's counterpart: answering the entity with every field its reads show, it is an action."""
    bundle = build_from(items_app()
                        .call("POST", "/items/2/reply", body={"title": "hello"}, response={"id": 2, "title": "hello"}))
    assert plan(bundle, "POST", "/items/{item_id}/reply").effect == "action"


# --- C2, C3: linking a create ----------------------------------------------------------------------

LONG = "c0ffee42"


def _linked_create(*before: tuple[str, dict]) -> object:
    builder = HarBuilder().call("GET", "/items", response=[{"id": "aaaa1111", "title": "a"}])
    builder.call("GET", "/items/aaaa1111", response={"id": "aaaa1111", "title": "a"})
    for path, response in before:
        builder.call("GET", path, response=response)
    builder.call("POST", "/items", body={"title": "c"}, status=201, response={"id": LONG})
    builder.call("GET", f"/items/{LONG}", response={"id": LONG, "title": "c"})
    return plan(build_from(builder), "POST", "/items")


def test_a_create_links_to_an_id_no_read_before_the_call_held():
    create = _linked_create()
    assert create.address is not None and create.address.by == "link" and create.build_reason is None


@pytest.mark.parametrize("path, response", [
    ("/items", [{"id": "aaaa1111", "title": "a"}, {"id": LONG, "title": "old"}]),
    ("/items?view=summary", {"stats": {"newest": {"id": LONG, "title": "old"}}}),
], ids=["a-list-read-of-its-type", "a-body-with-no-list-at-any-depth"])
def test_an_id_a_read_of_the_collection_held_before_the_call_is_not_new(path, response):
    """C3: a list read of the type listing the id, or any read of the collection whose body holds no
    list but names the id under an identity member at any depth, shows it existed before."""
    create = _linked_create((path, response))
    assert create.build_reason == "no-observation" and not create.served
    assert any("existed before" in (t.reason or "") for t in create.traces), [t.reason for t in create.traces]


def test_a_json_null_item_read_is_passed_over_for_the_next_read_of_the_id():
    """C2: the first later item read answering ``null`` is passed over; the next one links."""
    bundle = build_from(items_app()
                        .call("POST", "/items", body={"title": "c"}, status=201, response={"id": 3003})
                        .call("GET", "/items/3003", response="null")
                        .call("GET", "/items/3003", response={"id": 3003, "title": "c"}))
    create = plan(bundle, "POST", "/items")
    assert create.address is not None and create.address.by == "link"


# --- E3: a DELETE takes no body --------------------------------------------------------------------

def test_a_delete_takes_no_body_so_an_unusable_one_does_not_matter():
    """E3: the exemplar DELETE sent a body no write could admit (not JSON); the delete plan ignores
    it: built, served, with no members, and its input takes no body."""
    bundle = build_from(items_app()
                        .call("DELETE", "/items/2", body="not json", request_type="text/plain", status=204)  # 4
                        .call("GET", "/items/2", status=404, response={"error": "gone"}))                     # 5
    delete = plan(bundle, "DELETE", "/items/{item_id}")
    assert (delete.effect, delete.build_reason, delete.served) == ("delete", None, True), summary(bundle)
    assert delete.members == ()
    runtime = EnvironmentRuntime(bundle)
    spec = next(t for t in runtime.tools() if t.name == "delete_items_by_item_id")
    assert "body" not in spec.input_schema["properties"]


# --- Doc1, Doc4: documents --------------------------------------------------------------------------

SETTINGS = {"data": {"theme": "light", "lang": "en", "size": 10}, "meta": {"v": 1}}


def _document(method: str, body: dict, after: dict):
    return build_from(items_app()
                      .call("GET", "/settings", response=SETTINGS)               # 4
                      .call(method, "/settings", body=body, response=after)      # 5
                      .call("GET", "/settings", response=after))                 # 6


def test_a_document_write_goes_to_the_object_holding_most_of_its_members():
    """Doc1: the body's members all sit in ``data``, so the plan writes there; a served call on the
    initial document merges into ``data`` (keeping its other members) and leaves ``meta`` alone."""
    after = {"data": {"theme": "dark", "lang": "fr", "size": 10}, "meta": {"v": 1}}
    bundle = _document("PATCH", {"theme": "dark", "lang": "fr"}, after)
    write = plan(bundle, "PATCH", "/settings")
    assert (write.effect, write.document_pointer, write.served) == ("document", "/data", True), summary(bundle)
    runtime = EnvironmentRuntime(bundle)
    runtime.call_tool("patch_settings", {"body": {"theme": "blue"}})
    held = next(d["value"] for d in json.loads(runtime.data_get())["documents"] if d["path"] == "/settings")
    assert held == {"data": {"theme": "blue", "lang": "en", "size": 10}, "meta": {"v": 1}}


def test_a_put_replaces_the_members_of_its_object():
    """Doc1 "(replaces them, for PUT)": the recorded PUT left ``size`` out and the application dropped
    it; a served PUT on the initial document replaces ``data``'s members with the body's."""
    after = {"data": {"theme": "dark", "lang": "fr"}, "meta": {"v": 1}}
    bundle = _document("PUT", {"theme": "dark", "lang": "fr"}, after)
    write = plan(bundle, "PUT", "/settings")
    assert (write.effect, write.document_pointer, write.served) == ("document", "/data", True), summary(bundle)
    runtime = EnvironmentRuntime(bundle)
    runtime.call_tool("put_settings", {"body": {"theme": "blue", "lang": "de"}})
    held = next(d["value"] for d in json.loads(runtime.data_get())["documents"] if d["path"] == "/settings")
    assert held == {"data": {"theme": "blue", "lang": "de"}, "meta": {"v": 1}}


def test_a_recorded_document_write_of_another_json_type_is_unexplained():
    """Doc4: the document holds ``size`` as an integer; a recorded write sending it as a string is
    one serving would refuse, so the plan is unexplained-change."""
    after = {"data": {"theme": "light", "lang": "en", "size": "12"}, "meta": {"v": 1}}
    write = plan(_document("PATCH", {"size": "12"}, after), "PATCH", "/settings")
    assert (write.effect, write.build_reason) == ("document", "unexplained-change"), write.build_reason
