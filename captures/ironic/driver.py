#!/usr/bin/env python3
"""Scenario driver for OpenStack Ironic 39.0.0 standalone (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:43071 --mode capture [-v]

Every call sends `X-OpenStack-Ironic-API-Version: 1.115` (the newest microversion 39.0.0 serves) and
no token (auth_strategy = noauth), no cookie. The seed (seed.py, run by start.sh, not recorded) and
its fixed uuids are in seed.py's docstring. Updates are RFC 6902 JSON Patch documents
(`[{"op": "replace", "path": "/name", "value": ...}]`, ops add/replace/remove only); creates answer
201 with the entity, patches 200 with it, deletes 204 with no body; errors
{"error_message": "<a JSON string holding faultcode/faultstring/debuginfo>"}. Nodes, deploy templates
and allocations are addressable by uuid or name. Provision-state changes and allocations are
asynchronous: the scenario waits 3 s (not a call) after each before reading what they did.
Every call is sequential, with a random 50-150 ms sleep before it.
"""
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

NAMESPACE = uuid.UUID("8b1e6f3a-2c47-4d0e-9a51-6e3c7d2b9f14")  # seed.py's
NEVER = "00000000-0000-4000-8000-00000000dead"  # a uuid nothing ever has
HEADERS = {"X-OpenStack-Ironic-API-Version": "1.115"}
ASYNC_WAIT = 3.0


def seeded(kind, name):
    return str(uuid.uuid5(NAMESPACE, f"{kind}:{name}"))


def chosen(name):
    """A client-chosen uuid of the scenario (fixed, so every recording names the same)."""
    return str(uuid.uuid5(NAMESPACE, f"driver:{name}"))


class IronicDriver(Driver):
    """The kit's driver with Ironic's microversion header on every call and no token."""

    def call(self, method, path, body=None, raw=None, params=None, expect=None, token=None, **kwargs):
        headers = {**HEADERS, **(kwargs.pop("headers", None) or {})}
        return super().call(method, path, body=body, raw=raw, params=params, expect=expect,
                            headers=headers, token=None, **kwargs)


def make_driver(base, min_sleep, max_sleep, verbose):
    return IronicDriver(base, min_sleep, max_sleep, verbose)


def replace(path, value):
    return {"op": "replace", "path": path, "value": value}


def add(path, value):
    return {"op": "add", "path": path, "value": value}


def remove(path):
    return {"op": "remove", "path": path}


