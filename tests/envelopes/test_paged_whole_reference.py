"""A whole listing sent with a query that only pages (``?limit=100`` answering every entity, as
Nautobot's clients list) is a reference the capture's filter reads are proven against, as a
listing with no query is: here the only one before the writes. Its filter and its page size and
start are then learned and answered over the state after a served create; before, every filter
read was "nothing recorded" or refused once the collection changed."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

ORIGIN = "http://127.0.0.1:3000"
T1, T2, T3 = ({"id": n, "name": name, "kind": kind} for n, name, kind in
              ((1, "acme", "org"), (2, "globex", "org"), (3, "initech", "team")))


def drf(results: list) -> dict:
    return {"count": len(results), "next": None, "previous": None, "results": results}


def capture() -> HarBuilder:
    return (HarBuilder(origin=ORIGIN)
            .call("GET", "/tenants", query="limit=100", response=drf([T1, T2, T3]))
            .call("GET", "/tenants/1", response=T1)
            .call("GET", "/tenants/2", response=T2)
            .call("GET", "/tenants", query="kind=org", response=drf([T1, T2]))
            .call("GET", "/tenants", query="limit=1&offset=1", response=drf([T2]) | {"count": 3})
            .call("POST", "/tenants", body={"name": "umbrella", "kind": "org"}, status=201,
                  response={"id": 4, "name": "umbrella", "kind": "org"})
            .call("GET", "/tenants/4", response={"id": 4, "name": "umbrella", "kind": "org"})
            .call("GET", "/tenants", response=drf([T1, T2, T3, {"id": 4, "name": "umbrella", "kind": "org"}])))


def test_the_filter_is_learned_against_the_paged_whole_listing():
    view = build_from(capture()).view.view("get_tenants")
    assert {(q.param, q.kind) for q in view.learned_queries} >= {("kind", "equals"), ("limit", "limit")}


def test_a_filter_no_recording_asked_is_answered_over_the_state_after_a_create():
    runtime = EnvironmentRuntime(build_from(capture()))
    runtime.read("post_tenants", {"body": {"name": "hooli", "kind": "team"}})
    body = runtime.read("get_tenants", {"query": {"kind": "team"}})["body"]
    assert [t["name"] for t in body["results"]] == ["initech", "hooli"] and body["count"] == 2
