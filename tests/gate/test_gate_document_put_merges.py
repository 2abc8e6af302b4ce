"""A document PUT in a ``{"data": {…}}`` envelope (a headless CMS's single type): the envelope is
unwrapped by ``body-envelopes``, the write addresses the document's ``data`` object, a PUT whose
own answer keeps every member it did not send merges there (``document-write.put-keeps-unsent``),
and the clocks its answer shows changed are stamped (``update-changes``' ``change.clock``); one
whose answer drops them replaces the object (``document-write.put-replaces``)."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

CREATED = "2026-01-01T00:00:00.000Z"


def settings(theme: str, updated: str = CREATED) -> dict:
    return {"id": 1, "siteName": "blog", "theme": theme, "pages": 10, "createdAt": CREATED, "updatedAt": updated}


def merging_app() -> HarBuilder:
    stamped = "2026-01-01T00:00:00.412Z"  # the PUT's own second: the builder starts calls 100 ms apart
    return (HarBuilder()
            .call("GET", "/api/global", response={"data": settings("light"), "meta": {}})                  # 1
            .call("PUT", "/api/global", body={"data": {"theme": "dark"}},
                  response={"data": settings("dark", stamped), "meta": {}}, started="2026-01-01T00:00:00.400Z")
            .call("GET", "/api/global", response={"data": settings("dark", stamped), "meta": {}}))


def test_a_put_whose_answer_keeps_the_rest_merges_into_the_data_member():
    bundle = build_from(merging_app())
    put = plan(bundle, "PUT", "/api/global")
    assert put.served, put.reason
    assert (put.body_envelope, put.document_pointer, put.replace) == ("data", "/data", False)
    assert [(f.field, f.op) for f in put.fields] == [("updatedAt", "clock")]
    rules = {e.rule_id for e in put.traces if e.outcome == "match"}
    assert {"document-write.put-keeps-unsent", "body-envelope.object-as-answered"} <= rules
    runtime = EnvironmentRuntime(bundle)
    answer = runtime.read("put_global", {"body": {"data": {"theme": "sepia"}}})["body"]["data"]
    assert (answer["theme"], answer["siteName"], answer["pages"], answer["createdAt"]) == ("sepia", "blog", 10, CREATED)
    assert answer["updatedAt"] != CREATED
    assert runtime.read("get_global")["body"]["data"] == answer


def test_a_put_whose_answer_drops_the_rest_replaces_the_object():
    har = (HarBuilder()
           .call("GET", "/api/global", response={"data": settings("light"), "meta": {}})
           .call("PUT", "/api/global", body={"data": {"theme": "dark"}},
                 response={"data": {"id": 1, "theme": "dark"}, "meta": {}})
           .call("GET", "/api/global", response={"data": {"id": 1, "theme": "dark"}, "meta": {}}))
    put = plan(build_from(har), "PUT", "/api/global")
    assert (put.body_envelope, put.document_pointer, put.replace) == ("data", "/data", True)
    assert "document-write.put-replaces" in {e.rule_id for e in put.traces if e.outcome == "match"}
    assert put.fields == ()
