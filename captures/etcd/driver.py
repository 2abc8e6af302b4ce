#!/usr/bin/env python3
"""Scenario driver for etcd 3.4.23's v2 keys API (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:46301 --mode capture [-v]

No token: etcd runs without authentication. The seed (seed.py, run by start.sh, not recorded):
keys under /config/app, /config/db, /services/web, /services/api and /flags, two in-order keys
under /queue/jobs (names 00000000000000000014 and ...15: the index that made them) and an empty
directory /archive. Writes send form bodies as etcd's own v2 client does: the value, `dir` and
`ttl` in the body, the preconditions (`prevExist`, `prevValue`, `prevIndex`) in the query.
Every call is sequential, with a random 50-150 ms sleep before it.
"""
import sys
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

KEYS = "/v2/keys"
FORM = {"Content-Type": "application/x-www-form-urlencoded"}
SEEDED_JOBS = ["00000000000000000014", "00000000000000000015"]


def make_driver(base, min_sleep, max_sleep, verbose):
    return Driver(base, min_sleep, max_sleep, verbose)


def capture(d):
    call, check = d.call, d.check

    def get(key, expect=200, **params):
        return call("GET", KEYS + key, params=params or None, expect=expect)[1]

    def write(method, key, form=None, expect=200, **params):
        raw = urllib.parse.urlencode(form) if form is not None else None
        return call(method, KEYS + key, raw=raw, params=params or None, expect=expect,
                    headers=FORM if raw is not None else None)[1]

    def put(key, form, expect=200, **params):
        return write("PUT", key, form, expect, **params)

    def delete(key, expect=200, **params):
        return write("DELETE", key, None, expect, **params)

    def node(answer):
        return answer.get("node", {}) if isinstance(answer, dict) else {}

    # ---- a. reads before any write: server, members, every directory and key, listings, absences
    call("GET", "/version", expect=200)
    call("GET", "/health", expect=200)
    call("GET", "/v2/members", expect=200)
    get("/")
    get("/", recursive="true", sorted="true")
    for directory in ("/config", "/config/app", "/config/db", "/services", "/services/web",
                      "/services/api", "/flags", "/queue", "/queue/jobs", "/archive"):
        get(directory)
    get("/config", recursive="true")
    get("/config/app", sorted="true")
    get("/services", recursive="true", sorted="true")
    get("/queue/jobs", sorted="true")
    for key in ("/config/app/name", "/config/app/mode", "/config/app/replicas", "/config/db/host",
                "/config/db/port", "/services/web/node1", "/services/web/node2", "/services/api/node1",
                "/flags/dark-mode", "/flags/beta"):
        get(key)
    for job in SEEDED_JOBS:
        get(f"/queue/jobs/{job}")
    get("/config/app/name/")                       # a trailing slash reads the same key
    get("/config/app/missing", 404)
    get("/nothing", 404)
    get("/nothing/below/here", 404)
    get("/services/db", 404)
    get("/services/db/node1", 404)
    get("/config/app/name/sub", 400)               # below a key that is not a directory: 104
    get("/queue/jobs/00000000000000000099", 404)

    # ---- b. creates: PUT of new keys (at any depth: missing directories made), prevExist=false,
    # POST in-order keys, directories; each read after
    created = put("/config/app/region", {"value": "eu-west"}, 201)
    get("/config/app/region")
    get("/config/app", sorted="true")
    put("/services/cache/node1", {"value": "10.0.2.31:6379"}, 201)   # makes /services/cache
    get("/services/cache/node1")
    get("/services/cache")
    get("/services", sorted="true")
    put("/config/app/owner", {"value": "team-platform"}, 201, prevExist="false")
    get("/config/app/owner")
    put("/flags/new-checkout", {"value": "off"}, 201, prevExist="false")
    get("/flags", sorted="true")
    put("/config/app/name", {"value": "other"}, 412, prevExist="false")   # 105 key exists
    get("/config/app/name")
    put("/teams/platform/lead", {"value": "grace"}, 201)               # three new levels
    get("/teams/platform/lead")
    get("/teams", recursive="true")
    jobs = []
    for text in ("rebuild search index", "export report 2026-11", "purge cache of /shop/*"):
        answer = write("POST", "/queue/jobs", {"value": text}, 201)
        jobs.append(node(answer).get("key", "").rsplit("/", 1)[-1])
        get(node(answer).get("key", "/queue/jobs/0"))
    get("/queue/jobs", sorted="true")
    write("POST", "/queue/mail", {"value": "welcome ada"}, 201)        # POST makes /queue/mail
    get("/queue/mail", sorted="true")
    get("/queue", recursive="true", sorted="true")
    put("/archive/2025", {"dir": "true"}, 201)
    get("/archive/2025")
    get("/archive")
    put("/staging", {"dir": "true"}, 201)
    get("/staging")
    put("/staging", {"dir": "true"}, 403)                                # 102 not a file
    put("/config/app", {"value": "x"}, 403)                              # a value on a directory
    put("/config/app/name/sub", {"value": "x"}, 400)                     # 104 below a key
    write("POST", "/config/app/name", {"value": "x"}, 400)               # in-order below a key
    put("/locks/deploy", {"value": "runner-7", "ttl": "86400"}, 201, prevExist="false")  # a lease
    get("/locks/deploy")
    put("/locks/deploy", {"value": "runner-9", "ttl": "86400"}, 412, prevExist="false")
    get("/", sorted="true")

    # ---- c. updates: PUT of held keys (set, prevNode), prevExist=true, compare-and-swap by value
    # and by index, failures; each read after
    put("/config/app/mode", {"value": "staging"})
    get("/config/app/mode")
    put("/config/app/mode", {"value": "maintenance"}, prevExist="true")
    get("/config/app/mode")
    put("/config/app/timeout", {"value": "30s"}, 404, prevExist="true")  # 100 not found
    get("/config/app/timeout", 404)
    put("/config/app/replicas", {"value": "5"}, prevValue="3")            # compareAndSwap
    get("/config/app/replicas")
    put("/config/app/replicas", {"value": "7"}, 412, prevValue="3")       # 101 compare failed
    get("/config/app/replicas")
    port = node(get("/config/db/port"))
    put("/config/db/port", {"value": "6432"}, prevIndex=str(port.get("modifiedIndex", 0)))
    get("/config/db/port")
    put("/config/db/port", {"value": "7432"}, 412, prevIndex=str(port.get("modifiedIndex", 0)))
    get("/config/db/port")
    put("/config/db/host", {"value": "db2.internal"}, 412, prevValue="db1.internal",
        prevIndex="2")                                                    # one of two fails
    get("/config/db/host")
    put("/config/db/host", {"value": "db2.internal"}, prevValue="db1.internal")
    get("/config/db")
    put("/flags/beta", {"value": "on"})
    put("/flags/beta", {"value": "on"})                                   # the same value again
    get("/flags/beta")
    put("/services/web/node2", {"value": "10.0.0.13:8080"})
    get("/services/web", sorted="true")
    put(f"/queue/jobs/{jobs[0]}", {"value": "rebuild search index (full)"})
    get(f"/queue/jobs/{jobs[0]}")
    put("/config/app/region", {"value": "eu-central"}, prevValue="eu-west")
    get("/config/app/region")
    put("/config/app/missing", {"value": "x"}, 404, prevValue="y")         # CAS on a missing key
    put("/config/app/missing", {"value": "x"}, 404, prevIndex="5")
    get("/config", recursive="true", sorted="true")

    # ---- d. deletes: keys (with prevNode), compare-and-delete, directories by dir=true and
    # recursive=true, failures; reads after each
    delete("/flags/dark-mode")
    get("/flags/dark-mode", 404)
    get("/flags", sorted="true")
    delete("/flags/dark-mode", 404)
    delete("/config/app/owner", 412, prevValue="someone-else")            # 101
    get("/config/app/owner")
    delete("/config/app/owner", prevValue="team-platform")                # compareAndDelete
    get("/config/app/owner", 404)
    region = node(get("/config/app/region"))
    delete("/config/app/region", 412, prevIndex="1")
    delete("/config/app/region", prevIndex=str(region.get("modifiedIndex", 0)))
    get("/config/app/region", 404)
    get("/config/app", sorted="true")
    delete(f"/queue/jobs/{SEEDED_JOBS[0]}")                                # take the oldest job
    get(f"/queue/jobs/{SEEDED_JOBS[0]}", 404)
    get("/queue/jobs", sorted="true")
    delete("/services/cache", 403)                                         # 102 a directory
    delete("/services/cache", 403, dir="true")                             # 108 not empty
    get("/services/cache")
    delete("/services/cache/node1")
    get("/services/cache")                                                 # left empty
    delete("/services/cache", dir="true")
    get("/services/cache", 404)
    get("/services", sorted="true")
    delete("/archive/2025", dir="true")
    get("/archive")
    delete("/teams", recursive="true")                                     # every level below
    get("/teams", 404)
    get("/teams/platform/lead", 404)
    delete("/queue/mail", recursive="true")
    get("/queue/mail", 404)
    get("/queue", recursive="true", sorted="true")
    delete("/nothing", 404)
    delete("/nothing", 404, recursive="true")
    delete("/config/app/name", dir="true")                                # dir=true deletes a key too
    get("/config/app/name", 404)
    delete("/staging", recursive="true")
    get("/staging", 404)
    delete("/locks/deploy", 412, prevValue="runner-9")                      # not the holder
    delete("/locks/deploy", prevValue="runner-7")                           # released
    get("/locks/deploy", 404)

    # ---- e. writes again where deletes were, and final listings
    put("/flags/dark-mode", {"value": "auto"}, 201)
    get("/flags/dark-mode")
    put("/config/app/name", {"value": "inventory-v2"}, 201, prevExist="false")
    get("/config/app/name")
    put("/services/cache/node1", {"value": "10.0.2.32:6379"}, 201)
    get("/services/cache", sorted="true")
    write("POST", "/queue/jobs", {"value": "reindex after restore"}, 201)
    get("/queue/jobs", sorted="true")
    get("/config", recursive="true", sorted="true")
    get("/services", recursive="true", sorted="true")
    get("/", recursive="true", sorted="true")
    get("/")
    call("GET", "/v2/members", expect=200)
    call("GET", "/health", expect=200)
    check("the first create answered", node(created).get("key"), "/config/app/region")


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:46301")
