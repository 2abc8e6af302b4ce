"""A template whose collection segment names a kind of entity with each value (a CMS-style
/items/{collection}; table write-collection-segments): each value's writes get a plan of their own,
learned from and proven on that value's calls only, and serving dispatches on the value, refusing a
value with no proven plan and naming the values it serves."""

from __future__ import annotations

import json

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

# every collection's items carry the same system members (more than half of each item's), as a
# CMS's do: the manifest keeps the collection segment a parameter, one tool for every collection
SYSTEM = {"status": "published", "owner": "admin", "lang": "en", "sort": 0}
AUTHORS = [{"id": 1, "name": "Le Guin", "born": 1929, **SYSTEM}, {"id": 2, "name": "Lem", "born": 1921, **SYSTEM}]
BOOKS = [{"id": 11, "title": "Solaris", "year": 1961, **SYSTEM}, {"id": 12, "title": "Kindred", "year": 1979, **SYSTEM},
         {"id": 13, "title": "Dune", "year": 1965, **SYSTEM}]


def data(value: object) -> dict:
    return {"data": value}


def items_app(books_stored_year: int = 1972) -> HarBuilder:
    """Two collections whose members differ, named by the collections list (so the segment is a
    parameter, as a CMS's schema endpoint names them), every answer in a ``data`` envelope; the book create's
    read shows ``books_stored_year`` (1972: as sent; another value: the application stored
    something else, which no plan explains)."""
    author = {"id": 3, "name": "Calvino", "born": 1923, **SYSTEM}
    book = {"id": 14, "title": "Invisible Cities", "year": 1972, **SYSTEM}
    stored = {**book, "year": books_stored_year}
    app = (HarBuilder(start="2026-01-06T09:00:00Z")
           .call("GET", "/collections", response=data([{"name": "authors"}, {"name": "books"}]))
           .call("GET", "/items/authors", response=data(AUTHORS))
           .call("GET", "/items/books", response=data(BOOKS)))
    for entity in AUTHORS:
        app.call("GET", f"/items/authors/{entity['id']}", response=data(entity))
    for entity in BOOKS:
        app.call("GET", f"/items/books/{entity['id']}", response=data(entity))
    app.call("GET", "/items/authors/9", status=404, response={"error": "not found"})
    return (app
            .call("POST", "/items/authors", body={"name": "Calvino", "born": 1923, **SYSTEM}, status=201, response=data(author))
            .call("GET", "/items/authors/3", response=data(author))
            .call("GET", "/items/authors", response=data([*AUTHORS, author]))
            .call("POST", "/items/books", body={"title": "Invisible Cities", "year": 1972, **SYSTEM}, status=201, response=data(book))
            .call("GET", "/items/books/14", response=data(stored))
            .call("GET", "/items/books", response=data([*BOOKS, stored])))


def http(runtime: EnvironmentRuntime, method: str, path: str, body: object = None):
    data = b"" if body is None else json.dumps(body).encode()
    return runtime.http(HttpRequest(method, path, (), (("content-type", "application/json"),), data))


def _create(bundle):
    return next(p for p in bundle.view.writes if p.method == "POST" and p.template.endswith("}"))


def test_each_collection_value_gets_its_own_proven_create_plan():
    bundle = build_from(items_app())
    plan = _create(bundle)
    assert plan.served and len(plan.dispatch_params) == 1
    variants = {tuple(v.dispatch_args.values()): v for v in plan.variants}
    assert set(variants) == {("authors",), ("books",)}
    assert {m.member for m in variants[("authors",)].members} == {"name", "born", *SYSTEM}
    assert {m.member for m in variants[("books",)].members} == {"title", "year", *SYSTEM}
    assert all(v.served for v in variants.values()), [v.reason for v in variants.values()]
    assert any(e.table == "write-collection-segments" and e.outcome == "match" for e in plan.traces)
    reported = next(w for w in bundle.report["writes"] if w["tool"] == plan.tool)
    assert [(v["values"], v["served"]) for v in reported["per_value"]] == [
        ({plan.dispatch_params[0]: "authors"}, True), ({plan.dispatch_params[0]: "books"}, True)]
    assert [t.name for t in bundle.manifest.tools] == [t.name for t in build_from(items_app()).manifest.tools]


def test_serving_dispatches_on_the_value_and_refuses_another_collections_members():
    runtime = EnvironmentRuntime(build_from(items_app()))
    made = http(runtime, "POST", "/items/books", {"title": "Ubik", "year": 1969, **SYSTEM})
    assert made.status == 201, made.body
    assert b"Ubik" in http(runtime, "GET", "/items/books").body
    author = http(runtime, "POST", "/items/authors", {"name": "Dick", "born": 1928, **SYSTEM})
    assert author.status == 201, author.body
    crossed = http(runtime, "POST", "/items/authors", {"title": "Ubik", "year": 1969, **SYSTEM})
    assert crossed.status >= 400
    assert b"Ubik" not in http(runtime, "GET", "/items/authors").body


