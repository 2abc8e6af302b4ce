"""Row-store APIs (issue 16; Datasette's shape, written generically): reads spelled with a format
suffix (``/db/posts/1.json``), a row page answering its row as ``rows[0]`` beside the row's key
(``primary_key_values``) and a timing, inserts wrapped ``{"row": …}`` answered ``{"rows": [row]}``,
updates wrapped ``{"update": …}`` and item writes named by a verb after a marker segment
(``/db/posts/1/-/update``, ``/-/delete``)."""

from __future__ import annotations

import json

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest


def page(table: str, row: dict, ms: float) -> dict:
    return {"ok": True, "database": "db", "table": table, "rows": [row], "primary_keys": ["id"],
            "primary_key_values": [str(row["id"])], "query_ms": ms, "truncated": False}


def listing(rows: list) -> dict:
    return {"ok": True, "next": None, "rows": rows, "truncated": False}


MISSING = {"ok": False, "error": "Row not found", "status": 404}


def row_store(absent_user: str = "Record not found: ['2']") -> HarBuilder:
    p1, p2, p3 = {"id": 1, "title": "a", "views": 1}, {"id": 2, "title": "b", "views": 2}, {"id": 3, "title": "c", "views": 0}
    u1, u2, u3 = ({"id": n, "name": f"u{n}", "email": f"u{n}@x"} for n in (1, 2, 3))
    p1b, p2b = {**p1, "title": "A2"}, {**p2, "views": 7}
    return (HarBuilder()
            .call("GET", "/db/posts.json", response=listing([p1, p2]))                                    # 1
            .call("GET", "/db/users.json", response=listing([u1, u2]))                                    # 2
            .call("GET", "/db/posts/1.json", response=page("posts", p1, 1.5))                             # 3
            .call("GET", "/db/posts/2.json", response=page("posts", p2, 2.5))                             # 4
            .call("GET", "/db/users/1.json", response=page("users", u1, 1.25))                            # 5
            .call("GET", "/db/users/2.json", response=page("users", u2, 3.5))                             # 6
            .call("GET", "/db/users/1.json", response=page("users", u1, 2.75))                            # 6b
            .call("GET", "/db/posts/9.json", status=404, response=MISSING)                                # 7
            .call("GET", "/db/posts.json", query="_shape=array", response=[p1, p2])                       # 7b
            .call("POST", "/db/posts/-/insert", body={"row": {"title": "c"}}, status=201,
                  response={"ok": True, "rows": [p3]})                                                    # 8
            .call("GET", "/db/posts/3.json", response=page("posts", p3, 0.5))                             # 9
            .call("GET", "/db/posts.json", response=listing([p1, p2, p3]))                                # 10
            .call("POST", "/db/users/-/insert", body={"row": {"name": "u3", "email": "u3@x"}}, status=201,
                  response={"ok": True, "rows": [u3]})                                                    # 11
            .call("GET", "/db/users/3.json", response=page("users", u3, 0.75))                            # 12
            .call("POST", "/db/posts/1/-/update", body={"update": {"title": "A2"}}, response={"ok": True})  # 13
            .call("GET", "/db/posts/1.json", response=page("posts", p1b, 4.5))                            # 14
            .call("POST", "/db/posts/2/-/update", body={"update": {"views": 7}}, response={"ok": True})   # 15
            .call("GET", "/db/posts/2.json", response=page("posts", p2b, 5.5))                            # 16
            .call("GET", "/db/posts.json", response=listing([p1b, p2b, p3]))                              # 17
            .call("POST", "/db/users/2/-/delete", response={"ok": True})                                  # 18
            .call("GET", "/db/users/2.json", status=404, response=MISSING)                                # 19
            .call("POST", "/db/users/2/-/delete", status=404,
                  response={"ok": False, "error": absent_user, "status": 404})                            # 20
            .call("POST", "/db/posts/3/-/delete", response={"ok": True})                                  # 21
            .call("GET", "/db/posts/3.json", status=404, response=MISSING)                                # 22
            .call("GET", "/db/posts.json", response=listing([p1b, p2b])))                                 # 23


def test_the_format_suffix_is_spelling_and_the_row_page_an_item_view():
    bundle = build_from(row_store())
    assert bundle.manifest.format_suffix == ".json"
    templates = {t.name: (t.template, t.spelled_template) for t in bundle.manifest.tools if t.method == "GET"}
    assert templates["get_posts_by_post_id"] == ("/db/posts/{post_id}", "/db/posts/{post_id}.json")
    item = bundle.view.view("get_posts_by_post_id")
    assert item.kind == "item" and item.state_backed and item.locator.member == "rows"
    assert [(m.member, m.form) for m in item.item_members] == [("primary_key_values", "singleton")]
    assert "query_ms" in item.per_response_members


