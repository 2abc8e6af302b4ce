#!/usr/bin/env python3
"""Scenario driver for OpenStack Keystone 30.0.0's v3 API (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:42915 --mode capture [-v]

Every call but the token calls sends the bootstrap admin's fixed throwaway token (token.txt, system
scope) in `X-Auth-Token`, no cookie. The seed (seed.py, run by start.sh, not recorded) and its fixed ids
(uuid5 of what they name) are in seed.py's docstring. Bodies and answers wrap the entity in its root
key ({"project": {...}}); lists answer {"<plural>": [...], "links": {...}}. Creates answer 201 with the
entity, updates (PATCH) 200 with it, deletes 204 with no body; errors {"error": {"code", "message", "title"}}.
Every call is sequential, with a random 50-150 ms sleep before it.
"""
import sys
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

TOKEN = (Path(__file__).resolve().parent / "token.txt").read_text().strip()
NAMESPACE = uuid.UUID("6a1f3a52-4c0e-4f8e-9d64-0b6c2f0c5e11")  # seed.py's
NEVER = "0123456789abcdef0123456789abcdef"  # an id no entity of any type ever has


def seeded(kind, name):
    return uuid.uuid5(NAMESPACE, f"{kind}:{name}").hex


class KeystoneDriver(Driver):
    """The kit's driver with Keystone's X-Auth-Token header on every call (unless token=None)."""

    def call(self, method, path, body=None, raw=None, params=None, expect=None, token="admin", **kwargs):
        headers = dict(kwargs.pop("headers", None) or {})
        if token == "admin":
            headers["X-Auth-Token"] = TOKEN
        elif token is not None:
            headers["X-Auth-Token"] = token
        return super().call(method, path, body=body, raw=raw, params=params, expect=expect,
                            headers=headers, token=None, **kwargs)


def make_driver(base, min_sleep, max_sleep, verbose):
    return KeystoneDriver(base, min_sleep, max_sleep, verbose)


