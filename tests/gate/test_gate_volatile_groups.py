"""An entity whose members live in object members, groups (ZenML's ``body`` and ``metadata``),
where a listing answers one group null and the item read shows it whole: the view holds that
group volatile (it changes between lines with no write), which leaves it out of what an update's
observation shows. An update sending a member stored inside it is judged where the observation
shows it all the same: the group is kept for that call, as held before by the item read (a
listing's null shows nothing of it), and the type's other entities by theirs; the group rule
writes the member, and the sibling group's clock is stamped by the same rule."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

A, B = "0b9f2a34-1c2d-4e5f-8a9b-0c1d2e3f4a5b", "1b4e28ba-2fa1-41d2-883f-0016d3cca427"


def _widget(key: str, name: str, made: str, updated: str, description: str | None, hydrated: bool) -> dict:
    metadata = {"description": description, "labels": {}} if hydrated else None
    return {"id": key, "name": name, "body": {"created": made, "updated": updated, "display_name": name.title()},
            "metadata": metadata}


def _listing(*widgets: dict) -> dict:
    return {"index": 1, "total": len(widgets), "items": list(widgets)}


def _capture() -> HarBuilder:
    """Two widgets listed (metadata null) and read (hydrated); A's display name and description
    patched, B's description patched, each read back."""
    made_a, made_b = "2026-01-01T00:00:00.100001", "2026-01-01T00:00:00.200001"
    a0 = dict(name="alpha", made=made_a, updated=made_a, description="First")
    b0 = dict(name="beta", made=made_b, updated=made_b, description="Second")
    har = (HarBuilder(start="2026-01-01T00:00:01.000Z", step_ms=400)
           .call("GET", "/api/widgets", response=_listing(_widget(A, **a0, hydrated=False),
                                                          _widget(B, **b0, hydrated=False)))
           .call("GET", f"/api/widgets/{A}", response=_widget(A, **a0, hydrated=True))
           .call("GET", f"/api/widgets/{B}", response=_widget(B, **b0, hydrated=True))
           .call("GET", "/api/widgets", response=_listing(_widget(A, **a0, hydrated=False),
                                                          _widget(B, **b0, hydrated=False))))
    a1 = {**a0, "updated": "2026-01-01T00:00:02.600123", "description": "Changed"}
    har.call("PATCH", f"/api/widgets/{A}", body={"display_name": "Alpha", "description": "Changed"},
             response=_widget(A, **a1, hydrated=True))
    har.call("GET", f"/api/widgets/{A}", response=_widget(A, **a1, hydrated=True))
    har.call("GET", "/api/widgets", response=_listing(_widget(A, **a1, hydrated=False),
                                                      _widget(B, **b0, hydrated=False)))
    b1 = {**b0, "updated": "2026-01-01T00:00:04.200123", "description": "Other"}
    har.call("PATCH", f"/api/widgets/{B}", body={"description": "Other"}, response=_widget(B, **b1, hydrated=True))
    har.call("GET", f"/api/widgets/{B}", response=_widget(B, **b1, hydrated=True))
    return har


def test_an_update_of_a_member_inside_a_group_a_listing_answers_null_is_served():
    bundle = build_from(_capture())
    view = next(v for v in bundle.view.views if v.kind == "item" and v.type is not None)
    assert "metadata" in view.volatile_fields  # the premise: the listing answers it null
    patch = plan(bundle, "PATCH", "/api/widgets/{widget_id}")
    rules = {r.field: (r.rule_id, r.op) for r in patch.fields}
    assert rules["metadata"] == ("change.grouped-members", "grouped-members")
    assert rules["body"] == ("change.grouped-members", "grouped-members")
    assert {m.member: m.admission for m in patch.members} == {"display_name": "accepted", "description": "accepted"}
    assert patch.served, patch.reason


def test_an_entity_only_a_listing_showed_holds_no_group_to_weigh_against():
    """A third widget is only ever listed: its ``metadata`` null is the listing's own projection,
    not what it holds (plans/context.type_entities leaves it out, as view/projected_state leaves
    the state), so it does not make the group rule's other entities disagree."""
    c = "2c5f39cb-3a4b-42e3-994c-1127e4ddb538"
    made_a, made_b, made_c = "2026-01-01T00:00:00.100001", "2026-01-01T00:00:00.200001", "2026-01-01T00:00:00.300001"
    a0 = dict(name="alpha", made=made_a, updated=made_a, description="First")
    b0 = dict(name="beta", made=made_b, updated=made_b, description="Second")
    c0 = dict(name="gamma", made=made_c, updated=made_c, description=None)
    listed = (_widget(A, **a0, hydrated=False), _widget(B, **b0, hydrated=False), _widget(c, **c0, hydrated=False))
    har = (HarBuilder(start="2026-01-01T00:00:01.000Z", step_ms=400)
           .call("GET", "/api/widgets", response=_listing(*listed))
           .call("GET", f"/api/widgets/{A}", response=_widget(A, **a0, hydrated=True))
           .call("GET", f"/api/widgets/{B}", response=_widget(B, **b0, hydrated=True))
           .call("GET", "/api/widgets", response=_listing(*listed)))
    a1 = {**a0, "updated": "2026-01-01T00:00:02.600123", "description": "Changed"}
    har.call("PATCH", f"/api/widgets/{A}", body={"description": "Changed"}, response=_widget(A, **a1, hydrated=True))
    har.call("GET", f"/api/widgets/{A}", response=_widget(A, **a1, hydrated=True))
    patch = plan(build_from(har), "PATCH", "/api/widgets/{widget_id}")
    rules = {r.field: r.rule_id for r in patch.fields}
    assert rules.get("metadata") == "change.grouped-members", [(t.rule_id, t.reason) for t in patch.traces
                                                                if t.subject == "metadata"]


def test_text_stored_inside_a_group_is_judged_as_text_stored_as_sent(tmp_path):
    # must not: a 300-character description answered as stored, where the application may refuse it
    # (ZenML answers 422 string_too_long) or cut it; the recorded calls sent at most 7 characters
    from capenv.serving.runtime import EnvironmentRuntime

    bundle = build_from(_capture(), tmp_path / "capture.har")
    patch = plan(bundle, "PATCH", "/api/widgets/{widget_id}")
    assert {(u.member, u.rule_id) for u in patch.unproven_text} >= {
        ("description", "stored-text.length"), ("display_name", "stored-text.markup")}
    runtime = EnvironmentRuntime(bundle)
    before = runtime.data_get()
    refused = runtime.call_tool(patch.tool, {"widget_id": A, "body": {"description": "x" * 300}})
    assert refused.is_error and "more than 50 characters" in refused.structured["message"]
    assert runtime.data_get() == before
    served = runtime.call_tool(patch.tool, {"widget_id": A, "body": {"description": "Shorter"}})
    assert not served.is_error, served.structured