def test_a_value_with_no_recorded_write_is_refused_naming_the_served_values():
    runtime = EnvironmentRuntime(build_from(items_app()))
    refused = http(runtime, "POST", "/items/reviews", {"name": "x", "born": 1, **SYSTEM})
    assert refused.status == 400
    assert b"'authors'" in refused.body and b"'books'" in refused.body and b"reviews" in refused.body


def test_a_value_the_gate_contradicts_is_refused_and_the_other_still_served():
    bundle = build_from(items_app(books_stored_year=1974))
    plan = _create(bundle)
    variants = {v.dispatch_args[plan.dispatch_params[0]]: v for v in plan.variants}
    assert variants["authors"].served
    assert not variants["books"].served
    runtime = EnvironmentRuntime(bundle)
    refused = http(runtime, "POST", "/items/books", {"title": "Ubik", "year": 1969, **SYSTEM})
    assert refused.status == 400 and b"'authors'" in refused.body
    assert b"Ubik" not in http(runtime, "GET", "/items/books").body
    assert http(runtime, "POST", "/items/authors", {"name": "Dick", "born": 1928, **SYSTEM}).status == 201


def test_one_kind_under_two_parents_keeps_one_plan():
    posts = {"ann": [{"id": 1, "title": "a", "body": "x"}], "bob": [{"id": 2, "title": "b", "body": "y"}]}
    app = HarBuilder(start="2026-01-06T09:00:00Z").call("GET", "/users", response=[{"name": "ann"}, {"name": "bob"}])
    for user, held in posts.items():
        app.call("GET", f"/users/{user}/posts", response=held)
    made = {"id": 3, "title": "c", "body": "z"}
    app.call("POST", "/users/ann/posts", body={"title": "c", "body": "z"}, status=201, response=made)
    app.call("GET", "/users/ann/posts", response=[*posts["ann"], made])
    bundle = build_from(app)
    plan = next(p for p in bundle.view.writes if p.method == "POST")
    assert not plan.dispatch_params and not plan.variants
    judged = [e for e in bundle.view.traces if e.table == "write-collection-segments"]
    assert judged and not any(e.outcome == "match" for e in judged)  # why it stays one plan, said


def test_the_tools_input_schema_names_each_served_value_and_its_members():
    runtime = EnvironmentRuntime(build_from(items_app(books_stored_year=1974)))
    tool = next(t for t in runtime.tools() if t.name == "post_items_by_item_id")
    choices = tool.input_schema["oneOf"]
    assert [c["properties"]["item_id"]["const"] for c in choices] == ["authors"]
    assert set(choices[0]["properties"]["body"]["properties"]) == {"name", "born", *SYSTEM}
    assert "'authors'" in tool.description and "refused" in tool.description
    made = runtime.call_tool("post_items_by_item_id", {"item_id": "authors", "body": {"name": "Dick", "born": 1928,
                                                                                      **SYSTEM}})
    assert not made.is_error and made.structured["status"] == 201
    refused = runtime.call_tool("post_items_by_item_id", {"item_id": "books", "body": {"title": "Ubik", "year": 1969,
                                                                                     **SYSTEM}})
    assert refused.is_error
    assert b"Ubik" not in http(runtime, "GET", "/items/books").body


def test_members_only_sent_under_another_parent_do_not_split_it():
    """One parent holds tokens; calls under other parents send other optional members (a note, an
    expiry): what a call chooses to send is no kind of its own, so the tool keeps one plan."""
    held = [{"id": 1, "note": "ci", "created": "2026-01-01T00:00:00Z", "scopes": ["read"]}]
    app = HarBuilder(start="2026-01-06T09:00:00Z").call("GET", "/users", response=[{"name": "ann"}, {"name": "bob"},
                                                                                     {"name": "cy"}])
    app.call("GET", "/users/ann/tokens", response=held)
    app.call("POST", "/users/bob/tokens", body={"note": "x", "expires_in": 60}, status=201,
             response={"id": 2, "note": "x", "created": "2026-01-06T09:00:01Z", "scopes": ["read"]})
    app.call("POST", "/users/cy/tokens", body={"scopes": ["read"]}, status=201,
             response={"id": 3, "note": None, "created": "2026-01-06T09:00:02Z", "scopes": ["read"]})
    bundle = build_from(app)
    plan = next(p for p in bundle.view.writes if p.method == "POST")
    assert not plan.dispatch_params and not plan.variants


def test_the_openapi_operation_names_the_served_values_and_each_ones_body():
    runtime = EnvironmentRuntime(build_from(items_app()))
    document = json.loads(runtime.openapi())
    operation = document["paths"]["/items/{item_id}"]["post"]
    segment = next(p for p in operation["parameters"] if p["name"] == "item_id")
    assert segment["schema"]["enum"] == ["authors", "books"]
    bodies = operation["requestBody"]["content"]["application/json"]["schema"]["oneOf"]
    assert [set(b["properties"]) for b in bodies] == [{"name", "born", *SYSTEM}, {"title", "year", *SYSTEM}]
