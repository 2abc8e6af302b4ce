#!/usr/bin/env python3
"""Seed a fresh GNU Mailman 3.3.10 through its REST API as the REST admin (not recorded).

Usage: python seed.py BASE_URL ADMIN_USER ADMIN_PASS DATABASE

Makes, in this order (every create answers 201 with a Location header and an empty body):
  domains    example.com ("Example lists"), example.org ("Org lists")
  lists      ant@example.com, bee@example.com, cat@example.org, each with a description
             (PATCH /3.1/lists/{list_id}/config)
  users      anne@example.com "Anne Person", bart@example.com "Bart Person",
             cris@example.org "Cris Person" (no password: start.sh's plaintext scheme keeps the
             empty one out of the resources); anne also holds anne@example.org
  members    pre-verified, pre-confirmed, pre-approved subscriptions: anne and bart members of
             ant, anne member of bee, cris member of cat; bart moderator of bee, anne owner of
             ant (owners and moderators are members of another role, in /3.1/members too)
User and member ids are random UUIDs (32 hex digits) Mailman makes anew on every start, and every
resource's http_etag hashes its members, clocks included. So that every fresh start holds the same
seed, byte for byte, the seed's ids and clocks are then set in the SQLite database (DATABASE, the
running Mailman's own) to fixed values: ids uuid5 of what they name, clocks 2026-11-30 09:00
plus a second per row. Mailman reads each request afresh from the database, and the seed ends
by reading a user back through the REST API to check it sees the fixed id.
Standard library only (the mailman venv's python).
"""
import base64
import datetime
import json
import sqlite3
import sys
import urllib.request
import uuid

DOMAINS = [{"mail_host": "example.com", "description": "Example lists"},
           {"mail_host": "example.org", "description": "Org lists"}]
LISTS = [("ant@example.com", "Everything about ants"),
         ("bee@example.com", "Bees and their keepers"),
         ("cat@example.org", "Cats, mostly asleep")]
USERS = [{"email": "anne@example.com", "display_name": "Anne Person"},
         {"email": "bart@example.com", "display_name": "Bart Person"},
         {"email": "cris@example.org", "display_name": "Cris Person"}]
EXTRA_ADDRESSES = [("anne@example.com", {"email": "anne@example.org", "display_name": "Anne at org"})]
MEMBERS = [("ant.example.com", "anne@example.com", "member"),
           ("ant.example.com", "bart@example.com", "member"),
           ("bee.example.com", "anne@example.com", "member"),
           ("cat.example.org", "cris@example.org", "member"),
           ("bee.example.com", "bart@example.com", "moderator"),
           ("ant.example.com", "anne@example.com", "owner")]


def caller(base, user, password):
    auth = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()

    def call(method, path, body=None):
        request = urllib.request.Request(base + "/3.1" + path, method=method,
                                         data=None if body is None else json.dumps(body).encode())
        request.add_header("Authorization", auth)
        if body is not None:
            request.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(request, timeout=60) as answer:
            return json.loads(answer.read() or b"null")
    return call


SEED_CLOCK = datetime.datetime(2026, 11, 30, 9, 0, 0, 250000)


def fixed_id(name):
    return uuid.uuid5(uuid.NAMESPACE_URL, "capenv-mailman-seed:" + name).hex


def fix_ids_and_clocks(database):
    """Every row the REST seed made gets its fixed id and clock (see the module's docstring)."""
    clock = iter(SEED_CLOCK + datetime.timedelta(seconds=n) for n in range(1000))

    def at():
        return next(clock).strftime("%Y-%m-%d %H:%M:%S.%f")

    db = sqlite3.connect(database)
    with db:
        for row_id, in db.execute("SELECT id FROM mailinglist ORDER BY id").fetchall():
            db.execute("UPDATE mailinglist SET created_at = ? WHERE id = ?", (at(), row_id))
        renamed = {}
        for row_id, old, display_name in db.execute(
                "SELECT id, _user_id, display_name FROM user ORDER BY id").fetchall():
            renamed[old] = fixed_id("user:" + display_name)
            db.execute("UPDATE user SET _user_id = ?, _created_on = ? WHERE id = ?", (renamed[old], at(), row_id))
        for row_id, email, verified in db.execute(
                "SELECT id, email, verified_on FROM address ORDER BY id").fetchall():
            registered = at()
            db.execute("UPDATE address SET registered_on = ?, verified_on = ? WHERE id = ?",
                       (registered, at() if verified else None, row_id))
        for row_id, old, list_id, role, email in db.execute(
                "SELECT member.id, _member_id, list_id, role, address.email FROM member "
                "JOIN address ON address.id = member.address_id ORDER BY member.id").fetchall():
            renamed[old] = fixed_id(f"member:{list_id}:{role}:{email}")
            db.execute("UPDATE member SET _member_id = ? WHERE id = ?", (renamed[old], row_id))
        for old, new in renamed.items():
            db.execute("UPDATE uid SET uid = ? WHERE uid = ?", (new, old))
    db.close()


def main(base, user, password, database):
    call = caller(base, user, password)
    for domain in DOMAINS:
        call("POST", "/domains", domain)
    for fqdn, description in LISTS:
        call("POST", "/lists", {"fqdn_listname": fqdn})
        call("PATCH", f"/lists/{fqdn.replace('@', '.')}/config", {"description": description})
    for person in USERS:
        call("POST", "/users", person)
    for owner, address in EXTRA_ADDRESSES:
        user_id = call("GET", f"/users/{owner}")["user_id"]
        call("POST", f"/users/{user_id}/addresses", address)
    for list_id, email, role in MEMBERS:
        call("POST", "/members", {"list_id": list_id, "subscriber": email, "role": role,
                                  "pre_verified": True, "pre_confirmed": True, "pre_approved": True})
    fix_ids_and_clocks(database)
    anne = call("GET", "/users/anne@example.com")
    if anne["user_id"] != fixed_id("user:Anne Person") or not anne["created_on"].startswith("2026-11-30T09:00"):
        raise SystemExit(f"Mailman does not show the fixed seed: {anne}")


if __name__ == "__main__":
    main(*sys.argv[1:5])
