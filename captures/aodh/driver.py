#!/usr/bin/env python3
"""Scenario driver for OpenStack Aodh 23.0.0's v2 API (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:18511 --mode capture [-v]

Every call names the administrator of project `capenv` in the noauth identity headers (X-User-Id,
X-Project-Id, X-Roles: admin) unless it says otherwise; bodies are JSON. Alarms are bare objects
keyed by `alarm_id` (a server UUID), lists bare arrays; `q.field`/`q.op`/`q.value` filters, `sort`,
`limit` and `marker` paging; the state is a JSON string read and written at `/v2/alarms/{id}/state`;
errors are `{"error_message": {"faultcode", "faultstring", "debuginfo"}}`. The seed (seed.py, run by
start.sh, not recorded): README "Seed data". Every call is sequential, with a random 50-150 ms sleep
before it.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

PROJECT = "c0a1e5d2b3f44a6e8d9c7b6a5f4e3d21"
USER = "a7b6c5d4e3f24a1b9c8d7e6f5a4b3c2d"
IDENTITY = {"X-User-Id": USER, "X-Project-Id": PROJECT, "X-Roles": "admin"}
CPU, DISK, DELETED, POOL = (f"5e1d0000-aaaa-4bbb-8ccc-00000000000{n}" for n in range(1, 5))
MISSING = "5e1d0000-aaaa-4bbb-8ccc-0000000000ff"


def make_driver(base, min_sleep, max_sleep, verbose):
    return Driver(base, min_sleep, max_sleep, verbose, headers=IDENTITY)


def capture(d):
    call, check = d.call, d.check

    def get(path, expect=200, **params):
        return call("GET", path, params=params or None, expect=expect)[1]

    def names(answer):
        return [alarm.get("name") for alarm in answer] if isinstance(answer, list) else answer

    def alarm_id(answer):
        return answer.get("alarm_id") if isinstance(answer, dict) else None

    # ---- a. reads before any write
    get("/")
    get("/v2/capabilities")
    check("alarms", sorted(names(get("/v2/alarms"))), ["cpu-high", "disk-full", "instance-deleted", "pool-members"])
    for aid in (CPU, DISK, DELETED, POOL):
        get(f"/v2/alarms/{aid}")
        get(f"/v2/alarms/{aid}/state")
        get(f"/v2/alarms/{aid}/history")
    get("/v2/quotas")
    get("/v2/quotas", project_id="team-b")
    get("/v2/quotas", project_id="team-c")
    # absences, a missing identity
    get(f"/v2/alarms/{MISSING}", expect=404)
    get(f"/v2/alarms/{MISSING}/state", expect=404)
    get(f"/v2/alarms/{MISSING}/history", expect=404)
    get("/v2/alarms/not-an-alarm", expect=404)
    call("GET", "/v2/alarms", headers={"X-Roles": "", "X-User-Id": "", "X-Project-Id": ""}, expect=403)

    # ---- b. filters, sorting and paging
    get("/v2/alarms", **{"q.field": "name", "q.op": "eq", "q.value": "disk-full"})
    get("/v2/alarms", **{"q.field": "type", "q.op": "eq", "q.value": "prometheus"})
    get("/v2/alarms", **{"q.field": "enabled", "q.op": "eq", "q.value": "False"})
    get("/v2/alarms", **{"q.field": "state", "q.op": "eq", "q.value": "alarm"})
    get("/v2/alarms", **{"q.field": "severity", "q.op": "eq", "q.value": "critical"})
    get("/v2/alarms", **{"q.field": "name", "q.op": "eq", "q.value": "nothing-here"})
    get("/v2/alarms", **{"q.field": "name", "q.op": "ne", "q.value": "cpu-high"}, expect=400)
    get("/v2/alarms", **{"q.field": "colour", "q.op": "eq", "q.value": "red"}, expect=400)
    get("/v2/alarms", sort="name:asc")
    get("/v2/alarms", sort="name:desc")
    get("/v2/alarms", sort="name:asc", limit="2")
    get("/v2/alarms", sort="name:asc", limit="2", marker=DISK)
    get("/v2/alarms", limit="0")  # no bound: every alarm
    get("/v2/alarms", sort="colour:asc", expect=400)
    get(f"/v2/alarms/{CPU}/history", **{"q.field": "type", "q.op": "eq", "q.value": "creation"})
    get(f"/v2/alarms/{CPU}/history", limit="1")
    # ---- c. creates (prometheus threshold alarms and event alarms), read back
    created = call("POST", "/v2/alarms", {
        "name": "memory-high", "type": "prometheus", "description": "Memory above 90%", "severity": "critical",
        "alarm_actions": ["log://"], "ok_actions": ["log://"],
        "prometheus_rule": {"query": "avg(node_memory_used_ratio)", "threshold": 0.9,
                            "comparison_operator": "gt"}}, expect=201)[1]
    memory = alarm_id(created) or MISSING
    get(f"/v2/alarms/{memory}")
    get(f"/v2/alarms/{memory}/state")
    get(f"/v2/alarms/{memory}/history")
    get("/v2/alarms")
    created = call("POST", "/v2/alarms", {
        "name": "volume-created", "type": "event", "repeat_actions": True,
        "event_rule": {"event_type": "volume.create.end"}}, expect=201)[1]
    volume = alarm_id(created) or MISSING
    get(f"/v2/alarms/{volume}")
    get("/v2/alarms", **{"q.field": "type", "q.op": "eq", "q.value": "event"})
    created = call("POST", "/v2/alarms", {
        "name": "load-low", "type": "prometheus", "enabled": False, "severity": "low",
        "insufficient_data_actions": ["log://"], "time_constraints": [
            {"name": "office-hours", "start": "0 9 * * 1-5", "duration": 32400, "timezone": "Europe/Paris"}],
        "prometheus_rule": {"query": "avg(node_load1)", "threshold": 0.2, "comparison_operator": "lt"}},
        expect=201)[1]
    load = alarm_id(created) or MISSING
    get(f"/v2/alarms/{load}")
    get("/v2/alarms", sort="name:asc")
    # names need not be unique: a second memory-high (an event alarm, its description derived), then bad bodies
    twin = alarm_id(call("POST", "/v2/alarms", {"name": "memory-high", "type": "event",
                                                "event_rule": {"event_type": "x.y"}}, expect=201)[1]) or MISSING
    get(f"/v2/alarms/{twin}")
    get("/v2/alarms", **{"q.field": "name", "q.op": "eq", "q.value": "memory-high"})
    call("POST", "/v2/alarms", {"name": "no-rule", "type": "prometheus"}, expect=400)
    call("POST", "/v2/alarms", {"name": "bad-type", "type": "threshold",
                                "threshold_rule": {"meter_name": "cpu", "threshold": 1}}, expect=400)
    call("POST", "/v2/alarms", {"type": "event", "event_rule": {"event_type": "x.y"}}, expect=400)
    call("POST", "/v2/alarms", {"name": "bad-severity", "type": "event", "severity": "urgent",
                                "event_rule": {"event_type": "x.y"}}, expect=400)
    call("POST", "/v2/alarms", {"name": "bad-operator", "type": "prometheus", "prometheus_rule": {
        "query": "up", "threshold": 1, "comparison_operator": "about"}}, expect=400)
    call("POST", "/v2/alarms", raw="{not json", expect=400)
    get("/v2/alarms", sort="name:asc")

    # ---- d. PUT replaces the whole alarm, read back
    call("PUT", f"/v2/alarms/{memory}", {
        "name": "memory-high", "type": "prometheus", "description": "Memory above 95%", "severity": "critical",
        "alarm_actions": ["log://"], "ok_actions": [],
        "prometheus_rule": {"query": "avg(node_memory_used_ratio)", "threshold": 0.95,
                            "comparison_operator": "gt"}}, expect=200)
    get(f"/v2/alarms/{memory}")
    get(f"/v2/alarms/{memory}/history")
    call("PUT", f"/v2/alarms/{DISK}", {
        "name": "disk-full", "type": "prometheus", "severity": "critical", "enabled": True,
        "prometheus_rule": {"query": "max(node_disk_used_ratio)", "threshold": 0.85, "comparison_operator": "ge"}},
        expect=200)
    get(f"/v2/alarms/{DISK}")
    get("/v2/alarms", **{"q.field": "enabled", "q.op": "eq", "q.value": "False"})
    # a PUT that leaves out members resets them to their defaults
    call("PUT", f"/v2/alarms/{DELETED}", {"name": "instance-deleted", "type": "event",
                                          "event_rule": {"event_type": "compute.instance.delete.end"}}, expect=200)
    get(f"/v2/alarms/{DELETED}")
    call("PUT", f"/v2/alarms/{volume}", {"name": "volume-created", "type": "event", "description": "New volumes",
                                         "severity": "moderate", "repeat_actions": False,
                                         "event_rule": {"event_type": "volume.create.end"}}, expect=200)
    get(f"/v2/alarms/{volume}")
    # a missing alarm, a bad body (a type without its rule), a bad severity
    call("PUT", f"/v2/alarms/{MISSING}", {"name": "ghost", "type": "event",
                                          "event_rule": {"event_type": "x.y"}}, expect=404)
    call("PUT", f"/v2/alarms/{volume}", {"name": "volume-created", "type": "prometheus"}, expect=400)
    call("PUT", f"/v2/alarms/{volume}", {"name": "volume-created", "type": "event", "severity": "urgent",
                                         "event_rule": {"event_type": "volume.create.end"}}, expect=400)
    call("PUT", f"/v2/alarms/{volume}", raw="[1, 2", expect=400)
    get(f"/v2/alarms/{volume}")
    call("PUT", f"/v2/alarms/{load}", {
        "name": "load-low", "type": "prometheus", "enabled": True, "severity": "low",
        "prometheus_rule": {"query": "avg(node_load5)", "threshold": 0.3, "comparison_operator": "le"}}, expect=200)
    get(f"/v2/alarms/{load}")
    get("/v2/alarms", sort="name:asc")

    # ---- e. the state, a JSON string
    for aid, state in ((memory, "alarm"), (memory, "ok"), (DISK, "ok"), (POOL, "alarm"), (volume, "insufficient data")):
        check(f"state of {aid}", call("PUT", f"/v2/alarms/{aid}/state", state, expect=200)[1], state)
        get(f"/v2/alarms/{aid}/state")
        get(f"/v2/alarms/{aid}")
    get(f"/v2/alarms/{memory}/history")
    get("/v2/alarms", **{"q.field": "state", "q.op": "eq", "q.value": "ok"})
    get("/v2/alarms", **{"q.field": "state", "q.op": "eq", "q.value": "alarm"})
    call("PUT", f"/v2/alarms/{memory}/state", "on fire", expect=400)
    call("PUT", f"/v2/alarms/{memory}/state", {"state": "ok"}, expect=400)
    call("PUT", f"/v2/alarms/{MISSING}/state", "ok", expect=404)
    get(f"/v2/alarms/{memory}/state")

    # ---- f. quotas: set (create or replace), read back, delete
    call("POST", "/v2/quotas", {"project_id": "team-c", "quotas": [{"resource": "alarms", "limit": 5}]}, expect=201)
    get("/v2/quotas", project_id="team-c")
    call("POST", "/v2/quotas", {"project_id": "team-b", "quotas": [{"resource": "alarms", "limit": 30}]}, expect=201)
    get("/v2/quotas", project_id="team-b")
    call("POST", "/v2/quotas", {"project_id": PROJECT, "quotas": [{"resource": "alarms", "limit": 50}]}, expect=201)
    get("/v2/quotas")
    get("/v2/quotas", project_id=PROJECT)
    call("POST", "/v2/quotas", {"project_id": "team-c", "quotas": [{"resource": "volumes", "limit": 5}]}, expect=400)
    call("POST", "/v2/quotas", {"quotas": [{"resource": "alarms", "limit": 5}]}, expect=400)
    call("POST", "/v2/quotas", {"project_id": "team-c", "quotas": [{"resource": "alarms", "limit": "many"}]},
         expect=400)
    get("/v2/quotas", project_id="team-c")
    call("DELETE", "/v2/quotas/team-c", expect=204)
    get("/v2/quotas", project_id="team-c")
    call("DELETE", "/v2/quotas/team-c", expect=204)
    get("/v2/quotas", project_id="team-b")

    # ---- g. deletes, read back
    call("DELETE", f"/v2/alarms/{load}", expect=204)
    get(f"/v2/alarms/{load}", expect=404)
    get(f"/v2/alarms/{load}/state", expect=404)
    get("/v2/alarms", sort="name:asc")
    call("DELETE", f"/v2/alarms/{load}", expect=404)
    call("DELETE", f"/v2/alarms/{POOL}", expect=204)
    get(f"/v2/alarms/{POOL}", expect=404)
    get("/v2/alarms", **{"q.field": "type", "q.op": "eq", "q.value": "loadbalancer_member_health"})
    call("DELETE", f"/v2/alarms/{twin}", expect=204)
    get(f"/v2/alarms/{twin}", expect=404)
    get("/v2/alarms", **{"q.field": "name", "q.op": "eq", "q.value": "memory-high"})
    call("DELETE", f"/v2/alarms/{MISSING}", expect=404)
    get("/v2/alarms")

    # ---- h. one more round: an alarm made, changed, its state set, then deleted
    created = call("POST", "/v2/alarms", {
        "name": "net-errors", "type": "prometheus", "severity": "moderate",
        "prometheus_rule": {"query": "rate(node_network_receive_errs_total[5m])", "threshold": 10,
                            "comparison_operator": "gt"}}, expect=201)[1]
    net = alarm_id(created) or MISSING
    get(f"/v2/alarms/{net}")
    get("/v2/alarms", sort="name:asc")
    call("PUT", f"/v2/alarms/{net}", {
        "name": "net-errors", "type": "prometheus", "severity": "critical", "description": "Receive errors",
        "prometheus_rule": {"query": "rate(node_network_receive_errs_total[5m])", "threshold": 5,
                            "comparison_operator": "ge"}}, expect=200)
    get(f"/v2/alarms/{net}")
    call("PUT", f"/v2/alarms/{net}/state", "alarm", expect=200)
    get(f"/v2/alarms/{net}/state")
    get(f"/v2/alarms/{net}")
    get(f"/v2/alarms/{net}/history")
    get("/v2/alarms", **{"q.field": "name", "q.op": "eq", "q.value": "net-errors"})
    call("DELETE", f"/v2/alarms/{net}", expect=204)
    get(f"/v2/alarms/{net}", expect=404)
    created = call("POST", "/v2/alarms", {"name": "image-uploaded", "type": "event",
                                          "event_rule": {"event_type": "image.upload"}}, expect=201)[1]
    image = alarm_id(created) or MISSING
    get(f"/v2/alarms/{image}")
    get(f"/v2/alarms/{image}/state")
    get("/v2/alarms", sort="name:asc")
    get(f"/v2/alarms/{memory}")
    get(f"/v2/alarms/{CPU}")
    get(f"/v2/alarms/{DISK}")
    get("/v2/quotas")

    # ---- i. complex queries: POST bodies that only read. Last: Aodh 23.0.0 leaves the SQLite database
    # locked after one (every later write answers 500 `database is locked`), so nothing writes after them.
    call("POST", "/v2/query/alarms", {"filter": '{"=": {"severity": "moderate"}}'}, expect=200)
    call("POST", "/v2/query/alarms", {"filter": '{"or": [{"=": {"name": "disk-full"}}, {"=": {"name": "pool-members"}}]}',
                                      "orderby": '[{"name": "asc"}]'}, expect=200)
    call("POST", "/v2/query/alarms", {"filter": '{"=": {"colour": "red"}}'}, expect=400)
    call("POST", "/v2/query/alarms/history", {"filter": '{"=": {"type": "creation"}}', "limit": 2}, expect=200)


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:18511")
