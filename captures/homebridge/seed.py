#!/usr/bin/env python3
"""Seed Homebridge Config UI X through its own API (run by start.sh once the API answers).

Usage: python3 seed.py BASE_URL

The setup wizard's token makes the first user (admin, id 1); admin's login then adds two users:
operator (id 2, admin) and viewer (id 3, not admin). Standard library only, so any python3 runs it.
"""
import json
import sys
import urllib.request


def call(base, method, path, body=None, token=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read() or b"null")


def main(base):
    wizard = call(base, "GET", "/api/setup-wizard/get-setup-wizard-token")["access_token"]
    call(base, "POST", "/api/setup-wizard/create-first-user",
         {"username": "admin", "name": "Admin", "password": "admin-pass-1", "admin": True}, wizard)
    token = call(base, "POST", "/api/auth/login", {"username": "admin", "password": "admin-pass-1"})["access_token"]
    call(base, "POST", "/api/users",
         {"username": "operator", "name": "Olive Operator", "password": "operator-pass-1", "admin": True}, token)
    call(base, "POST", "/api/users",
         {"username": "viewer", "name": "Victor Viewer", "password": "viewer-pass-1", "admin": False}, token)


if __name__ == "__main__":
    main(sys.argv[1].rstrip("/"))
