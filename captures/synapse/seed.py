#!/usr/bin/env python3
"""Seed a fresh Synapse directly on its port (never through the recording proxy).

Usage: seed.py BASE_URL HOMESERVER_DB

The admin `@admin:capenv.test` is registered with the shared secret (capenv.yaml); with its token
the admin API makes the users and a registration token, the client API the rooms and the
admin's settings account data; then the admin's token row in
homeserver.db is given the fixed throwaway value of token.txt, so the driver and probes.yaml hold a
token valid on every fresh start without a recorded login (a login's body holds a password);
last, it waits until Synapse has stored the token's use (the admin's last_seen_ts).
Standard library only (runs in Synapse's venv).
"""
import hashlib
import hmac
import json
import sqlite3
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

SHARED_SECRET = "capenv-synapse-throwaway-shared-secret"
ADMIN_PASSWORD = "capenv-synapse-throwaway-password"
SERVER = "capenv.test"
USERS = [  # localpart, displayname, admin, deactivated
    ("alice", "Alice Liddell", False, False),
    ("bob", "Bob Builder", False, False),
    ("carol", "Carol Danvers", True, False),
    ("dave", "Dave Lister", False, True),
]
ROOMS = [  # name, alias localpart (None: no alias), preset, topic, members joined by the admin
    ("General", "general", "public_chat", "Company-wide announcements", ["alice", "bob"]),
    ("Random", "random", "public_chat", "Anything goes", ["bob"]),
    ("Ops private", None, "private_chat", "Incident coordination", []),
]


def call(base, method, path, body=None, token=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read() or b"{}")


def register_admin(base):
    nonce = call(base, "GET", "/_synapse/admin/v1/register")["nonce"]
    mac = hmac.new(SHARED_SECRET.encode(), digestmod=hashlib.sha1)
    mac.update(b"\x00".join([nonce.encode(), b"admin", ADMIN_PASSWORD.encode(), b"admin"]))
    answer = call(base, "POST", "/_synapse/admin/v1/register",
                  {"nonce": nonce, "username": "admin", "password": ADMIN_PASSWORD, "admin": True,
                   "displayname": "Ada Admin", "mac": mac.hexdigest()})
    return answer["access_token"]


def quoted(identifier):
    return urllib.parse.quote(identifier, safe="")


def main():
    base, database = sys.argv[1], sys.argv[2]
    token = register_admin(base)
    for localpart, displayname, admin, deactivated in USERS:
        body = {"displayname": displayname, "admin": admin}
        call(base, "PUT", f"/_synapse/admin/v2/users/@{localpart}:{SERVER}", body, token)
        if deactivated:
            call(base, "POST", f"/_synapse/admin/v1/deactivate/@{localpart}:{SERVER}", {"erase": False}, token)
    for name, alias, preset, topic, members in ROOMS:
        body = {"name": name, "preset": preset, "topic": topic}
        if alias:
            body["room_alias_name"] = alias
        room_id = call(base, "POST", "/_matrix/client/v3/createRoom", body, token)["room_id"]
        for member in members:
            call(base, "POST", f"/_synapse/admin/v1/join/{quoted(room_id)}", {"user_id": f"@{member}:{SERVER}"},
                 token)
    call(base, "POST", "/_synapse/admin/v1/registration_tokens/new", {"token": "seed-invite", "uses_allowed": 3},
         token)
    call(base, "PUT", f"/_matrix/client/v3/user/{quoted('@admin:' + SERVER)}/account_data/org.capenv.settings",
         {"theme": "system"}, token)
    fixed = (Path(__file__).resolve().parent / "token.txt").read_text().strip()
    with sqlite3.connect(database, timeout=30) as db:
        changed = db.execute("UPDATE access_tokens SET token = ? WHERE token = ?", (fixed, token)).rowcount
    if changed != 1:
        sys.exit(f"the admin's access token row was not found in {database}")
    call(base, "GET", "/_matrix/client/v3/account/whoami", token=fixed)
    # Synapse stores a token's use (the user's last_seen_ts) in a batch every few seconds: wait for
    # it, so every read of the admin shows it set, in the recording and on a later start alike.
    for _ in range(100):
        if call(base, "GET", "/_synapse/admin/v2/users/@admin:" + SERVER, token=fixed)["last_seen_ts"]:
            return
        time.sleep(0.2)
    sys.exit("the admin's last_seen_ts was not set within 20 s")


if __name__ == "__main__":
    main()
