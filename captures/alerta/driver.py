#!/usr/bin/env python3
"""Scenario driver for Alerta 9.1.0's JSON API (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:46001 --mode capture [-v]

Every call sends ``Authorization: Key capenv-alerta-admin-key-0000000000000001``, the admin API key
start.sh makes with a fixed value. The seed (seed.py, run by start.sh, not recorded): alerts
a1...01-04 (web01/web02 HttpError, db01 DiskFull in Production, ci-runner BuildSlow in Development),
blackout b1...01, heartbeats c1...01-02, customer d1...01, permission e1...01, users admin and alice
(f1...01), group 0a1...01 holding alice. Answers are envelopes ``{"status": "ok", ...}``: lists
``{alerts|blackouts|...: [...], total, page, pageSize, pages, more}``, items ``{"alert": {...}}``,
creates ``{"status": "ok", "id", "alert": {...}}``, other writes ``{"status": "ok"}``. Every call is
sequential, with a random 50-150 ms sleep before it.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

API_KEY = "capenv-alerta-admin-key-0000000000000001"
A1, A2, A3, A4 = (f"a1000000-0000-4000-8000-00000000000{i}" for i in range(1, 5))
BLACKOUT = "b1000000-0000-4000-8000-000000000001"
HB1, HB2 = "c1000000-0000-4000-8000-000000000001", "c1000000-0000-4000-8000-000000000002"
CUSTOMER = "d1000000-0000-4000-8000-000000000001"
PERM = "e1000000-0000-4000-8000-000000000001"
ALICE = "f1000000-0000-4000-8000-000000000001"
GROUP = "0a100000-0000-4000-8000-000000000001"
GHOST = "99999999-0000-4000-8000-000000000000"


def make_driver(base, min_sleep, max_sleep, verbose):
    return Driver(base, min_sleep, max_sleep, verbose, token=API_KEY, scheme="Key")


def capture(d):
    call, check = d.call, d.check

    def get(path, expect=200, **params):
        return call("GET", path, params=params or None, expect=expect)[1]

    def send(method, path, body=None, expect=200, raw=None):
        return call(method, path, body, raw=raw, expect=expect)[1]

    def total(path, **params):
        answer = get(path, **params)
        return answer.get("total") if isinstance(answer, dict) else None

    # ---- a. reads of the seed
    get("/")
    get("/alerts")
    for alert in (A1, A2, A3, A4):
        get(f"/alert/{alert}")
    get("/alerts/count")
    get("/alerts/top10/count")
    get("/environments")
    get("/services")
    get("/alerts/tags")
    get("/blackouts")
    get(f"/blackout/{BLACKOUT}")
    get("/heartbeats")
    get(f"/heartbeat/{HB1}")
    get("/customers")
    get(f"/customer/{CUSTOMER}")
    get("/perms")
    get(f"/perm/{PERM}")
    get("/users")
    get(f"/user/{ALICE}")
    get("/groups")
    get(f"/group/{GROUP}")
    get(f"/group/{GROUP}/users")
    get(f"/user/{ALICE}/groups")
    get("/keys")
    get(f"/key/{API_KEY}")
    # absences
    get(f"/alert/{GHOST}", expect=404)
    get(f"/blackout/{GHOST}", expect=404)
    get(f"/heartbeat/{GHOST}", expect=404)
    get(f"/customer/{GHOST}", expect=500)  # Alerta 9.1.0 answers a missing customer 500
    get(f"/perm/{GHOST}", expect=404)
    get(f"/user/{GHOST}", expect=404)
    get(f"/group/{GHOST}", expect=404)
    get("/key/no-such-key-0000000000000000000000000", expect=404)
    # the lists again, a few seconds later and no write between: what the server changes by itself
    # (a heartbeat's `since`, a blackout's `remaining`, a key's `count` and `lastUsedTime`)
    get("/heartbeats")
    get("/blackouts")
    get("/keys")

    # ---- b. alerts: creates (server ids), read back at the item and in the list
    new = send("POST", "/alert", {"resource": "web03", "event": "HttpError", "environment": "Production",
                                  "severity": "major", "service": ["Web"], "group": "Web", "value": "500",
                                  "text": "Internal error on web03", "tags": ["http", "new"],
                                  "attributes": {"region": "us-east"}, "origin": "driver/capenv"}, expect=201)
    web03 = new.get("id") if isinstance(new, dict) else None
    get(f"/alert/{web03}")
    check("alerts after web03", total("/alerts"), 5)
    new = send("POST", "/alert", {"resource": "cache01", "event": "MemoryHigh", "environment": "Production",
                                  "severity": "warning", "service": ["Cache"], "group": "Memory",
                                  "value": "85%", "text": "Memory at 85%", "origin": "driver/capenv"},
               expect=201)
    cache01 = new.get("id") if isinstance(new, dict) else None
    get(f"/alert/{cache01}")
    get("/alerts")
    new = send("POST", "/alert", {"id": "a2000000-0000-4000-8000-000000000001", "resource": "queue01",
                                  "event": "QueueBacklog", "environment": "Development", "severity": "minor",
                                  "service": ["Queue", "Billing"], "value": "1200", "text": "1200 waiting",
                                  "tags": ["queue"], "origin": "driver/capenv"}, expect=201)
    queue01 = "a2000000-0000-4000-8000-000000000001"
    get(f"/alert/{queue01}")
    get("/alerts")
    get("/alerts/count")
    # de-duplication: the same resource and event again bumps duplicateCount, no new alert
    dup = send("POST", "/alert", {"resource": "web03", "event": "HttpError", "environment": "Production",
                                  "severity": "major", "service": ["Web"], "value": "500",
                                  "text": "Internal error on web03 again", "origin": "driver/capenv"},
               expect=201)
    check("duplicate keeps the id", dup.get("id") if isinstance(dup, dict) else None, web03)
    get(f"/alert/{web03}")
    check("alerts after the duplicate", total("/alerts"), 7)
    send("POST", "/alert", {"resource": "web03", "event": "HttpError", "environment": "Production",
                            "severity": "major", "service": ["Web"], "value": "503",
                            "text": "Unavailable on web03", "origin": "driver/capenv"}, expect=201)
    get(f"/alert/{web03}")
    # correlation: same resource, another severity of the same event
    send("POST", "/alert", {"resource": "cache01", "event": "MemoryHigh", "environment": "Production",
                            "severity": "critical", "service": ["Cache"], "value": "98%",
                            "text": "Memory at 98%", "origin": "driver/capenv"}, expect=201)
    get(f"/alert/{cache01}")
    get("/alerts/count")
    # errors: no resource, no event, a bad environment, tags that are no list, a body that is not JSON
    send("POST", "/alert", {"event": "NoResource", "environment": "Production"}, expect=400)
    send("POST", "/alert", {"resource": "web09", "environment": "Production"}, expect=400)
    send("POST", "/alert", {"resource": "web09", "event": "Bad", "environment": "Staging"}, expect=403)
    send("POST", "/alert", {"resource": "web09", "event": "Bad", "environment": "Production",
                            "tags": "not-a-list"}, expect=400)
    send("POST", "/alert", raw="{not json", expect=400)
    check("alerts after the errors", total("/alerts"), 7)

    # ---- c. alert status, tags, attributes, actions, notes
    send("PUT", f"/alert/{A1}/status", {"status": "ack", "text": "looking into it"})
    get(f"/alert/{A1}")
    get("/alerts", status="ack")
    send("PUT", f"/alert/{A2}/status", {"status": "closed", "text": "recovered"})
    get(f"/alert/{A2}")
    get("/alerts", status="open")
    get("/alerts/count")
    send("PUT", f"/alert/{A1}/status", {"status": "open", "text": "reopened"})
    get(f"/alert/{A1}")
    send("PUT", f"/alert/{GHOST}/status", {"status": "ack"}, expect=404)
    send("PUT", f"/alert/{A3}/status", {}, expect=400)
    get(f"/alert/{A3}")
    send("PUT", f"/alert/{A3}/tag", {"tags": ["paged", "storage"]})
    get(f"/alert/{A3}")
    send("PUT", f"/alert/{web03}/tag", {"tags": ["customer-facing"]})
    get(f"/alert/{web03}")
    get("/alerts/tags")
    send("PUT", f"/alert/{A3}/untag", {"tags": ["db"]})
    get(f"/alert/{A3}")
    send("PUT", f"/alert/{web03}/untag", {"tags": ["new", "http"]})
    get(f"/alert/{web03}")
    send("PUT", f"/alert/{GHOST}/tag", {"tags": ["x"]}, expect=404)
    send("PUT", f"/alert/{A3}/attributes", {"attributes": {"runbook": "https://wiki.example/disk",
                                                           "owner": "dba"}})
    get(f"/alert/{A3}")
    send("PUT", f"/alert/{A1}/attributes", {"attributes": {"region": "eu-central", "ticket": "OPS-12"}})
    get(f"/alert/{A1}")
    send("PUT", f"/alert/{A1}/attributes", {"attributes": {"ticket": None}})
    get(f"/alert/{A1}")
    send("PUT", f"/alert/{GHOST}/attributes", {"attributes": {"a": "b"}}, expect=404)
    send("PUT", f"/alert/{A4}/action", {"action": "shelve", "text": "known slow"})
    get(f"/alert/{A4}")
    send("PUT", f"/alert/{cache01}/action", {"action": "ack", "text": "on it"})
    get(f"/alert/{cache01}")
    send("PUT", f"/alert/{A4}/action", {"action": "unshelve"})
    get(f"/alert/{A4}")
    note = send("PUT", f"/alert/{A3}/note", {"text": "disk expansion ordered"}, expect=201)
    get(f"/alert/{A3}/notes")
    send("PUT", f"/alert/{A3}/note", {"text": "second note"}, expect=201)
    get(f"/alert/{A3}/notes")

    # ---- d. filters, sort, paging, counts
    get("/alerts", status="open")
    get("/alerts", environment="Development")
    get("/alerts", severity="critical")
    get("/alerts", resource="web01")
    get("/alerts", service="Web")
    get("/alerts", group="Web")
    get("/alerts", **{"sort-by": "resource"})
    get("/alerts", **{"sort-by": "severity"})
    get("/alerts", **{"sort-by": "lastReceiveTime"})
    get("/alerts", **{"sort-by": "createTime", "reverse": "true"}, expect=400)
    get("/alerts", **{"page-size": "2"})
    get("/alerts", **{"page-size": "2", "page": "2"})
    get("/alerts", **{"page-size": "2", "page": "4"})
    get("/alerts", **{"page": "9"}, expect=416)
    get("/alerts", q="resource:web01")
    get("/alerts/count", status="open")
    get("/alerts/count", environment="Production")
    get("/alerts/top10/count")
    get("/alerts/top10/count", environment="Production")
    get("/environments")
    get("/services")

    # ---- e. alert deletes
    send("DELETE", f"/alert/{A2}")
    get(f"/alert/{A2}", expect=404)
    check("alerts after a delete", total("/alerts"), 6)
    send("DELETE", f"/alert/{queue01}")
    get(f"/alert/{queue01}", expect=404)
    get("/alerts")
    send("DELETE", f"/alert/{A2}", expect=404)
    get("/alerts/count")
    get("/services")

    # ---- f. blackouts
    new = send("POST", "/blackout", {"environment": "Production", "service": ["Web"],
                                     "startTime": "2026-12-20T00:00:00.000Z", "endTime": "2026-12-21T00:00:00.000Z",
                                     "text": "web maintenance"}, expect=201)
    bo1 = new.get("id") if isinstance(new, dict) else None
    get(f"/blackout/{bo1}")
    get("/blackouts")
    new = send("POST", "/blackout", {"id": "b2000000-0000-4000-8000-000000000001", "environment": "Production",
                                     "resource": "db01", "event": "DiskFull", "duration": 7200,
                                     "text": "disk swap"}, expect=201)
    get("/blackout/b2000000-0000-4000-8000-000000000001")
    get("/blackouts")
    send("PUT", f"/blackout/{bo1}", {"text": "web maintenance (extended)", "endTime": "2026-12-22T00:00:00.000Z"})
    get(f"/blackout/{bo1}")
    send("PUT", f"/blackout/{BLACKOUT}", {"text": "staging rebuild, phase 2"})
    get(f"/blackout/{BLACKOUT}")
    send("POST", "/blackout", {"text": "no environment"}, expect=400)
    send("PUT", f"/blackout/{GHOST}", {"text": "x"}, expect=404)
    send("DELETE", f"/blackout/{bo1}")
    get(f"/blackout/{bo1}", expect=404)
    get("/blackouts")
    send("DELETE", f"/blackout/{bo1}", expect=404)

    # ---- g. heartbeats (an origin again updates its heartbeat)
    new = send("POST", "/heartbeat", {"origin": "cron/report", "tags": ["daily"], "timeout": 7200}, expect=201)
    hb3 = new.get("id") if isinstance(new, dict) else None
    get(f"/heartbeat/{hb3}")
    get("/heartbeats")
    send("POST", "/heartbeat", {"origin": "cron/report", "tags": ["daily", "finance"], "timeout": 3600},
         expect=201)
    get(f"/heartbeat/{hb3}")
    get("/heartbeats")
    new = send("POST", "/heartbeat", {"origin": "agent/db01", "timeout": 600,
                                      "attributes": {"host": "db01"}}, expect=201)
    hb4 = new.get("id") if isinstance(new, dict) else None
    get(f"/heartbeat/{hb4}")
    send("POST", "/heartbeat", {"origin": "agent/db01", "timeout": "soon"}, expect=400)
    send("DELETE", f"/heartbeat/{hb4}")
    get(f"/heartbeat/{hb4}", expect=404)
    send("DELETE", f"/heartbeat/{HB2}")
    get("/heartbeats")
    send("DELETE", f"/heartbeat/{HB2}", expect=404)

    # ---- h. customers
    new = send("POST", "/customer", {"match": "globex.example", "customer": "Globex"}, expect=201)
    cu2 = new.get("id") if isinstance(new, dict) else None
    get(f"/customer/{cu2}")
    get("/customers")
    new = send("POST", "/customer", {"match": "ops", "customer": "Initech"}, expect=201)
    cu3 = new.get("id") if isinstance(new, dict) else None
    get(f"/customer/{cu3}")
    send("PUT", f"/customer/{cu2}", {"customer": "Globex Corp"})
    get(f"/customer/{cu2}")
    send("PUT", f"/customer/{CUSTOMER}", {"match": "acme.example.org"})
    get(f"/customer/{CUSTOMER}")
    get("/customers")
    send("PUT", f"/customer/{GHOST}", {"customer": "x"}, expect=404)
    send("DELETE", f"/customer/{cu3}")
    get(f"/customer/{cu3}", expect=500)
    get("/customers")

    # ---- i. permissions
    new = send("POST", "/perm", {"match": "viewer", "scopes": ["read"]}, expect=201)
    pe2 = new.get("id") if isinstance(new, dict) else None
    get(f"/perm/{pe2}")
    get("/perms")
    new = send("POST", "/perm", {"match": "auditor", "scopes": ["read:alerts", "read:blackouts"]}, expect=201)
    pe3 = new.get("id") if isinstance(new, dict) else None
    get(f"/perm/{pe3}")
    send("PUT", f"/perm/{pe2}", {"scopes": ["read", "write:heartbeats"]})
    get(f"/perm/{pe2}")
    send("PUT", f"/perm/{PERM}", {"scopes": ["read", "write:alerts", "write:blackouts"]})
    get(f"/perm/{PERM}")
    send("PUT", f"/perm/{GHOST}", {"scopes": ["read"]}, expect=404)
    send("DELETE", f"/perm/{pe3}")
    get(f"/perm/{pe3}", expect=404)
    get("/perms")
    get("/scopes")

    # ---- j. users and groups
    new = send("POST", "/user", {"name": "Bob Dev", "email": "bob@capenv.test", "password": "capenv-throwaway-bob",
                                 "roles": ["viewer"], "text": "developer"}, expect=201)
    bob = new.get("id") if isinstance(new, dict) else None
    get(f"/user/{bob}")
    get("/users")
    new = send("POST", "/user", {"name": "Carol Sre", "email": "carol@capenv.test",
                                 "password": "capenv-throwaway-carol"}, expect=201)
    carol = new.get("id") if isinstance(new, dict) else None
    get(f"/user/{carol}")
    send("POST", "/user", {"name": "Bob Again", "email": "bob@capenv.test", "password": "capenv-x"}, expect=409)
    send("POST", "/user", {"name": "No Email", "password": "capenv-x"}, expect=400)
    send("PUT", f"/user/{bob}", {"name": "Bob Developer", "roles": ["viewer", "ops"]})
    get(f"/user/{bob}")
    send("PUT", f"/user/{ALICE}", {"text": "on call this week"})
    get(f"/user/{ALICE}")
    send("PUT", f"/user/{ALICE}/attributes", {"attributes": {"prefs": {"theme": "dark"}}})
    get(f"/user/{ALICE}")
    send("PUT", f"/user/{GHOST}", {"name": "x"}, expect=404)
    new = send("POST", "/group", {"name": "dba", "text": "database admins"}, expect=201)
    dba = new.get("id") if isinstance(new, dict) else None
    get(f"/group/{dba}")
    get("/groups")
    send("PUT", f"/group/{dba}/user/{bob}", {})
    get(f"/group/{dba}/users")
    get(f"/user/{bob}/groups")
    get(f"/group/{dba}")
    send("PUT", f"/group/{dba}/user/{carol}", {})
    get(f"/group/{dba}/users")
    send("PUT", f"/group/{dba}", {"text": "database administrators"})
    get(f"/group/{dba}")
    send("PUT", f"/group/{GROUP}", {"name": "on-call"})
    get(f"/group/{GROUP}")
    send("DELETE", f"/group/{dba}/user/{carol}")
    get(f"/group/{dba}/users")
    get(f"/user/{carol}/groups")
    send("PUT", f"/group/{GHOST}/user/{bob}", {}, expect=404)
    send("POST", "/group", {"text": "no name"}, expect=400)
    send("DELETE", f"/user/{carol}")
    get(f"/user/{carol}", expect=404)
    get("/users")
    send("DELETE", f"/group/{dba}")
    get(f"/group/{dba}", expect=404)
    get(f"/user/{bob}/groups")
    get("/groups")
    send("DELETE", f"/user/{carol}", expect=404)

    # ---- k. API keys
    new = send("POST", "/key", {"text": "grafana reader", "scopes": ["read"],
                                "key": "capenv-alerta-grafana-key-00000000000001"}, expect=201)
    get("/key/capenv-alerta-grafana-key-00000000000001")
    get("/keys")
    new = send("POST", "/key", {"text": "ci writer", "scopes": ["write:alerts"]}, expect=201)
    ci_key = new.get("key") if isinstance(new, dict) else None
    get(f"/key/{ci_key}")
    send("POST", "/key", {"text": "bad scope", "scopes": ["fly:alerts"]}, expect=403)
    send("PUT", "/key/capenv-alerta-grafana-key-00000000000001", {"text": "grafana dashboards"})
    get("/key/capenv-alerta-grafana-key-00000000000001")
    send("PUT", f"/key/{ci_key}", {"scopes": ["write:alerts", "write:heartbeats"]})
    get(f"/key/{ci_key}")
    send("PUT", "/key/no-such-key-0000000000000000000000000", {"text": "x"}, expect=404)
    send("DELETE", f"/key/{ci_key}")
    get(f"/key/{ci_key}", expect=404)
    get("/keys")
    send("DELETE", f"/key/{ci_key}", expect=404)

    # ---- l. final reads
    get("/alerts")
    get("/alerts/count")
    get("/alerts/top10/count")


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:46001")
