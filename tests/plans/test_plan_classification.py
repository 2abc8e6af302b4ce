"""Write-plan classification from small synthetic captures of an ``/items`` app (write-effects,
"Write plans", "Effects"): linked creates and the links refused, updates, deletes, document
writes, item actions against sub-resources, bulk writes, literal paths, read-only POSTs."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, has_plan, items_app, plan
from support.har_builder import HarBuilder

C = {"id": 3, "title": "c"}


def test_a_post_linked_through_the_later_item_read_of_its_returned_id_is_a_create():
    bundle = build_from(items_app()
                        .call("POST", "/items", body={"title": "c"}, status=201, response=C)   # 4
                        .call("GET", "/items/3", response=C))                                  # 5
    create = plan(bundle, "POST", "/items")
    assert (create.effect, create.type, create.address.by) == ("create", "items", "link")
    # its own path names its collection: untied, serving creates where each call names
    assert create.collection is None and create.exemplar == 4 and create.build_reason is None


def test_the_link_is_refused_when_another_tool_wrote_before_the_item_read():
    bundle = build_from(items_app()
                        .call("POST", "/items", body={"title": "c"}, status=201, response=C)          # 4
                        .call("PATCH", "/items/1", body={"title": "x"}, response={"id": 1, "title": "x"})
                        .call("GET", "/items/3", response=C))                                         # 6
    create = plan(bundle, "POST", "/items")
    assert create.build_reason == "no-observation" and not create.served
    assert create.collection is None
    assert any("another tool wrote" in (t.reason or "") for t in create.traces)


def test_the_same_tool_writing_again_before_the_read_does_not_refuse_the_link():
    bundle = build_from(items_app()
                        .call("POST", "/items", body={"title": "c"}, status=201, response=C)
                        .call("POST", "/items", body={"title": "d"}, status=201, response={"id": 4, "title": "d"})
                        .call("GET", "/items/3", response=C)
                        .call("GET", "/items/4", response={"id": 4, "title": "d"}))
    create = plan(bundle, "POST", "/items")
    assert create.build_reason is None and create.address.by == "link"


def test_the_link_is_refused_when_the_id_existed_before_the_call():
    bundle = build_from(items_app()
                        .call("POST", "/items", body={"title": "c"}, status=201, response={"id": 2, "title": "c"})
                        .call("GET", "/items/2", response={"id": 2, "title": "c"}))
    create = plan(bundle, "POST", "/items")
    assert create.build_reason == "no-observation" and not create.served
    assert any("existed before" in (t.reason or "") for t in create.traces)


@pytest.mark.parametrize("first_id,links", [(7, False), (70001, True)], ids=["short-id", "four-digits"])
def test_a_short_id_links_only_to_a_type_read_before_the_call(first_id, links):
    # no items read before the first create; the item reads after it make the type
    builder = HarBuilder().call("GET", "/users", response=[{"id": 1, "name": "u"}])
    for k in range(2):
        made = {"id": first_id + k, "title": f"c{k}"}
        builder.call("POST", "/items", body={"title": f"c{k}"}, status=201, response={"id": made["id"]})
        builder.call("GET", f"/items/{made['id']}", response=made)
    create = plan(build_from(builder), "POST", "/items")
    assert create.effect == "create"
    if links:
        assert create.build_reason is None and create.type == "items" and create.address.by == "link"
    else:
        assert create.build_reason == "no-observation" and create.address is None
        assert any("short id" in (t.reason or "") for t in create.traces)


@pytest.mark.parametrize("listed_path,listed_after,links", [("/items", True, True), ("/users", False, False),
                                                             ("/users", True, True)],
                         ids=["own-collection-listed-empty", "another-collection", "own-collection-listed-after"])
def test_a_short_id_links_after_an_empty_list_of_the_collection_the_call_names(listed_path, listed_after, links):
    # GET /items answering [] before POST /items answers {"id": 7, ...}: the path and that read say
    # whose id it is, even though no item was shown before the call; so does the first list of
    # /items after it, listing 7 new (write-create-links), while an item read of 7 alone does not
    builder = HarBuilder().call("GET", "/users", response=[{"id": 1, "name": "u"}])
    builder.call("GET", listed_path, response=[] if listed_path == "/items" else [{"id": 1, "name": "u"}])
    for k in range(2):
        made = {"id": 7 + k, "title": f"c{k}"}
        builder.call("POST", "/items", body={"title": f"c{k}"}, status=201, response=made)
        builder.call("GET", f"/items/{made['id']}", response=made)
    if listed_after:
        builder.call("GET", "/items", response=[{"id": 7, "title": "c0"}, {"id": 8, "title": "c1"}])
    else:
        builder.call("GET", "/users", response=[{"id": 1, "name": "u"}])
    create = plan(build_from(builder), "POST", "/items")
    if links:
        assert create.type == "items" and create.address.by == "link" and create.build_reason is None
    else:
        assert create.build_reason == "no-observation" and create.address is None
        assert any("short id" in (t.reason or "") for t in create.traces)


@pytest.mark.parametrize("method", ["PUT", "PATCH"])
def test_a_put_or_patch_to_an_item_is_an_update(method):
    bundle = build_from(items_app()
                        .call(method, "/items/1", body={"title": "x"}, response={"id": 1, "title": "x"})
                        .call("GET", "/items/1", response={"id": 1, "title": "x"}))
    update = plan(bundle, method, "/items/{item_id}")
    assert (update.effect, update.type, update.address.by) == ("update", "items", "path")
    assert update.served, update.reason


def test_a_delete_of_an_item_is_a_delete():
    bundle = build_from(items_app()
                        .call("DELETE", "/items/1", status=204)
                        .call("GET", "/items/1", status=404, response={"error": "not found"}))
    delete = plan(bundle, "DELETE", "/items/{item_id}")
    assert (delete.effect, delete.type, delete.address.by) == ("delete", "items", "path")
    assert delete.served and delete.checked_record_ordinals == (5,)


@pytest.mark.parametrize("method", ["PATCH", "PUT"])
def test_a_write_of_a_singleton_document_is_a_document_write(method):
    after = {"theme": "dark", "lang": "en"}
    body = {"theme": "dark"} if method == "PATCH" else after
    bundle = build_from(items_app()
                        .call("GET", "/settings", response={"theme": "light", "lang": "en"})   # 4
                        .call(method, "/settings", body=body, response=after)                  # 5
                        .call("GET", "/settings", response=after))                             # 6
    document = plan(bundle, method, "/settings")
    assert (document.effect, document.address.by, document.document_path) == ("document", "document", "/settings")
    assert document.replace is (method == "PUT")
    assert document.served and document.checked_record_ordinals == (6,)


def test_a_post_to_an_item_plus_a_literal_segment_is_an_item_action():
    archived = {"id": 1, "title": "t1", "archived": True}
    bundle = build_from(items_app([{"id": 1, "title": "t1", "archived": False}, {"id": 2, "title": "t2", "archived": False}])
                        .call("POST", "/items/1/archive", response=archived)
                        .call("GET", "/items/1", response=archived))
    action = plan(bundle, "POST", "/items/{item_id}/archive")
    assert (action.effect, action.type) == ("action", "items")
    assert (action.address.by, action.address.segment) == ("action", "archive")
    # one change cannot tell a set from a toggle
    assert not action.served and action.reason == "unconfirmed"


@pytest.mark.parametrize("segment", ["delete", "remove", "destroy", "tags"])
def test_an_item_segment_naming_a_removal_or_a_collection_is_no_action(segment):
    builder = items_app().call("GET", "/tags", response=[{"id": 1, "name": "red"}, {"id": 2, "name": "blue"}])
    builder.call("POST", f"/items/1/{segment}", body={"id": 2}, response={"id": 1, "title": "t1"})
    write = plan(build_from(builder), "POST", f"/items/{{item_id}}/{segment}")
    assert write.effect == "none" and not write.served


def test_a_post_answering_a_new_sub_resource_with_201_stays_none():
    bundle = build_from(items_app()
                        .call("POST", "/items/2/notes", body={"text": "hello"}, status=201,
                              response={"id": 50, "text": "hello"}))
    assert plan(bundle, "POST", "/items/{item_id}/notes").effect == "none"


@pytest.mark.parametrize("body,address", [
    ({"ids": [1, 2]}, ("ids", "ids", "integer")),
    ([1, 2], ("ids", None, "integer")),
    ([{"id": 1}, {"id": 2}], ("elements", None, None)),
    ({"items": [{"id": 1}, {"id": 2}]}, ("elements", "items", None)),
], ids=["ids-member", "root-ids", "root-elements", "elements-member"])
def test_a_delete_at_the_collection_is_a_bulk_write_of_the_entities_its_body_names(body, address):
    bundle = build_from(items_app()
                        .call("DELETE", "/items", body=body, status=204)   # 4
                        .call("GET", "/items", response=[]))               # 5
    bulk = plan(bundle, "DELETE", "/items")
    assert (bulk.effect, bulk.type) == ("bulk", "items")
    assert (bulk.address.by, bulk.address.member, bulk.address.kind) == address
    assert bulk.served and bulk.checked_record_ordinals == (5,)


def test_a_post_to_the_collection_plus_delete_is_a_bulk_delete():
    bundle = build_from(items_app()
                        .call("POST", "/items/delete", body={"ids": [2]}, status=204)
                        .call("GET", "/items", response=[{"id": 1, "title": "t1"}]))
    bulk = plan(bundle, "POST", "/items/delete")
    assert (bulk.effect, bulk.address.by, bulk.address.member) == ("bulk", "ids", "ids")
    assert bulk.served


def test_a_write_at_a_path_the_manifest_left_literal_has_no_effect():
    bundle = build_from(items_app()
                        .call("PUT", "/items/featured", body={"title": "x"}, response={"ok": True})
                        .call("GET", "/items", response=[{"id": 1, "title": "t1"}, {"id": 2, "title": "t2"}]))
    literal = plan(bundle, "PUT", "/items/featured")
    assert literal.effect == "none" and literal.build_reason == "no-effect"
    assert not literal.served and literal.reason == "no-effect"


def test_a_post_that_only_reads_gets_no_plan_and_bounds_no_initial_window():
    hits = [{"id": 1, "title": "t1"}]
    builder = (HarBuilder()
               .call("POST", "/items/search", body={"q": "t1"}, response=hits)               # 1: reads only
               .call("GET", "/items", response=[{"id": 1, "title": "t1"}, {"id": 2, "title": "t2"}])
               .call("GET", "/items/1", response={"id": 1, "title": "t1"})
               .call("GET", "/items/2", response={"id": 2, "title": "t2"})
               .call("PATCH", "/items/1", body={"title": "z"}, response={"id": 1, "title": "z"})   # 5
               .call("POST", "/items/search", body={"q": "z"}, response=[{"id": 1, "title": "z"}])
               .call("GET", "/items/1", response={"id": 1, "title": "z"}))                   # 7
    bundle = build_from(builder)
    assert not has_plan(bundle, "POST", "/items/search")
    assert [p.tool for p in bundle.view.read_only_posts] == ["post_items_search"]
    assert bundle.view.window.first_write_ordinal == 5
    held = {e.id for c in bundle.view.state.collections if c.type == "items" for e in c.entities}
    assert held == {1, 2}
    update = plan(bundle, "PATCH", "/items/{item_id}")
    assert update.served and update.checked_record_ordinals == (7,)