def test_inserts_updates_and_deletes_by_verb_are_served():
    bundle = build_from(row_store())
    insert = plan(bundle, "POST", "/db/posts/-/insert")
    assert (insert.effect, insert.body_envelope, insert.served) == ("create", "row", True)
    # views: 0 is a count, not an epoch clock listing the rows otherwise than their ids
    assert (insert.insert.kind, insert.insert.field) == ("sorted", "id")
    update = plan(bundle, "POST", "/db/posts/{post_id}/-/update")
    assert (update.effect, update.body_envelope, update.address.segment, update.served) == (
        "update", "update", "-/update", True)
    delete = plan(bundle, "POST", "/db/users/{user_id}/-/delete")
    assert (delete.effect, delete.address.segment, delete.served) == ("delete", "-/delete", True)


def test_served_row_pages_follow_the_state():
    runtime = EnvironmentRuntime(build_from(row_store()))
    made = runtime.read("post_posts_insert", {"body": {"row": {"title": "new"}}})
    new_id = made["body"]["rows"][0]["id"]
    runtime.read("post_posts_update", {"post_id": str(new_id), "body": {"update": {"title": "newer"}}})
    answer = runtime.http(HttpRequest("GET", f"/db/posts/{new_id}.json", (), (), b""))
    body = __import__("json").loads(answer.body)
    assert body["rows"][0]["title"] == "newer" and body["primary_key_values"] == [str(new_id)]
    # the suffix is the spelling the application answered: without it no tool answers
    assert runtime.http(HttpRequest("GET", f"/db/posts/{new_id}", (), (), b"")).status == 404


def test_a_write_of_a_missing_row_answers_the_endpoints_own_absence_for_its_id():
    bundle = build_from(row_store())
    assert plan(bundle, "POST", "/db/posts/{post_id}/-/delete").absence_tool == "post_users_delete"
    runtime = EnvironmentRuntime(bundle)
    answer = runtime.read("post_posts_delete", {"post_id": "77"})
    assert answer["status"] == 404 and answer["body"]["error"] == "Record not found: ['77']"
    own = runtime.read("post_users_delete", {"user_id": "55"})
    assert own["body"]["error"] == "Record not found: ['55']"


def test_a_sibling_absence_naming_its_own_kind_is_not_given_for_another():
    """Prefect's PATCH /api/flows/{id} answers "Flow not found": given for a deployment it would name
    the wrong kind of entity, so the write answers as the item view's absence does instead."""
    bundle = build_from(row_store(absent_user="User not found: ['2']"))
    assert plan(bundle, "POST", "/db/posts/{post_id}/-/delete").absence_tool is None
    answer = EnvironmentRuntime(bundle).read("post_posts_delete", {"post_id": "77"})
    # answered as the item view's absence, or refused as missing (a write's absence unlike the read's)
    assert answer.get("status") == 404 or answer.get("error") == "refused", answer
    assert "User" not in json.dumps(answer), answer


def test_a_suffix_the_answers_return_is_part_of_the_name():
    har = (HarBuilder()
           .call("GET", "/files", response=[{"name": "a.json"}, {"name": "b.json"}])
           .call("GET", "/files/a.json", response={"name": "a.json", "size": 1})
           .call("GET", "/files/b.json", response={"name": "b.json", "size": 2}))
    bundle = build_from(har)
    assert bundle.manifest.format_suffix is None
    assert any(t.template == "/files/{file_id}" and not t.format_suffix for t in bundle.manifest.tools)


def test_a_shape_asked_for_by_a_query_is_replayed_beside_the_list_view():
    bundle = build_from(row_store())
    listing_view = bundle.view.view("get_posts")
    assert listing_view.kind == "list" and listing_view.state_backed and listing_view.locator.member == "rows"
    assert len(listing_view.other_shape_records) == 1
    runtime = EnvironmentRuntime(bundle)
    assert runtime.read("get_posts", {"query": {"_shape": "array"}})["body"][0]["title"] == "a"  # as recorded
    runtime.read("post_posts_insert", {"body": {"row": {"title": "new"}}})
    refused = runtime.call_tool("get_posts", {"query": {"_shape": "array"}})
    assert refused.is_error and "not modelled over the current state" in refused.structured["message"]


def test_what_a_client_is_shown_names_paths_with_the_suffix_it_sends():
    """A bare path answers 404: the OpenAPI paths, tool titles and a refusal's paths carry the suffix,
    and the listing's ``_shape=array`` answer is described beside the rendered rows object."""
    runtime = EnvironmentRuntime(build_from(row_store()))
    try:
        document = json.loads(runtime.openapi())
        assert "/db/posts/{post_id}.json" in document["paths"] and "/db/posts/{post_id}" not in document["paths"]
        assert "GET /db/posts/{post_id}.json" in runtime.catalog.entries["get_posts_by_post_id"].spec().title
        listed = document["paths"]["/db/posts.json"]["get"]["responses"]["200"]["content"]["application/json"]
        assert {s.get("type") for s in listed["schema"]["anyOf"]} == {"object", "array"}
        refused = runtime.http(HttpRequest("GET", "/db/posts.json", (("_shape", "objects"),), (), b""))
        assert refused.status == 404 and b"GET /db/posts.json with this query" in refused.body, refused.body
    finally:
        runtime.close()
