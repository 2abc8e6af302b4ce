#!/usr/bin/env python3
"""Seed a fresh, bootstrapped Keystone through its v3 API as the bootstrap admin (not recorded),
then give every seeded resource a fixed id.

Usage: python seed.py BASE_URL ADMIN_PASSWORD DATABASE

Makes (besides what `keystone-manage bootstrap` made: the Default domain `default`, the admin
user, the admin project, the roles admin/manager/member/reader/service, the region RegionOne,
the identity service and its public endpoint):
  domain    Engineering ("Engineering teams")
  projects  platform (Default, tags "core", "prod"), web (child of platform), archive (Default,
            disabled), research (in Engineering)
  users     alice (Default, email alice@example.com, default project platform), bob (Default),
            carol (Engineering); passwords capenv-keystone-user
  groups    developers (Default; alice and bob), auditors (Engineering; carol)
  roles     observer (global), a role assignment: alice member on platform, developers reader
            on web, carol observer on research
  regions   eu-west ("Europe west"), eu-west-1 (child of eu-west)
  services  compute (type compute, "Compute service") with a public and an internal endpoint in
            eu-west
Keystone makes every id a random UUID (32 hex digits). So that every fresh start holds the same
seed, the ids are then rewritten in the SQLite database (DATABASE, the running Keystone's own; it
caches nothing) to uuid5 of what they name, in every column that holds them. The seed ends by
reading a user back through the API to check Keystone sees the fixed id.
Standard library only (the keystone venv's python).
"""
import json
import sqlite3
import sys
import urllib.error
import urllib.request
import uuid

NAMESPACE = uuid.UUID("6a1f3a52-4c0e-4f8e-9d64-0b6c2f0c5e11")
USER_PASSWORD = "capenv-keystone-user"


def call(base, method, path, body=None, token=None):
    request = urllib.request.Request(base + path, method=method,
                                     data=None if body is None else json.dumps(body).encode())
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("X-Auth-Token", token)
    try:
        with urllib.request.urlopen(request) as answer:
            text = answer.read()
            return answer.headers, (json.loads(text) if text else None)
    except urllib.error.HTTPError as error:
        raise SystemExit(f"{method} {path}: {error.code} {error.read()[:300]!r}")


def seed(base, password):
    headers, _ = call(base, "POST", "/v3/auth/tokens", {"auth": {
        "identity": {"methods": ["password"], "password": {"user": {
            "name": "admin", "domain": {"id": "default"}, "password": password}}},
        "scope": {"system": {"all": True}}}})
    token = headers["X-Subject-Token"]

    def post(path, key, body):
        return call(base, "POST", path, {key: body}, token)[1][key]["id"]

    def put(path):
        call(base, "PUT", path, None, token)

    eng = post("/v3/domains", "domain", {"name": "Engineering", "description": "Engineering teams"})
    platform = post("/v3/projects", "project", {"name": "platform", "domain_id": "default",
                                                "description": "Shared platform", "tags": ["core", "prod"]})
    web = post("/v3/projects", "project", {"name": "web", "parent_id": platform, "description": "Web frontends"})
    post("/v3/projects", "project", {"name": "archive", "domain_id": "default", "enabled": False,
                                     "description": "Retired work"})
    research = post("/v3/projects", "project", {"name": "research", "domain_id": eng})
    alice = post("/v3/users", "user", {"name": "alice", "domain_id": "default", "email": "alice@example.com",
                                       "default_project_id": platform, "password": USER_PASSWORD})
    bob = post("/v3/users", "user", {"name": "bob", "domain_id": "default", "password": USER_PASSWORD})
    carol = post("/v3/users", "user", {"name": "carol", "domain_id": eng, "password": USER_PASSWORD,
                                       "description": "Researcher"})
    developers = post("/v3/groups", "group", {"name": "developers", "domain_id": "default",
                                              "description": "Everyone who ships code"})
    auditors = post("/v3/groups", "group", {"name": "auditors", "domain_id": eng})
    for group, user in ((developers, alice), (developers, bob), (auditors, carol)):
        put(f"/v3/groups/{group}/users/{user}")
    observer = post("/v3/roles", "role", {"name": "observer", "description": "Looks, never touches"})
    roles = {r["name"]: r["id"] for r in call(base, "GET", "/v3/roles", None, token)[1]["roles"]}
    put(f"/v3/projects/{platform}/users/{alice}/roles/{roles['member']}")
    put(f"/v3/projects/{web}/groups/{developers}/roles/{roles['reader']}")
    put(f"/v3/projects/{research}/users/{carol}/roles/{observer}")
    call(base, "PUT", "/v3/regions/eu-west", {"region": {"description": "Europe west"}}, token)
    call(base, "PUT", "/v3/regions/eu-west-1", {"region": {"description": "Europe west, zone 1",
                                                           "parent_region_id": "eu-west"}}, token)
    compute = post("/v3/services", "service", {"name": "compute", "type": "compute",
                                               "description": "Compute service"})
    for interface, url in (("public", "http://compute.example.com:8774/v2.1"),
                           ("internal", "http://compute.internal:8774/v2.1")):
        post("/v3/endpoints", "endpoint", {"service_id": compute, "interface": interface,
                                           "url": url, "region_id": "eu-west"})


