"""A 400 an item write recorded for an entity the capture holds refused what the call sent (a
blank required title), not the id (``write-absence.held-id-refusal``): an update of a missing
entity never answers with it, but with the item view's learned absence (regression: a PATCH of an
id that never existed answered PocketBase's "Failed to update record." validation error, where
the application answers 404)."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

A = {"id": "t6cu5l28akg4mky", "title": "a", "views": 1}
B = {"id": "cagzde72kg0rlkj", "title": "b", "views": 2}
NOT_FOUND = {"data": {}, "message": "The requested resource wasn't found.", "status": 404}
BLANK = {"data": {"title": {"code": "validation_required"}}, "message": "Failed to update record.", "status": 400}


def capture() -> HarBuilder:
    return (HarBuilder().call("GET", "/records", response={"items": [A, B]})
            .call("GET", f"/records/{A['id']}", response=A)
            .call("GET", f"/records/{B['id']}", response=B)
            .call("GET", "/records/k3j4h5g6f7d8s9a", status=404, response=NOT_FOUND)
            .call("PATCH", f"/records/{A['id']}", body={"views": 5}, response={**A, "views": 5})
            .call("GET", f"/records/{A['id']}", response={**A, "views": 5})
            .call("PATCH", f"/records/{A['id']}", body={"title": ""}, status=400, response=BLANK))


def test_a_validation_error_of_a_held_entity_is_no_absence_answer():
    bundle = build_from(capture())
    assert bundle.view.write_held_refusals == {"patch_records_by_record_id": (7,)}
    runtime = EnvironmentRuntime(bundle)
    missing = runtime.call_tool("patch_records_by_record_id", {"record_id": "q1w2e3r4t5y6u7i", "body": {"views": 3}})
    assert missing.structured["status"] == 404 and missing.structured["body"] == NOT_FOUND
    assert missing.structured["state"]["view"] == "missing"
