"""Every note the gate keeps about a plan's calls reaches the plan's traces as a ``gate`` event
naming its record and kind, and the verdict's evidence quotes the same text: a contradiction,
a side effect, and a call the plan does not explain (the standard: every decision carries its
explanation trace)."""

from __future__ import annotations

from support.capture_runs import build_from, items_app, plan, verdict_evidence

C = {"id": 3, "title": "c"}
LISTED = [{"id": 1, "title": "t1"}, {"id": 2, "title": "t2"}]


def _gate_events(write):
    return [e for e in write.traces if e.table == "gate" and "kind" in e.evidence]


def test_a_contradiction_is_a_gate_event_and_the_verdicts_evidence():
    stored = {"id": 3, "title": "C"}
    bundle = build_from(items_app()
                        .call("POST", "/items", body={"title": "c"}, status=201, response=C)   # 4
                        .call("GET", "/items/3", response=stored))                             # 5
    create = plan(bundle, "POST", "/items")
    events = _gate_events(create)
    assert [(e.evidence["record"], e.evidence["kind"]) for e in events] == [(5, "contradiction")]
    assert events[0].reason.startswith("record 5: ") and events[0].location.endswith("read_check.py:check_read")
    assert verdict_evidence(create)["difference"] == events[0].reason


def test_a_side_effect_is_a_gate_event_of_its_own_kind():
    bundle = build_from(items_app()
                        .call("POST", "/items", body={"title": "c"}, status=201, response=C)       # 4
                        .call("GET", "/items/3", response=C)                                       # 5
                        .call("GET", "/items/1", response={"id": 1, "title": "t1 (+1 sibling)"}))  # 6
    create = plan(bundle, "POST", "/items")
    events = _gate_events(create)
    assert [(e.evidence["record"], e.evidence["kind"]) for e in events] == [(6, "side-effect")]
    assert verdict_evidence(create)["difference"] == events[0].reason


def test_a_served_plan_whose_calls_were_all_checked_has_no_gate_note():
    bundle = build_from(items_app()
                        .call("POST", "/items", body={"title": "c"}, status=201, response=C)   # 4
                        .call("GET", "/items/3", response=C))                                  # 5
    create = plan(bundle, "POST", "/items")
    assert create.served and _gate_events(create) == []


def test_a_call_the_plan_does_not_explain_carries_servings_refusal_in_its_event():
    bundle = build_from(items_app()
                        .call("PATCH", "/items/1", body={"title": "a"}, response={"id": 1, "title": "a"})   # 4
                        .call("PATCH", "/items/3", body={"title": "b"}, response={"id": 3, "title": "b"}))  # 5
    update = plan(bundle, "PATCH", "/items/{item_id}")
    events = [e for e in _gate_events(update) if e.evidence["record"] == 5]
    assert [e.evidence["kind"] for e in events] == ["call"]
    assert "refusal" in events[0].evidence and events[0].reason in verdict_evidence(update)["calls"]
