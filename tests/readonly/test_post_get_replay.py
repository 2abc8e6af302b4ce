"""A POST named for the read verb itself (``/collections/{id}/get``, records chosen by a body of ids
and filters, as a vector store answers them) only reads (``readonly.query-word-path``, query word
``get``): it bounds no initial window, so the reads recorded after it still show the state serving
starts from, and its own recordings replay while the state is as the capture began and are refused
once a served write has changed the collections."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.http_thread import http_in_thread
from support.served_calls import send_json

from capenv.serving.runtime import EnvironmentRuntime

NOTES = {"id": "5c0e0000-0000-4000-8000-000000000001", "name": "notes"}
TASKS = {"id": "5c0e0000-0000-4000-8000-000000000002", "name": "tasks"}
RECORDS = {"ids": ["n1", "n2"], "documents": ["first", "second"], "metadatas": [{"k": 1}, {"k": 2}]}
FIRST = {"ids": ["n1"], "documents": ["first"], "metadatas": [{"k": 1}]}
MISSING = {"error": "NotFoundError", "message": "Collection [notes] does not exist"}


def records_read_by_post() -> HarBuilder:
    har = HarBuilder()
    har.call("GET", "/collections", response=[NOTES, TASKS])
    for collection in (NOTES, TASKS):
        har.call("GET", f"/collections/{collection['name']}", response=collection)
    har.call("POST", f"/collections/{NOTES['id']}/get", body={}, response=RECORDS)
    har.call("POST", f"/collections/{NOTES['id']}/get", body={"ids": ["n1"]}, response=FIRST)
    har.call("GET", f"/collections/{NOTES['id']}/count", response=2)
    har.call("DELETE", "/collections/tasks", response={})
    har.call("GET", "/collections/tasks", status=404, response=MISSING)
    return har.call("GET", "/collections", response=[NOTES])


def test_a_post_named_get_only_reads_and_replays_until_a_served_write(tmp_path) -> None:
    bundle = build_from(records_read_by_post(), tmp_path / "capture.har")
    reads = {post.tool: post for post in bundle.view.read_only_posts}
    get = next(tool for tool in reads if tool.endswith("_get"))
    assert "get" in {e.evidence.get("query_word") for e in bundle.view.traces
                     if e.rule_id == "readonly.query-word-path" and e.outcome == "match"}
    assert all(call.initial for call in bundle.replay.tools[get]), "no write before the reads"
    assert plan(bundle, "DELETE", "/collections/{collection_id}").served
    runtime = EnvironmentRuntime(bundle)
    with http_in_thread(runtime) as serving:
        assert send_json(serving, f"/collections/{NOTES['id']}/get", {"ids": ["n1"]}) == (200, FIRST)
        assert send_json(serving, f"/collections/{NOTES['id']}/count", None, method="GET") == (200, 2)
        assert send_json(serving, "/collections/tasks", None, method="DELETE")[0] == 200
        status, answer = send_json(serving, f"/collections/{NOTES['id']}/get", {"ids": ["n1"]})
    # the recording shows the collections as the capture began; a served delete changed them since
    assert status == 409, (status, answer)
    assert "not modelled over the current state" in answer["message"]
