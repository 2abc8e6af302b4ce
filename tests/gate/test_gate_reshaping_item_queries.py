"""An item read with a query its view's checked reads never used (``?populate=…``, ``?_embed=…``)
is replayed by serving, since the query may reshape the entity (relations shown only under it):
the gate checks nothing with it, and plans take no sighting of the entity from it (seeds: "The
gate", "Reads": "a read is checked when the served environment would answer it from the state")."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime


def author(n: int, name: str, **more) -> dict:
    return {"id": n, "name": name, "bio": None, **more}


def book(n: int, title: str, **more) -> dict:
    return {"id": n, "title": title, **more}


def app() -> HarBuilder:
    ada, grace = author(1, "Ada"), author(2, "Grace")
    return (HarBuilder()
            .call("GET", "/authors", response={"data": [ada, grace]})                           # 1
            .call("GET", "/authors/1", response={"data": ada})                                  # 2
            .call("GET", "/authors/2", response={"data": grace})                                # 3
            .call("GET", "/books", response={"data": [book(1, "Notes"), book(2, "Tables")]})    # 4
            .call("GET", "/books/1", response={"data": book(1, "Notes")})                       # 5
            .call("GET", "/books/2", response={"data": book(2, "Tables")}))                     # 6


def test_a_populated_read_embedding_a_created_entity_checks_nothing():
    hedy = author(3, "Hedy")
    har = (app()
           .call("POST", "/authors", body={"data": {"name": "Hedy"}}, status=201, response={"data": hedy})  # 7
           .call("GET", "/authors/3", response={"data": hedy})                                              # 8
           # the book shows its author only under populate: serving replays this query
           .call("GET", "/books/1", query="populate=author", response={"data": book(1, "Notes", author=hedy)})
           .call("GET", "/authors", response={"data": [author(1, "Ada"), author(2, "Grace"), hedy]}))
    bundle = build_from(har)
    create = plan(bundle, "POST", "/authors")
    assert create.served, create.reason
    # populate adds a member no read without it shows (view-query-members): the read is another
    # shape of the view, which the gate skips and serving replays
    assert 9 in bundle.view.view("get_books_by_book_id").other_shape_records
    traces = [e.reason for e in bundle.view.traces if e.table == "gate" and e.reason and "record 9" in e.reason]
    assert not any("contradict" in r for r in traces), traces
    runtime = EnvironmentRuntime(bundle)
    made = runtime.read("post_authors", {"body": {"data": {"name": "Lise"}}})["body"]["data"]
    assert runtime.read("get_authors_by_author_id", {"author_id": str(made["id"])})["body"]["data"] == made


def test_an_update_seen_before_only_under_populate_drops_no_field():
    grace = author(2, "Grace")
    populated = {**grace, "books": [book(1, "Notes")]}
    edited = {**grace, "bio": "Compilers"}
    har = (app()
           .call("POST", "/books", body={"data": {"title": "Cobol"}}, status=201,
                 response={"data": book(3, "Cobol")})                                                 # 7
           .call("GET", "/books/3", response={"data": book(3, "Cobol")})                              # 8
           .call("GET", "/authors/2", query="populate=books", response={"data": populated})           # 9
           .call("PUT", "/authors/2", body={"data": {"bio": "Compilers"}}, response={"data": edited})  # 10
           .call("GET", "/authors/2", response={"data": edited}))                                     # 11
    update = plan(build_from(har), "PUT", "/authors/{author_id}")
    assert update.served, update.reason

