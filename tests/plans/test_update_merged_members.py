"""An update whose later recorded call left out a member the exemplar sent, while the entity kept
the value an earlier call had set (``update-required.left-out-and-kept``), merges its body: the
member is optional, so that call is one serving answers (and the gate models), and a call sending
only another member is served. A PUT whose call left the member out and found it put back
(a replace) keeps it required, and serving refuses a call leaving it out."""

from __future__ import annotations

from support.capture_runs import build_from, items_app

from capenv.serving.runtime import EnvironmentRuntime

ONE = {"id": 1, "title": "t1", "color": "blue", "priority": 1}
TWO = {"id": 2, "title": "t2", "color": "green", "priority": 1}


def put_app(kept: bool = True):
    app = items_app([ONE, TWO])
    first = {**ONE, "color": "red", "priority": 4}
    app.call("PUT", "/items/1", body={"color": "red", "priority": 4}, response=first)
    app.call("GET", "/items/1", response=first)
    second = {**first, "title": "renamed"} if kept else {**ONE, "title": "renamed", "color": None}
    app.call("PUT", "/items/1", body={"title": "renamed"}, response=second)
    app.call("GET", "/items/1", response=second)
    return app


def put_plan(bundle):
    return next(p for p in bundle.view.writes if p.method == "PUT")


def test_a_member_a_later_call_left_out_and_kept_is_optional():
    bundle = build_from(put_app())
    plan = put_plan(bundle)
    assert plan.served, plan.reason
    assert {m.member: m.required for m in plan.members} == {"color": False, "priority": False, "title": False}
    assert plan.min_members == 1
    runtime = EnvironmentRuntime(bundle)
    try:
        answer = runtime.call_tool("put_items_by_item_id", {"item_id": "2", "body": {"title": "other"}})
        assert not answer.is_error, answer
        assert answer.structured["body"] == {**TWO, "title": "other"}
        read = runtime.call_tool("get_items_by_item_id", {"item_id": "2"})
        assert read.structured["body"] == {**TWO, "title": "other"}
        empty = runtime.call_tool("put_items_by_item_id", {"item_id": "2", "body": {}})
        assert empty.is_error
    finally:
        runtime.close()


def test_a_member_put_back_by_a_call_leaving_it_out_stays_required():
    bundle = build_from(put_app(kept=False))
    plan = put_plan(bundle)
    required = {m.member: m.required for m in plan.members}
    assert required["color"] is True and required["priority"] is True
    assert plan.served, plan.reason  # on the first call's read; the second is one serving refuses
    runtime = EnvironmentRuntime(bundle)
    try:
        answer = runtime.call_tool("put_items_by_item_id", {"item_id": "2", "body": {"title": "other"}})
        assert answer.is_error and "missing required member" in str(answer), answer
    finally:
        runtime.close()
