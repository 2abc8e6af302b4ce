#!/usr/bin/env python3
"""Scenario driver for Gnocchi 4.7.1's REST API (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:43201 --mode capture [-v]

Every call sends `Authorization: Basic admin:` (api.auth_mode = basic: the user is named, no password
is checked; `admin` holds the admin role) and `Accept: application/json` (errors then answer
`{"code", "description", "title"}` JSON instead of an HTML page). The seed (seed.py, run by start.sh,
not recorded): archive policies bool, low, medium, high (gnocchi-upgrade's defaults) and
five-minutes; rules default (`*` -> low) and disk-rule (`disk.*` -> five-minutes); the resource type
host (hostname, rack, cpus); generic resources ...0001 and ...0002 and host resources ...000a and
...000b with named metrics; a metric queue.depth without a resource. Every call is sequential, with
a random 50-150 ms sleep before it. No gnocchi-metricd runs: measures are read with `refresh=true`,
which aggregates what is pending in the request.
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

GEN1, GEN2 = "7d1e6a5c-0b0a-4c1e-9a11-000000000001", "7d1e6a5c-0b0a-4c1e-9a11-000000000002"
HOST_A, HOST_B = "5a0b5e4c-2f3d-4c7e-8b22-00000000000a", "5a0b5e4c-2f3d-4c7e-8b22-00000000000b"
QUEUE_DEPTH = "c0ffee00-0000-4000-8000-000000000007"
HOST_A_CPU = "c0ffee00-0000-4000-8000-000000000003"
USER = "3f9c5a0e8d2b4e6fa1c7d9e0b2a4c6e8"
PROJECT = "b1d3f5a7c9e14b2d8f6a0c2e4a6b8d0f"
OTHER_PROJECT = "e2c4a6b8d0f24e6a8c0e2a4c6e8a0c2e"
MISSING = "00000000-dead-4bee-8f00-000000000404"
JSON_PATCH = "application/json-patch+json"


class GnocchiDriver(Driver):
    """Driver.call, with a Content-Type of the caller's choice (JSON Patch bodies)."""

    def call(self, method, path, body=None, raw=None, params=None, expect=None, ctype=None, **kw):
        if ctype is not None:
            kw["headers"] = {**(kw.get("headers") or {}), "Content-Type": ctype}
            raw = raw if raw is not None else json.dumps(body)
        return super().call(method, path, body, raw=raw, params=params, expect=expect, **kw)


def make_driver(base, min_sleep, max_sleep, verbose):
    d = GnocchiDriver(base, min_sleep, max_sleep, verbose, token="YWRtaW46", scheme="Basic")
    d.c.headers["Accept"] = "application/json"
    return d


