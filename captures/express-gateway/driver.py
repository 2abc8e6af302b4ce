#!/usr/bin/env python3
"""Scenario driver for Express Gateway 1.16.11's Admin REST API (through the mitmproxy reverse proxy).

Usage:
  python driver.py --base http://127.0.0.1:43142 --mode capture [-v]

No credentials (the admin API has none). Consumers and credentials live in its emulated Redis:
  users        GET/POST /users, GET/PUT/DELETE /users/{id or username}, PUT /users/{id}/status
               ({"status": true|false}); lists {"users": [...], "nextKey"} paged by a Redis SCAN
               cursor (?start=, ?count=); validation errors answer 500 text, a taken username 409
  apps         GET/POST /apps (userId: a user's id or username), GET/PUT/DELETE /apps/{id or name},
               PUT /apps/{id}/status; {"apps": [...], "nextKey"}
  credentials  POST /credentials {consumerId, type, credential}, GET /credentials (all),
               GET /credentials/{consumer}, GET /credentials/{type}/{id}, PUT .../status,
               PUT/DELETE .../scopes/{scope}, PUT .../scopes {"scopes": [...]}
  scopes       GET/POST /scopes ({"scopes": [...]}, 201 empty), GET/PUT/DELETE /scopes/{scope}
Configuration documents (gateway.config.yml, rewritten by the writes and reloaded by a file watcher
about 2 s later, so the driver waits 3 s after each before reading): /api-endpoints,
/service-endpoints, /pipelines (objects keyed by name; PUT at the name 201 new, 204 existing;
DELETE 204, 404 missing) and /policies (a list of names; PUT answers {"status":"ok"}).
The seed (app/server.js, not recorded): users alice, bob, carol; alice's app alice-dashboard; alice's
key-auth credential; scopes read, write, admin; the configuration of app/config.
Every call is sequential, with a random 50-150 ms sleep before it.
"""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import SEND_TOKEN, Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

ALICE = "0b6c2f3e-8f1a-4c55-9d2e-1a7b3c4d5e01"
BOB = "0b6c2f3e-8f1a-4c55-9d2e-1a7b3c4d5e02"
CAROL = "0b6c2f3e-8f1a-4c55-9d2e-1a7b3c4d5e03"
ALICE_APP = "7e3d9a10-2b4c-4d6e-8f01-23456789ab01"
ALICE_KEY = "3kTMd1v0AliceKeyId0001"
CONFIG_RELOAD = 3.0


class GatewayDriver(Driver):
    """The kit's driver without any Authorization header."""

    def call(self, method, path, body=None, raw=None, params=None, expect=None, token=SEND_TOKEN,
             headers=None):
        return super().call(method, path, body, raw, params, expect, token=None, headers=headers)


def make_driver(base, min_sleep, max_sleep, verbose):
    return GatewayDriver(base, min_sleep, max_sleep, verbose)


