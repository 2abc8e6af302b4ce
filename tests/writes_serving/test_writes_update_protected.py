"""A served update of an entity a member marks as not editable (``WritePlan.protected``, the
``update-protected`` table): applications refuse to change an entity they ship as read-only
(``editable: false``, ``builtin: true``), which an update (the entity alone) would answer with
success, so serving refuses exactly that update, state unchanged, saying why; updates of other
entities are served as the capture showed. A capture showing such an entity updated teaches that
the application updates them.
"""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

LAMPS = [{"id": 1, "label": "porch", "watts": 40, "editable": False},
         {"id": 2, "label": "desk", "watts": 9, "editable": True},
         {"id": 3, "label": "hall", "watts": 12, "editable": True}]


def capture(*, edit_locked: bool = False) -> HarBuilder:
    """Lamps read; two lamps patched and read back (with ``edit_locked``, the first is the one
    holding editable false)."""
    har = HarBuilder().call("GET", "/lamps", response=LAMPS)
    for lamp in LAMPS:
        har.call("GET", f"/lamps/{lamp['id']}", response=lamp)
    held = {lamp["id"]: dict(lamp) for lamp in LAMPS}
    for lamp_id, watts in ((1 if edit_locked else 3, 60), (2, 11)):
        held[lamp_id]["watts"] = watts
        har.call("PATCH", f"/lamps/{lamp_id}", body={"watts": watts}, response=held[lamp_id])
        har.call("GET", f"/lamps/{lamp_id}", response=held[lamp_id])
    har.call("GET", "/lamps", response=list(held.values()))
    return har


def test_an_entity_marked_not_editable_is_not_updated_and_the_others_are(tmp_path) -> None:
    # must not: 200 for the lamp holding editable false, which the application refuses to change
    bundle = build_from(capture(), tmp_path / "capture.har")
    lamps = plan(bundle, "PATCH", "/lamps/{lamp_id}")
    assert lamps.served, lamps.reason
    assert [(p.rule_id, p.pointer, p.value) for p in lamps.protected] == [
        ("update-protected.not-editable", "/editable", False)]
    runtime = EnvironmentRuntime(bundle)
    before = runtime.data_get()
    refused = runtime.call_tool(lamps.tool, {"lamp_id": "1", "body": {"watts": 25}})
    assert refused.is_error and "not editable" in refused.structured["message"]
    assert "/editable" in refused.structured["message"]
    assert runtime.data_get() == before
    served = runtime.call_tool(lamps.tool, {"lamp_id": "3", "body": {"watts": 14}})
    assert not served.is_error, served.structured
    assert runtime.read("get_lamps_by_lamp_id", {"lamp_id": "3"})["body"]["watts"] == 14
    assert runtime.read("get_lamps_by_lamp_id", {"lamp_id": "1"})["body"]["watts"] == 40


def test_a_capture_updating_a_not_editable_entity_protects_none(tmp_path) -> None:
    bundle = build_from(capture(edit_locked=True), tmp_path / "capture.har")
    lamps = plan(bundle, "PATCH", "/lamps/{lamp_id}")
    assert lamps.served and lamps.protected == ()