def fixed_ids(db):
    """{random id: uuid5 hex of what it names} for every seeded or bootstrapped resource."""
    names = {}
    for uid, name in db.execute("SELECT user_id, name FROM local_user"):
        names[uid] = f"user:{name}"
    for pid, name in db.execute("SELECT id, name FROM project WHERE length(id) = 32"):
        names[pid] = f"project:{name}"
    for rid, name in db.execute("SELECT id, name FROM role"):
        names[rid] = f"role:{name}"
    for gid, name in db.execute('SELECT id, name FROM "group"'):
        names[gid] = f"group:{name}"
    for sid, kind in db.execute("SELECT id, type FROM service"):
        names[sid] = f"service:{kind}"
    for eid, kind, interface in db.execute(
            "SELECT e.id, s.type, e.interface FROM endpoint e JOIN service s ON s.id = e.service_id"):
        names[eid] = f"endpoint:{kind}:{interface}"
    return {old: uuid.uuid5(NAMESPACE, name).hex for old, name in names.items()}


def rewrite(path):
    db = sqlite3.connect(path)
    db.execute("PRAGMA foreign_keys = OFF")
    mapping = fixed_ids(db)
    tables = [t for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    with db:
        for table in tables:
            columns = [c[1] for c in db.execute(f'PRAGMA table_info("{table}")')
                       if "CHAR" in (c[2] or "").upper() or "TEXT" in (c[2] or "").upper()]
            for column in columns:
                for old, new in mapping.items():
                    db.execute(f'UPDATE "{table}" SET "{column}" = ? WHERE "{column}" = ?', (new, old))
        # The clocks Keystone keeps (never shown by the v3 API, but the same on every start).
        db.execute("UPDATE user SET created_at = '2026-11-30 09:00:00'")
        db.execute("UPDATE password SET created_at = '2026-11-30 09:00:00', created_at_int = 1796029200000000")
    db.close()
    return mapping


def main():
    base, password, database = sys.argv[1:4]
    seed(base, password)
    mapping = rewrite(database)
    admin = uuid.uuid5(NAMESPACE, "user:admin").hex
    assert admin in mapping.values()
    _, body = call(base, "POST", "/v3/auth/tokens", {"auth": {"identity": {"methods": ["password"], "password": {
        "user": {"name": "alice", "domain": {"id": "default"}, "password": USER_PASSWORD}}}}})
    want = uuid.uuid5(NAMESPACE, "user:alice").hex
    if body["token"]["user"]["id"] != want:
        raise SystemExit(f"Keystone does not see the fixed ids: {body['token']['user']['id']} != {want}")


if __name__ == "__main__":
    main()
