#!/usr/bin/env python3
"""Seed a fresh etcd 3.4.23 through its v2 keys API (not recorded).

Usage: python3 seed.py BASE_URL

Keys at several depths, written as form bodies (`value=...`), one call each and in this order, so
that every start gives the same createdIndex/modifiedIndex numbers (etcd counts every write of the
whole store: one index for all keys):
  /config/app/name, /config/app/mode, /config/app/replicas, /config/db/host, /config/db/port
  /services/web/node1, /services/web/node2, /services/api/node1
  /flags/dark-mode, /flags/beta
  /queue/jobs: two in-order keys made by POST (names the index etcd gives them)
  /archive: an empty directory (dir=true)
Standard library only.
"""
import json
import sys
import urllib.parse
import urllib.request

KEYS = [
    ("/config/app/name", "inventory"),
    ("/config/app/mode", "production"),
    ("/config/app/replicas", "3"),
    ("/config/db/host", "db1.internal"),
    ("/config/db/port", "5432"),
    ("/services/web/node1", "10.0.0.11:8080"),
    ("/services/web/node2", "10.0.0.12:8080"),
    ("/services/api/node1", "10.0.1.21:9000"),
    ("/flags/dark-mode", "on"),
    ("/flags/beta", "off"),
]
JOBS = ["resize image 17", "send welcome mail to ada"]


def call(base, method, path, form):
    request = urllib.request.Request(base + "/v2/keys" + path, method=method,
                                     data=urllib.parse.urlencode(form).encode())
    request.add_header("Content-Type", "application/x-www-form-urlencoded")
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def main(base):
    for key, value in KEYS:
        call(base, "PUT", key, {"value": value})
    for job in JOBS:
        call(base, "POST", "/queue/jobs", {"value": job})
    call(base, "PUT", "/archive", {"dir": "true"})


if __name__ == "__main__":
    main(sys.argv[1])