def capture(d):
    call, check, get = d.call, d.check, d.get
    rack = seeded("chassis", "rack-a")
    node1, node2, node3 = (seeded("node", n) for n in ("node-1", "node-2", "node-3"))
    port11 = seeded("port", "52:54:00:00:01:01")
    raid1 = seeded("template", "CUSTOM_RAID1")

    # ---- a. the roots and reads of the seed before any write
    get("/")
    get("/v1")
    get("/v1/chassis")
    get("/v1/chassis/detail")
    get(f"/v1/chassis/{rack}")
    get(f"/v1/chassis/{rack}/nodes")
    get("/v1/nodes")
    get("/v1/nodes/detail")
    get("/v1/nodes/node-1")
    get(f"/v1/nodes/{node2}")
    get("/v1/nodes/node-3")
    page = get("/v1/nodes", limit=2)
    check("first page", len(page["nodes"]), 2)
    get("/v1/nodes", limit=2, marker=page["nodes"][-1]["uuid"])
    get("/v1/nodes", sort_key="name", sort_dir="desc")
    get("/v1/nodes/detail", sort_key="created_at", sort_dir="asc", limit=2)
    get("/v1/nodes", resource_class="baremetal-small")
    get("/v1/nodes", provision_state="available")
    get("/v1/nodes", chassis_uuid=rack)
    get("/v1/nodes", fields="uuid,name,resource_class")
    get("/v1/nodes/node-1/traits")
    get("/v1/nodes/node-2/traits")
    get("/v1/nodes/node-1/states")
    get("/v1/ports")
    get("/v1/ports/detail")
    get(f"/v1/ports/{port11}")
    get("/v1/ports", address="52:54:00:00:02:01")
    get("/v1/ports", node="node-1")
    get("/v1/ports", limit=1, sort_key="address", sort_dir="desc")
    get("/v1/deploy_templates")
    get("/v1/deploy_templates", detail="true")
    get("/v1/deploy_templates/CUSTOM_RAID1")
    get(f"/v1/deploy_templates/{raid1}")
    get("/v1/allocations")
    get("/v1/drivers")

    # ---- b. chassis: create (server uuid, then a client-chosen one), JSON-patch updates, deletes
    _, ch = call("POST", "/v1/chassis", {"description": "Rack B", "extra": {"row": "2", "power": "a"}},
                 expect=201)
    rack_b = ch["uuid"]
    get(f"/v1/chassis/{rack_b}")
    get("/v1/chassis/detail")
    rack_c = chosen("chassis:rack-c")
    call("POST", "/v1/chassis", {"uuid": rack_c, "description": "Rack C"}, expect=201)
    get(f"/v1/chassis/{rack_c}")
    get("/v1/chassis")
    call("POST", "/v1/chassis", {"uuid": rack_c, "description": "again"}, expect=409)
    call("PATCH", f"/v1/chassis/{rack_b}", [replace("/description", "Rack B (cold aisle)")], expect=200)
    get(f"/v1/chassis/{rack_b}")
    call("PATCH", f"/v1/chassis/{rack_b}", [add("/extra/pdu", "pdu-7")], expect=200)
    get(f"/v1/chassis/{rack_b}")
    call("PATCH", f"/v1/chassis/{rack_b}", [remove("/extra/power")], expect=200)
    get(f"/v1/chassis/{rack_b}")
    call("PATCH", f"/v1/chassis/{rack_b}", [replace("/extra/row", "3"), add("/extra/zone", "z1")], expect=200)
    get(f"/v1/chassis/{rack_b}")
    call("PATCH", f"/v1/chassis/{rack_b}", {"description": "not a patch"}, expect=400)
    call("PATCH", f"/v1/chassis/{rack_b}", [remove("/extra/nothere")], expect=400)
    call("PATCH", f"/v1/chassis/{rack_b}", [replace("/uuid", NEVER)], expect=400)
    call("PATCH", f"/v1/chassis/{NEVER}", [replace("/description", "x")], expect=404)
    get(f"/v1/chassis/{rack_b}")
    call("GET", f"/v1/chassis/{NEVER}", expect=404)
    call("DELETE", f"/v1/chassis/{rack}", expect=400)  # it holds nodes
    call("DELETE", f"/v1/chassis/{rack_c}", expect=204)
    call("GET", f"/v1/chassis/{rack_c}", expect=404)
    call("DELETE", f"/v1/chassis/{rack_c}", expect=404)
    get("/v1/chassis")

    # ---- c. nodes: create, read by uuid and name, JSON-patch updates, conflicts, errors
    _, n4 = call("POST", "/v1/nodes", {"name": "node-4", "driver": "fake-hardware",
                                       "resource_class": "baremetal-large",
                                       "properties": {"cpus": 32, "memory_mb": 131072}}, expect=201)
    node4 = n4["uuid"]
    get(f"/v1/nodes/{node4}")
    get("/v1/nodes/node-4")
    get("/v1/nodes")
    node5 = chosen("node:node-5")
    call("POST", "/v1/nodes", {"uuid": node5, "name": "node-5", "driver": "fake-hardware",
                               "chassis_uuid": rack_b, "description": "edge box",
                               "extra": {"asset": "A-5"}}, expect=201)
    get("/v1/nodes/node-5")
    get(f"/v1/chassis/{rack_b}/nodes")
    get("/v1/nodes/detail", chassis_uuid=rack_b)
    call("POST", "/v1/nodes", {"name": "node-4", "driver": "fake-hardware"}, expect=409)
    call("POST", "/v1/nodes", {"uuid": node5, "driver": "fake-hardware"}, expect=409)
    call("POST", "/v1/nodes", {"name": "bad name!", "driver": "fake-hardware"}, expect=400)
    call("POST", "/v1/nodes", {"name": "node-9", "driver": "no-such-driver"}, expect=400)
    call("POST", "/v1/nodes", {"name": "node-9"}, expect=400)
    call("POST", "/v1/nodes", {"name": "node-9", "driver": "fake-hardware", "chassis_uuid": NEVER},
         expect=400)
    call("PATCH", "/v1/nodes/node-4", [replace("/name", "node-4b")], expect=200)
    get(f"/v1/nodes/{node4}")
    call("GET", "/v1/nodes/node-4", expect=404)
    get("/v1/nodes/node-4b")
    call("PATCH", f"/v1/nodes/{node4}", [add("/extra/rack_unit", 12)], expect=200)
    get("/v1/nodes/node-4b")
    call("PATCH", "/v1/nodes/node-4b", [replace("/properties/cpus", 48), add("/properties/cpu_arch", "aarch64")],
         expect=200)
    get("/v1/nodes/node-4b")
    call("PATCH", "/v1/nodes/node-4b", [add("/description", "big memory"), add("/chassis_uuid", rack_b)],
         expect=200)
    get("/v1/nodes/node-4b")
    get(f"/v1/chassis/{rack_b}/nodes")
    call("PATCH", "/v1/nodes/node-5", [remove("/description"), remove("/extra/asset")], expect=200)
    get("/v1/nodes/node-5")
    call("PATCH", "/v1/nodes/node-5", [replace("/resource_class", "baremetal-small")], expect=200)
    get("/v1/nodes", resource_class="baremetal-small")
    call("PATCH", "/v1/nodes/node-5", [replace("/name", "node-1")], expect=409)
    call("PATCH", "/v1/nodes/node-5", [replace("/uuid", NEVER)], expect=400)
    call("PATCH", "/v1/nodes/node-5", [{"op": "test", "path": "/name", "value": "node-5"}], expect=400)
    call("PATCH", "/v1/nodes/node-5", [{"op": "move", "from": "/name", "path": "/description"}], expect=400)
    call("PATCH", "/v1/nodes/node-5", [remove("/extra/nothere")], expect=400)
    call("PATCH", "/v1/nodes/node-5", {"name": "node-5c"}, expect=400)
    call("PATCH", "/v1/nodes/node-5", raw="[{", expect=500)  # Ironic answers a body that is not JSON with a 500
    call("PATCH", "/v1/nodes/no-such-node", [replace("/name", "x")], expect=404)
    call("GET", "/v1/nodes/no-such-node", expect=404)
    call("GET", f"/v1/nodes/{NEVER}", expect=404)
    get("/v1/nodes/node-5")
    get("/v1/nodes", limit=3, sort_key="name")
    # maintenance (synchronous)
    call("PUT", "/v1/nodes/node-2/maintenance", {"reason": "disk swap"}, expect=202)
    get("/v1/nodes/node-2")
    get("/v1/nodes", maintenance="true")
    call("DELETE", "/v1/nodes/node-2/maintenance", expect=202)
    get("/v1/nodes/node-2")

    # ---- d. node traits
    call("PUT", "/v1/nodes/node-4b/traits/CUSTOM_FAST", expect=204)
    get("/v1/nodes/node-4b/traits")
    call("PUT", "/v1/nodes/node-4b/traits/HW_CPU_X86_AVX2", expect=204)
    get("/v1/nodes/node-4b/traits")
    get("/v1/nodes/node-4b")
    call("PUT", "/v1/nodes/node-4b/traits/CUSTOM_FAST", expect=204)
    get("/v1/nodes/node-4b/traits")
    call("DELETE", "/v1/nodes/node-4b/traits/CUSTOM_FAST", expect=204)
    get("/v1/nodes/node-4b/traits")
    call("DELETE", "/v1/nodes/node-4b/traits/CUSTOM_FAST", expect=404)
    call("PUT", "/v1/nodes/node-4b/traits/lowercase", expect=400)
    call("PUT", "/v1/nodes/node-5/traits", {"traits": ["CUSTOM_A", "CUSTOM_B"]}, expect=204)
    get("/v1/nodes/node-5/traits")
    call("PUT", "/v1/nodes/node-5/traits", {"traits": ["CUSTOM_C"]}, expect=204)
    get("/v1/nodes/node-5/traits")
    call("DELETE", "/v1/nodes/node-5/traits", expect=204)
    get("/v1/nodes/node-5/traits")
    call("PUT", "/v1/nodes/no-such-node/traits/CUSTOM_X", expect=404)
    call("GET", "/v1/nodes/no-such-node/traits", expect=404)

    # ---- e. ports: create on a node, read, list by node, JSON-patch, conflicts, delete
    _, p = call("POST", "/v1/ports", {"address": "52:54:00:00:04:01", "node_uuid": node4,
                                      "extra": {"switch": "sw-1"}}, expect=201)
    port41 = p["uuid"]
    get(f"/v1/ports/{port41}")
    get("/v1/ports", node=node4)
    port42 = chosen("port:52:54:00:00:04:02")
    call("POST", "/v1/ports", {"uuid": port42, "address": "52:54:00:00:04:02", "node_uuid": node4,
                               "pxe_enabled": False, "name": "eth1"}, expect=201)
    get(f"/v1/ports/{port42}")
    get("/v1/ports/eth1")
    get("/v1/ports/detail", node="node-4b")
    call("POST", "/v1/ports", {"address": "52:54:00:00:04:01", "node_uuid": node5}, expect=409)
    call("POST", "/v1/ports", {"address": "not-a-mac", "node_uuid": node5}, expect=400)
    call("POST", "/v1/ports", {"address": "52:54:00:00:09:01", "node_uuid": NEVER}, expect=400)
    call("POST", "/v1/ports", {"address": "52:54:00:00:09:01"}, expect=400)
    call("PATCH", f"/v1/ports/{port41}", [replace("/address", "52:54:00:00:04:0a")], expect=200)
    get(f"/v1/ports/{port41}")
    get("/v1/ports", address="52:54:00:00:04:0a")
    call("PATCH", f"/v1/ports/{port41}", [add("/extra/vlan", 100), replace("/pxe_enabled", False)], expect=200)
    get(f"/v1/ports/{port41}")
    call("PATCH", f"/v1/ports/{port41}", [remove("/extra/switch")], expect=200)
    get(f"/v1/ports/{port41}")
    _, p5 = call("POST", "/v1/ports", {"address": "52:54:00:00:05:01", "node_uuid": node5}, expect=201)
    get(f"/v1/ports/{p5['uuid']}")
    get("/v1/ports", node="node-5")
    call("PATCH", f"/v1/ports/{port41}", [replace("/address", "52:54:00:00:01:01")], expect=409)
    call("PATCH", f"/v1/ports/{port41}", [replace("/address", "zz")], expect=400)
    call("PATCH", f"/v1/ports/{NEVER}", [replace("/pxe_enabled", True)], expect=404)
    call("DELETE", f"/v1/ports/{port42}", expect=204)
    call("GET", f"/v1/ports/{port42}", expect=404)
    call("DELETE", f"/v1/ports/{port42}", expect=404)
    get("/v1/ports")

    # ---- f. deploy templates: create, read by name and uuid, JSON-patch, conflicts, delete
    steps = [{"interface": "bios", "step": "apply_configuration",
              "args": {"settings": [{"name": "LogicalProc", "value": "Enabled"}]}, "priority": 150}]
    _, t = call("POST", "/v1/deploy_templates", {"name": "CUSTOM_HYPERTHREADING_ON", "steps": steps},
                expect=201)
    ht = t["uuid"]
    get(f"/v1/deploy_templates/{ht}")
    get("/v1/deploy_templates/CUSTOM_HYPERTHREADING_ON")
    get("/v1/deploy_templates")
    cpu = chosen("template:CUSTOM_CPU_PERF")
    call("POST", "/v1/deploy_templates", {
        "uuid": cpu, "name": "CUSTOM_CPU_PERF", "extra": {"team": "hpc"},
        "steps": [{"interface": "bios", "step": "apply_configuration",
                   "args": {"settings": [{"name": "Turbo", "value": "On"}]}, "priority": 120}]}, expect=201)
    get(f"/v1/deploy_templates/{cpu}")
    get("/v1/deploy_templates", detail="true")
    call("POST", "/v1/deploy_templates", {"name": "CUSTOM_HYPERTHREADING_ON", "steps": steps}, expect=409)
    call("POST", "/v1/deploy_templates", {"name": "lowercase", "steps": steps}, expect=400)
    call("POST", "/v1/deploy_templates", {"name": "CUSTOM_EMPTY", "steps": []}, expect=400)
    call("PATCH", "/v1/deploy_templates/CUSTOM_HYPERTHREADING_ON",
         [replace("/name", "CUSTOM_HT_ON")], expect=200)
    get(f"/v1/deploy_templates/{ht}")
    call("GET", "/v1/deploy_templates/CUSTOM_HYPERTHREADING_ON", expect=404)
    call("PATCH", "/v1/deploy_templates/CUSTOM_HT_ON", [add("/extra/reviewed", True)], expect=200)
    get("/v1/deploy_templates/CUSTOM_HT_ON")
    call("PATCH", "/v1/deploy_templates/CUSTOM_HT_ON", [replace("/steps/0/priority", 160)], expect=200)
    get("/v1/deploy_templates/CUSTOM_HT_ON")
    call("PATCH", f"/v1/deploy_templates/{cpu}", [remove("/extra/team")], expect=200)
    get(f"/v1/deploy_templates/{cpu}")
    call("PATCH", f"/v1/deploy_templates/{cpu}", [replace("/name", "CUSTOM_RAID1")], expect=409)
    call("PATCH", f"/v1/deploy_templates/{cpu}", [replace("/name", "not_custom")], expect=400)
    call("PATCH", f"/v1/deploy_templates/{cpu}", [replace("/steps", [])], expect=400)
    call("PATCH", "/v1/deploy_templates/CUSTOM_NOPE", [replace("/name", "CUSTOM_X")], expect=404)
    call("DELETE", f"/v1/deploy_templates/{cpu}", expect=204)
    call("GET", f"/v1/deploy_templates/{cpu}", expect=404)
    call("DELETE", "/v1/deploy_templates/CUSTOM_CPU_PERF", expect=404)
    get("/v1/deploy_templates")

    # ---- g. asynchronous: an allocation of node-3 (the one available baremetal-small node)
    _, a = call("POST", "/v1/allocations", {"name": "alloc-1", "resource_class": "baremetal-small"},
                expect=201)
    time.sleep(ASYNC_WAIT)
    alloc = get("/v1/allocations/alloc-1")
    check("allocation state", alloc["state"], "active")
    check("allocated node", alloc["node_uuid"], node3)
    get(f"/v1/allocations/{a['uuid']}")
    get("/v1/allocations")
    get("/v1/nodes/node-3")
    get("/v1/nodes/node-3/allocation")
    call("PATCH", "/v1/allocations/alloc-1", [add("/extra/owner", "ci")], expect=200)
    get("/v1/allocations/alloc-1")
    call("POST", "/v1/allocations", {"name": "alloc-1", "resource_class": "baremetal-small"}, expect=409)
    call("GET", "/v1/allocations/no-such-alloc", expect=404)
    call("DELETE", "/v1/allocations/alloc-1", expect=204)
    call("GET", "/v1/allocations/alloc-1", expect=404)
    get("/v1/nodes/node-3")
    get("/v1/allocations")
    # a provision-state change: node-4b from enroll through verifying to manageable
    call("PUT", "/v1/nodes/node-4b/states/provision", {"target": "manage"}, expect=202)
    time.sleep(ASYNC_WAIT)
    node = get("/v1/nodes/node-4b")
    check("node-4b provision state", node["provision_state"], "manageable")
    get("/v1/nodes", provision_state="manageable")
    call("PUT", "/v1/nodes/node-4b/states/provision", {"target": "deploy"}, expect=400)

    # ---- h. node deletes: the node's ports go with it, a chassis with no node left can go
    call("DELETE", "/v1/nodes/node-5", expect=204)
    call("GET", "/v1/nodes/node-5", expect=404)
    call("GET", f"/v1/ports/{p5['uuid']}", expect=404)
    call("DELETE", "/v1/nodes/node-5", expect=404)
    get(f"/v1/chassis/{rack_b}/nodes")
    call("DELETE", f"/v1/nodes/{node4}", expect=204)
    call("GET", "/v1/nodes/node-4b", expect=404)
    call("GET", f"/v1/ports/{port41}", expect=404)
    get("/v1/ports")
    get("/v1/nodes")
    call("DELETE", f"/v1/chassis/{rack_b}", expect=204)
    call("GET", f"/v1/chassis/{rack_b}", expect=404)
    get("/v1/chassis")
    get("/v1/nodes/detail")


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:43071")