def capture(d):
    call, check = d.call, d.check

    def q(path, *pairs, expect=200):
        return call("GET", path, params=list(pairs) or None, expect=expect)[1]

    def ident(answer, field="id"):
        return answer.get(field) if isinstance(answer, dict) else None

    def config_write(method, path, body=None, expect=None):
        answer = call(method, path, body, expect=expect)
        time.sleep(CONFIG_RELOAD)
        return answer

    # ---- a. reads before any write: lists, items by id and by name, absences
    q("/users")
    q(f"/users/{ALICE}")
    q("/users/alice")
    q("/users/bob")
    q(f"/users/{CAROL}")
    q("/users/nobody", expect=404)
    q("/users/0b6c2f3e-8f1a-4c55-9d2e-1a7b3c4d5e99", expect=404)
    q("/apps")
    q(f"/apps/{ALICE_APP}")
    q("/apps/alice-dashboard")
    q("/apps/no-such-app", expect=404)
    q("/credentials")
    q(f"/credentials/key-auth/{ALICE_KEY}")
    q("/credentials/alice")
    q(f"/credentials/{ALICE}")
    q("/credentials/bob")
    q("/scopes")
    q("/scopes/read")
    q("/scopes/delete", expect=404)
    q("/api-endpoints")
    q("/api-endpoints/catalog")
    q("/api-endpoints/missing", expect=404)
    q("/service-endpoints")
    q("/service-endpoints/catalogBackend")
    q("/pipelines")
    q("/pipelines/catalogPipeline")
    q("/policies")
    q("/users", ("count", "100"))
    q("/users", ("start", "0"), ("count", "100"))

    # ---- b. users: creates (server ids), reads by id and username, updates, validation, status
    s, dave = call("POST", "/users", {"username": "dave", "firstname": "Dave", "lastname": "Lister"},
                   expect=200)
    dave_id = ident(dave)
    q(f"/users/{dave_id}")
    q("/users/dave")
    s, erin = call("POST", "/users", {"username": "erin", "firstname": "Erin", "lastname": "Brockovich",
                                      "email": "erin@capenv.test"}, expect=200)
    erin_id = ident(erin)
    q("/users/erin")
    q("/users")
    s, frank = call("POST", "/users", {"username": "frank", "firstname": "Frank", "lastname": "Castle",
                                       "email": "frank@capenv.test",
                                       "redirectUri": "https://frank.capenv.test/cb"}, expect=200)
    frank_id = ident(frank)
    q(f"/users/{frank_id}")
    call("POST", "/users", {"username": "dave", "firstname": "David", "lastname": "Other"}, expect=409)
    call("POST", "/users", {"username": "grace", "lastname": "Hopper"}, expect=500)
    call("POST", "/users", {"firstname": "Nameless", "lastname": "One"}, expect=500)
    call("POST", "/users", {"username": "heidi", "firstname": 7, "lastname": "Klum"}, expect=200)  # coerced to "7"
    q("/users/heidi")
    call("POST", "/users", {"username": "ivan", "firstname": "Ivan", "lastname": "Drago",
                            "email": "not-an-email"}, expect=500)
    q("/users/grace", expect=404)
    q("/users")
    call("PUT", f"/users/{dave_id}", {"firstname": "Dave", "lastname": "Lister-Red"}, expect=200)
    q(f"/users/{dave_id}")
    call("PUT", "/users/dave", {"email": "dave@capenv.test"}, expect=200)
    q("/users/dave")
    call("PUT", "/users/erin", {"firstname": "Erin M."}, expect=200)
    q(f"/users/{erin_id}")
    call("PUT", "/users/bob", {"email": "bob@capenv.test", "redirectUri": "https://bob.capenv.test/cb"},
         expect=200)
    q("/users/bob")
    call("PUT", "/users/carol", {"nickname": "cap"}, expect=500)
    q("/users/carol")
    call("PUT", "/users/nobody", {"firstname": "No"}, expect=404)
    call("PUT", f"/users/{frank_id}/status", {"status": False}, expect=200)
    q(f"/users/{frank_id}")
    call("PUT", "/users/frank/status", {"status": False}, expect=200)
    q("/users/frank")
    call("PUT", "/users/frank/status", {"status": True}, expect=200)
    q("/users/frank")
    call("PUT", "/users/carol/status", {"status": True}, expect=200)
    q("/users/carol")
    call("PUT", "/users/nobody/status", {"status": False}, expect=404)

    # ---- c. apps: owned by a user (by username or id), reads by name and id, updates, status
    s, a1 = call("POST", "/apps", {"userId": "dave", "name": "dave-cli"}, expect=200)
    app1 = ident(a1)
    q(f"/apps/{app1}")
    q("/apps/dave-cli")
    s, a2 = call("POST", "/apps", {"userId": dave_id, "name": "dave-web",
                                   "redirectUri": "https://web.capenv.test/cb"}, expect=200)
    app2 = ident(a2)
    q(f"/apps/{app2}")
    s, a3 = call("POST", "/apps", {"userId": "bob", "name": "bob-mobile"}, expect=200)
    app3 = ident(a3)
    q("/apps/bob-mobile")
    s, a4 = call("POST", "/apps", {"userId": erin_id, "name": "erin-reports"}, expect=200)
    app4 = ident(a4)
    q(f"/apps/{app4}")
    q("/apps")
    call("POST", "/apps", {"userId": "nobody", "name": "ghost-app"}, expect=409)
    call("POST", "/apps", {"userId": "dave"}, expect=500)
    call("POST", "/apps", {"userId": "dave", "name": "dave-cli"}, expect=500)
    call("POST", "/apps", {"userId": "dave", "name": "dave-extra", "color": "red"}, expect=500)
    call("POST", "/apps", {"userId": "dave", "name": "dave-bad-uri", "redirectUri": "not a uri"}, expect=500)
    q("/apps")
    call("PUT", f"/apps/{app1}", {"name": "dave-cli-2"}, expect=200)
    q(f"/apps/{app1}")
    q("/apps/dave-cli-2", expect=404)  # a rename keeps the old name's index entry
    q("/apps/dave-cli")
    call("PUT", "/apps/bob-mobile", {"redirectUri": "https://mobile.capenv.test/cb"}, expect=200)
    q(f"/apps/{app3}")
    call("PUT", "/apps/no-such-app", {"name": "x"}, expect=404)
    call("PUT", f"/apps/{app2}/status", {"status": False}, expect=200)
    q(f"/apps/{app2}")
    call("PUT", f"/apps/{app2}/status", {"status": False}, expect=200)
    call("PUT", f"/apps/{app2}/status", {"status": True}, expect=200)
    q("/apps/dave-web")
    call("PUT", "/apps/no-such-app/status", {"status": True}, expect=404)
    # deactivating a user deactivates its apps
    call("PUT", "/users/bob/status", {"status": False}, expect=200)
    q("/users/bob")
    q(f"/apps/{app3}")
    call("PUT", "/users/bob/status", {"status": True}, expect=200)
    q("/users/bob")
    q(f"/apps/{app3}")

    # ---- d. scopes
    q("/scopes")
    call("POST", "/scopes", {"scopes": ["billing", "reports"]}, expect=201)
    q("/scopes")
    q("/scopes/billing")
    call("POST", "/scopes", {"scopes": ["read"]}, expect=409)
    call("PUT", "/scopes/audit", expect=201)
    q("/scopes/audit")
    q("/scopes")
    call("PUT", "/scopes/audit", expect=409)
    call("DELETE", "/scopes/reports", expect=204)
    q("/scopes/reports", expect=404)
    q("/scopes")
    call("DELETE", "/scopes/reports", expect=204)  # a missing scope is deleted all the same

    # ---- e. credentials: key-auth (server keys), basic-auth, oauth2 for an app, jwt; status; scopes
    s, k1 = call("POST", "/credentials", {"consumerId": "dave", "type": "key-auth",
                                          "credential": {"scopes": ["read", "billing"]}}, expect=200)
    key1 = ident(k1, "keyId")
    q(f"/credentials/key-auth/{key1}")
    q("/credentials/dave")
    s, k2 = call("POST", "/credentials", {"consumerId": dave_id, "type": "key-auth",
                                          "credential": {"keyId": "daveFixedKey01",
                                                         "keySecret": "daveFixedSecret01"}}, expect=200)
    q("/credentials/key-auth/daveFixedKey01")
    s, b1 = call("POST", "/credentials", {"consumerId": "erin", "type": "basic-auth",
                                          "credential": {"password": "erin-pass-1"}}, expect=200)
    q(f"/credentials/basic-auth/{erin_id}")
    call("POST", "/credentials", {"consumerId": "erin", "type": "basic-auth",
                                  "credential": {"password": "erin-pass-2"}}, expect=500)
    s, o1 = call("POST", "/credentials", {"consumerId": app1, "type": "oauth2",
                                          "credential": {"scopes": ["write"]}}, expect=200)
    q(f"/credentials/oauth2/{app1}")
    q(f"/credentials/{app1}")
    s, j1 = call("POST", "/credentials", {"consumerId": "frank", "type": "jwt", "credential": {}}, expect=200)
    jwt1 = ident(j1, "keyId")
    q(f"/credentials/jwt/{jwt1}")
    q("/credentials/frank")
    call("POST", "/credentials", {"consumerId": "nobody", "type": "key-auth", "credential": {}}, expect=422)
    call("POST", "/credentials", {"consumerId": "dave", "type": "magic-auth", "credential": {}}, expect=500)
    call("POST", "/credentials", {"consumerId": "dave", "type": "key-auth",
                                  "credential": {"scopes": ["no-such-scope"]}}, expect=500)
    q("/credentials")
    call("PUT", f"/credentials/key-auth/{key1}/status", {"status": False}, expect=200)
    q(f"/credentials/key-auth/{key1}")
    call("PUT", f"/credentials/key-auth/{key1}/status", {"status": False}, expect=200)
    call("PUT", f"/credentials/key-auth/{key1}/status", {"status": True}, expect=200)
    q(f"/credentials/key-auth/{key1}")
    call("PUT", "/credentials/key-auth/noSuchKey/status", {"status": True}, expect=404)
    call("PUT", f"/credentials/key-auth/{key1}/scopes/audit", expect=204)
    q(f"/credentials/key-auth/{key1}")
    call("DELETE", f"/credentials/key-auth/{key1}/scopes/read", expect=204)
    q(f"/credentials/key-auth/{key1}")
    call("PUT", "/credentials/key-auth/daveFixedKey01/scopes", {"scopes": ["write", "admin"]}, expect=204)
    q("/credentials/key-auth/daveFixedKey01")
    call("PUT", f"/credentials/key-auth/{ALICE_KEY}/scopes/write", expect=204)
    q(f"/credentials/key-auth/{ALICE_KEY}")
    call("PUT", f"/credentials/basic-auth/{erin_id}/status", {"status": False}, expect=200)
    q(f"/credentials/basic-auth/{erin_id}")
    q("/credentials/erin")

    # ---- f. configuration documents through the API (each write reloads gateway.config.yml)
    config_write("PUT", "/api-endpoints/inventory", {"host": "*", "paths": ["/inventory", "/inventory/*"]},
                 expect=201)
    q("/api-endpoints/inventory")
    q("/api-endpoints")
    config_write("PUT", "/api-endpoints/inventory", {"host": "inventory.capenv.test", "paths": "/inventory/*"},
                 expect=204)
    q("/api-endpoints/inventory")
    config_write("PUT", "/service-endpoints/inventoryBackend", {"url": "http://127.0.0.1:10"}, expect=201)
    q("/service-endpoints/inventoryBackend")
    q("/service-endpoints")
    config_write("PUT", "/pipelines/inventoryPipeline",
                 {"apiEndpoints": ["inventory"],
                  "policies": [{"proxy": [{"action": {"serviceEndpoint": "inventoryBackend"}}]}]},
                 expect=201)
    q("/pipelines/inventoryPipeline")
    q("/pipelines")
    call("PUT", "/pipelines/brokenPipeline",
         {"apiEndpoints": ["inventory"], "policies": [{"proxy": [{"action": {"changeOrigin": "yes"}}]}]},
         expect=422)
    q("/pipelines/brokenPipeline", expect=404)
    config_write("PUT", "/policies/rate-limit", expect=200)
    q("/policies")
    config_write("PUT", "/policies/rate-limit", expect=200)
    config_write("DELETE", "/policies/cors", expect=204)
    q("/policies")
    config_write("DELETE", "/pipelines/inventoryPipeline", expect=204)
    q("/pipelines/inventoryPipeline", expect=404)
    q("/pipelines")
    call("DELETE", "/pipelines/inventoryPipeline", expect=404)
    config_write("DELETE", "/service-endpoints/inventoryBackend", expect=204)
    q("/service-endpoints/inventoryBackend", expect=404)
    config_write("DELETE", "/api-endpoints/inventory", expect=204)
    q("/api-endpoints/inventory", expect=404)
    q("/api-endpoints")
    call("DELETE", "/api-endpoints/inventory", expect=404)

    # ---- g. deletes: an app, a user (its apps and credentials go with it)
    call("DELETE", f"/apps/{app4}", expect=204)
    q(f"/apps/{app4}", expect=404)
    q("/apps/erin-reports", expect=404)
    call("DELETE", f"/apps/{app4}", expect=404)
    q("/apps")
    call("DELETE", "/users/dave", expect=204)
    q("/users/dave", expect=404)
    q(f"/users/{dave_id}", expect=404)
    q(f"/apps/{app1}", expect=404)
    q("/apps/dave-web", expect=404)
    q("/credentials/key-auth/daveFixedKey01")
    q("/credentials")
    call("DELETE", "/users/dave", expect=404)
    call("DELETE", f"/users/{erin_id}", expect=204)
    q("/users/erin", expect=404)
    q("/users")
    q("/apps")

    # ---- h. after the deletes: a username taken again, final reads and pages
    s, dave2 = call("POST", "/users", {"username": "dave", "firstname": "Dave", "lastname": "Again"},
                    expect=200)
    check("a new id for the new dave", ident(dave2) != dave_id, True)
    q("/users/dave")
    s, a5 = call("POST", "/apps", {"userId": "carol", "name": "carol-portal"}, expect=200)
    q(f"/apps/{ident(a5)}")
    q("/users")
    q("/users", ("count", "100"))
    q("/apps", ("count", "100"))
    q("/credentials")
    q("/scopes")
    q("/credentials/alice")
    q("/credentials/carol")


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:43142")
