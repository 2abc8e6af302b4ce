#!/usr/bin/env python3
"""Scenario driver for Caddy 2.6.2's admin API (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:43111 --mode capture [-v]

The admin API is one JSON configuration document addressed by path: GET/POST/PUT/PATCH/DELETE on
``/config/<path>`` (POST appends to an array, sets or replaces an object member; PUT inserts at an
array index or creates a member that must not exist; PATCH replaces what exists; DELETE removes),
``/id/<@id>/<path>`` the same below an object tagged ``@id``, ``POST /load`` replacing the whole
configuration, ``GET /reverse_proxy/upstreams`` the proxies' upstreams. Every write answers 200 with
an empty body (Caddy reloads the configuration); reads after it show what was stored. The seed is the
configuration file start.sh loads (seed.json): servers ``public`` (routes landing, api, legacy) and
``internal`` (route status), one TLS automation policy (policy-www). No authentication; the admin
API checks the Host header, which the proxy sets to the application's address.
Every call is sequential, with a random 50-150 ms sleep before it.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

SERVERS = "/config/apps/http/servers"
PUBLIC = SERVERS + "/public"
ROUTES = PUBLIC + "/routes"
POLICIES = "/config/apps/tls/automation/policies"


def make_driver(base, min_sleep, max_sleep, verbose):
    return Driver(base, min_sleep, max_sleep, verbose)


def capture(d):
    call, check = d.call, d.check

    def get(path, expect=200):
        return call("GET", path, expect=expect)[1]

    def send(method, path, body=None, expect=200, raw=None):
        return call(method, path, body, raw=raw, expect=expect)[1]

    def ids(routes):
        return [r.get("@id") for r in routes] if isinstance(routes, list) else routes

    # ---- a. reads before any write
    get("/config/apps")
    get("/config/apps/http")
    get(SERVERS)
    get(PUBLIC)
    get(SERVERS + "/internal")
    get(ROUTES)
    for i in range(3):
        get(f"{ROUTES}/{i}")
    for rid in ("landing", "api", "legacy", "status", "api-proxy", "api-headers", "policy-www"):
        get(f"/id/{rid}")
    get("/id/api/match")
    get("/id/api/handle")
    get("/id/api-proxy/upstreams")
    get("/id/api-proxy/upstreams/0")
    get("/id/api-headers/response/set")
    get("/id/landing/handle/0/body")
    get(PUBLIC + "/listen")
    get(ROUTES + "/0/match/0/host")
    get("/config/apps/tls")
    get(POLICIES)
    get(POLICIES + "/0/subjects")
    get("/reverse_proxy/upstreams")
    # absences and malformed paths of reads
    get("/id/nope", 404)                            # no object has that @id
    get("/id/blog", 404)                            # not yet
    get(SERVERS + "/staging")                       # a missing member reads as null (200)
    get(ROUTES + "/9", 400)                         # array index out of bounds
    get(ROUTES + "/x", 400)                         # not an array index
    get("/id/landing/handle/5", 400)

    # ---- b. POST appends a route to an array; reads after it
    blog = {"@id": "blog", "match": [{"host": ["blog.example.test"]}],
            "handle": [{"handler": "static_response", "status_code": 200, "body": "blog"}]}
    send("POST", ROUTES, blog)
    check("routes after append", ids(get(ROUTES)), ["landing", "api", "legacy", "blog"])
    get("/id/blog")
    get(ROUTES + "/3")
    get("/id/blog/handle/0/body")

    # PUT at an index inserts before it
    health = {"@id": "health", "match": [{"path": ["/healthz"]}],
              "handle": [{"handler": "static_response", "status_code": 204}], "terminal": True}
    send("PUT", ROUTES + "/0", health)
    check("routes after insert", ids(get(ROUTES)), ["health", "landing", "api", "legacy", "blog"])
    get("/id/health")
    get(ROUTES + "/0")
    get(ROUTES + "/1")

    # PUT at an index inside the array inserts there (the index of its length is out of bounds)
    docs = {"@id": "docs", "match": [{"path": ["/docs/*"]}],
            "handle": [{"handler": "static_response", "body": "docs"}]}
    send("PUT", ROUTES + "/6", docs, expect=500)
    send("PUT", ROUTES + "/4", docs)
    check("routes after put inside", ids(get(ROUTES)), ["health", "landing", "api", "legacy", "docs", "blog"])
    get("/id/docs")

    # PATCH replaces what exists: a scalar, a whole route, a matcher list
    send("PATCH", "/id/blog/handle/0/body", "the blog")
    get("/id/blog/handle/0/body")
    get("/id/blog")
    send("PATCH", "/id/blog/match", [{"host": ["blog.example.test", "news.example.test"]}])
    get("/id/blog/match")
    get("/id/blog")
    send("PATCH", ROUTES + "/5", {"@id": "blog", "match": [{"host": ["news.example.test"]}],
                                  "handle": [{"handler": "static_response", "status_code": 200,
                                              "body": "news"}], "terminal": True})
    get(ROUTES + "/5")
    get("/id/blog")
    send("PATCH", "/id/landing/handle/0/status_code", 203)
    get("/id/landing")

    # POST on an object member replaces it; PUT creates a member that must not exist
    send("POST", "/id/api-headers/response/set", {"X-Frame-Options": ["SAMEORIGIN"], "X-Content-Type-Options": ["nosniff"]})
    get("/id/api-headers")
    get("/id/api-headers/response/set")
    send("PUT", "/id/api-headers/response/set/Referrer-Policy", ["no-referrer"])
    get("/id/api-headers/response/set")
    send("PUT", "/id/api-headers/response/set/Referrer-Policy", ["origin"], expect=500)   # exists
    get("/id/api-headers/response/set/Referrer-Policy")
    send("PATCH", "/id/api-headers/response/set/X-Frame-Options", ["DENY"])
    get("/id/api-headers/response/set")
    send("DELETE", "/id/api-headers/response/set/X-Content-Type-Options")
    get("/id/api-headers/response/set")
    get("/id/api-headers")
    send("POST", "/id/api-headers/response/deferred", True)
    get("/id/api-headers")
    send("PATCH", "/id/api-headers/request", {"set": {"X-Real": ["yes"]}}, expect=500)   # missing
    get("/id/api-headers")

    # upstreams: append one, append several (`/...` expands an array), delete one
    send("POST", "/id/api-proxy/upstreams", {"dial": "backend-c.internal:8080"})
    get("/id/api-proxy/upstreams")
    get("/reverse_proxy/upstreams")
    send("POST", "/id/api-proxy/upstreams/...", [{"dial": "backend-d.internal:8080"},
                                                  {"dial": "backend-e.internal:8080"}])
    get("/id/api-proxy/upstreams")
    get("/reverse_proxy/upstreams")
    send("DELETE", "/id/api-proxy/upstreams/1")
    get("/id/api-proxy/upstreams")
    get("/reverse_proxy/upstreams")
    send("PATCH", "/id/api-proxy/upstreams/0/dial", "backend-a.internal:9090")
    get("/id/api-proxy/upstreams/0")
    get("/id/api-proxy")
    get("/reverse_proxy/upstreams")
    send("PUT", "/id/api-proxy/load_balancing", {"selection_policy": {"policy": "round_robin"}})
    get("/id/api-proxy")
    get("/id/api-proxy/load_balancing")

    # DELETE a route by @id, then by index
    send("DELETE", "/id/legacy")
    check("routes after delete", ids(get(ROUTES)), ["health", "landing", "api", "docs", "blog"])
    get("/id/legacy", 404)
    send("DELETE", "/id/legacy", expect=404)
    send("DELETE", ROUTES + "/3")
    check("routes after index delete", ids(get(ROUTES)), ["health", "landing", "api", "blog"])
    get("/id/docs", 404)
    get(ROUTES + "/4", 400)
    send("DELETE", ROUTES + "/7", expect=500)                  # out of bounds
    get(ROUTES)

    # ---- c. servers: create by PUT and by POST, replace, delete
    staging = {"listen": ["unix/staging.sock"], "automatic_https": {"disable": True},
               "routes": [{"@id": "staging-root", "handle": [{"handler": "static_response", "body": "staging"}]}]}
    send("PUT", SERVERS + "/staging", staging)
    get(SERVERS + "/staging")
    get("/id/staging-root")
    get(SERVERS)
    send("PUT", SERVERS + "/staging", staging, expect=500)          # key already exists
    get(SERVERS + "/staging")
    send("POST", SERVERS + "/staging/routes", {"@id": "staging-api", "handle": [
        {"handler": "reverse_proxy", "upstreams": [{"dial": "staging-api.internal:8080"}]}]})
    get(SERVERS + "/staging/routes")
    get("/id/staging-api")
    get("/reverse_proxy/upstreams")
    send("POST", SERVERS + "/preview", {"listen": ["unix/preview.sock"], "automatic_https": {"disable": True},
                                        "routes": [{"@id": "preview-root", "handle": [
                                            {"handler": "static_response", "body": "preview"}]}]})
    get(SERVERS + "/preview")
    get(SERVERS)
    send("POST", SERVERS + "/preview", {"listen": ["unix/preview2.sock"], "automatic_https": {"disable": True}})
    get(SERVERS + "/preview")
    get("/id/preview-root", 404)                     # gone with the replaced server
    send("PATCH", SERVERS + "/preview/listen", ["unix/preview3.sock"])
    get(SERVERS + "/preview/listen")
    send("PATCH", SERVERS + "/review", {"listen": ["unix/review.sock"]}, expect=500)   # missing key
    get(SERVERS + "/review")
    send("DELETE", SERVERS + "/preview")
    get(SERVERS + "/preview")
    get(SERVERS)
    send("DELETE", "/id/staging-api")
    get(SERVERS + "/staging")
    get("/reverse_proxy/upstreams")
    send("DELETE", SERVERS + "/staging")
    get(SERVERS)
    get("/id/staging-root", 404)

    # ---- d. the internal server's route: a matcher added, replaced, removed
    send("PUT", "/id/status/match", [{"path": ["/status"]}])
    get("/id/status")
    send("POST", "/id/status/match/0/path", "/status/*")
    get("/id/status/match")
    send("PATCH", "/id/status/match/0/path/0", "/ready")
    get("/id/status/match")
    send("DELETE", "/id/status/match")
    get("/id/status")
    send("PATCH", "/id/status/handle/0", {"handler": "static_response", "status_code": 200, "body": "ready"})
    get("/id/status")
    get(SERVERS + "/internal")

    # ---- e. TLS automation policies
    send("POST", POLICIES, {"@id": "policy-api", "subjects": ["api.example.test"],
                            "issuers": [{"module": "acme", "ca": "https://acme.example.test/directory",
                                         "email": "api@example.test"}]})
    get(POLICIES)
    get("/id/policy-api")
    send("POST", "/id/policy-www/subjects", "home.example.test")
    get("/id/policy-www/subjects")
    send("PATCH", "/id/policy-www/issuers/0/email", "admin@example.test")
    get("/id/policy-www")
    send("PUT", "/id/policy-api/key_type", "p256")
    get("/id/policy-api")
    send("PATCH", "/id/policy-api/key_type", "rsa2048")
    get("/id/policy-api")
    send("PATCH", "/id/policy-api/key_type", "dsa", expect=500)      # not a key type Caddy knows
    get("/id/policy-api")
    send("DELETE", "/id/policy-www")
    get(POLICIES)
    get("/id/policy-www", 404)
    get("/config/apps/tls")

    # ---- f. refused writes: malformed bodies, wrong types, unknown modules, content types
    send("POST", ROUTES, raw="{bad json", expect=500)
    send("POST", ROUTES, {"handle": [{"handler": "nosuch"}]}, expect=500)
    send("PATCH", PUBLIC + "/listen", 5, expect=500)
    send("PATCH", "/id/landing/terminal", "yes", expect=500)
    send("PUT", ROUTES + "/9", health, expect=500)
    send("POST", "/id/nope/handle", {"handler": "static_response"}, expect=404)
    send("PATCH", "/id/nope", {"@id": "nope"}, expect=404)
    call("POST", "/id/landing/handle/0/body", headers={"If-Match": '"/config/ 00000000"'},
         raw='"x"', expect=412)
    get("/load", 405)
    get(ROUTES)
    get("/id/landing")

    # ---- g. /load replaces the whole configuration (the admin listener kept as it is)
    admin = get("/config/admin")
    config = {"admin": admin, "storage": {"module": "file_system", "root": "caddy-data"},
              "apps": {"http": {"servers": {"edge": {
                  "listen": ["unix/edge.sock"], "automatic_https": {"disable": True},
                  "routes": [
                      {"@id": "edge-root", "match": [{"path": ["/"]}],
                       "handle": [{"handler": "static_response", "body": "edge"}]},
                      {"@id": "edge-proxy", "handle": [{"handler": "reverse_proxy", "upstreams": [
                          {"dial": "edge-a.internal:8080"}]}]}]}}}}}
    send("POST", "/load", config)
    get("/config/apps")
    get(SERVERS)
    get("/id/edge-root")
    get("/id/landing", 404)
    get("/config/apps/tls")
    get("/reverse_proxy/upstreams")
    send("POST", "/load", raw="{not json", expect=400)
    get(SERVERS)
    send("POST", "/id/edge-proxy/handle/0/upstreams", {"dial": "edge-b.internal:8080"})
    get("/id/edge-proxy")
    get("/reverse_proxy/upstreams")
    send("PUT", "/config/apps/tls", {"automation": {"policies": [
        {"@id": "policy-edge", "subjects": ["edge.example.test"],
         "issuers": [{"module": "acme", "ca": "https://acme.example.test/directory"}]}]}})
    get("/config/apps/tls")
    get("/id/policy-edge")
    send("DELETE", "/id/edge-root")
    get(SERVERS + "/edge/routes")


drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:43111")
