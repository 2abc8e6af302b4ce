"""Seed a fresh OpenStack Placement 16.0.0 through its own API (run by start.sh, not recorded).

Usage: python seed.py BASE_URL

Every id is fixed: providers, the aggregate and the consumer are uuid5(NAMESPACE, "<kind>:<name>"),
so every fresh start holds the same state (Placement's bodies carry no clocks):
  providers  compute-1 (VCPU 16, MEMORY_MB 32768 reserved 512, DISK_GB 500; traits HW_CPU_X86_AVX2,
             CUSTOM_GOLD; aggregate rack-1), compute-1_numa0 (child of compute-1: CUSTOM_FPGA 2),
             compute-2 (VCPU 8, MEMORY_MB 16384, DISK_GB 250; aggregate rack-1),
             shared-storage (DISK_GB 2000; trait MISC_SHARES_VIA_AGGREGATE; aggregate rack-1)
  classes    CUSTOM_FPGA (besides the standard ones `db sync` makes)
  traits     CUSTOM_GOLD, CUSTOM_SILVER (besides the standard os-traits)
  consumer   seed-vm: VCPU 2 + MEMORY_MB 4096 on compute-1, project demo, user alice, type INSTANCE
Every call sends X-Auth-Token: admin (auth_strategy = noauth2) and microversion 1.39.
"""
import json
import sys
import urllib.request
import uuid

NAMESPACE = uuid.UUID("3f6c2a8e-51d4-4a8b-9c39-7b1e2d0f6a55")
HEADERS = {"X-Auth-Token": "admin", "OpenStack-API-Version": "placement 1.39",
           "Content-Type": "application/json", "Accept": "application/json"}


def seeded(kind, name):
    return str(uuid.uuid5(NAMESPACE, f"{kind}:{name}"))


def call(base, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method, headers=HEADERS)
    with urllib.request.urlopen(request, timeout=60) as answer:
        text = answer.read()
    return json.loads(text) if text else None


def main(base):
    cn1, numa0, cn2, storage = (seeded("provider", n) for n in
                                ("compute-1", "compute-1_numa0", "compute-2", "shared-storage"))
    rack1 = seeded("aggregate", "rack-1")
    call(base, "PUT", "/resource_classes/CUSTOM_FPGA")
    for trait in ("CUSTOM_GOLD", "CUSTOM_SILVER"):
        call(base, "PUT", f"/traits/{trait}")
    call(base, "POST", "/resource_providers", {"name": "compute-1", "uuid": cn1})
    call(base, "POST", "/resource_providers", {"name": "compute-1_numa0", "uuid": numa0, "parent_provider_uuid": cn1})
    call(base, "POST", "/resource_providers", {"name": "compute-2", "uuid": cn2})
    call(base, "POST", "/resource_providers", {"name": "shared-storage", "uuid": storage})
    inventories = {
        cn1: {"VCPU": {"total": 16, "allocation_ratio": 4.0},
              "MEMORY_MB": {"total": 32768, "reserved": 512, "max_unit": 16384},
              "DISK_GB": {"total": 500}},
        numa0: {"CUSTOM_FPGA": {"total": 2}},
        cn2: {"VCPU": {"total": 8}, "MEMORY_MB": {"total": 16384}, "DISK_GB": {"total": 250}},
        storage: {"DISK_GB": {"total": 2000, "step_size": 10, "min_unit": 10}},
    }
    for provider, inventory in inventories.items():
        generation = call(base, "GET", f"/resource_providers/{provider}")["generation"]
        call(base, "PUT", f"/resource_providers/{provider}/inventories",
             {"resource_provider_generation": generation, "inventories": inventory})
    for provider, traits in ((cn1, ["HW_CPU_X86_AVX2", "CUSTOM_GOLD"]), (storage, ["MISC_SHARES_VIA_AGGREGATE"])):
        generation = call(base, "GET", f"/resource_providers/{provider}")["generation"]
        call(base, "PUT", f"/resource_providers/{provider}/traits",
             {"resource_provider_generation": generation, "traits": traits})
    for provider in (cn1, cn2, storage):
        generation = call(base, "GET", f"/resource_providers/{provider}")["generation"]
        call(base, "PUT", f"/resource_providers/{provider}/aggregates",
             {"resource_provider_generation": generation, "aggregates": [rack1]})
    call(base, "PUT", f"/allocations/{seeded('consumer', 'seed-vm')}", {
        "allocations": {cn1: {"resources": {"VCPU": 2, "MEMORY_MB": 4096}}},
        "project_id": seeded("project", "demo"), "user_id": seeded("user", "alice"),
        "consumer_generation": None, "consumer_type": "INSTANCE"})


if __name__ == "__main__":
    main(sys.argv[1])
