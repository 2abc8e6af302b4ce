#!/usr/bin/env python3
"""Seed a fresh devpi-server (run by start.sh directly on the app port, not recorded).

Usage: seed.py BASE ROOT_USER ROOT_PASSWORD

Every write authenticates as root by ``X-Devpi-Auth: base64(user:password)`` (devpi-server takes a
password where it takes a login token). What it makes, the same on every start:
  users   alice (email, title), bob (email, description); root exists from devpi-init
  indexes root/base (stage, not volatile, title), alice/dev (bases root/base, volatile),
          alice/staging (bases alice/dev and root/base, not volatile), bob/release (not volatile)
User passwords are throwaway strings; devpi never shows a password or its hash.
"""
import base64
import json
import sys
import urllib.error
import urllib.request

BASE, ROOT_USER, ROOT_PASSWORD = sys.argv[1:4]
AUTH = base64.b64encode(f"{ROOT_USER}:{ROOT_PASSWORD}".encode()).decode()

WRITES = [
    ("PUT", "/alice", {"password": "capenv-alice-throwaway", "email": "alice@example.com",
                       "title": "Alice Liddell"}),
    ("PUT", "/bob", {"password": "capenv-bob-throwaway", "email": "bob@example.org",
                     "description": "release manager"}),
    ("PUT", "/root/base", {"type": "stage", "volatile": False, "title": "Base packages"}),
    ("PUT", "/alice/dev", {"bases": ["root/base"], "volatile": True}),
    ("PUT", "/alice/staging", {"bases": ["alice/dev", "root/base"], "volatile": False,
                               "description": "what goes out next"}),
    ("PUT", "/bob/release", {"volatile": False, "title": "Releases"}),
]


def call(method, path, body):
    request = urllib.request.Request(BASE + path, method=method, data=json.dumps(body).encode(), headers={
        "Accept": "application/json", "Content-Type": "application/json", "X-Devpi-Auth": AUTH})
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status
    except urllib.error.HTTPError as error:
        sys.exit(f"seed: {method} {path} -> {error.code} {error.read()[:300]!r}")


for method, path, body in WRITES:
    call(method, path, body)
print(f"seeded {len(WRITES)} writes")
