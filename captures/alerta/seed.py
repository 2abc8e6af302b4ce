#!/usr/bin/env python3
"""Seed Alerta 9.1.0 for capenv's capture (run by start.sh directly on the app port, never recorded).

Usage: seed.py BASE_URL API_KEY PSQL PG_PORT DATABASE

Through the API, every entity with a client-chosen id (Alerta takes an ``id`` in every create body):
four alerts (two environments, three services), a blackout with a fixed period, two heartbeats, a
customer, a permission, a user and a group holding that user. Then, in PostgreSQL, the admin user
and the admin key that ``alertad user``/``alertad key`` made with random ids get fixed ids, so
every start answers alike. (The permissions list also shows the admin, user and guest roles of the
configuration, which Alerta makes up on every read with a new random id: nothing to fix.)
"""
import json
import subprocess
import sys
import urllib.error
import urllib.request

BASE, KEY, PSQL, PG_PORT, DATABASE = sys.argv[1:6]


def send(method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(BASE + path, data=data, method=method,
                                 headers={"Authorization": f"Key {KEY}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return json.loads(r.read())
    except urllib.error.HTTPError as e:
        sys.exit(f"seed: {method} {path} -> {e.code} {e.read()[:300]!r}")


def post(path, body):
    return send("POST", path, body)


ALERTS = [
    {"id": "a1000000-0000-4000-8000-000000000001", "resource": "web01", "event": "HttpError",
     "environment": "Production", "severity": "major", "service": ["Web"], "group": "Web",
     "value": "502", "text": "Bad gateway on web01", "tags": ["http"], "origin": "seed/capenv",
     "attributes": {"region": "eu-west"}, "createTime": "2026-12-01T09:00:00.000Z"},
    {"id": "a1000000-0000-4000-8000-000000000002", "resource": "web02", "event": "HttpError",
     "environment": "Production", "severity": "minor", "service": ["Web"], "group": "Web",
     "value": "504", "text": "Gateway timeout on web02", "tags": ["http"], "origin": "seed/capenv",
     "createTime": "2026-12-01T09:05:00.000Z"},
    {"id": "a1000000-0000-4000-8000-000000000003", "resource": "db01", "event": "DiskFull",
     "environment": "Production", "severity": "critical", "service": ["Database"], "group": "Storage",
     "value": "97%", "text": "Disk /var almost full", "tags": ["disk", "db"], "origin": "seed/capenv",
     "createTime": "2026-12-01T09:10:00.000Z"},
    {"id": "a1000000-0000-4000-8000-000000000004", "resource": "ci-runner", "event": "BuildSlow",
     "environment": "Development", "severity": "warning", "service": ["CI"], "group": "Build",
     "value": "40m", "text": "Builds take 40 minutes", "tags": [], "origin": "seed/capenv",
     "createTime": "2026-12-01T09:15:00.000Z"},
]
for alert in ALERTS:
    post("/alert", alert)
post("/blackout", {"id": "b1000000-0000-4000-8000-000000000001", "environment": "Development",
                   "resource": "staging-db", "startTime": "2026-01-01T00:00:00.000Z",
                   "endTime": "2030-01-01T00:00:00.000Z", "text": "staging rebuild"})
post("/heartbeat", {"id": "c1000000-0000-4000-8000-000000000001", "origin": "cron/backup",
                    "tags": ["nightly"], "timeout": 86400})
post("/heartbeat", {"id": "c1000000-0000-4000-8000-000000000002", "origin": "agent/web01",
                    "tags": ["agent"], "timeout": 3600})
post("/customer", {"id": "d1000000-0000-4000-8000-000000000001", "match": "acme.example",
                   "customer": "Acme"})
post("/perm", {"id": "e1000000-0000-4000-8000-000000000001", "match": "ops",
               "scopes": ["read", "write:alerts"]})
post("/user", {"id": "f1000000-0000-4000-8000-000000000001", "name": "Alice Ops",
               "email": "alice@capenv.test", "password": "capenv-throwaway-alice", "roles": ["ops"],
               "text": "on call"})
post("/group", {"id": "0a100000-0000-4000-8000-000000000001", "name": "oncall", "text": "on-call rota"})
send("PUT", "/group/0a100000-0000-4000-8000-000000000001/user/f1000000-0000-4000-8000-000000000001")

SQL = """
UPDATE users SET id = 'f0000000-0000-4000-8000-000000000001' WHERE email = 'admin@capenv.test';
UPDATE keys SET id = 'f0000000-0000-4000-8000-0000000000a1', expire_time = '2027-12-01 00:00:00'
  WHERE key = '%s';
""" % KEY
subprocess.run([PSQL, "-h", "127.0.0.1", "-p", PG_PORT, "-U", "postgres", "-d", DATABASE, "-q",
                "-v", "ON_ERROR_STOP=1", "-c", SQL], check=True, stdout=subprocess.DEVNULL)
