"""A document read one segment below a type's collection, beside its items (LoopBack's
``GET /todos/count`` answering ``{"count": 6}``), shows what the collection holds: the state keeps
it as recorded and no plan writes it, so it is answered only while the collection is as the
capture began (``DocumentLine.summarises``). Regression: after a served create the model still
answered the recorded count, one less than the application."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

T1 = {"id": 1, "title": "Buy milk"}
T2 = {"id": 2, "title": "Write report"}
T3 = {"id": 3, "title": "Call home"}


def capture(*, count_after: int | None = None) -> HarBuilder:
    har = (HarBuilder().call("GET", "/tasks", response=[T1, T2])
           .call("GET", "/tasks/count", response={"count": 2})
           .call("GET", "/tasks/1", response=T1)
           .call("POST", "/tasks", body={"title": T3["title"]}, response=T3)
           .call("GET", "/tasks/3", response=T3)
           .call("GET", "/tasks", response=[T1, T2, T3]))
    return har if count_after is None else har.call("GET", "/tasks/count", response={"count": count_after})


def test_the_count_is_refused_once_a_served_write_changed_the_collection():
    bundle = build_from(capture())
    line = bundle.view.view("get_tasks_count").documents[0]
    assert line.summarises == ("tasks",)
    runtime = EnvironmentRuntime(bundle)
    assert runtime.call_tool("get_tasks_count", {}).structured["body"] == {"count": 2}
    created = runtime.call_tool("post_tasks", {"body": {"title": "Walk the dog"}})
    assert not created.is_error, created.structured
    after = runtime.call_tool("get_tasks_count", {})
    assert after.is_error and "not modelled over the current state" in after.structured["message"]


def test_a_document_the_capture_shows_unchanged_across_a_write_is_not_a_summary():
    """The same answer before and after a create (a settings document beside the items)."""
    bundle = build_from(capture(count_after=2))
    assert bundle.view.view("get_tasks_count").documents[0].summarises == ()
