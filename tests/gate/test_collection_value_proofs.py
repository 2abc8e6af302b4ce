"""A value of a generic collection segment the capture made mid-way and wrote once (a collection
whose first create made it, its one update read back once) is served on the proof of the same tool
on another value (table write-collection-value-proofs): the sibling confirmed by a checked read,
writing the same way, and the read this value's call was learned from answered from the copy as
recorded. Without the sibling's confirmation, or for a delete no read shows, the value stays
refused, naming the served values. A served write of one collection never touches or answers from
another collection's entity with the same id."""

from __future__ import annotations

import json

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

SEEDED = "2026-01-01T00:00:00.000Z"
# system members every collection's items carry (more than half of each), so the collection segment
# stays a parameter: one tool for every collection, split per value
SYSTEM = {"status": "published", "owner": "admin", "lang": "en", "sort": 0}
AUTHORS = [{"id": 1, "name": "Le Guin", "born": 1929, "updated_at": SEEDED, **SYSTEM},
           {"id": 2, "name": "Lem", "born": 1921, "updated_at": SEEDED, **SYSTEM}]
BOOKS = [{"id": 11, "title": "Solaris", "year": 1961, "updated_at": SEEDED, **SYSTEM},
         {"id": 12, "title": "Kindred", "year": 1979, "updated_at": SEEDED, **SYSTEM}]


def data(value: object) -> dict:
    return {"data": value}


def at(second: int) -> str:
    return f"2026-01-06T09:01:{second:02d}.000Z"


def shelves_app(sibling_confirmed: bool = True, shelf_deleted: bool = False) -> HarBuilder:
    """Authors and books held from the start; an author renamed (answered with its clock alone, read
    back, then listed: ``sibling_confirmed``); a shelves collection its first create makes, a shelf
    updated once and read back once, and (``shelf_deleted``) an author deleted and read missing, then
    another shelf deleted with no read after."""
    app = (HarBuilder(start="2026-01-06T09:00:00Z")
           .call("GET", "/collections", response=data([{"name": "authors"}, {"name": "books"}]))
           .call("GET", "/items/authors", response=data(AUTHORS))
           .call("GET", "/items/books", response=data(BOOKS)))
    for collection, held in (("authors", AUTHORS), ("books", BOOKS)):
        for entity in held:
            app.call("GET", f"/items/{collection}/{entity['id']}", response=data(entity))
    app.call("GET", "/items/authors/9", status=404, response={"error": "not found"})
    renamed = {**AUTHORS[0], "name": "Ursula K. Le Guin", "updated_at": at(1)}
    app.call("PATCH", "/items/authors/1", body={"name": "Ursula K. Le Guin"}, started=at(1),
             response=data({"updated_at": at(1)}))
    app.call("GET", "/items/authors/1", started=at(2), response=data(renamed))
    if sibling_confirmed:
        app.call("GET", "/items/authors", started=at(3), response=data([renamed, AUTHORS[1]]))
    shelves = []
    for n, (name, second) in enumerate((("Favourites", 10), ("To read", 12)), start=21):
        shelf = {"id": n, "name": name, "position": n - 20, "updated_at": at(second), **SYSTEM}
        app.call("POST", "/items/shelves", body={"name": name, "position": n - 20, **SYSTEM}, started=at(second),
                 status=201, response=data(shelf))
        app.call("GET", f"/items/shelves/{n}", started=at(second + 1), response=data(shelf))
        shelves.append(shelf)
    moved = {**shelves[1], "name": "Reading now", "position": 3, "updated_at": at(20)}
    app.call("PATCH", "/items/shelves/22", body={"name": "Reading now", "position": 3}, started=at(20),
             response=data({"updated_at": at(20)}))
    app.call("GET", "/items/shelves/22", started=at(21), response=data(moved))
    if shelf_deleted:  # an author deleted and read missing after, a shelf deleted with no read after
        app.call("DELETE", "/items/authors/2", started=at(30), status=204)
        app.call("GET", "/items/authors/2", started=at(31), status=404, response={"error": "not found"})
        app.call("DELETE", "/items/shelves/21", started=at(32), status=204)
    return app


def http(runtime: EnvironmentRuntime, method: str, path: str, body: object = None):
    sent = b"" if body is None else json.dumps(body).encode()
    return runtime.http(HttpRequest(method, path, (), (("content-type", "application/json"),), sent))


def _plan(bundle, method: str):
    return next(p for p in bundle.view.writes if p.method == method and p.dispatch_params)


def _variants(plan) -> dict:
    return {v.dispatch_args[plan.dispatch_params[0]]: v for v in plan.variants}


def test_a_collection_made_mid_capture_is_updated_on_a_proven_siblings_proof():
    bundle = build_from(shelves_app())
    variants = _variants(_plan(bundle, "PATCH"))
    assert variants["authors"].served and variants["authors"].checked_record_ordinals
    shelves = variants["shelves"]
    assert shelves.served, shelves.reason
    proof = [e for e in shelves.traces if e.table == "write-collection-value-proofs" and e.outcome == "match"]
    assert proof and proof[0].evidence["sibling"].endswith("'authors'")
    runtime = EnvironmentRuntime(bundle)
    made = http(runtime, "POST", "/items/shelves", {"name": "Later", "position": 5, **SYSTEM})
    assert made.status == 201, made.body
    made_id = json.loads(made.body)["data"]["id"]
    moved = http(runtime, "PATCH", f"/items/shelves/{made_id}", {"name": "Sooner", "position": 4})
    assert moved.status == 200, moved.body
    shown = json.loads(http(runtime, "GET", f"/items/shelves/{made_id}").body)["data"]
    assert (shown["name"], shown["position"]) == ("Sooner", 4)


