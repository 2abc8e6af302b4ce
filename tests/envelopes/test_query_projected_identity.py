"""An item read sent with a query whose answer leaves even the identity out (LoopBack's
``GET /todos/2?filter={"fields":{"title":true}}`` answers ``{"title": ...}``), a projection no
learned query explains: the item tool stays an item view answered from the state (the reads
without a query decide its shape), the projected read is another shape (``query-member.left-out-by-query``,
keyed by the id its path names), replayed only while it cannot contradict the state, and the
writes the item reads observe are served (regression: the tool became a document answered by
replay, so no write was observed and nothing was served)."""

from __future__ import annotations

import json

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

T1 = {"id": 1, "title": "Buy milk", "done": False}
T2 = {"id": 2, "title": "Write report", "desc": "Numbers", "done": True}
PROJECTION = json.dumps({"fields": {"title": True, "done": True}})


def capture() -> HarBuilder:
    return (HarBuilder().call("GET", "/tasks", response=[T1, T2])
            .call("GET", "/tasks/1", response=T1)
            .call("GET", "/tasks/2", response=T2)
            .call("GET", "/tasks/2", query=[("filter", PROJECTION)], response={"title": T2["title"], "done": True})
            .call("PATCH", "/tasks/1", body={"done": True}, status=204)
            .call("GET", "/tasks/1", response={**T1, "done": True})
            .call("PATCH", "/tasks/2", body={"title": "Final report"}, status=204)
            .call("GET", "/tasks/2", response={**T2, "title": "Final report"})
            .call("GET", "/tasks", response=[{**T1, "done": True}, {**T2, "title": "Final report"}]))


def test_the_item_view_stays_answered_from_the_state():
    bundle = build_from(capture())
    item = bundle.view.view("get_tasks_by_task_id")
    assert item.kind == "item" and item.state_backed, item.reason
    projected = [o for o in item.record_ordinals if o in item.other_shape_records]
    assert len(projected) == 1  # the read sent with the projection
    why = [e for e in bundle.view.traces if e.rule_id == "query-member.left-out-by-query" and e.outcome == "match"]
    assert "tasks member 'id'" in {e.subject for e in why}
    held = {e.id: e.value for c in bundle.view.state.collections for e in c.entities}
    assert held[2] == T2  # nothing taken from the projected answer


def test_the_update_the_item_reads_observe_is_served():
    bundle = build_from(capture())
    patch = next(p for p in bundle.view.writes if p.tool == "patch_tasks_by_task_id")
    assert patch.served, patch.reason
    runtime = EnvironmentRuntime(bundle)
    runtime.call_tool("patch_tasks_by_task_id", {"task_id": "2", "body": {"title": "Draft"}})
    read = runtime.call_tool("get_tasks_by_task_id", {"task_id": "2"})
    assert read.structured["body"] == {**T2, "title": "Draft"}
    projected = runtime.call_tool("get_tasks_by_task_id", {"task_id": "2", "query": {"filter": PROJECTION}})
    # the projected recording shows the task before the write: refused, never replayed
    assert projected.is_error, projected.structured


def test_an_item_tool_whose_every_read_lacks_the_identity_is_no_item_view():
    """Only reads sent with a query, none carrying the path's id: nothing decides an item shape."""
    har = (HarBuilder().call("GET", "/tasks", response=[T1, T2])
           .call("GET", "/tasks/1", query=[("filter", PROJECTION)], response={"title": T1["title"], "done": False})
           .call("GET", "/tasks/2", query=[("filter", PROJECTION)], response={"title": T2["title"], "done": True}))
    bundle = build_from(har)
    assert bundle.view.view("get_tasks_by_task_id").kind != "item"
