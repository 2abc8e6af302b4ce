#!/usr/bin/env python3
"""Scenario driver for OpenStack Placement 16.0.0 (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:43001 --mode capture [-v]

Every call sends `X-Auth-Token: admin` (auth_strategy = noauth2: user admin, role admin) and
`OpenStack-API-Version: placement 1.39` (the newest microversion 16.0.0 serves), no cookie. The seed
(seed.py, run by start.sh, not recorded) and its fixed uuids are in seed.py's docstring. Providers,
inventories, traits and aggregates of a provider carry the provider's `generation`
(`resource_provider_generation` in the sub-resource documents), which every write to them must
send and which each write moves on (409 `placement.concurrent_update` when stale); allocations carry
a `consumer_generation`. Creates of providers answer 200 with the provider, sub-resource PUTs 200
with the document, class/trait PUTs 201 (new) or 204 (there), allocation PUT/POST and deletes 204
with no body; errors {"errors": [{"status", "title", "detail", "code", "request_id"}]}.
Every call is sequential, with a random 50-150 ms sleep before it.
"""
import sys
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

NAMESPACE = uuid.UUID("3f6c2a8e-51d4-4a8b-9c39-7b1e2d0f6a55")  # seed.py's
NEVER = "00000000-0000-4000-8000-00000000dead"  # a uuid no provider or consumer ever has
HEADERS = {"X-Auth-Token": "admin", "OpenStack-API-Version": "placement 1.39"}


def seeded(kind, name):
    return str(uuid.uuid5(NAMESPACE, f"{kind}:{name}"))


def chosen(name):
    """A client-chosen uuid of the scenario (fixed, so every recording names the same)."""
    return str(uuid.uuid5(NAMESPACE, f"driver:{name}"))


class PlacementDriver(Driver):
    """The kit's driver with Placement's token and microversion headers on every call."""

    def call(self, method, path, body=None, raw=None, params=None, expect=None, token=None, **kwargs):
        headers = {**HEADERS, **(kwargs.pop("headers", None) or {})}
        return super().call(method, path, body=body, raw=raw, params=params, expect=expect,
                            headers=headers, token=None, **kwargs)


def make_driver(base, min_sleep, max_sleep, verbose):
    return PlacementDriver(base, min_sleep, max_sleep, verbose)


