"""A served delete of an entity a member marks as a default or built-in one (``WritePlan.protected``,
the ``delete-protected`` table): applications refuse to delete the entity they fall back on or ship
with, which a delete (the entity alone) would answer with success, so serving refuses exactly that
delete, state unchanged, saying why; deletes of other entities are served as the capture showed. A
capture showing such an entity deleted teaches that the application deletes them.
"""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

CRATES = [{"id": "9f0c2a7e-1b3d-4c5e-8f6a-0b1c2d3e4f50", "name": "default", "size": 3},
         {"id": "2a4b6c8d-0e1f-4a3b-9c5d-7e9f1a3b5c7d", "name": "spare", "size": 1},
         {"id": "5d6e7f80-9a1b-4c2d-8e3f-4a5b6c7d8e9f", "name": "attic", "size": 2}]
RACKS = [{"id": 1, "label": "top", "fixed": {"builtin": True}}, {"id": 2, "label": "low", "fixed": {"builtin": False}},
           {"id": 3, "label": "mid", "fixed": {"builtin": False}}]


def capture(*, delete_default: bool = False) -> HarBuilder:
    """Crates and racks read; one plain crate and one plain rack deleted and read back (or, with
    ``delete_default``, the crate named default)."""
    har = HarBuilder().call("GET", "/crates", response=CRATES)
    for crate in CRATES:
        har.call("GET", f"/crates/{crate['id']}", response=crate)
    har.call("GET", "/racks", response=RACKS)
    for rack in RACKS:
        har.call("GET", f"/racks/{rack['id']}", response=rack)
    gone = CRATES[0] if delete_default else CRATES[2]
    har.call("DELETE", f"/crates/{gone['id']}", status=204)
    har.call("GET", f"/crates/{gone['id']}", status=404, response={"detail": "not found"})
    har.call("GET", "/crates", response=[b for b in CRATES if b is not gone])
    har.call("DELETE", "/racks/3", status=204)
    har.call("GET", "/racks/3", status=404, response={"detail": "not found"})
    har.call("GET", "/racks", response=RACKS[:2])
    return har


def test_a_default_named_or_built_in_entity_is_not_deleted_and_the_others_are(tmp_path) -> None:
    # must not: 204 for the crate named default or the built-in rack, which the application keeps
    bundle = build_from(capture(), tmp_path / "capture.har")
    crates, racks = plan(bundle, "DELETE", "/crates/{crate_id}"), plan(bundle, "DELETE", "/racks/{rack_id}")
    assert crates.served and racks.served, (crates.reason, racks.reason)
    assert [(p.rule_id, p.pointer) for p in crates.protected] == [("protected.default-name", "/name")]
    assert [(p.rule_id, p.pointer, p.value) for p in racks.protected] == [
        ("protected.built-in", "/fixed/builtin", True)]
    runtime = EnvironmentRuntime(bundle)
    before = runtime.data_get()
    refused = runtime.call_tool(crates.tool, {"crate_id": CRATES[0]["id"]})
    assert refused.is_error and "default or built-in" in refused.structured["message"]
    assert "'default'" in refused.structured["message"]
    refused = runtime.call_tool(racks.tool, {"rack_id": "1"})
    assert refused.is_error and "/fixed/builtin" in refused.structured["message"]
    assert runtime.data_get() == before
    assert runtime.read("get_crates_by_crate_id", {"crate_id": CRATES[0]["id"]})["status"] == 200
    assert runtime.read(crates.tool, {"crate_id": CRATES[1]["id"]})["status"] == 204
    assert runtime.read(racks.tool, {"rack_id": "2"})["status"] == 204
    assert runtime.read("get_racks_by_rack_id", {"rack_id": "2"})["status"] == 404


def test_a_capture_deleting_a_default_named_entity_protects_none(tmp_path) -> None:
    bundle = build_from(capture(delete_default=True), tmp_path / "capture.har")
    crates = plan(bundle, "DELETE", "/crates/{crate_id}")
    assert crates.served and crates.protected == ()  # the capture's entities still show the default one
    runtime = EnvironmentRuntime(bundle)
    assert runtime.read(crates.tool, {"crate_id": CRATES[2]["id"]})["status"] == 204


SHELVES = [{"name": "stock", "capacity": 40, "editable": False},
           {"name": "spare", "capacity": 9, "editable": True},
           {"name": "loose", "capacity": 12, "editable": True}]


def test_an_entity_marked_not_editable_is_not_deleted_and_the_others_are(tmp_path) -> None:
    # must not: 200 for the shelf holding editable false, which the application refuses to remove
    # (a built-in strategy type answers 500 'Cannot edit strategy' to its delete)
    har = HarBuilder().call("GET", "/shelves", response=SHELVES)
    for shelf in SHELVES:
        har.call("GET", f"/shelves/{shelf['name']}", response=shelf)
    har.call("DELETE", "/shelves/loose", status=200, response={})
    har.call("GET", "/shelves/loose", status=404, response={"detail": "not found"})
    har.call("GET", "/shelves", response=SHELVES[:2])
    bundle = build_from(har, tmp_path / "capture.har")
    shelves = plan(bundle, "DELETE", "/shelves/{shelve_id}")
    assert shelves.served, shelves.reason
    assert [(p.rule_id, p.pointer, p.value) for p in shelves.protected] == [
        ("protected.not-editable", "/editable", False)]
    runtime = EnvironmentRuntime(bundle)
    before = runtime.data_get()
    refused = runtime.call_tool(shelves.tool, {"shelve_id": "stock"})
    assert refused.is_error and "not editable" in refused.structured["message"]
    assert "/editable" in refused.structured["message"]
    assert runtime.data_get() == before
    served = runtime.call_tool(shelves.tool, {"shelve_id": "spare"})
    assert not served.is_error, served.structured
    assert runtime.read("get_shelves_by_shelve_id", {"shelve_id": "spare"})["status"] == 404
