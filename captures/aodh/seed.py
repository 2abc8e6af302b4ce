#!/usr/bin/env python3
"""Seed a fresh Aodh 23.0.0 through its own API, then fix the random alarm ids in its SQLite database.

Usage: seed.py BASE_URL DATABASE_FILE  (run by start.sh on the app port, never through the recording proxy)

Every call names the administrator of project `capenv` in the noauth headers (README "Identity").
What it makes (README "Seed data"):
- alarm cpu-high: prometheus rule `avg(node_cpu_usage)` > 80, severity moderate, a log:// action;
- alarm disk-full: prometheus rule `max(node_disk_used_ratio)` >= 0.9, severity critical, disabled;
- alarm instance-deleted: event rule compute.instance.delete.end with a trait query;
- alarm pool-members: loadbalancer_member_health rule (pool, stack, autoscaling group);
- alarm cpu-high's state set to alarm (a second history event);
- a quota of 20 alarms for project team-b.
Alarm ids are random UUIDs at the create and rewritten here to fixed ones, with the alarm_id of
their history events (and the events' own ids), before anything else reads them.
"""
import json
import sqlite3
import sys
import urllib.request

BASE, DATABASE = sys.argv[1].rstrip("/"), sys.argv[2]
PROJECT = "c0a1e5d2b3f44a6e8d9c7b6a5f4e3d21"
USER = "a7b6c5d4e3f24a1b9c8d7e6f5a4b3c2d"
HEADERS = {"X-User-Id": USER, "X-Project-Id": PROJECT, "X-Roles": "admin", "Content-Type": "application/json"}
FIXED = "5e1d0000-aaaa-4bbb-8ccc-00000000000{}"


def call(method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(BASE + path, data=data, method=method, headers=HEADERS)
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read() or b"null")


alarms = [
    {"name": "cpu-high", "type": "prometheus", "severity": "moderate", "description": "CPU above 80%",
     "alarm_actions": ["log://"], "prometheus_rule": {"query": "avg(node_cpu_usage)", "threshold": 80,
                                                      "comparison_operator": "gt"}},
    {"name": "disk-full", "type": "prometheus", "severity": "critical", "enabled": False,
     "prometheus_rule": {"query": "max(node_disk_used_ratio)", "threshold": 0.9, "comparison_operator": "ge"}},
    {"name": "instance-deleted", "type": "event", "event_rule": {
        "event_type": "compute.instance.delete.end",
        "query": [{"field": "traits.project_id", "op": "eq", "type": "string", "value": PROJECT}]}},
    {"name": "pool-members", "type": "loadbalancer_member_health", "loadbalancer_member_health_rule": {
        "pool_id": "4c2e7a10-1111-4222-8333-000000000001", "stack_id": "4c2e7a10-1111-4222-8333-000000000002",
        "autoscaling_group_id": "4c2e7a10-1111-4222-8333-000000000003"}},
]
made = [call("POST", "/v2/alarms", alarm)["alarm_id"] for alarm in alarms]
database = sqlite3.connect(DATABASE)
with database:
    for number, alarm_id in enumerate(made, start=1):
        fixed = FIXED.format(number)
        database.execute("UPDATE alarm SET alarm_id = ? WHERE alarm_id = ?", (fixed, alarm_id))
        database.execute("UPDATE alarm_history SET alarm_id = ? WHERE alarm_id = ?", (fixed, alarm_id))
        # the creation event's detail holds the alarm as it was made, its id among it
        database.execute("UPDATE alarm_history SET detail = replace(detail, ?, ?) WHERE alarm_id = ?",
                         (alarm_id, fixed, fixed))
        database.execute("UPDATE alarm_history SET event_id = ? WHERE alarm_id = ?",
                         (f"9e7e0000-aaaa-4bbb-8ccc-00000000000{number}", fixed))
database.close()
call("PUT", f"/v2/alarms/{FIXED.format(1)}/state", "alarm")
call("POST", "/v2/quotas", {"project_id": "team-b", "quotas": [{"resource": "alarms", "limit": 20}]})
