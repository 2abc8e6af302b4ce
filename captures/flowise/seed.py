#!/usr/bin/env python3
"""Seed a fresh Flowise 3.0.13 (start.sh runs this once the server answers).

Usage: python3 seed.py BASE DATABASE

1. The owner account through Flowise's first-run form (`POST /api/v1/account/register`).
2. In the database: fixed ids for the owner, its organization and its workspace (Flowise draws
   UUIDs), and a fixed throwaway API key with every permission an API key may hold, stored as
   Flowise stores one (scrypt of the key under a fixed salt, `hash.salt`).
3. Through the API under that key: two variables, a custom tool and two chatflows (one an agent
   flow); their UUIDs are then fixed in the database the same way, so that every start answers
   the same ids, and their times are fixed a second apart (lists are ordered by updatedDate).
   Standard library only.
"""
import hashlib
import json
import sqlite3
import sys
import urllib.request

API_KEY = "capenv-flowise-throwaway-api-key-0001"
SALT = "c0ffee00c0ffee00"
OWNER = {"name": "Capenv Owner", "email": "owner@capenv.test", "credential": "Capenv-throwaway-1"}
FIXED = {"user": "0c5e0a11-0000-4000-8000-00000000c0de",
         "organization": "0c5e0a11-0000-4000-8000-0000000000a1",
         "workspace": "0c5e0a11-0000-4000-8000-0000000000b1",
         "apikey": "0c5e0a11-0000-4000-8000-0000000000c1"}
PERMISSIONS = [f"{area}:{action}" for area, actions in {
    "chatflows": "view create update duplicate delete export import config domains",
    "agentflows": "view create update duplicate delete export import config domains",
    "tools": "view create update delete export",
    "assistants": "view create update delete",
    "credentials": "view create update delete share",
    "variables": "view create update delete",
    "apikeys": "view create update delete",
    "documentStores": "view create update delete add-loader delete-loader preview-process upsert-config",
    "datasets": "view create update delete",
    "executions": "view delete",
    "evaluators": "view create update delete",
    "evaluations": "view create update delete run",
    "templates": "marketplace custom custom-delete toolexport flowexport custom-share",
}.items() for action in actions.split()]

TOOL_FUNC = "const r = await fetch('https://example.invalid/weather?city=' + $city);\nreturn r.text();"
SEEDS = [  # (path, body, fixed id)
    ("/api/v1/variables", {"name": "region", "value": "eu-west", "type": "static"},
     "5eed0000-0000-4000-8000-000000000001"),
    ("/api/v1/variables", {"name": "max_tokens", "value": "512", "type": "static"},
     "5eed0000-0000-4000-8000-000000000002"),
    ("/api/v1/tools", {"name": "weather_lookup", "description": "Look up the weather of a city",
                       "color": "linear-gradient(rgb(117,118,129), rgb(230,10,250))",
                       "schema": json.dumps([{"id": 0, "property": "city", "type": "string",
                                              "description": "the city", "required": True}]),
                       "func": TOOL_FUNC},
     "5eed0000-0000-4000-8000-000000000011"),
    ("/api/v1/chatflows", {"name": "Support bot", "type": "CHATFLOW", "deployed": False, "isPublic": False,
                           "flowData": json.dumps({"nodes": [], "edges": []}), "category": "support"},
     "5eed0000-0000-4000-8000-000000000021"),
    ("/api/v1/chatflows", {"name": "Research agent", "type": "AGENTFLOW", "deployed": False, "isPublic": False,
                           "flowData": json.dumps({"nodes": [], "edges": []})},
     "5eed0000-0000-4000-8000-000000000022"),
]


TABLES = {"/api/v1/variables": "variable", "/api/v1/tools": "tool", "/api/v1/chatflows": "chat_flow"}
SEEDED_AT = "2026-11-02 10:00"


def call(base, method, path, body=None, key=None):
    headers = {"Content-Type": "application/json"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read() or b"null")


def replace_everywhere(db, old, new):
    """Every text cell equal to ``old`` becomes ``new`` (ids and the references to them)."""
    for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall():
        for column in db.execute(f'PRAGMA table_info("{table}")').fetchall():
            db.execute(f'UPDATE "{table}" SET "{column[1]}" = ? WHERE "{column[1]}" = ?', (new, old))


def main(base, database):
    account = call(base, "POST", "/api/v1/account/register", {"user": OWNER})
    ids = {"user": account["user"]["id"], "organization": account["organization"]["id"],
           "workspace": account["workspace"]["id"]}
    secret = hashlib.scrypt(API_KEY.encode(), salt=SALT.encode(), n=16384, r=8, p=1, dklen=64).hex()
    db = sqlite3.connect(database, timeout=30)
    with db:
        for what, old in ids.items():
            replace_everywhere(db, old, FIXED[what])
        db.execute('INSERT INTO apikey (id, "apiKey", "apiSecret", "keyName", "permissions", "workspaceId") '
                   "VALUES (?, ?, ?, ?, ?, ?)",
                   (FIXED["apikey"], API_KEY, f"{secret}.{SALT}", "capenv", json.dumps(PERMISSIONS),
                    FIXED["workspace"]))
    made = [(call(base, "POST", path, body, API_KEY)["id"], fixed, path) for path, body, fixed in SEEDS]
    with db:
        for n, (old, fixed, path) in enumerate(made):
            replace_everywhere(db, old, fixed)
            # fixed times, a second apart: every list is ordered by updatedDate (newest first), and
            # rows made within one second would list in an order the clock decides
            stamp = f"{SEEDED_AT}:{n:02d}.000"
            db.execute(f'UPDATE "{TABLES[path]}" SET "createdDate" = ?, "updatedDate" = ? WHERE id = ?',
                       (stamp, stamp, fixed))
    db.close()
    assert len(call(base, "GET", "/api/v1/chatflows", key=API_KEY)) == 2


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
