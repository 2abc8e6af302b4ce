"""An update's member the application stores otherwise than sent (seeds: "accepted only with the
value a recorded call sent it with, and then stores the value that call recorded"): its value is
written only by a call sending the member, and only on an entity holding what the recorded call
found there, since the stored value may mix in the held one (Syncthing merges a sent
`versioning` object into the folder's own). A call leaving the member out keeps the field: it was
once overwritten with the recorded value on every update, so a PATCH of one folder's label gave
it another folder's versioning."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, items_app
from write_calls import accepted, entities, refused

A = {"id": "a", "label": "A", "settings": {"mode": "simple", "params": {"keep": "5"}}}
B = {"id": "b", "label": "B", "settings": {"mode": "", "params": {}}}
C = {"id": "c", "label": "C", "settings": {"mode": "simple", "params": {"keep": "5"}}}
SENT = {"mode": "trash", "params": {"days": "30"}}
MERGED = {"mode": "trash", "params": {"days": "30", "keep": "5"}}


@pytest.fixture(scope="module")
def bundle():
    return build_from(items_app([A, B, C])
                      .call("PATCH", "/items/b", body={"label": "B2"}, status=200, response="", response_type="")
                      .call("GET", "/items/b", response={**B, "label": "B2"})
                      .call("PATCH", "/items/a", body={"settings": SENT}, status=200, response="", response_type="")
                      .call("GET", "/items/a", response={**A, "settings": MERGED})
                      .call("PATCH", "/items/b", body={"label": "B3"}, status=200, response="", response_type="")
                      .call("GET", "/items/b", response={**B, "label": "B3"}))


def held(runtime, item_id: str) -> dict:
    return next(e["value"] for e in entities(runtime, "/items") if e["id"] == item_id)


def test_the_update_is_served(bundle):
    plan = next(p for p in bundle.view.writes if p.tool == "patch_items_by_item_id")
    assert plan.served, plan.reason


def test_a_call_leaving_the_member_out_keeps_the_field(bundle):
    from capenv.serving.runtime import EnvironmentRuntime
    runtime = EnvironmentRuntime(bundle)
    # upper case, as every recorded label (sent-values.upper-case refuses another spelling)
    accepted(runtime, "patch_items_by_item_id", {"item_id": "b", "body": {"label": "RENAMED"}})
    assert held(runtime, "b") == {**B, "label": "RENAMED"}


def test_the_recorded_value_is_stored_only_on_an_entity_holding_what_the_recorded_call_found(bundle):
    from capenv.serving.runtime import EnvironmentRuntime
    runtime = EnvironmentRuntime(bundle)
    accepted(runtime, "patch_items_by_item_id", {"item_id": "c", "body": {"settings": SENT}})
    assert held(runtime, "c")["settings"] == MERGED
    message = refused(runtime, "patch_items_by_item_id", {"item_id": "b", "body": {"settings": SENT}})["message"]
    assert "settings" in message and "recorded call found" in message
