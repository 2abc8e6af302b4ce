"""An update of members its type's create was refused for together (``verdict.refused-create-values``,
reason ``conditional-update``): a create sending a successful create's members and kinds, with two of
the update's members in values no success sent, was refused (doccano's overlapping spans), so the
application judges those values in a way serving would not check on an update either."""

from __future__ import annotations

from support.capture_runs import build_from, plan, summary
from support.har_builder import HarBuilder

S1 = {"id": 1, "label": 1, "start": 0, "end": 4}
S2 = {"id": 2, "label": 1, "start": 10, "end": 14}


def _spans_app(refused_body: dict) -> HarBuilder:
    new = {"id": 3, "label": 2, "start": 20, "end": 24}
    moved = {"id": 3, "label": 2, "start": 21, "end": 25}
    return (HarBuilder()
            .call("GET", "/spans", response=[S1, S2])
            .call("GET", "/spans/1", response=S1)
            .call("GET", "/spans/2", response=S2)
            .call("POST", "/spans", body={"label": 2, "start": 20, "end": 24}, status=201, response=new)
            .call("GET", "/spans/3", response=new)
            .call("POST", "/spans", body=refused_body, status=400, response={"detail": "not allowed"})
            .call("PATCH", "/spans/3", body={"start": 21, "end": 25}, response=moved)
            .call("GET", "/spans/3", response=moved)
            .call("GET", "/spans", response=[S1, S2, moved]))


def test_an_update_of_members_a_create_was_refused_for_together_is_not_served():
    bundle = build_from(_spans_app({"label": 2, "start": 2, "end": 6}))
    update = plan(bundle, "PATCH", "/spans/{span_id}")
    assert (update.served, update.reason) == (False, "conditional-update"), summary(bundle)


def test_a_refusal_for_a_missing_member_leaves_the_update_served():
    bundle = build_from(_spans_app({"start": 2, "end": 6}))
    update = plan(bundle, "PATCH", "/spans/{span_id}")
    assert update.served, summary(bundle)


def test_a_refusal_changing_one_of_the_updates_members_leaves_it_served():
    """start 20 was sent by a success: only end is new, a value write-validated-values judges alone."""
    bundle = build_from(_spans_app({"label": 2, "start": 20, "end": 6}))
    update = plan(bundle, "PATCH", "/spans/{span_id}")
    assert update.served, summary(bundle)


def test_a_conflict_is_a_value_taken_and_leaves_the_update_served():
    builder = _spans_app({"label": 2, "start": 2, "end": 6})
    conflict = build_from(_with_status(builder, 409))
    assert plan(conflict, "PATCH", "/spans/{span_id}").served, summary(conflict)


def _with_status(builder: HarBuilder, status: int) -> HarBuilder:
    """The builder with its refused create (record 6) answered ``status`` instead of 400."""
    for entry in builder.entries:
        if entry["response"]["status"] == 400:
            entry["response"]["status"] = status
    return builder


def _wrapped_spans_app(refused_body: dict) -> HarBuilder:
    """``_spans_app`` in the root-key convention: every entity answered, and every body sent, as the
    one element of an array under ``spans``."""
    new = {"id": 3, "label": 2, "start": 20, "end": 24}
    moved = {"id": 3, "label": 2, "start": 21, "end": 25}
    return (HarBuilder()
            .call("GET", "/spans", response={"spans": [S1, S2]})
            .call("GET", "/spans/1", response={"spans": [S1]})
            .call("GET", "/spans/2", response={"spans": [S2]})
            .call("POST", "/spans", body={"spans": [{"label": 2, "start": 20, "end": 24}]}, status=201,
                  response={"spans": [new]})
            .call("GET", "/spans/3", response={"spans": [new]})
            .call("POST", "/spans", body={"spans": [refused_body]}, status=400, response={"detail": "not allowed"})
            .call("PATCH", "/spans/3", body={"spans": [{"start": 21, "end": 25}]}, response={"spans": [moved]})
            .call("GET", "/spans/3", response={"spans": [moved]})
            .call("GET", "/spans", response={"spans": [S1, S2, moved]}))


def test_a_refused_create_is_read_inside_the_bodies_envelope():
    """The refused create's body is read as the create's members read it, inside its envelope
    ({"spans": [{…}]}): read whole it shared no member with a success, and the update was served."""
    bundle = build_from(_wrapped_spans_app({"label": 2, "start": 2, "end": 6}))
    assert plan(bundle, "POST", "/spans").body_envelope == "spans", summary(bundle)
    update = plan(bundle, "PATCH", "/spans/{span_id}")
    assert (update.served, update.reason) == (False, "conditional-update"), summary(bundle)
    assert plan(build_from(_wrapped_spans_app({"start": 2, "end": 6})), "PATCH", "/spans/{span_id}").served
