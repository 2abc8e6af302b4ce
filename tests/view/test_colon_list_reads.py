"""A list read spelled ``resource:list`` (the resourcer convention: NocoBase's ``/api/authors:list``
beside ``/api/authors`` and ``/api/authors/{id}``) lists the collection its word names: one type,
whose served create the colon list then shows, not a second type holding copies of its entities
(``verdict.copied-entities``, which left every write of the collection unserved). A colon list whose
word the capture never reads alone stays a type of its own (``view-colon-list-reads``)."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

from capenv.interpreter.bundle.jsonvalue import dumps, loads
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

API = "/api/authors"
ADA = {"id": 1, "name": "Ada Lovelace", "email": "ada@example.test"}
GRACE = {"id": 2, "name": "Grace Hopper", "email": "grace@example.test"}
EDSGER = {"id": 3, "name": "Edsger Dijkstra", "email": "edsger@example.test"}
BARBARA = {"id": 4, "name": "Barbara Liskov", "email": "barbara@example.test"}


def app(plain_reads: bool = True) -> HarBuilder:
    har = HarBuilder()
    if plain_reads:
        har.call("GET", API, response={"data": [ADA, GRACE]})
        har.call("GET", f"{API}/1", response={"data": ADA})
        har.call("GET", f"{API}/2", response={"data": GRACE})
    har.call("GET", f"{API}:list", response={"data": [ADA, GRACE]})
    (har.call("POST", API, body={"name": EDSGER["name"], "email": EDSGER["email"]}, response={"data": EDSGER})
        .call("GET", f"{API}/3", response={"data": EDSGER})
        .call("GET", f"{API}:list", response={"data": [ADA, GRACE, EDSGER]})
        .call("POST", API, body={"name": BARBARA["name"], "email": BARBARA["email"]}, response={"data": BARBARA})
        .call("GET", f"{API}/4", response={"data": BARBARA})
        .call("GET", f"{API}:list", response={"data": [ADA, GRACE, EDSGER, BARBARA]}))
    return har


def test_a_colon_list_of_a_collection_read_alone_is_that_collection_s_list():
    bundle = build_from(app())
    lister = next(t for t in bundle.view.types if "get_authors_list" in t.list_tools)
    assert lister.name == "authors" and lister.list_tools == ("get_authors", "get_authors_list"), lister
    created = plan(bundle, "POST", API)
    assert created.served, (created.reason, created.contradicted_by)
    runtime = EnvironmentRuntime(bundle)
    answer = runtime.http(HttpRequest("POST", API, (), (("content-type", "application/json"),),
                                      dumps({"name": "Alan Turing", "email": "alan@example.test"})))
    assert answer.status == 200, answer.body
    made = loads(answer.body)["data"]["id"]
    listed = loads(runtime.http(HttpRequest("GET", f"{API}:list", (), (), b"")).body)["data"]
    assert [row["id"] for row in listed] == [1, 2, made], listed
    plain = loads(runtime.http(HttpRequest("GET", API, (), (), b"")).body)["data"]
    assert plain == listed


def test_a_colon_list_whose_word_is_never_read_alone_stays_its_own_type():
    tags = [{"id": 1, "name": "history"}, {"id": 2, "name": "computing"}]
    har = (HarBuilder()
           .call("GET", "/api/tags:list", response={"data": tags})
           .call("GET", "/api/tags:get", query="filterByTk=1", response={"data": tags[0]}))
    lister = next(t for t in build_from(har).view.types if "get_tags_list" in t.list_tools)
    assert lister.collection_template != "/api/tags", lister