def capture(d):
    call, check, get = d.call, d.check, d.get
    admin, alice, bob, carol = (seeded("user", n) for n in ("admin", "alice", "bob", "carol"))
    platform, web, archive, research, eng = (seeded("project", n) for n in
                                            ("platform", "web", "archive", "research", "Engineering"))
    developers, auditors = seeded("group", "developers"), seeded("group", "auditors")
    member, reader, observer = seeded("role", "member"), seeded("role", "reader"), seeded("role", "observer")
    compute = seeded("service", "compute")

    def create(path, root, body, expect=201):
        answer = call("POST", path, {root: body}, expect=expect)[1]
        return answer[root]["id"] if isinstance(answer, dict) and root in answer else None

    def patch(path, root, body, expect=200):
        return call("PATCH", path, {root: body}, expect=expect)[1]

    # ---- a. the API root, a token, reads of the seed before any write
    get("/v3")
    call("POST", "/v3/auth/tokens", {"auth": {"identity": {"methods": ["password"], "password": {
        "user": {"name": "alice", "domain": {"id": "default"}, "password": "wrong-password"}}}}},
         expect=401, token=None)
    call("GET", "/v3/users", expect=401, token=None)
    get("/v3/domains")
    get("/v3/domains/default")
    get(f"/v3/domains/{eng}")
    get("/v3/projects")
    for project in (platform, web, archive, research):
        get(f"/v3/projects/{project}")
    get("/v3/users")
    for user in (admin, alice, bob, carol):
        get(f"/v3/users/{user}")
    get("/v3/groups")
    get(f"/v3/groups/{developers}")
    get(f"/v3/groups/{developers}/users")
    get("/v3/roles")
    get(f"/v3/roles/{observer}")
    get("/v3/regions")
    get("/v3/regions/eu-west")
    get("/v3/services")
    get(f"/v3/services/{compute}")
    get("/v3/endpoints")
    get("/v3/credentials")

    # ---- b. filtered lists
    get("/v3/projects", domain_id="default")
    get("/v3/projects", enabled="false")
    get("/v3/projects", name="web")
    get("/v3/projects", parent_id=platform)
    get("/v3/projects", tags="core")
    get("/v3/users", domain_id=eng)
    get("/v3/users", name="bob")
    get("/v3/groups", domain_id="default")
    get("/v3/roles", name="member")
    get("/v3/endpoints", interface="internal")
    get("/v3/endpoints", service_id=compute)
    get("/v3/services", type="compute")
    get(f"/v3/users/{alice}/groups")
    get(f"/v3/users/{alice}/projects")

    # ---- c. absences and bad requests
    for path in (f"/v3/projects/{NEVER}", f"/v3/users/{NEVER}", f"/v3/groups/{NEVER}", f"/v3/roles/{NEVER}",
                 f"/v3/domains/{NEVER}", "/v3/regions/nowhere", f"/v3/services/{NEVER}",
                 f"/v3/endpoints/{NEVER}", f"/v3/credentials/{NEVER}"):
        get(path, expect=404)
    create("/v3/projects", "project", {"name": "platform", "domain_id": "default"}, expect=409)
    create("/v3/users", "user", {"name": "bob", "domain_id": "default"}, expect=409)
    create("/v3/projects", "project", {"name": "x", "enabled": "yes"}, expect=400)
    create("/v3/projects", "project", {"description": "no name"}, expect=400)
    create("/v3/users", "user", {"name": ""}, expect=400)
    call("POST", "/v3/projects", {"name": "unwrapped"}, expect=400)
    create("/v3/projects", "project", {"name": "orphan", "parent_id": NEVER}, expect=400)

    # ---- d. domains and projects: create, read, update, tags, nesting, delete
    ops = create("/v3/domains", "domain", {"name": "Operations", "description": "Run the fleet"})
    get(f"/v3/domains/{ops}")
    patch(f"/v3/domains/{ops}", "domain", {"description": "Runs the fleet"})
    get(f"/v3/domains/{ops}")
    get("/v3/domains", name="Operations")
    mobile = create("/v3/projects", "project", {"name": "mobile", "parent_id": platform,
                                                "description": "Apps", "tags": ["ios"]})
    get(f"/v3/projects/{mobile}")
    get("/v3/projects", parent_id=platform)
    noc = create("/v3/projects", "project", {"name": "noc", "domain_id": ops})
    get(f"/v3/projects/{noc}")
    get("/v3/projects", domain_id=ops)
    patch(f"/v3/projects/{mobile}", "project", {"description": "Mobile apps", "enabled": False})
    get(f"/v3/projects/{mobile}")
    get("/v3/projects", enabled="false")
    patch(f"/v3/projects/{mobile}", "project", {"enabled": True})
    get(f"/v3/projects/{mobile}")
    patch(f"/v3/projects/{NEVER}", "project", {"description": "x"}, expect=404)
    get(f"/v3/projects/{platform}/tags")
    call("PUT", f"/v3/projects/{platform}/tags/staging", expect=201)
    get(f"/v3/projects/{platform}/tags")
    call("GET", f"/v3/projects/{platform}/tags/staging", expect=204)
    call("GET", f"/v3/projects/{platform}/tags/missing", expect=404)
    call("DELETE", f"/v3/projects/{platform}/tags/prod", expect=204)
    get(f"/v3/projects/{platform}/tags")
    get(f"/v3/projects/{platform}")
    call("PUT", f"/v3/projects/{mobile}/tags", {"tags": ["ios", "android"]}, expect=200)
    get(f"/v3/projects/{mobile}")
    get("/v3/projects", tags="android")
    call("DELETE", f"/v3/projects/{mobile}/tags", expect=204)
    get(f"/v3/projects/{mobile}/tags")
    call("DELETE", f"/v3/projects/{platform}", expect=403)      # it has children
    call("DELETE", f"/v3/projects/{mobile}", expect=204)
    get(f"/v3/projects/{mobile}", expect=404)
    get("/v3/projects", parent_id=platform)
    call("DELETE", f"/v3/projects/{mobile}", expect=404)

    # ---- e. users: create, update, password, delete
    dave = create("/v3/users", "user", {"name": "dave", "domain_id": "default", "password": "dave-first-pass",
                                        "email": "dave@example.com", "description": "On call"})
    get(f"/v3/users/{dave}")
    get("/v3/users", name="dave")
    erin = create("/v3/users", "user", {"name": "erin", "domain_id": ops, "enabled": False})
    get(f"/v3/users/{erin}")
    get("/v3/users", domain_id=ops)
    patch(f"/v3/users/{dave}", "user", {"email": "dave@ops.example.com", "default_project_id": platform})
    get(f"/v3/users/{dave}")
    patch(f"/v3/users/{erin}", "user", {"enabled": True, "description": "Back from leave"})
    get(f"/v3/users/{erin}")
    get("/v3/users", enabled="true", domain_id=ops)
    patch(f"/v3/users/{dave}", "user", {"name": "alice"}, expect=409)
    call("POST", f"/v3/users/{dave}/password", {"user": {"password": "dave-second-pass",
                                                          "original_password": "dave-first-pass"}}, expect=204)
    get(f"/v3/users/{dave}")
    call("POST", f"/v3/users/{dave}/password", {"user": {"password": "x", "original_password": "wrong"}},
         expect=401)

    # ---- f. groups and membership
    oncall = create("/v3/groups", "group", {"name": "oncall", "domain_id": "default", "description": "Pagers"})
    get(f"/v3/groups/{oncall}")
    patch(f"/v3/groups/{oncall}", "group", {"description": "Pager holders"})
    get(f"/v3/groups/{oncall}")
    get("/v3/groups")
    call("PUT", f"/v3/groups/{oncall}/users/{dave}", expect=204)
    call("PUT", f"/v3/groups/{oncall}/users/{alice}", expect=204)
    get(f"/v3/groups/{oncall}/users")
    call("HEAD", f"/v3/groups/{oncall}/users/{dave}", expect=204)
    call("HEAD", f"/v3/groups/{oncall}/users/{bob}", expect=404)
    get(f"/v3/users/{dave}/groups")
    call("DELETE", f"/v3/groups/{oncall}/users/{alice}", expect=204)
    get(f"/v3/groups/{oncall}/users")
    get(f"/v3/users/{alice}/groups")
    call("PUT", f"/v3/groups/{oncall}/users/{NEVER}", expect=404)
    call("DELETE", f"/v3/groups/{developers}/users/{carol}", expect=404)
    create("/v3/groups", "group", {"name": "developers", "domain_id": "default"}, expect=409)

    # ---- g. roles and role assignments
    auditor = create("/v3/roles", "role", {"name": "auditor", "description": "Reads the books"})
    get(f"/v3/roles/{auditor}")
    patch(f"/v3/roles/{auditor}", "role", {"description": "Reads every book"})
    get(f"/v3/roles/{auditor}")
    get("/v3/roles")
    create("/v3/roles", "role", {"name": "observer"}, expect=409)
    get("/v3/role_assignments")
    get("/v3/role_assignments", **{"user.id": alice})
    get("/v3/role_assignments", **{"scope.project.id": web})
    get(f"/v3/projects/{platform}/users/{alice}/roles")
    call("PUT", f"/v3/projects/{platform}/users/{dave}/roles/{auditor}", expect=204)
    call("HEAD", f"/v3/projects/{platform}/users/{dave}/roles/{auditor}", expect=204)
    call("GET", f"/v3/projects/{platform}/users/{dave}/roles/{auditor}", expect=204)
    get(f"/v3/projects/{platform}/users/{dave}/roles")
    get("/v3/role_assignments", **{"user.id": dave})
    call("PUT", f"/v3/projects/{platform}/groups/{oncall}/roles/{member}", expect=204)
    get(f"/v3/projects/{platform}/groups/{oncall}/roles")
    get("/v3/role_assignments", **{"scope.project.id": platform})
    get("/v3/role_assignments", **{"role.id": auditor})
    call("PUT", f"/v3/domains/{ops}/users/{erin}/roles/{reader}", expect=204)
    get(f"/v3/domains/{ops}/users/{erin}/roles")
    get("/v3/role_assignments", **{"scope.domain.id": ops})
    get(f"/v3/users/{dave}/projects")
    call("PUT", f"/v3/projects/{platform}/users/{dave}/roles/{NEVER}", expect=404)
    call("DELETE", f"/v3/projects/{platform}/users/{dave}/roles/{auditor}", expect=204)
    call("HEAD", f"/v3/projects/{platform}/users/{dave}/roles/{auditor}", expect=404)
    get(f"/v3/projects/{platform}/users/{dave}/roles")
    get("/v3/role_assignments", **{"user.id": dave})
    call("DELETE", f"/v3/projects/{platform}/users/{dave}/roles/{auditor}", expect=404)

    # ---- h. regions (client-chosen ids), services, endpoints
    call("PUT", "/v3/regions/us-east", {"region": {"description": "US east"}}, expect=201)
    get("/v3/regions/us-east")
    region = create("/v3/regions", "region", {"id": "us-east-2", "parent_region_id": "us-east",
                                              "description": "US east, zone 2"})
    get(f"/v3/regions/{region}")
    get("/v3/regions", parent_region_id="us-east")
    patch("/v3/regions/us-east-2", "region", {"description": "US east, second zone"})
    get("/v3/regions/us-east-2")
    create("/v3/regions", "region", {"id": "eu-west"}, expect=409)
    create("/v3/regions", "region", {"id": "ap-south", "parent_region_id": "nowhere"}, expect=404)
    image = create("/v3/services", "service", {"name": "glance", "type": "image", "description": "Images"})
    get(f"/v3/services/{image}")
    patch(f"/v3/services/{image}", "service", {"enabled": False})
    get(f"/v3/services/{image}")
    get("/v3/services")
    endpoint = create("/v3/endpoints", "endpoint", {"service_id": image, "interface": "public",
                                                    "url": "http://images.example.com:9292", "region_id": "us-east"})
    get(f"/v3/endpoints/{endpoint}")
    patch(f"/v3/endpoints/{endpoint}", "endpoint", {"url": "https://images.example.com", "enabled": False})
    get(f"/v3/endpoints/{endpoint}")
    get("/v3/endpoints", service_id=image)
    create("/v3/endpoints", "endpoint", {"service_id": image, "interface": "sideways",
                                         "url": "http://x"}, expect=400)
    create("/v3/endpoints", "endpoint", {"service_id": NEVER, "interface": "public", "url": "http://x"},
           expect=400)

    # ---- i. credentials
    cred = create("/v3/credentials", "credential", {"type": "totp", "user_id": dave, "blob": "GEZDGNBVGY3TQOJQ"})
    get(f"/v3/credentials/{cred}")
    get("/v3/credentials", user_id=dave)
    patch(f"/v3/credentials/{cred}", "credential", {"blob": "MFRGGZDFMZTWQ2LK"})
    get(f"/v3/credentials/{cred}")
    create("/v3/credentials", "credential", {"type": "totp", "user_id": dave}, expect=400)

    # ---- j. deletes and what they take along
    call("DELETE", f"/v3/credentials/{cred}", expect=204)
    get(f"/v3/credentials/{cred}", expect=404)
    get("/v3/credentials")
    call("DELETE", f"/v3/endpoints/{endpoint}", expect=204)
    get(f"/v3/endpoints/{endpoint}", expect=404)
    get("/v3/endpoints")
    call("DELETE", f"/v3/services/{image}", expect=204)
    get(f"/v3/services/{image}", expect=404)
    get("/v3/services")
    call("DELETE", "/v3/regions/us-east", expect=204)          # takes its child region along
    get("/v3/regions/us-east", expect=404)
    get("/v3/regions/us-east-2", expect=404)
    get("/v3/regions")
    call("DELETE", f"/v3/groups/{oncall}", expect=204)
    get(f"/v3/groups/{oncall}", expect=404)
    get(f"/v3/users/{dave}/groups")
    get("/v3/role_assignments", **{"scope.project.id": platform})
    call("DELETE", f"/v3/roles/{auditor}", expect=204)
    get(f"/v3/roles/{auditor}", expect=404)
    get("/v3/roles")
    call("DELETE", f"/v3/users/{dave}", expect=204)
    get(f"/v3/users/{dave}", expect=404)
    get("/v3/users")
    call("DELETE", f"/v3/users/{dave}", expect=404)
    call("DELETE", f"/v3/domains/{ops}", expect=403)           # still enabled
    patch(f"/v3/domains/{ops}", "domain", {"enabled": False})
    get(f"/v3/domains/{ops}")
    call("DELETE", f"/v3/domains/{ops}", expect=204)
    get(f"/v3/domains/{ops}", expect=404)
    get(f"/v3/projects/{noc}", expect=404)
    get(f"/v3/users/{erin}", expect=404)
    get("/v3/domains")

    # ---- k. final state
    get("/v3/projects")
    get(f"/v3/projects/{platform}")
    get(f"/v3/groups/{developers}/users")
    get("/v3/role_assignments")
    check("token subject", bool(TOKEN), True)


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:42915")