def capture(d):
    call, get, check = d.call, d.get, d.check

    def names(answer, key="name"):
        return sorted(x[key] for x in answer) if isinstance(answer, list) else answer

    # ---- a. seed reads: versions, capabilities, archive policies, rules, resource types,
    # resources, metrics, absences
    get("/")
    get("/v1/capabilities")
    check("policies", names(get("/v1/archive_policy")), ["bool", "five-minutes", "high", "low", "medium"])
    get("/v1/archive_policy/low")
    get("/v1/archive_policy/five-minutes")
    check("rules", names(get("/v1/archive_policy_rule")), ["default", "disk-rule"])
    get("/v1/archive_policy_rule/disk-rule")
    check("types", names(get("/v1/resource_type")), ["generic", "host"])
    get("/v1/resource_type/host")
    get("/v1/resource_type/generic")
    get("/v1/resource/generic")
    get("/v1/resource/host")
    get(f"/v1/resource/generic/{GEN1}")
    get(f"/v1/resource/host/{HOST_A}")
    get("/v1/metric")
    get(f"/v1/metric/{QUEUE_DEPTH}")
    get("/v1/archive_policy/nope", expect=404)
    get("/v1/archive_policy_rule/nope", expect=404)
    get("/v1/resource_type/nope", expect=404)
    get(f"/v1/resource/generic/{MISSING}", expect=404)
    get(f"/v1/metric/{MISSING}", expect=404)
    get("/v1/metric/not-a-uuid", expect=404)

    # ---- b. archive policies: create (two shapes), read back, list, conflicts and bad bodies,
    # PATCH of the definition, delete (refused while in use)
    call("POST", "/v1/archive_policy", {
        "name": "hourly", "back_window": 0, "aggregation_methods": ["mean", "sum"],
        "definition": [{"granularity": "1 hour", "points": 168}]}, expect=201)
    get("/v1/archive_policy/hourly")
    check("policies after hourly", names(get("/v1/archive_policy")),
          ["bool", "five-minutes", "high", "hourly", "low", "medium"])
    call("POST", "/v1/archive_policy", {
        "name": "daily", "back_window": 2, "aggregation_methods": ["max", "min", "mean"],
        "definition": [{"granularity": "1 day", "timespan": "365 days"}]}, expect=201)
    get("/v1/archive_policy/daily")
    call("POST", "/v1/archive_policy", {
        "name": "fine", "definition": [{"granularity": "1 minute", "points": 60},
                                        {"granularity": "1 hour", "points": 24}]}, expect=201)
    get("/v1/archive_policy/fine")
    get("/v1/archive_policy")
    call("POST", "/v1/archive_policy", {"name": "hourly", "definition": [{"granularity": "1 hour", "points": 2}]},
         expect=409)
    call("POST", "/v1/archive_policy", {"name": "nodef"}, expect=400)
    call("POST", "/v1/archive_policy", {"name": "badgran", "definition": [{"granularity": "soon", "points": 5}]},
         expect=400)
    call("POST", "/v1/archive_policy", {"name": "badmethod", "aggregation_methods": ["median-ish"],
                                        "definition": [{"granularity": "1 hour", "points": 5}]}, expect=400)
    call("POST", "/v1/archive_policy", raw="{not json", expect=400)
    get("/v1/archive_policy")
    call("PATCH", "/v1/archive_policy/hourly", {"definition": [{"granularity": "1 hour", "points": 336}]},
         expect=200)
    get("/v1/archive_policy/hourly")
    get("/v1/archive_policy")
    call("PATCH", "/v1/archive_policy/daily", {"definition": [{"granularity": "1 day", "timespan": "730 days"}]},
         expect=200)
    get("/v1/archive_policy/daily")
    call("PATCH", "/v1/archive_policy/hourly", {"definition": [{"granularity": "2 hours", "points": 10}]},
         expect=400)
    get("/v1/archive_policy/hourly")
    call("PATCH", "/v1/archive_policy/nope", {"definition": [{"granularity": "1 hour", "points": 10}]},
         expect=404)
    call("DELETE", "/v1/archive_policy/fine", expect=204)
    get("/v1/archive_policy/fine", expect=404)
    get("/v1/archive_policy")
    call("DELETE", "/v1/archive_policy/fine", expect=404)
    call("DELETE", "/v1/archive_policy/five-minutes", expect=400)  # disk-rule and queue.depth use it
    get("/v1/archive_policy/five-minutes")
    call("DELETE", "/v1/archive_policy/low", expect=400)

    # ---- c. archive policy rules: create, read back, list, conflicts, rename by PATCH, delete
    call("POST", "/v1/archive_policy_rule", {"name": "net-rule", "metric_pattern": "net.*",
                                             "archive_policy_name": "hourly"}, expect=201)
    get("/v1/archive_policy_rule/net-rule")
    get("/v1/archive_policy_rule")
    call("POST", "/v1/archive_policy_rule", {"name": "mem-rule", "metric_pattern": "mem.*",
                                             "archive_policy_name": "daily"}, expect=201)
    get("/v1/archive_policy_rule/mem-rule")
    call("POST", "/v1/archive_policy_rule", {"name": "tmp-rule", "metric_pattern": "tmp.*",
                                             "archive_policy_name": "low"}, expect=201)
    get("/v1/archive_policy_rule")
    call("POST", "/v1/archive_policy_rule", {"name": "net-rule", "metric_pattern": "x.*",
                                             "archive_policy_name": "low"}, expect=409)
    call("POST", "/v1/archive_policy_rule", {"name": "ghost-rule", "metric_pattern": "g.*",
                                             "archive_policy_name": "nope"}, expect=400)
    call("POST", "/v1/archive_policy_rule", {"name": "half-rule"}, expect=400)
    call("PATCH", "/v1/archive_policy_rule/net-rule", {"name": "network-rule"}, expect=200)
    get("/v1/archive_policy_rule/net-rule", expect=404)
    get("/v1/archive_policy_rule/network-rule")
    get("/v1/archive_policy_rule")
    call("PATCH", "/v1/archive_policy_rule/tmp-rule", {"name": "scratch-rule"}, expect=200)
    get("/v1/archive_policy_rule/scratch-rule")
    call("PATCH", "/v1/archive_policy_rule/nope", {"name": "other"}, expect=404)
    call("DELETE", "/v1/archive_policy_rule/scratch-rule", expect=204)
    get("/v1/archive_policy_rule/scratch-rule", expect=404)
    get("/v1/archive_policy_rule")
    call("DELETE", "/v1/archive_policy_rule/scratch-rule", expect=404)
    call("DELETE", "/v1/archive_policy/daily", expect=400)  # mem-rule uses it
    call("DELETE", "/v1/archive_policy_rule/mem-rule", expect=204)
    get("/v1/archive_policy_rule")
    call("DELETE", "/v1/archive_policy/daily", expect=204)
    get("/v1/archive_policy/daily", expect=404)
    get("/v1/archive_policy")

    # ---- d. resource types at run time: create, read back, list, conflicts, JSON Patch, delete
    call("POST", "/v1/resource_type", {"name": "switch", "attributes": {
        "model": {"type": "string", "required": True, "max_length": 64},
        "ports": {"type": "number", "required": False, "min": 1, "max": 96},
        "managed": {"type": "bool", "required": False}}}, expect=201)
    get("/v1/resource_type/switch")
    check("types after switch", names(get("/v1/resource_type")), ["generic", "host", "switch"])
    call("POST", "/v1/resource_type", {"name": "database", "attributes": {
        "engine": {"type": "string", "required": True},
        "owner": {"type": "uuid", "required": False}}}, expect=201)
    get("/v1/resource_type/database")
    call("POST", "/v1/resource_type", {"name": "scratch"}, expect=201)
    get("/v1/resource_type/scratch")
    get("/v1/resource_type")
    call("POST", "/v1/resource_type", {"name": "switch", "attributes": {}}, expect=409)
    call("POST", "/v1/resource_type", {"name": "odd", "attributes": {"x": {"type": "color"}}}, expect=400)
    call("PATCH", "/v1/resource_type/switch", [
        {"op": "add", "path": "/attributes/location", "value": {"type": "string", "required": False}},
        {"op": "remove", "path": "/attributes/managed"}], ctype=JSON_PATCH, expect=200)
    get("/v1/resource_type/switch")
    call("PATCH", "/v1/resource_type/database", [
        {"op": "add", "path": "/attributes/replicas",
         "value": {"type": "number", "required": True, "min": 0, "max": 9, "options": {"fill": 1}}}],
         ctype=JSON_PATCH, expect=200)
    get("/v1/resource_type/database")
    get("/v1/resource_type")
    call("PATCH", "/v1/resource_type/database", [{"op": "remove", "path": "/attributes/nope"}],
         ctype=JSON_PATCH, expect=400)
    call("PATCH", "/v1/resource_type/nope", [{"op": "remove", "path": "/attributes/x"}],
         ctype=JSON_PATCH, expect=404)
    call("PATCH", "/v1/resource_type/switch", {"op": "remove"}, expect=415)
    call("DELETE", "/v1/resource_type/scratch", expect=204)
    get("/v1/resource_type/scratch", expect=404)
    get("/v1/resource_type")
    call("DELETE", "/v1/resource_type/scratch", expect=404)
    call("DELETE", "/v1/resource_type/host", expect=400)  # host resources exist

    # ---- e. generic resources: create (a UUID id, an original id Gnocchi maps to a UUID), read back,
    # list, sort and page, PATCH, history, delete
    r1 = "7d1e6a5c-0b0a-4c1e-9a11-000000000003"
    call("POST", "/v1/resource/generic", {"id": r1, "user_id": USER, "project_id": PROJECT,
                                          "started_at": "2026-12-01T08:00:00+00:00"}, expect=201)
    get(f"/v1/resource/generic/{r1}")
    get("/v1/resource/generic")
    _, made = call("POST", "/v1/resource/generic", {"id": "capenv-nightly-job", "user_id": USER,
                                                    "project_id": OTHER_PROJECT}, expect=201)
    r2 = made.get("id") if isinstance(made, dict) else None
    get(f"/v1/resource/generic/{r2}")
    get("/v1/resource/generic/capenv-nightly-job")
    r3 = "7d1e6a5c-0b0a-4c1e-9a11-000000000004"
    call("POST", "/v1/resource/generic", {"id": r3, "project_id": PROJECT,
                                          "metrics": {"requests": {"archive_policy_name": "hourly"}}}, expect=201)
    get(f"/v1/resource/generic/{r3}")
    get("/v1/resource/generic")
    call("POST", "/v1/resource/generic", {"id": r1, "user_id": USER}, expect=409)
    call("POST", "/v1/resource/generic", {"id": MISSING, "colour": "blue"}, expect=400)
    call("POST", "/v1/resource/generic", {"user_id": USER}, expect=400)
    call("POST", "/v1/resource/nope", {"id": MISSING}, expect=404)
    get("/v1/resource/generic", sort="id:asc", limit="2")
    get("/v1/resource/generic", sort="id:asc", limit="2", marker=GEN2)
    get("/v1/resource/generic", sort="started_at:desc")
    get("/v1/resource/generic", limit="bad", expect=400)
    call("PATCH", f"/v1/resource/generic/{r1}", {"ended_at": "2026-12-03T18:00:00+00:00"}, expect=200)
    get(f"/v1/resource/generic/{r1}")
    get(f"/v1/resource/generic/{r1}/history")
    call("PATCH", f"/v1/resource/generic/{r1}", {"project_id": OTHER_PROJECT, "user_id": None}, expect=200)
    get(f"/v1/resource/generic/{r1}")
    get(f"/v1/resource/generic/{r1}/history")
    get("/v1/resource/generic")
    call("PATCH", f"/v1/resource/generic/{GEN2}", {"user_id": "0a1b2c3d4e5f40718293a4b5c6d7e8f9"}, expect=200)
    get(f"/v1/resource/generic/{GEN2}")
    call("PATCH", f"/v1/resource/generic/{r1}", {"colour": "blue"}, expect=400)
    call("PATCH", f"/v1/resource/generic/{MISSING}", {"user_id": USER}, expect=404)
    call("DELETE", f"/v1/resource/generic/{r2}", expect=204)
    get(f"/v1/resource/generic/{r2}", expect=404)
    get("/v1/resource/generic")
    call("DELETE", f"/v1/resource/generic/{r2}", expect=404)

    # ---- f. resources of custom types: host, switch, database; PATCH, history, delete; search
    h3 = "5a0b5e4c-2f3d-4c7e-8b22-00000000000c"
    call("POST", "/v1/resource/host", {"id": h3, "project_id": PROJECT, "hostname": "host-c.capenv.test",
                                       "rack": "r1", "cpus": 32}, expect=201)
    get(f"/v1/resource/host/{h3}")
    get("/v1/resource/host")
    call("POST", "/v1/resource/host", {"id": "5a0b5e4c-2f3d-4c7e-8b22-00000000000d", "rack": "r3"}, expect=400)
    call("POST", "/v1/resource/host", {"id": "5a0b5e4c-2f3d-4c7e-8b22-00000000000d", "hostname": "x",
                                       "cpus": 4096}, expect=400)
    call("PATCH", f"/v1/resource/host/{h3}", {"rack": "r4", "cpus": 48}, expect=200)
    get(f"/v1/resource/host/{h3}")
    get(f"/v1/resource/host/{h3}/history")
    call("PATCH", f"/v1/resource/host/{HOST_B}", {"hostname": "host-b2.capenv.test"}, expect=200)
    get(f"/v1/resource/host/{HOST_B}")
    get("/v1/resource/host")
    get(f"/v1/resource/generic/{HOST_B}")
    call("PATCH", f"/v1/resource/host/{HOST_B}", {"rack": "this-rack-name-is-too-long"}, expect=400)
    s1 = "9b8c7d6e-5f4a-4b3c-9d2e-000000000001"
    s2 = "9b8c7d6e-5f4a-4b3c-9d2e-000000000002"
    call("POST", "/v1/resource/switch", {"id": s1, "project_id": PROJECT, "model": "SW-48P", "ports": 48,
                                         "location": "row 1"}, expect=201)
    get(f"/v1/resource/switch/{s1}")
    call("POST", "/v1/resource/switch", {"id": s2, "project_id": PROJECT, "model": "SW-24", "ports": 24},
         expect=201)
    get(f"/v1/resource/switch/{s2}")
    get("/v1/resource/switch")
    call("POST", "/v1/resource/switch", {"id": MISSING, "model": "SW-1", "managed": True}, expect=400)
    call("PATCH", f"/v1/resource/switch/{s2}", {"location": "row 2", "ports": 12}, expect=200)
    get(f"/v1/resource/switch/{s2}")
    db1 = "1c2d3e4f-5a6b-4c7d-8e9f-000000000001"
    call("POST", "/v1/resource/database", {"id": db1, "engine": "postgresql", "owner": GEN1, "replicas": 1}, expect=201)
    get(f"/v1/resource/database/{db1}")
    call("POST", "/v1/resource/database", {"id": "1c2d3e4f-5a6b-4c7d-8e9f-000000000002", "engine": "mysql",
                                           "replicas": 3}, expect=201)
    get("/v1/resource/database")
    call("PATCH", f"/v1/resource/database/{db1}", {"replicas": 2}, expect=200)
    get(f"/v1/resource/database/{db1}")
    call("POST", "/v1/search/resource/host", {"=": {"rack": "r1"}}, expect=200)
    call("POST", "/v1/search/resource/host", {">=": {"cpus": 16}}, expect=200)
    call("POST", "/v1/search/resource/host", {"and": [{"=": {"project_id": PROJECT}}, {"<": {"cpus": 40}}]},
         expect=200)
    call("POST", "/v1/search/resource/switch", {"like": {"model": "SW-4%"}}, expect=200)
    call("POST", "/v1/search/resource/generic", {"=": {"project_id": OTHER_PROJECT}}, expect=200)
    call("POST", "/v1/search/resource/generic", {"in": {"id": [GEN1, r3]}}, expect=200)
    call("POST", "/v1/search/resource/database", {"=": {"engine": "mysql"}}, expect=200)
    call("POST", "/v1/search/resource/host", {"=": {"shoe_size": 9}}, expect=400)
    call("POST", "/v1/search/resource/host", {"~": {"rack": "r1"}}, expect=400)
    call("DELETE", "/v1/resource_type/switch", expect=400)  # switch resources exist
    call("DELETE", f"/v1/resource/switch/{s1}", expect=204)
    get(f"/v1/resource/switch/{s1}", expect=404)
    get("/v1/resource/switch")
    call("DELETE", f"/v1/resource/switch/{s2}", expect=204)
    get("/v1/resource/switch")
    call("DELETE", "/v1/resource_type/switch", expect=204)
    get("/v1/resource_type/switch", expect=404)
    get("/v1/resource_type")
    call("DELETE", f"/v1/resource/host/{h3}", expect=204)
    get(f"/v1/resource/host/{h3}", expect=404)
    get("/v1/resource/host")

    # ---- g. metrics: create (an archive policy named, one chosen by a rule), read back, list and
    # filter, named metrics of a resource, delete
    _, m1 = call("POST", "/v1/metric", {"name": "latency", "unit": "ms", "archive_policy_name": "hourly"},
                 expect=201)
    m1 = m1.get("id") if isinstance(m1, dict) else MISSING
    get(f"/v1/metric/{m1}")
    get("/v1/metric")
    _, m2 = call("POST", "/v1/metric", {"name": "disk.read", "unit": "B"}, expect=201)  # disk-rule
    m2 = m2.get("id") if isinstance(m2, dict) else MISSING
    get(f"/v1/metric/{m2}")
    _, m3 = call("POST", "/v1/metric", {"name": "net.rx", "unit": "packets"}, expect=201)  # network-rule
    m3 = m3.get("id") if isinstance(m3, dict) else MISSING
    get(f"/v1/metric/{m3}")
    _, m4 = call("POST", "/v1/metric", {"archive_policy_name": "bool"}, expect=201)
    m4 = m4.get("id") if isinstance(m4, dict) else MISSING
    get(f"/v1/metric/{m4}")
    get("/v1/metric")
    get("/v1/metric", name="cpu.util")
    get("/v1/metric", unit="ms")
    get("/v1/metric", sort="name:asc", limit="3")
    call("POST", "/v1/metric", {"name": "x", "archive_policy_name": "nope"}, expect=400)
    call("POST", f"/v1/resource/generic/{r3}/metric", {"mem.free": {"archive_policy_name": "low"},
                                                       "net.tx": {}}, expect=200)
    get(f"/v1/resource/generic/{r3}")
    get(f"/v1/resource/generic/{r3}/metric")
    get(f"/v1/resource/generic/{r3}/metric/net.tx")
    call("POST", f"/v1/resource/host/{HOST_A}/metric", {"disk.write": {"unit": "B"}}, expect=200)
    get(f"/v1/resource/host/{HOST_A}")
    get(f"/v1/resource/host/{HOST_A}/metric/disk.write")
    call("POST", f"/v1/resource/generic/{r3}/metric", {"mem.free": {"archive_policy_name": "low"}}, expect=409)
    call("POST", f"/v1/resource/generic/{MISSING}/metric", {"a": {}}, expect=404)
    get(f"/v1/resource/generic/{r3}/metric/nope", expect=404)
    call("DELETE", f"/v1/resource/generic/{r3}/metric/mem.free", expect=204)
    get(f"/v1/resource/generic/{r3}/metric/mem.free", expect=404)
    get(f"/v1/resource/generic/{r3}")
    call("DELETE", f"/v1/resource/generic/{r3}/metric/mem.free", expect=404)
    call("DELETE", f"/v1/metric/{m4}", expect=204)
    get(f"/v1/metric/{m4}", expect=404)
    get("/v1/metric")
    call("DELETE", f"/v1/metric/{m4}", expect=404)

    # ---- h. measures: write, read after processing (refresh=true), aggregations, batches
    call("POST", f"/v1/metric/{m1}/measures", [
        {"timestamp": "2026-12-01T10:05:00+00:00", "value": 12.5},
        {"timestamp": "2026-12-01T10:35:00+00:00", "value": 17.5},
        {"timestamp": "2026-12-01T11:10:00+00:00", "value": 9.0}], expect=202)
    get(f"/v1/metric/{m1}/measures", refresh="true")
    get(f"/v1/metric/{m1}/measures", aggregation="sum")
    call("POST", f"/v1/metric/{m1}/measures", [{"timestamp": "2026-12-01T11:40:00+00:00", "value": 3.0}],
         expect=202)
    get(f"/v1/metric/{m1}/measures", refresh="true")
    get(f"/v1/metric/{m1}/measures", start="2026-12-01T11:00:00+00:00")
    call("POST", f"/v1/resource/host/{HOST_A}/metric/cpu.util/measures", [
        {"timestamp": "2026-12-01T10:00:00+00:00", "value": 41.0},
        {"timestamp": "2026-12-01T10:02:00+00:00", "value": 43.0},
        {"timestamp": "2026-12-01T10:07:00+00:00", "value": 60.0}], expect=202)
    get(f"/v1/resource/host/{HOST_A}/metric/cpu.util/measures", refresh="true")
    get(f"/v1/metric/{HOST_A_CPU}/measures", aggregation="max")
    call("POST", "/v1/batch/metrics/measures", {QUEUE_DEPTH: [
        {"timestamp": "2026-12-01T10:00:00+00:00", "value": 5}, {"timestamp": "2026-12-01T10:05:00+00:00",
                                                                 "value": 8}]}, expect=202)
    get(f"/v1/metric/{QUEUE_DEPTH}/measures", refresh="true")
    call("POST", f"/v1/metric/{m1}/measures", [{"timestamp": "yesterday-ish", "value": 1}], expect=400)
    call("POST", f"/v1/metric/{m1}/measures", {"value": 1}, expect=400)
    call("POST", f"/v1/metric/{MISSING}/measures", [{"timestamp": "2026-12-01T10:00:00+00:00", "value": 1}],
         expect=404)
    get(f"/v1/metric/{m1}/measures", aggregation="median-ish", expect=404)

    # ---- i. cascades: a resource delete takes its named metrics; a policy still used by metrics
    get(f"/v1/resource/generic/{r3}/metric")
    get("/v1/metric", name="net.tx")
    call("DELETE", f"/v1/resource/generic/{r3}", expect=204)
    get(f"/v1/resource/generic/{r3}", expect=404)
    get("/v1/metric", name="net.tx")
    get("/v1/metric")
    call("DELETE", "/v1/archive_policy/hourly", expect=400)  # latency and the network-rule use it
    call("DELETE", f"/v1/resource/database/{db1}", expect=204)
    get("/v1/resource/database")

    # ---- j. final reads
    get("/v1/archive_policy")
    get("/v1/archive_policy_rule")
    get("/v1/resource_type")
    get("/v1/resource/generic")
    get("/v1/metric")


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:43201")
