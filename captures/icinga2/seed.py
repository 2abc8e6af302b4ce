#!/usr/bin/env python3
"""Seed a fresh Icinga 2 through its REST API (not recorded): groups, users, hosts and services,
each created by `PUT /v1/objects/<type>/<name>` as the scenario's own creates are.

Usage: python3 seed.py https://127.0.0.1:PORT  (the standard library only; the API's certificate
is the self-signed one start.sh made, so it is not verified)
"""
import base64
import json
import ssl
import sys
import urllib.error
import urllib.request

AUTH = "Basic " + base64.b64encode(b"capenv:capenv-icinga-not-a-secret").decode()
CONTEXT = ssl.create_default_context()
CONTEXT.check_hostname = False
CONTEXT.verify_mode = ssl.CERT_NONE

OBJECTS = [
    ("hostgroups", "linux", {"attrs": {"display_name": "Linux servers"}}),
    ("hostgroups", "windows", {"attrs": {"display_name": "Windows servers"}}),
    ("servicegroups", "web", {"attrs": {"display_name": "Web services"}}),
    ("usergroups", "ops", {"attrs": {"display_name": "Operations"}}),
    ("users", "alice", {"templates": ["generic-user"],
                        "attrs": {"display_name": "Alice Admin", "email": "alice@capenv.test", "groups": ["ops"]}}),
    ("users", "bob", {"templates": ["generic-user"],
                      "attrs": {"display_name": "Bob Builder", "email": "bob@capenv.test", "pager": "555-0101"}}),
    ("hosts", "db01", {"templates": ["generic-host"],
                       "attrs": {"address": "10.0.1.10", "display_name": "Database 1", "groups": ["linux"],
                                 "vars": {"os": "Linux", "role": "db"}}}),
    ("hosts", "web01", {"templates": ["generic-host"],
                        "attrs": {"address": "10.0.1.21", "display_name": "Web 1", "groups": ["linux"],
                                  "vars": {"os": "Linux", "role": "web"}}}),
    ("hosts", "web02", {"templates": ["generic-host"],
                        "attrs": {"address": "10.0.1.22", "display_name": "Web 2", "groups": ["linux"],
                                  "vars": {"os": "Linux", "role": "web"}}}),
    ("hosts", "win01", {"templates": ["generic-host"],
                        "attrs": {"address": "10.0.2.5", "display_name": "Windows 1", "groups": ["windows"],
                                  "vars": {"os": "Windows", "role": "file"}}}),
    ("services", "web01!http", {"templates": ["generic-service"],
                                "attrs": {"display_name": "HTTP", "groups": ["web"], "vars": {"port": 80}}}),
    ("services", "web01!ssh", {"templates": ["generic-service"], "attrs": {"display_name": "SSH", "vars": {"port": 22}}}),
    ("services", "web02!http", {"templates": ["generic-service"],
                                "attrs": {"display_name": "HTTP", "groups": ["web"], "vars": {"port": 8080}}}),
    ("services", "db01!postgres", {"templates": ["generic-service"],
                                   "attrs": {"display_name": "PostgreSQL", "vars": {"port": 5432}}}),
]


def put(base, kind, name, body):
    request = urllib.request.Request(f"{base}/v1/objects/{kind}/{name}", data=json.dumps(body).encode(),
                                     method="PUT", headers={"Authorization": AUTH, "Accept": "application/json",
                                                            "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, context=CONTEXT, timeout=30) as response:
            response.read()
    except urllib.error.HTTPError as error:
        sys.exit(f"seed: PUT {kind}/{name}: {error.code} {error.read()[:300]!r}")


def main():
    base = sys.argv[1].rstrip("/")
    for kind, name, body in OBJECTS:
        put(base, kind, name, body)


if __name__ == "__main__":
    main()
