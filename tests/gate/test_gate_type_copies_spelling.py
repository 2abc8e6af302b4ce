"""Two APIs of one application over one store: a compatibility API keys the same entities by name
and spells their members in another letter case (``Name``, ``Driver``), or shows a clock in whole
seconds where the native API shows nanoseconds. The native API's reads hold copies of every entity
the compatibility API writes (type-copies ``copies.other-spelling``; ``copies.projection`` with a
clock at a coarser precision), so a delete through one API is not served: served, it would leave
the other answering the removed entity. The same delete with no second API in the capture is
served."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

NATIVE = {
    "edge": {"name": "edge", "id": "4e1f9c", "driver": "bridge", "internal": False, "labels": {"zone": "a"},
             "created": "2026-12-04T16:29:46.562209355Z", "interface": "br1"},
    "core": {"name": "core", "id": "77aa01", "driver": "bridge", "internal": True, "labels": {},
             "created": "2026-12-04T16:29:47.118000432Z", "interface": "br2"},
    "dmz": {"name": "dmz", "id": "90bc3d", "driver": "macvlan", "internal": False, "labels": {"zone": "b"},
            "created": "2026-12-04T16:29:48.20011Z", "interface": "br3"},
}


def compat(name: str) -> dict:
    native = NATIVE[name]
    return {"Name": name, "Id": native["id"], "Driver": native["driver"], "Internal": native["internal"],
            "Labels": native["labels"], "Created": native["created"], "Scope": "local"}


def disk(name: str, fraction: bool) -> dict:
    created = "2026-12-04T16:29:46.562209355Z" if fraction else "2026-12-04T16:29:46Z"
    return {"Name": name, "Driver": "local", "Mountpoint": f"/m/{name}/_data", "Labels": {"team": name},
            "Scope": "local", "CreatedAt": created}


def networks(native_api: bool) -> HarBuilder:
    har = HarBuilder().call("GET", "/compat/networks", response=[compat(n) for n in NATIVE])
    if native_api:
        har = har.call("GET", "/native/networks/json", response=list(NATIVE.values()))
    for name in NATIVE:
        har = har.call("GET", f"/compat/networks/{name}", response=compat(name))
    left = list(NATIVE)
    for name in ("core", "dmz"):
        left.remove(name)
        har = (har.call("DELETE", f"/compat/networks/{name}", status=204, response=None)
               .call("GET", f"/compat/networks/{name}", status=404, response={"message": "network not found"})
               .call("GET", "/compat/networks", response=[compat(n) for n in left]))
    return har


def volumes(native_api: bool) -> HarBuilder:
    names = ("logs", "cache", "media")
    har = HarBuilder().call("GET", "/compat/volumes", response=[disk(n, False) for n in names])
    if native_api:  # the native API: nanosecond clocks and members of its own
        har = har.call("GET", "/native/volumes/json", response=[{**disk(n, True), "MountCount": 0} for n in names])
    for name in names:
        har = har.call("GET", f"/compat/volumes/{name}", response=disk(name, False))
    left = list(names)
    for name in ("cache", "media"):
        left.remove(name)
        har = (har.call("DELETE", f"/compat/volumes/{name}", status=204, response=None)
               .call("GET", f"/compat/volumes/{name}", status=404, response={"message": "no such volume"})
               .call("GET", "/compat/volumes", response=[disk(n, False) for n in left]))
    return har


def test_a_delete_whose_entities_another_api_spells_otherwise_is_not_served():
    delete = plan(build_from(networks(native_api=True)), "DELETE", "/compat/networks/{network_id}")
    assert not delete.served
    assert "copies.other-spelling" in {e.rule_id for e in delete.traces if e.outcome == "match"}, delete.reason


def test_a_delete_whose_entities_another_api_shows_with_finer_clocks_is_not_served():
    delete = plan(build_from(volumes(native_api=True)), "DELETE", "/compat/volumes/{volume_id}")
    assert not delete.served
    assert "copies.projection" in {e.rule_id for e in delete.traces if e.outcome == "match"}, delete.reason


def test_the_same_deletes_with_one_api_are_served():
    assert plan(build_from(networks(native_api=False)), "DELETE", "/compat/networks/{network_id}").served
    assert plan(build_from(volumes(native_api=False)), "DELETE", "/compat/volumes/{volume_id}").served
