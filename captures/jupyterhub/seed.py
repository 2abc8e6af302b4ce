#!/usr/bin/env python3
"""Seed a fresh JupyterHub through its REST API on the Hub's own port (not recorded).

Usage: python seed.py http://127.0.0.1:PORT
Users (besides `admin`, made by the configuration): ada, grace, alan, katherine, linus.
Groups: researchers (ada, grace; properties {"lab": "analytical-engine"}), teachers (alan),
alumni (no members). One API token of ada, noted "seeded notebook token".
Standard library only, so it runs in the application's venv.
"""
import json
import sys
import urllib.request

TOKEN = "capenv-jupyterhub-throwaway-api-token-0001"


def call(base, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + "/hub/api" + path, data=data, method=method)
    req.add_header("Authorization", "token " + TOKEN)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(req) as answer:
        return answer.status


def main():
    base = sys.argv[1].rstrip("/")
    for name in ("ada", "grace", "alan", "katherine", "linus"):
        call(base, "POST", "/users/" + name)
    call(base, "PATCH", "/users/grace", {"admin": True})
    call(base, "POST", "/groups/researchers", {"users": ["ada", "grace"]})
    call(base, "PUT", "/groups/researchers/properties", {"lab": "analytical-engine"})
    call(base, "POST", "/groups/teachers", {"users": ["alan"]})
    call(base, "POST", "/groups/alumni")
    call(base, "POST", "/users/ada/tokens", {"note": "seeded notebook token", "expires_in": 86400})


if __name__ == "__main__":
    main()
