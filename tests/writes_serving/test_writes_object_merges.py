"""A served update of an object member (``WritePlan.object_merges``, the ``update-object-merges``
table): an update stores the object sent whole, while applications often merge it into the held one
(Medusa keeps the ``metadata`` keys a call leaves out and drops one sent as ""), so serving refuses
an object leaving out a key the entity holds there, or holding an empty text or null, unless a
recorded call shows the application storing such an object whole; other objects are served.
"""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

SHELVES = [{"id": 1, "label": "north", "meta": None},
           {"id": 2, "label": "south", "meta": {"zone": "b"}},
           {"id": 3, "label": "east", "meta": None}]


def capture(*, replaced: bool = False, emptied: bool = False) -> HarBuilder:
    """Shelves read; shelf 1's meta patched (from null) and read back; with ``replaced``, shelf 2's
    patched leaving out its zone, which the answer drops; with ``emptied``, shelf 3's patched with an
    empty text the answer stores."""
    har = HarBuilder().call("GET", "/shelves", response=SHELVES)
    for shelf in SHELVES:
        har.call("GET", f"/shelves/{shelf['id']}", response=shelf)
    held = {shelf["id"]: dict(shelf) for shelf in SHELVES}
    patches = [(1, {"aisle": "four"})]
    if replaced:
        patches.append((2, {"aisle": "seven"}))
    if emptied:
        patches.append((3, {"aisle": ""}))
    for shelve_id, meta in patches:
        held[shelve_id]["meta"] = meta
        har.call("PATCH", f"/shelves/{shelve_id}", body={"meta": meta}, response=held[shelve_id])
        har.call("GET", f"/shelves/{shelve_id}", response=held[shelve_id])
    return har


def test_an_object_leaving_out_a_held_key_or_sending_an_empty_value_is_refused(tmp_path) -> None:
    # must not: south's meta answered as {"aisle": "nine"} where the application kept zone (a merge)
    bundle = build_from(capture(), tmp_path / "capture.har")
    shelves = plan(bundle, "PATCH", "/shelves/{shelve_id}")
    assert shelves.served, shelves.reason
    assert sorted((m.rule_id, m.member) for m in shelves.object_merges) == [
        ("object-merges.emptied-keys", "meta"), ("object-merges.held-keys", "meta")]
    runtime = EnvironmentRuntime(bundle)
    before = runtime.data_get()
    refused = runtime.call_tool(shelves.tool, {"shelve_id": "2", "body": {"meta": {"aisle": "nine"}}})
    assert refused.is_error and "leaves out meta/zone" in refused.structured["message"]
    emptied = runtime.call_tool(shelves.tool, {"shelve_id": "1", "body": {"meta": {"note": ""}}})
    assert emptied.is_error and "empty text or null" in emptied.structured["message"]
    nulled = runtime.call_tool(shelves.tool, {"shelve_id": "1", "body": {"meta": {"deep": {"x": None}}}})
    assert nulled.is_error
    assert runtime.data_get() == before
    kept = runtime.call_tool(shelves.tool, {"shelve_id": "2", "body": {"meta": {"zone": "c", "aisle": "nine"}}})
    assert not kept.is_error, kept.structured
    assert runtime.read("get_shelves_by_shelve_id", {"shelve_id": "2"})["body"]["meta"] == {"zone": "c", "aisle": "nine"}
    fresh = runtime.call_tool(shelves.tool, {"shelve_id": "3", "body": {"meta": {"aisle": "one"}}})
    assert not fresh.is_error, fresh.structured


def test_a_capture_showing_objects_stored_whole_refuses_none(tmp_path) -> None:
    bundle = build_from(capture(replaced=True, emptied=True), tmp_path / "capture.har")
    shelves = plan(bundle, "PATCH", "/shelves/{shelve_id}")
    assert shelves.served, shelves.reason
    assert shelves.object_merges == ()
    runtime = EnvironmentRuntime(bundle)
    served = runtime.call_tool(shelves.tool, {"shelve_id": "2", "body": {"meta": {"aisle": ""}}})
    assert not served.is_error, served.structured
    assert runtime.read("get_shelves_by_shelve_id", {"shelve_id": "2"})["body"]["meta"] == {"aisle": ""}
