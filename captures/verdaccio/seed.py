#!/usr/bin/env python3
"""Seed a fresh Verdaccio through its own npm registry API (run by start.sh once it answers; not recorded).

Usage: python3 seed.py http://127.0.0.1:PORT

Users alice (the driver logs in as her) and bob; packages, each published by alice as npm 10 would:
  left-pad-lite 1.0.0, 1.1.0 (latest), 2.0.0-beta.1 (dist-tag next)
  tiny-util 0.3.0
  @acme/widgets 1.0.0, 1.0.1 (latest)
  @acme/theme 0.1.0 (published by bob)
Only the standard library: any python3 runs it.
"""
import json
import sys
import urllib.error
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from package_tarball import publish_body  # noqa: E402

PASSWORDS = {"alice": "alice-pass-1", "bob": "bob-pass-1"}
PACKAGES = [  # (publisher, name, version, description, tag, keywords)
    ("alice", "left-pad-lite", "1.0.0", "Pads strings on the left", "latest", ["string", "pad"]),
    ("alice", "left-pad-lite", "1.1.0", "Pads strings on the left", "latest", ["string", "pad"]),
    ("alice", "left-pad-lite", "2.0.0-beta.1", "Pads strings on the left", "next", ["string", "pad"]),
    ("alice", "tiny-util", "0.3.0", "Tiny helpers for arrays", "latest", ["array"]),
    ("alice", "@acme/widgets", "1.0.0", "Acme UI widgets", "latest", ["ui"]),
    ("alice", "@acme/widgets", "1.0.1", "Acme UI widgets", "latest", ["ui"]),
    ("bob", "@acme/theme", "0.1.0", "Acme colour theme", "latest", ["ui", "theme"]),
]


def call(base, method, path, body, token=None):
    request = urllib.request.Request(base + path, method=method, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.load(answer)


def main(base):
    tokens = {}
    for user, password in PASSWORDS.items():
        tokens[user] = call(base, "PUT", f"/-/user/org.couchdb.user:{user}",
                            {"name": user, "password": password, "type": "user", "roles": []})["token"]
    for user, name, version, description, tag, keywords in PACKAGES:
        body = publish_body(base, name, version, description, tag=tag, keywords=keywords)
        call(base, "PUT", "/" + name.replace("/", "%2f"), body, tokens[user])
    print(f"seeded {len(PASSWORDS)} users, {len(PACKAGES)} versions")


if __name__ == "__main__":
    try:
        main(sys.argv[1].rstrip("/"))
    except urllib.error.HTTPError as error:
        sys.exit(f"seed failed: {error.code} {error.read()[:300]!r}")
