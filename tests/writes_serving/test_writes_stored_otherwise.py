"""An update's member the application stores otherwise than sent (seeds: "accepted only with the
value a recorded call sent it with, and then stores the value that call recorded"; and under "Not
modelled": "inputs the application transforms") keeps the update unserved (verdict.transformed-input):
the stored value may mix in what the entity held (Syncthing merges a sent `versioning` object into the
folder's own) or resolve a reference whose target then counts it (Nautobot stores a tenant sent as an
id as a stub, and the tenant's prefix_count moves: a live probe showed the model answer 0 where the
application answered 1 when this update was served). Nothing the call sends reaches the state."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, items_app
from write_calls import entities, refused

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


def test_the_update_stays_unserved_for_its_transformed_member(bundle):
    plan = next(p for p in bundle.view.writes if p.tool == "patch_items_by_item_id")
    assert any(m.member == "settings" and m.rule_id == "update-member.transformed" for m in plan.members)
    assert (plan.served, plan.reason) == (False, "transformed-input")


@pytest.mark.parametrize("arguments", [{"item_id": "b", "body": {"label": "RENAMED"}},
                                       {"item_id": "c", "body": {"settings": SENT}}])
def test_a_call_is_refused_and_changes_nothing(bundle, arguments):
    from capenv.serving.runtime import EnvironmentRuntime
    runtime = EnvironmentRuntime(bundle)
    before = runtime.data_get()
    refused(runtime, "patch_items_by_item_id", arguments)
    assert runtime.data_get() == before
    assert held(runtime, arguments["item_id"]) == {"b": B, "c": C}[arguments["item_id"]]
