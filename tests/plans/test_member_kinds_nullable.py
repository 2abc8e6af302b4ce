"""A member the tool's successful calls sent both as null and as text is accepted as text or null
(``member-kind.one-kind-or-null``): one exemplar sending null says nothing of the member's kind.
A member only ever sent as null stays null, and a refused call's null proves nothing."""

from __future__ import annotations

from typing import Any

from support.capture_runs import build_from, items_app
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime


def labels_app(second_note: Any, second_status: int = 201) -> HarBuilder:
    app = items_app([{"id": 1, "title": "t1", "note": None}, {"id": 2, "title": "t2", "note": "x"}])
    first = {"id": 3, "title": "a", "note": None}
    app.call("POST", "/items", body={"title": "a", "note": None}, status=201, response=first)
    app.call("GET", "/items/3", response=first)
    second = {"id": 4, "title": "b", "note": second_note}
    app.call("POST", "/items", body={"title": "b", "note": second_note}, status=second_status,
             response=second if second_status < 400 else {"note": ["not valid"]})
    if second_status < 400:
        app.call("GET", "/items/4", response=second)
    return app


def note_rule(bundle):
    plan = next(p for p in bundle.view.writes if p.method == "POST")
    assert plan.served, plan.reason
    return next(m for m in plan.members if m.member == "note")


def test_a_member_sent_as_null_and_as_text_is_text_or_null_in_plan_catalog_and_serving():
    bundle = build_from(labels_app("ctrl"))
    rule = note_rule(bundle)
    assert (rule.kind, rule.nullable) == ("string", True)
    plan = next(p for p in bundle.view.writes if p.method == "POST")
    assert any(e.rule_id == "member-kind.one-kind-or-null" and e.outcome == "match" for e in plan.traces)
    runtime = EnvironmentRuntime(bundle)
    try:
        tool = next(t for t in runtime.tools() if t.name == "post_items")
        assert tool.input_schema["properties"]["body"]["properties"]["note"]["type"] == ["string", "null"]
        made = runtime.call_tool("post_items", {"body": {"title": "c", "note": "ctrl"}})
        assert not made.is_error and made.structured["body"]["note"] == "ctrl", made
        empty = runtime.call_tool("post_items", {"body": {"title": "d", "note": None}})
        assert not empty.is_error and empty.structured["body"]["note"] is None, empty
        number = runtime.call_tool("post_items", {"body": {"title": "e", "note": 5}})
        assert number.is_error and "must be a JSON string or null, not integer" in str(number.structured), number
    finally:
        runtime.close()


def test_a_member_only_sent_as_null_stays_null():
    rule = note_rule(build_from(labels_app(None)))
    assert (rule.kind, rule.nullable) == ("null", False)


def test_a_refused_call_sending_text_proves_no_text():
    rule = note_rule(build_from(labels_app("ctrl", second_status=400)))
    assert (rule.kind, rule.nullable) == ("null", False)