def test_without_the_siblings_confirmation_the_value_stays_refused_naming_the_served_ones():
    bundle = build_from(shelves_app(sibling_confirmed=False))
    variants = _variants(_plan(bundle, "PATCH"))
    assert not variants["shelves"].served and variants["shelves"].reason == "unconfirmed"
    missed = [e for e in variants["shelves"].traces if e.table == "write-collection-value-proofs"
              and e.outcome == "miss"]
    assert missed and "no other value of the tool is served" in missed[0].reason


def test_a_delete_no_read_shows_stays_refused_saying_what_would_prove_it():
    bundle = build_from(shelves_app(shelf_deleted=True))
    plan = _plan(bundle, "DELETE")
    shelves = _variants(plan)["shelves"]
    assert not shelves.served and shelves.reason == "unconfirmed"
    missed = next(e for e in shelves.traces if e.table == "write-collection-value-proofs" and e.outcome == "miss")
    assert "would check it" in missed.reason
    runtime = EnvironmentRuntime(bundle)
    made = json.loads(http(runtime, "POST", "/items/shelves", {"name": "Gone", "position": 6, **SYSTEM}).body)
    refused = http(runtime, "DELETE", f"/items/shelves/{made['data']['id']}")
    assert refused.status == 400 and b"shelves" in refused.body and b"unconfirmed" in refused.body
    assert http(runtime, "GET", f"/items/shelves/{made['data']['id']}").status == 200


def test_a_served_write_of_one_collection_never_reaches_another_collections_same_id():
    runtime = EnvironmentRuntime(build_from(shelves_app()))
    made = json.loads(http(runtime, "POST", "/items/shelves", {"name": "Shelf one", "position": 1, **SYSTEM}).body)
    shelf_id = made["data"]["id"]
    author_before = http(runtime, "GET", f"/items/authors/{shelf_id}")
    assert author_before.status == 200  # numbered within its own collection: the id an author holds too
    moved = http(runtime, "PATCH", f"/items/shelves/{shelf_id}", {"name": "Shelf moved", "position": 9})
    assert moved.status == 200, moved.body
    assert http(runtime, "GET", f"/items/authors/{shelf_id}").body == author_before.body
    assert b"Shelf moved" not in http(runtime, "GET", "/items/authors").body
    renamed = http(runtime, "PATCH", f"/items/authors/{shelf_id}", {"name": "U. K. Le Guin"})
    assert renamed.status == 200, renamed.body
    shelf = json.loads(http(runtime, "GET", f"/items/shelves/{shelf_id}").body)["data"]
    assert (shelf["name"], shelf["position"]) == ("Shelf moved", 9)
    # an id the authors hold and the shelves do not: the shelves' update is refused, the author untouched
    other = next(a["id"] for a in AUTHORS if a["id"] != shelf_id)
    author_other = http(runtime, "GET", f"/items/authors/{other}").body
    missing = http(runtime, "PATCH", f"/items/shelves/{other}", {"name": "Nowhere", "position": 4})
    assert missing.status == 404, missing.body
    assert http(runtime, "GET", f"/items/authors/{other}").body == author_other
    assert http(runtime, "GET", f"/items/shelves/{other}").status == 404


def posts_app(read_after: str) -> HarBuilder:
    """One kind under two parents numbering their posts each from 1 (so ids repeat); ann's post 1
    updated (answered with it), then ``read_after`` read."""
    posts = {"ann": {"id": 1, "title": "a", "body": "x"}, "bob": {"id": 1, "title": "b", "body": "y"}}
    app = HarBuilder(start="2026-01-06T09:00:00Z").call("GET", "/users", response=[{"name": "ann"}, {"name": "bob"}])
    for user, post in posts.items():
        app.call("GET", f"/users/{user}/posts", response=[post])
        app.call("GET", f"/users/{user}/posts/1", response=post)
    changed = {**posts["ann"], "title": "c"}
    app.call("PATCH", "/users/ann/posts/1", body={"title": "c"}, response=changed)
    shown = changed if read_after == "ann" else posts["bob"]
    return app.call("GET", f"/users/{read_after}/posts/1", response=shown)


def test_another_collections_entity_with_the_same_id_neither_explains_nor_confirms_an_update():
    """Bob's post 1, read before and after ann's post 1 changed, is no sighting of ann's post: the
    plan learns from ann's reads only (before: a change of body it never made), and bob's read
    after it, answered as recorded, confirms nothing of it."""
    elsewhere = next(p for p in build_from(posts_app("bob")).view.writes if p.method == "PATCH")
    assert elsewhere.build_reason is None, elsewhere.build_reason
    assert not elsewhere.served and elsewhere.reason == "unconfirmed"
    own = next(p for p in build_from(posts_app("ann")).view.writes if p.method == "PATCH")
    assert own.served and own.checked_record_ordinals, own.reason
