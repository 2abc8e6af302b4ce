"""Seed a fresh OpenStack Ironic 39.0.0 through its own API (run by start.sh, not recorded).

Usage: python seed.py BASE_URL

Every id is fixed: uuid5(NAMESPACE, "<kind>:<name>"), so every fresh start holds the same entities
(their created_at/updated_at clocks are the start's):
  chassis    rack-a (description "Rack A", extra {"row": "1"})
  nodes      node-1 (fake-hardware, in rack-a, resource_class baremetal-large, properties cpus 16,
             memory_mb 65536, local_gb 500, cpu_arch x86_64; traits CUSTOM_GOLD, CUSTOM_RAID),
             node-2 (fake-hardware, in rack-a, resource_class baremetal-small, cpus 4, memory_mb 8192,
             description "spare"), node-3 (fake-hardware, no chassis, resource_class baremetal-small,
             brought from enroll through manage and provide to `available`, powered off: the one
             node an allocation can take)
  ports      52:54:00:00:01:01 and 52:54:00:00:01:02 on node-1, 52:54:00:00:02:01 on node-2
  templates  CUSTOM_RAID1 (one raid step), CUSTOM_BIOS_TUNED (one bios step)
Every call sends microversion 1.115 (X-OpenStack-Ironic-API-Version); auth_strategy = noauth.
"""
import json
import sys
import time
import urllib.request
import uuid

NAMESPACE = uuid.UUID("8b1e6f3a-2c47-4d0e-9a51-6e3c7d2b9f14")
HEADERS = {"X-OpenStack-Ironic-API-Version": "1.115", "Content-Type": "application/json",
           "Accept": "application/json"}


def seeded(kind, name):
    return str(uuid.uuid5(NAMESPACE, f"{kind}:{name}"))


def call(base, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method, headers=HEADERS)
    with urllib.request.urlopen(request, timeout=60) as answer:
        text = answer.read()
    return json.loads(text) if text else None


def wait_for_state(base, node, state, power=None):
    for _ in range(600):
        read = call(base, "GET", f"/v1/nodes/{node}")
        if read["provision_state"] == state and (power is None or read["power_state"] == power):
            return
        time.sleep(0.1)
    raise SystemExit(f"node {node} never reached {state}")


def main(base):
    rack = seeded("chassis", "rack-a")
    call(base, "POST", "/v1/chassis", {"uuid": rack, "description": "Rack A", "extra": {"row": "1"}})
    call(base, "POST", "/v1/nodes", {
        "uuid": seeded("node", "node-1"), "name": "node-1", "driver": "fake-hardware", "chassis_uuid": rack,
        "resource_class": "baremetal-large",
        "properties": {"cpus": 16, "memory_mb": 65536, "local_gb": 500, "cpu_arch": "x86_64"}})
    call(base, "POST", "/v1/nodes", {
        "uuid": seeded("node", "node-2"), "name": "node-2", "driver": "fake-hardware", "chassis_uuid": rack,
        "resource_class": "baremetal-small", "description": "spare",
        "properties": {"cpus": 4, "memory_mb": 8192}})
    node3 = seeded("node", "node-3")
    call(base, "POST", "/v1/nodes", {
        "uuid": node3, "name": "node-3", "driver": "fake-hardware", "resource_class": "baremetal-small",
        "properties": {"cpus": 8, "memory_mb": 16384}})
    call(base, "PUT", f"/v1/nodes/{seeded('node', 'node-1')}/traits",
         {"traits": ["CUSTOM_GOLD", "CUSTOM_RAID"]})
    for node, address in (("node-1", "52:54:00:00:01:01"), ("node-1", "52:54:00:00:01:02"),
                          ("node-2", "52:54:00:00:02:01")):
        call(base, "POST", "/v1/ports", {"uuid": seeded("port", address), "address": address,
                                         "node_uuid": seeded("node", node)})
    call(base, "POST", "/v1/deploy_templates", {
        "uuid": seeded("template", "CUSTOM_RAID1"), "name": "CUSTOM_RAID1",
        "steps": [{"interface": "raid", "step": "create_configuration",
                   "args": {"logical_disks": [{"size_gb": "MAX", "raid_level": "1"}]}, "priority": 150}]})
    call(base, "POST", "/v1/deploy_templates", {
        "uuid": seeded("template", "CUSTOM_BIOS_TUNED"), "name": "CUSTOM_BIOS_TUNED", "extra": {"owner": "ops"},
        "steps": [{"interface": "bios", "step": "apply_configuration",
                   "args": {"settings": [{"name": "LogicalProc", "value": "Disabled"}]}, "priority": 110}]})
    call(base, "PUT", f"/v1/nodes/{node3}/states/provision", {"target": "manage"})
    wait_for_state(base, node3, "manageable")
    call(base, "PUT", f"/v1/nodes/{node3}/states/provision", {"target": "provide"})
    wait_for_state(base, node3, "available")
    call(base, "PUT", f"/v1/nodes/{node3}/states/power", {"target": "power off"})
    wait_for_state(base, node3, "available", power="power off")


if __name__ == "__main__":
    main(sys.argv[1].rstrip("/"))
