"""Seed a fresh Gnocchi 4.7.1 through its own API, then fix the random metric ids in PostgreSQL.

Usage: seed.py BASE_URL PSQL PG_PORT DATABASE  (run by start.sh on the app port, not recorded)

What it makes (beside what gnocchi-upgrade made: archive policies bool, low, medium, high and
the rule `default`):
- archive policy `five-minutes` (5 min x 288 points, mean/max/min), rule `disk-rule` (disk.* -> it);
- resource type `host` (hostname: string required; rack: string optional, max 16; cpus: number
  optional, 1-512);
- generic resources web-frontend and batch-worker, host resources host-a and host-b, each with a
  named metric (cpu.util, archive policy low; the hosts also memory.usage, medium);
- a metric without a resource, `queue.depth` (five-minutes).
Resource ids are fixed UUIDs; metric ids are random at the create and rewritten here to fixed ones
(nothing references a metric id in the indexer, and no measure was written yet).
"""
import base64
import json
import subprocess
import sys
import urllib.request

BASE, PSQL, PG_PORT, DATABASE = sys.argv[1:5]
AUTH = "Basic " + base64.b64encode(b"admin:").decode()

GENERIC = [("7d1e6a5c-0b0a-4c1e-9a11-000000000001", "web-frontend"),
           ("7d1e6a5c-0b0a-4c1e-9a11-000000000002", "batch-worker")]
HOSTS = [("5a0b5e4c-2f3d-4c7e-8b22-00000000000a", "host-a.capenv.test", "r1", 8),
         ("5a0b5e4c-2f3d-4c7e-8b22-00000000000b", "host-b.capenv.test", "r2", 16)]
USER = "3f9c5a0e8d2b4e6fa1c7d9e0b2a4c6e8"
PROJECT = "b1d3f5a7c9e14b2d8f6a0c2e4a6b8d0f"


def call(method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(BASE + path, data=data, method=method,
                                 headers={"Authorization": AUTH, "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read() or b"null")


def main():
    call("POST", "/v1/archive_policy", {
        "name": "five-minutes", "back_window": 0, "aggregation_methods": ["mean", "max", "min"],
        "definition": [{"granularity": "5 minutes", "points": 288}]})
    call("POST", "/v1/archive_policy_rule", {
        "name": "disk-rule", "metric_pattern": "disk.*", "archive_policy_name": "five-minutes"})
    call("POST", "/v1/resource_type", {"name": "host", "attributes": {
        "hostname": {"type": "string", "required": True, "min_length": 1, "max_length": 255},
        "rack": {"type": "string", "required": False, "max_length": 16},
        "cpus": {"type": "number", "required": False, "min": 1, "max": 512}}})
    fixed = {}
    n = 0
    for rid, name in GENERIC:
        r = call("POST", "/v1/resource/generic", {
            "id": rid, "user_id": USER, "project_id": PROJECT,
            "metrics": {"cpu.util": {"archive_policy_name": "low"}}})
        n += 1
        fixed[r["metrics"]["cpu.util"]] = f"c0ffee00-0000-4000-8000-{n:012d}"
    for rid, hostname, rack, cpus in HOSTS:
        r = call("POST", "/v1/resource/host", {
            "id": rid, "user_id": USER, "project_id": PROJECT, "hostname": hostname, "rack": rack,
            "cpus": cpus, "metrics": {"cpu.util": {"archive_policy_name": "low"},
                                      "memory.usage": {"archive_policy_name": "medium", "unit": "B"}}})
        for metric in ("cpu.util", "memory.usage"):
            n += 1
            fixed[r["metrics"][metric]] = f"c0ffee00-0000-4000-8000-{n:012d}"
    r = call("POST", "/v1/metric", {"name": "queue.depth", "archive_policy_name": "five-minutes",
                                    "unit": "messages"})
    n += 1
    fixed[r["id"]] = f"c0ffee00-0000-4000-8000-{n:012d}"
    sql = "".join(f"UPDATE metric SET id = '{new}' WHERE id = '{old}';\n" for old, new in fixed.items())
    subprocess.run([PSQL, "-h", "127.0.0.1", "-p", PG_PORT, "-U", "postgres", "-d", DATABASE,
                    "-v", "ON_ERROR_STOP=1", "-q", "-c", "BEGIN;\n" + sql + "COMMIT;"], check=True)
    listed = {m["id"] for m in call("GET", "/v1/metric")}
    if listed != set(fixed.values()):
        sys.exit(f"metric ids not fixed: {sorted(listed)}")


if __name__ == "__main__":
    main()
