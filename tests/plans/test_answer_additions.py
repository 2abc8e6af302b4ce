"""An update whose answer shows the entity plus members no read of the type shows, each with one
value in every write answer of the type (``answer-addition.constant-unread``: Nautobot's
computed_fields {}), is served: its answer adds them as recorded, and reads still leave them out.
A member whose value differs between answers, or that only one answer shows, is no addition: the
update stays refused for entities lacking it."""

from __future__ import annotations

from typing import Any

from support.capture_runs import build_from, items_app

from capenv.serving.runtime import EnvironmentRuntime

EXTRA = {"computed": {}}


def notes_app(second_extra: Any = None, creates: bool = True, second_patch: bool = True):
    app = items_app([{"id": 1, "title": "t1"}, {"id": 2, "title": "t2"}])
    if creates:
        made = {"id": 3, "title": "t3"}
        app.call("POST", "/items", body={"title": "t3"}, status=201, response={**made, **EXTRA})
        app.call("GET", "/items/3", response=made)
    patched = {"id": 1, "title": "new"}
    app.call("PATCH", "/items/1", body={"title": "new"}, response={**patched, **EXTRA})
    app.call("GET", "/items/1", response=patched)
    if not second_patch:
        return app
    extra = EXTRA if second_extra is None else {"computed": second_extra}
    app.call("PATCH", "/items/2", body={"title": "other"}, response={"id": 2, "title": "other", **extra})
    app.call("GET", "/items/2", response={"id": 2, "title": "other"})
    return app


def patch_plan(bundle):
    return next(p for p in bundle.view.writes if p.method == "PATCH")


def test_a_constant_member_no_read_shows_is_added_to_the_served_answer():
    bundle = build_from(notes_app())
    plan = patch_plan(bundle)
    assert plan.served, plan.reason
    assert plan.response.added == (("computed", {}),)
    runtime = EnvironmentRuntime(bundle)
    try:
        answer = runtime.call_tool("patch_items_by_item_id", {"item_id": "2", "body": {"title": "x"}})
        assert not answer.is_error, answer
        assert answer.structured["body"] == {"id": 2, "title": "x", "computed": {}}
        read = runtime.call_tool("get_items_by_item_id", {"item_id": "2"})
        assert read.structured["body"] == {"id": 2, "title": "x"}
    finally:
        runtime.close()


def test_a_member_answered_with_different_values_is_no_addition():
    plan = patch_plan(build_from(notes_app(second_extra={"score": 1})))
    assert plan.response.added == ()
    assert not plan.served


def test_a_member_one_answer_shows_is_no_addition():
    plan = patch_plan(build_from(notes_app(creates=False, second_patch=False)))
    assert plan.response.added == ()
    assert not plan.served and plan.reason == "incomplete-entities", plan.reason