def capture(d):
    call, check, get = d.call, d.check, d.get
    cn1, numa0, cn2, storage = (seeded("provider", n) for n in
                                ("compute-1", "compute-1_numa0", "compute-2", "shared-storage"))
    rack1 = seeded("aggregate", "rack-1")
    seed_vm = seeded("consumer", "seed-vm")
    demo, alice = seeded("project", "demo"), seeded("user", "alice")
    ops, bob = seeded("project", "ops"), seeded("user", "bob")

    def generation(provider):
        return get(f"/resource_providers/{provider}")["generation"]

    # ---- a. the root, reads of the seed before any write
    get("/")
    get("/resource_providers")
    for provider in (cn1, numa0, cn2, storage):
        get(f"/resource_providers/{provider}")
    for sub in ("inventories", "traits", "aggregates", "usages", "allocations"):
        get(f"/resource_providers/{cn1}/{sub}")
    for provider in (numa0, cn2, storage):
        for sub in ("inventories", "traits", "aggregates", "usages"):
            get(f"/resource_providers/{provider}/{sub}")
    get(f"/resource_providers/{cn1}/inventories/VCPU")
    get(f"/resource_providers/{cn1}/inventories/MEMORY_MB")
    get("/resource_classes")
    get("/resource_classes/CUSTOM_FPGA")
    get("/resource_classes/VCPU")
    get("/traits", name="startswith:CUSTOM_")
    call("GET", "/traits/CUSTOM_GOLD", expect=204)
    get("/traits", associated="true")
    get(f"/allocations/{seed_vm}")
    get("/usages", project_id=demo)
    get("/usages", project_id=demo, user_id=alice)

    # ---- b. filtered lists
    get("/resource_providers", name="compute-2")
    get("/resource_providers", uuid=storage)
    get("/resource_providers", member_of=rack1)
    get("/resource_providers", member_of=f"in:{rack1},{NEVER}")
    get("/resource_providers", resources="VCPU:4")
    get("/resource_providers", resources="DISK_GB:1000")
    get("/resource_providers", resources="VCPU:12,MEMORY_MB:2048")
    get("/resource_providers", in_tree=numa0)
    get("/resource_providers", required="CUSTOM_GOLD")
    get("/resource_providers", required="!CUSTOM_GOLD")
    get("/allocation_candidates", resources="VCPU:2,MEMORY_MB:1024", limit="5")

    # ---- c. absences and bad requests
    get(f"/resource_providers/{NEVER}", expect=404)
    get("/resource_providers/not-a-uuid", expect=404)
    get(f"/resource_providers/{NEVER}/inventories", expect=404)
    get(f"/resource_providers/{cn2}/inventories/CUSTOM_FPGA", expect=404)
    get(f"/resource_providers/{NEVER}/traits", expect=404)
    get("/resource_classes/CUSTOM_NOTHING", expect=404)
    call("GET", "/traits/CUSTOM_NOTHING", expect=404)
    get(f"/allocations/{NEVER}")  # a consumer nobody allocated for: an empty document, not 404
    get("/resource_providers", uuid="not-a-uuid", expect=400)
    get("/resource_providers", resources="VCPU", expect=400)
    get("/resource_providers", member_of="not-a-uuid", expect=400)
    get("/usages", expect=400)
    call("POST", "/resource_providers", {"uuid": chosen("nameless")}, expect=400)
    call("POST", "/resource_providers", {"name": "compute-2"}, expect=409)
    call("POST", "/resource_providers", {"name": "dup-uuid", "uuid": cn2}, expect=409)
    call("POST", "/resource_providers", {"name": "bad-uuid", "uuid": "not-a-uuid"}, expect=400)
    call("POST", "/resource_providers", {"name": "orphan", "parent_provider_uuid": NEVER}, expect=400)
    call("POST", "/resource_providers", {"name": "x" * 201}, expect=400)
    call("POST", "/resource_providers", raw="{not json", expect=400)

    # ---- d. providers: create with a server uuid and a client uuid, nested, read back
    created = call("POST", "/resource_providers", {"name": "compute-3"}, expect=200)[1]
    cn3 = created["uuid"] if isinstance(created, dict) else NEVER
    get(f"/resource_providers/{cn3}")
    cn4 = chosen("compute-4")
    call("POST", "/resource_providers", {"name": "compute-4", "uuid": cn4}, expect=200)
    get(f"/resource_providers/{cn4}")
    gpu = chosen("compute-4_gpu0")
    call("POST", "/resource_providers", {"name": "compute-4_gpu0", "uuid": gpu, "parent_provider_uuid": cn4},
         expect=200)
    got = get(f"/resource_providers/{gpu}")
    check("the child's root", got.get("root_provider_uuid"), cn4)
    nic = chosen("compute-4_nic0")
    call("POST", "/resource_providers", {"name": "compute-4_nic0", "uuid": nic, "parent_provider_uuid": gpu},
         expect=200)
    got = get(f"/resource_providers/{nic}")
    check("the grandchild's root", got.get("root_provider_uuid"), cn4)
    get("/resource_providers", in_tree=cn4)
    get("/resource_providers")
    get(f"/resource_providers/{cn4}/inventories")
    get(f"/resource_providers/{cn4}/traits")
    get(f"/resource_providers/{cn4}/aggregates")

    # ---- e. provider updates: rename, reparent, conflicts
    call("PUT", f"/resource_providers/{cn3}", {"name": "compute-3-renamed"}, expect=200)
    get(f"/resource_providers/{cn3}")
    get("/resource_providers", name="compute-3-renamed")
    get("/resource_providers", name="compute-3")
    call("PUT", f"/resource_providers/{cn3}", {"name": "compute-2"}, expect=409)
    call("PUT", f"/resource_providers/{cn3}", {"name": "compute-3-renamed", "parent_provider_uuid": cn4},
         expect=200)
    got = get(f"/resource_providers/{cn3}")
    check("the reparented root", got.get("root_provider_uuid"), cn4)
    get("/resource_providers", in_tree=cn4)
    call("PUT", f"/resource_providers/{cn3}", {"name": "compute-3b"}, expect=200)  # the parent stays
    got = get(f"/resource_providers/{cn3}")
    check("the kept parent", got.get("parent_provider_uuid"), cn4)
    call("PUT", f"/resource_providers/{cn3}", {"name": "compute-3b", "parent_provider_uuid": None},
         expect=200)  # un-parented (1.37+)
    got = get(f"/resource_providers/{cn3}")
    check("the un-parented root", got.get("root_provider_uuid"), cn3)
    call("PUT", f"/resource_providers/{cn3}", {"generation": 0}, expect=400)
    call("PUT", f"/resource_providers/{NEVER}", {"name": "ghost"}, expect=404)
    call("PUT", f"/resource_providers/{cn4}", {"name": "compute-4", "parent_provider_uuid": gpu}, expect=400)

    # ---- f. inventories: whole document, one class, generations
    g = generation(cn4)
    answer = call("PUT", f"/resource_providers/{cn4}/inventories", {
        "resource_provider_generation": g,
        "inventories": {"VCPU": {"total": 32, "allocation_ratio": 2.0},
                        "MEMORY_MB": {"total": 65536, "reserved": 1024, "max_unit": 32768},
                        "DISK_GB": {"total": 1000, "reserved": 50}}}, expect=200)[1]
    get(f"/resource_providers/{cn4}/inventories")
    get(f"/resource_providers/{cn4}")
    call("PUT", f"/resource_providers/{cn4}/inventories", {
        "resource_provider_generation": g, "inventories": {"VCPU": {"total": 8}}}, expect=409)
    g = answer.get("resource_provider_generation", g + 1) if isinstance(answer, dict) else g + 1
    call("PUT", f"/resource_providers/{cn4}/inventories/VCPU", {
        "resource_provider_generation": g, "total": 48, "allocation_ratio": 1.5, "reserved": 2}, expect=200)
    get(f"/resource_providers/{cn4}/inventories/VCPU")
    get(f"/resource_providers/{cn4}/inventories")
    call("PUT", f"/resource_providers/{cn4}/inventories/VCPU", {
        "resource_provider_generation": g, "total": 4}, expect=409)
    call("PUT", f"/resource_providers/{cn4}/inventories/VCPU", {
        "resource_provider_generation": g + 1, "total": 0}, expect=400)
    call("PUT", f"/resource_providers/{cn4}/inventories/VCPU", {"total": 4}, expect=400)
    call("PUT", f"/resource_providers/{cn4}/inventories/CUSTOM_NOTHING", {
        "resource_provider_generation": g + 1, "total": 4}, expect=404)
    call("POST", f"/resource_providers/{cn4}/inventories", {
        "resource_provider_generation": g + 1, "resource_class": "DISK_GB", "total": 10}, expect=409)
    call("POST", f"/resource_providers/{gpu}/inventories", {
        "resource_provider_generation": generation(gpu), "resource_class": "VGPU", "total": 4, "max_unit": 2},
         expect=201)
    get(f"/resource_providers/{gpu}/inventories")
    get(f"/resource_providers/{gpu}/inventories/VGPU")
    call("DELETE", f"/resource_providers/{cn4}/inventories/DISK_GB", expect=204)
    get(f"/resource_providers/{cn4}/inventories")
    get(f"/resource_providers/{cn4}/inventories/DISK_GB", expect=404)
    call("DELETE", f"/resource_providers/{cn4}/inventories/DISK_GB", expect=404)
    call("PUT", f"/resource_providers/{cn3}/inventories", {
        "resource_provider_generation": generation(cn3),
        "inventories": {"VCPU": {"total": 4}, "MEMORY_MB": {"total": 8192}}}, expect=200)
    get(f"/resource_providers/{cn3}/inventories")
    call("DELETE", f"/resource_providers/{cn3}/inventories", expect=204)
    get(f"/resource_providers/{cn3}/inventories")
    get(f"/resource_providers/{cn3}")
    call("PUT", f"/resource_providers/{cn3}/inventories", {
        "resource_provider_generation": generation(cn3), "inventories": {"VCPU": {"total": "many"}}}, expect=400)
    call("PUT", f"/resource_providers/{cn3}/inventories", {"inventories": {}}, expect=400)
    get("/resource_providers", resources="VCPU:40")

    # ---- g. custom resource classes
    call("PUT", "/resource_classes/CUSTOM_BAREMETAL_GOLD", expect=201)
    get("/resource_classes/CUSTOM_BAREMETAL_GOLD")
    call("PUT", "/resource_classes/CUSTOM_BAREMETAL_GOLD", expect=204)
    call("POST", "/resource_classes", {"name": "CUSTOM_LICENSE"}, expect=201)
    get("/resource_classes/CUSTOM_LICENSE")
    call("POST", "/resource_classes", {"name": "CUSTOM_LICENSE"}, expect=409)
    call("POST", "/resource_classes", {"name": "LICENSE"}, expect=400)
    call("PUT", "/resource_classes/BAREMETAL", expect=400)
    call("PUT", "/resource_classes/VCPU", expect=400)
    get("/resource_classes")
    call("PUT", f"/resource_providers/{cn3}/inventories/CUSTOM_LICENSE", {
        "resource_provider_generation": generation(cn3), "total": 100}, expect=400)  # PUT only updates one
    call("POST", f"/resource_providers/{cn3}/inventories", {
        "resource_provider_generation": generation(cn3), "resource_class": "CUSTOM_LICENSE", "total": 100},
         expect=201)
    get(f"/resource_providers/{cn3}/inventories")
    call("DELETE", "/resource_classes/CUSTOM_LICENSE", expect=409)
    call("DELETE", "/resource_classes/CUSTOM_BAREMETAL_GOLD", expect=204)
    get("/resource_classes/CUSTOM_BAREMETAL_GOLD", expect=404)
    call("DELETE", "/resource_classes/CUSTOM_BAREMETAL_GOLD", expect=404)
    call("DELETE", "/resource_classes/VCPU", expect=400)
    get("/resource_classes")

    # ---- h. traits
    call("PUT", "/traits/CUSTOM_RAID10", expect=201)
    call("GET", "/traits/CUSTOM_RAID10", expect=204)
    call("PUT", "/traits/CUSTOM_RAID10", expect=204)
    call("PUT", "/traits/CUSTOM_NVME", expect=201)
    call("PUT", "/traits/RAID10", expect=400)
    get("/traits", name="startswith:CUSTOM_")
    g = generation(cn4)
    call("PUT", f"/resource_providers/{cn4}/traits", {
        "resource_provider_generation": g, "traits": ["CUSTOM_RAID10", "HW_CPU_X86_AVX2", "CUSTOM_SILVER"]},
         expect=200)
    get(f"/resource_providers/{cn4}/traits")
    get(f"/resource_providers/{cn4}")
    call("PUT", f"/resource_providers/{cn4}/traits", {
        "resource_provider_generation": g, "traits": ["CUSTOM_NVME"]}, expect=409)
    call("PUT", f"/resource_providers/{cn4}/traits", {
        "resource_provider_generation": g + 1, "traits": ["CUSTOM_UNKNOWN"]}, expect=400)
    call("PUT", f"/resource_providers/{cn4}/traits", {"traits": ["CUSTOM_NVME"]}, expect=400)
    call("PUT", f"/resource_providers/{cn4}/traits", {
        "resource_provider_generation": g + 1, "traits": ["CUSTOM_RAID10", "CUSTOM_NVME"]}, expect=200)
    get(f"/resource_providers/{cn4}/traits")
    get("/resource_providers", required="CUSTOM_NVME")
    get("/resource_providers", required="CUSTOM_RAID10,!CUSTOM_GOLD")
    get("/traits", associated="true")
    call("DELETE", "/traits/CUSTOM_RAID10", expect=409)
    call("PUT", f"/resource_providers/{cn3}/traits", {
        "resource_provider_generation": generation(cn3), "traits": ["CUSTOM_NVME"]}, expect=200)
    get(f"/resource_providers/{cn3}/traits")
    call("DELETE", f"/resource_providers/{cn3}/traits", expect=204)
    get(f"/resource_providers/{cn3}/traits")
    call("PUT", "/traits/CUSTOM_TEMPORARY", expect=201)
    call("DELETE", "/traits/CUSTOM_TEMPORARY", expect=204)
    call("GET", "/traits/CUSTOM_TEMPORARY", expect=404)
    call("DELETE", "/traits/CUSTOM_TEMPORARY", expect=404)
    call("DELETE", "/traits/HW_CPU_X86_AVX2", expect=400)
    get("/traits", name="startswith:CUSTOM_")

    # ---- i. aggregates
    rack2 = chosen("aggregate:rack-2")
    g = generation(cn4)
    call("PUT", f"/resource_providers/{cn4}/aggregates", {
        "resource_provider_generation": g, "aggregates": [rack1, rack2]}, expect=200)
    get(f"/resource_providers/{cn4}/aggregates")
    get(f"/resource_providers/{cn4}")
    get("/resource_providers", member_of=rack2)
    get("/resource_providers", member_of=rack1)
    call("PUT", f"/resource_providers/{cn4}/aggregates", {
        "resource_provider_generation": g, "aggregates": [rack2]}, expect=409)
    call("PUT", f"/resource_providers/{cn4}/aggregates", {
        "resource_provider_generation": g + 1, "aggregates": ["not-a-uuid"]}, expect=400)
    call("PUT", f"/resource_providers/{cn4}/aggregates", [rack2], expect=400)
    call("PUT", f"/resource_providers/{cn3}/aggregates", {
        "resource_provider_generation": generation(cn3), "aggregates": [rack2]}, expect=200)
    get(f"/resource_providers/{cn3}/aggregates")
    get("/resource_providers", member_of=rack2)
    get("/resource_providers", member_of=f"in:{rack1},{rack2}")
    call("PUT", f"/resource_providers/{cn3}/aggregates", {
        "resource_provider_generation": generation(cn3), "aggregates": []}, expect=200)
    get(f"/resource_providers/{cn3}/aggregates")
    get("/resource_providers", member_of=rack2)

    # ---- j. allocations: client-chosen consumers, usages derived
    vm1 = chosen("consumer:vm-1")
    call("PUT", f"/allocations/{vm1}", {
        "allocations": {cn4: {"resources": {"VCPU": 4, "MEMORY_MB": 8192}}},
        "project_id": ops, "user_id": bob, "consumer_generation": None, "consumer_type": "INSTANCE"}, expect=204)
    got = get(f"/allocations/{vm1}")
    get(f"/resource_providers/{cn4}/usages")
    get(f"/resource_providers/{cn4}/allocations")
    get(f"/resource_providers/{cn4}")
    get("/usages", project_id=ops)
    get("/usages", project_id=ops, user_id=bob)
    cgen = got.get("consumer_generation", 1) if isinstance(got, dict) else 1
    call("PUT", f"/allocations/{vm1}", {
        "allocations": {cn4: {"resources": {"VCPU": 8, "MEMORY_MB": 16384}},
                        gpu: {"resources": {"VGPU": 1}}},
        "project_id": ops, "user_id": bob, "consumer_generation": cgen, "consumer_type": "INSTANCE"}, expect=204)
    get(f"/allocations/{vm1}")
    get(f"/resource_providers/{cn4}/usages")
    get(f"/resource_providers/{gpu}/usages")
    get(f"/resource_providers/{gpu}/allocations")
    get("/usages", project_id=ops)
    call("PUT", f"/allocations/{vm1}", {
        "allocations": {cn4: {"resources": {"VCPU": 1}}},
        "project_id": ops, "user_id": bob, "consumer_generation": cgen, "consumer_type": "INSTANCE"}, expect=409)
    call("PUT", f"/allocations/{chosen('consumer:too-big')}", {
        "allocations": {cn4: {"resources": {"VCPU": 1000}}},
        "project_id": ops, "user_id": bob, "consumer_generation": None, "consumer_type": "INSTANCE"}, expect=409)
    call("PUT", f"/allocations/{chosen('consumer:no-such-class')}", {
        "allocations": {cn4: {"resources": {"CUSTOM_FPGA": 1}}},
        "project_id": ops, "user_id": bob, "consumer_generation": None, "consumer_type": "INSTANCE"}, expect=409)
    call("PUT", f"/allocations/{chosen('consumer:no-project')}", {
        "allocations": {cn4: {"resources": {"VCPU": 1}}}, "user_id": bob, "consumer_generation": None,
        "consumer_type": "INSTANCE"}, expect=400)
    call("PUT", "/allocations/not-a-uuid", {
        "allocations": {cn4: {"resources": {"VCPU": 1}}},
        "project_id": ops, "user_id": bob, "consumer_generation": None, "consumer_type": "INSTANCE"}, expect=400)
    call("PUT", f"/allocations/{chosen('consumer:no-provider')}", {
        "allocations": {NEVER: {"resources": {"VCPU": 1}}},
        "project_id": ops, "user_id": bob, "consumer_generation": None, "consumer_type": "INSTANCE"}, expect=400)
    get(f"/allocations/{chosen('consumer:too-big')}")
    vm2, vm3 = chosen("consumer:vm-2"), chosen("consumer:vm-3")
    call("POST", "/allocations", {
        vm2: {"allocations": {cn2: {"resources": {"VCPU": 2, "MEMORY_MB": 2048}}},
              "project_id": demo, "user_id": alice, "consumer_generation": None, "consumer_type": "INSTANCE"},
        vm3: {"allocations": {storage: {"resources": {"DISK_GB": 100}}, cn2: {"resources": {"VCPU": 1}}},
              "project_id": ops, "user_id": alice, "consumer_generation": None, "consumer_type": "MIGRATION"}},
         expect=204)
    get(f"/allocations/{vm2}")
    get(f"/allocations/{vm3}")
    get(f"/resource_providers/{cn2}/usages")
    get(f"/resource_providers/{storage}/usages")
    get(f"/resource_providers/{cn2}/allocations")
    get("/usages", project_id=demo)
    get("/usages", project_id=ops)
    get("/usages", project_id=ops, consumer_type="MIGRATION")
    get("/allocation_candidates", resources="VCPU:4,MEMORY_MB:4096", limit="5")
    # a provider holding allocations can neither lose the allocated inventory nor be deleted
    call("DELETE", f"/resource_providers/{cn4}/inventories/VCPU", expect=409)
    call("DELETE", f"/resource_providers/{gpu}", expect=409)
    call("DELETE", f"/allocations/{vm3}", expect=204)
    get(f"/allocations/{vm3}")
    get(f"/resource_providers/{storage}/usages")
    get(f"/resource_providers/{cn2}/usages")
    get("/usages", project_id=ops)
    call("DELETE", f"/allocations/{vm3}", expect=404)
    call("DELETE", f"/allocations/{vm1}", expect=204)
    get(f"/allocations/{vm1}")
    get(f"/resource_providers/{cn4}/usages")
    get(f"/resource_providers/{gpu}/usages")
    get("/usages", project_id=ops)
    # an empty allocation document removes the consumer's allocations too
    call("PUT", f"/allocations/{vm2}", {
        "allocations": {}, "project_id": demo, "user_id": alice,
        "consumer_generation": get(f"/allocations/{vm2}").get("consumer_generation"),
        "consumer_type": "INSTANCE"}, expect=204)
    get(f"/allocations/{vm2}")
    get(f"/resource_providers/{cn2}/usages")
    get("/usages", project_id=demo)

    # ---- k. provider deletes: a parent waits for its children
    call("DELETE", f"/resource_providers/{cn4}", expect=409)
    call("DELETE", f"/resource_providers/{nic}", expect=204)
    get(f"/resource_providers/{nic}", expect=404)
    call("DELETE", f"/resource_providers/{nic}", expect=404)
    get("/resource_providers", in_tree=cn4)
    call("DELETE", f"/resource_providers/{gpu}", expect=204)
    call("DELETE", f"/resource_providers/{cn3}", expect=204)
    get(f"/resource_providers/{cn3}", expect=404)
    call("DELETE", f"/resource_providers/{cn4}", expect=204)
    get(f"/resource_providers/{cn4}", expect=404)
    get(f"/resource_providers/{cn4}/inventories", expect=404)
    get("/resource_providers")
    get("/resource_providers", member_of=rack1)
    call("DELETE", f"/resource_providers/{cn1}", expect=409)  # its child and the seed's allocation
    call("DELETE", "/traits/CUSTOM_RAID10", expect=204)
    get("/traits", name="startswith:CUSTOM_")
    call("DELETE", "/resource_classes/CUSTOM_LICENSE", expect=204)
    get("/resource_classes/CUSTOM_LICENSE", expect=404)
    get("/resource_classes")


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:43001")
