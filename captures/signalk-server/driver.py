#!/usr/bin/env python3
"""Scenario driver for Signal K server 2.23.0's HTTP API (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:47311 --mode capture [-v]

The seed (start.sh + seed.py, not recorded): security on (token security), users admin (admin) and navigator
(readwrite); the vessel Aurora (fixed uuid, length 11.9, beam 3.9, draft 1.8); waypoints ...3f01-...3f04, routes
...4a01-...4a02, notes ...5b01-...5b03 (5b02 links to waypoint ...3f04 by href), regions ...6c01-...6c02, chart
...7d01, each written by PUT under a fixed UUID. Reads need no token (allow_readonly); writes send the admin's
token got by logging in at the start of the session, except where a refusal is the point. Every call is
sequential, with a random 50-150 ms sleep before it.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

RES = "/signalk/v2/api/resources"
ADMIN = {"username": "admin", "password": "skipper-pass-37"}
NAVIGATOR = {"username": "navigator", "password": "navigator-pass-37"}
WP = "1f0c6a52-3b1e-4c59-9a2e-0d7b1c2e3f0"
ROUTE = "2e1d7b63-4c2f-4d6a-8b3f-1e8c2d3f4a0"
NOTE = "3f2e8c74-5d3a-4e7b-9c4a-2f9d3e4a5b0"
REGION = "4a3f9d85-6e4b-4f8c-8d5b-3a0e4f5b6c0"
CHART = "5b4a0e96-7f5c-4a9d-9e6c-4b1f5a6c7d0"
MISSING = "9d9d9d9d-0000-4000-8000-00000000dead"


def make_driver(base, min_sleep, max_sleep, verbose):
    return Driver(base, min_sleep, max_sleep, verbose)


def point(lon, lat):
    return {"type": "Feature", "geometry": {"type": "Point", "coordinates": [lon, lat]}, "properties": {}}


def line(*coordinates):
    return {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [list(c) for c in coordinates]},
            "properties": {}}


def polygon(*coordinates):
    ring = [list(c) for c in coordinates] + [list(coordinates[0])]
    return {"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [ring]}, "properties": {}}


def capture(d):
    call, check = d.call, d.check

    def get(path, expect=200, **params):
        return call("GET", path, params=params or None, expect=expect, token=None)[1]

    def send(method, path, body=None, expect=200, **kw):
        return call(method, path, body=body, expect=expect, **kw)[1]

    # ---- a. discovery and the seed, read before any write (no token: reads are open)
    get("/signalk")
    get("/signalk/v1/api/vessels/self")
    get("/signalk/v1/api/vessels/self/name")
    get("/signalk/v1/api/vessels/self/design/beam")
    get("/signalk/v1/api/vessels/self/design/length")
    get(RES)
    for kind in ("waypoints", "routes", "notes", "regions", "charts"):
        listed = get(f"{RES}/{kind}")
        for resource_id in listed:
            get(f"{RES}/{kind}/{resource_id}")
    check("seeded waypoints", sorted(get(f"{RES}/waypoints")), [f"{WP}{i}" for i in range(1, 5)])
    get(f"{RES}/waypoints", limit="2")
    get(f"{RES}/waypoints", limit="1")
    get(f"{RES}/waypoints", position="[23.1045,59.9012]", distance="2000")
    get(f"{RES}/waypoints", position="[23.5502,59.7423]", distance="50000")
    get(f"{RES}/waypoints", bbox="[23.0,59.85,23.3,59.95]")
    get(f"{RES}/routes", position="[23.5502,59.7423]", distance="5000")
    get(f"{RES}/regions", bbox="[23.2,59.5,23.5,59.7]")
    get(f"{RES}/notes", href=f"/resources/waypoints/{WP}4")
    get(f"{RES}/waypoints/{WP}1/feature")
    get(f"{RES}/notes/{NOTE}1/position")
    get(f"{RES}/waypoints/_providers")
    get(f"{RES}/waypoints/_providers/_default")
    # absences and bad queries
    get(f"{RES}/waypoints/{MISSING}")              # the provider answers 200 {} for an id it does not hold
    get(f"{RES}/routes/{MISSING}")
    get(f"{RES}/things", expect=404)
    get(f"{RES}/waypoints", expect=400, bbox="abc")
    get(f"{RES}/waypoints", expect=400, limit="many")

    # ---- b. logging in
    call("POST", "/signalk/v1/auth/login", body={"username": "admin", "password": "wrong"}, expect=401, token=None)
    call("POST", "/signalk/v1/auth/login", body={"username": "nobody", "password": "x"}, expect=401, token=None)
    d.token = call("POST", "/signalk/v1/auth/login", body=ADMIN, expect=200, token=None)[1]["token"]
    call("GET", "/skServer/loginStatus", expect=200)
    call("GET", "/skServer/loginStatus", expect=200, token=None)

    # ---- c. waypoints: create by POST (server UUID) and by PUT (client UUID), update, delete, refusals
    made = send("POST", f"{RES}/waypoints", {"name": "Lighthouse", "description": "Fl(2) 10s",
                                             "feature": point(23.3312, 59.8120)}, 201)
    lighthouse = made["id"]
    get(f"{RES}/waypoints/{lighthouse}")
    get(f"{RES}/waypoints")
    made = send("POST", f"{RES}/waypoints", {"name": "Wreck", "type": "hazard",
                                             "feature": point(23.4011, 59.7800)}, 201)
    wreck = made["id"]
    get(f"{RES}/waypoints/{wreck}")
    client_id = "6c5b1fa7-8a6d-4b0e-8f7d-5c2a6b7d8e01"
    send("PUT", f"{RES}/waypoints/{client_id}", {"name": "Swimming rock", "description": "Calm in SW winds",
                                                  "feature": point(23.2050, 59.8333)}, 200)
    get(f"{RES}/waypoints/{client_id}")
    get(f"{RES}/waypoints")
    get(f"{RES}/waypoints", bbox="[23.0,59.85,23.3,59.95]")
    # update: PUT replaces the whole resource (the description left out is gone after)
    send("PUT", f"{RES}/waypoints/{WP}3", {"name": "North cardinal (moved)", "feature": point(23.2422, 59.8710)})
    get(f"{RES}/waypoints/{WP}3")
    send("PUT", f"{RES}/waypoints/{lighthouse}", {"name": "Lighthouse", "description": "Fl(2) 15s, 12 M",
                                                   "type": "lighthouse", "feature": point(23.3312, 59.8120)})
    get(f"{RES}/waypoints/{lighthouse}")
    get(f"{RES}/waypoints")
    # refusals
    send("POST", f"{RES}/waypoints", {"name": "Nowhere"}, 400)                        # no position
    send("POST", f"{RES}/waypoints", {"name": "Bad", "feature": {"type": "Feature", "geometry":
                                      {"type": "Point", "coordinates": "north"}}}, 400)
    send("PUT", f"{RES}/waypoints/{WP}1", {"description": "no feature"}, 400)
    send("PUT", f"{RES}/waypoints/harbour-1", {"name": "Named", "feature": point(23.1, 59.9)}, 400)  # not a UUID
    send("POST", f"{RES}/waypoints", {"name": "Anon", "feature": point(23.1, 59.9)}, 403, token=None)
    send("PUT", f"{RES}/waypoints/{WP}2", {"name": "Anon", "feature": point(23.1, 59.9)}, 403, token=None)
    call("DELETE", f"{RES}/waypoints/{WP}2", expect=403, token=None)
    get(f"{RES}/waypoints")
    # deletes
    send("DELETE", f"{RES}/waypoints/{wreck}")
    get(f"{RES}/waypoints/{wreck}")
    get(f"{RES}/waypoints")
    call("DELETE", f"{RES}/waypoints/{wreck}", expect=404)
    call("DELETE", f"{RES}/waypoints/{MISSING}", expect=404)
    send("DELETE", f"{RES}/waypoints/{WP}2")
    get(f"{RES}/waypoints")
    get(f"{RES}/waypoints", position="[23.1045,59.9012]", distance="2000")

    # ---- d. routes
    made = send("POST", f"{RES}/routes", {"name": "Fuel run", "description": "Harbour to fuel dock",
                                          "feature": line((23.1045, 59.9012), (23.1130, 59.9055))}, 201)
    fuel_run = made["id"]
    get(f"{RES}/routes/{fuel_run}")
    get(f"{RES}/routes")
    send("PUT", f"{RES}/routes/{fuel_run}", {"name": "Fuel run", "description": "Via the marina office",
                                             "feature": line((23.1045, 59.9012), (23.1100, 59.9040),
                                                             (23.1130, 59.9055))})
    get(f"{RES}/routes/{fuel_run}")
    send("PUT", f"{RES}/routes/{ROUTE}2", {"name": "Outer passage", "description": "Offshore, 14 nm",
                                           "feature": line((23.1045, 59.9012), (22.9800, 59.5800),
                                                           (23.4000, 59.5500))})
    get(f"{RES}/routes/{ROUTE}2")
    send("POST", f"{RES}/routes", {"name": "Bent", "feature": point(23.1, 59.9)}, 400)    # a point is no route
    send("PUT", f"{RES}/routes/{MISSING}", {"name": "Upsert", "feature": line((23.0, 59.0), (23.1, 59.1))})
    get(f"{RES}/routes/{MISSING}")
    get(f"{RES}/routes")
    send("DELETE", f"{RES}/routes/{MISSING}")
    send("DELETE", f"{RES}/routes/{ROUTE}1")
    get(f"{RES}/routes/{ROUTE}1")
    get(f"{RES}/routes")
    get(f"{RES}/routes", position="[23.5502,59.7423]", distance="5000")

    # ---- e. notes
    made = send("POST", f"{RES}/notes", {"title": "Water tap", "description": "Token from the office",
                                         "position": {"latitude": 59.9050, "longitude": 23.1125},
                                         "mimeType": "text/plain"}, 201)
    tap = made["id"]
    get(f"{RES}/notes/{tap}")
    send("PUT", f"{RES}/notes/{tap}", {"title": "Water tap", "description": "Free since 2026",
                                       "position": {"latitude": 59.9050, "longitude": 23.1125},
                                       "mimeType": "text/plain"})
    get(f"{RES}/notes/{tap}")
    linked = "7d6c2ab8-9b7e-4c1f-9a8e-6d3b7c8e9f01"
    send("PUT", f"{RES}/notes/{linked}", {"title": "Lighthouse keeper", "description": "Visits by boat only",
                                          "href": f"/resources/waypoints/{lighthouse}", "mimeType": "text/plain"})
    get(f"{RES}/notes/{linked}")
    get(f"{RES}/notes", href=f"/resources/waypoints/{lighthouse}")
    get(f"{RES}/notes")
    send("POST", f"{RES}/notes", {"title": "Nowhere", "description": "no position or href"}, 400)
    send("DELETE", f"{RES}/notes/{NOTE}3")
    get(f"{RES}/notes/{NOTE}3")
    get(f"{RES}/notes")

    # ---- f. regions
    made = send("POST", f"{RES}/regions", {"name": "No anchoring", "description": "Cable area",
                                           "feature": polygon((23.20, 59.82), (23.26, 59.82), (23.26, 59.85),
                                                              (23.20, 59.85))}, 201)
    cable = made["id"]
    get(f"{RES}/regions/{cable}")
    get(f"{RES}/regions")
    send("PUT", f"{RES}/regions/{REGION}1", {"name": "Speed limit 3 kn", "description": "Harbour approach",
                                             "feature": polygon((23.09, 59.89), (23.13, 59.89), (23.13, 59.91),
                                                                (23.09, 59.91))})
    get(f"{RES}/regions/{REGION}1")
    send("POST", f"{RES}/regions", {"name": "Open", "feature": line((23.0, 59.0), (23.1, 59.1))}, 400)
    send("DELETE", f"{RES}/regions/{REGION}2")
    get(f"{RES}/regions")
    get(f"{RES}/regions", bbox="[23.2,59.5,23.5,59.7]")

    # ---- g. charts
    charts_id = "8e7d3bc9-0c8f-4d2a-8b9f-7e4c8d9f0a01"
    send("PUT", f"{RES}/charts/{charts_id}", {"name": "Approach detail", "description": "Harbour plan",
                                              "type": "tilelayer", "url": "/charts/approach/{z}/{x}/{y}.png",
                                              "minzoom": 12, "maxzoom": 18, "format": "png"})
    get(f"{RES}/charts/{charts_id}")
    get(f"{RES}/charts")
    send("PUT", f"{RES}/charts/{CHART}1", {"name": "Archipelago tiles", "description": "Local tile set, 2026",
                                           "type": "tilelayer", "url": "/charts/archipelago/{z}/{x}/{y}.png",
                                           "minzoom": 6, "maxzoom": 17, "format": "png", "scale": 50000})
    get(f"{RES}/charts/{CHART}1")
    send("POST", f"{RES}/charts", {"name": "Untyped", "url": "/charts/x/{z}/{x}/{y}.png"}, 400)
    send("DELETE", f"{RES}/charts/{charts_id}")
    get(f"{RES}/charts")

    # ---- h. the v1 data tree: a PUT needs a handler (metadata has one), a value
    pending = send("PUT", "/signalk/v1/api/vessels/self/design/beam/meta/displayName", {"value": "Beam"}, 202)
    get(pending["href"])
    get("/signalk/v1/api/vessels/self/design/beam")
    send("PUT", "/signalk/v1/api/vessels/self/steering/autopilot/target/headingTrue", {"value": 1.52}, 405)
    send("PUT", "/signalk/v1/api/vessels/self/design/beam/meta/displayName", {"label": "no value"}, 400)
    send("PUT", "/signalk/v1/api/vessels/self/design/beam/meta/displayName", {"value": "x"}, 401, token=None)

    # ---- i. the vessel (admin)
    call("GET", "/skServer/vessel", expect=200)
    call("PUT", "/skServer/vessel", body={"name": "Aurora II", "uuid": "urn:mrn:signalk:uuid:0a1b2c3d-0000-4000-8000-000000000001",
                                          "length": 11.9, "beam": 3.9, "draft": 1.9, "callsignVhf": "OJ1234"},
         expect=200)
    call("GET", "/skServer/vessel", expect=200)
    get("/signalk/v1/api/vessels/self/name")
    get("/signalk/v1/api/vessels/self/design/draft")

    # ---- j. users
    call("GET", "/skServer/security/users", expect=200)
    call("POST", "/skServer/security/users/deckhand", body={"type": "readonly", "password": "deckhand-pass-37"},
         expect=200)
    call("GET", "/skServer/security/users", expect=200)
    call("POST", "/skServer/security/users/deckhand", body={"type": "readwrite", "password": "other-pass-37"},
         expect=400)                                                                    # taken
    call("PUT", "/skServer/security/users/deckhand", body={"type": "readwrite"}, expect=200)
    call("GET", "/skServer/security/users", expect=200)
    call("POST", "/signalk/v1/auth/login", body={"username": "deckhand", "password": "deckhand-pass-37"},
         expect=200, token=None)
    call("GET", "/skServer/security/users", expect=401, token=None)
    navigator = call("POST", "/signalk/v1/auth/login", body=NAVIGATOR, expect=200, token=None)[1]["token"]
    call("GET", "/skServer/security/users", expect=401, token=navigator)             # not an admin
    made = call("POST", f"{RES}/waypoints", body={"name": "Navigator's mark", "feature": point(23.15, 59.88)},
                expect=201, token=navigator)[1]
    get(f"{RES}/waypoints/{made['id']}")
    call("DELETE", "/skServer/security/users/deckhand", expect=200)
    call("GET", "/skServer/security/users", expect=200)
    call("POST", "/signalk/v1/auth/login", body={"username": "deckhand", "password": "deckhand-pass-37"},
         expect=401, token=None)

    # ---- k. access requests from a device, approved, then the device edited and removed
    asked = call("POST", "/signalk/v1/access/requests", body={"clientId": "b1c2d3e4-0000-4000-8000-0000000000a1",
                                                              "description": "Cockpit display"},
                 expect=202, token=None)[1]
    request_id = asked["requestId"]
    call("GET", f"/signalk/v1/requests/{request_id}", expect=200, token=None)
    call("GET", "/skServer/security/access/requests", expect=200)
    call("PUT", "/skServer/security/access/requests/b1c2d3e4-0000-4000-8000-0000000000a1/approved",
         body={"expiration": "1y", "permissions": "readwrite"}, expect=200)
    call("GET", f"/signalk/v1/requests/{request_id}", expect=200, token=None)
    call("GET", "/skServer/security/access/requests", expect=200)
    call("GET", "/skServer/security/devices", expect=200)
    call("PUT", "/skServer/security/devices/b1c2d3e4-0000-4000-8000-0000000000a1",
         body={"description": "Cockpit display (port)", "permissions": "readonly"}, expect=200)
    call("GET", "/skServer/security/devices", expect=200)
    call("DELETE", "/skServer/security/devices/b1c2d3e4-0000-4000-8000-0000000000a1", expect=200)
    call("GET", "/skServer/security/devices", expect=200)

    # ---- l. security configuration and server settings
    call("GET", "/skServer/security/config", expect=200)
    call("PUT", "/skServer/security/config", body={"allow_readonly": True, "expiration": "12h",
                                                   "allowDeviceAccessRequests": True,
                                                   "allowNewUserRegistration": False}, expect=200)
    call("GET", "/skServer/security/config", expect=200)
    call("GET", "/skServer/settings", expect=200)
    call("PUT", "/skServer/settings", body={"options": {}, "pruneContextsMinutes": 30, "logCountToKeep": 12},
         expect=200)
    call("GET", "/skServer/settings", expect=200)

    # ---- m. plugin configuration
    call("GET", "/skServer/plugins/sk-ais-status/config", expect=200)
    call("POST", "/skServer/plugins/sk-ais-status/config", body={"enabled": True, "enableLogging": False,
                                                                 "configuration": {}}, expect=200)
    call("GET", "/skServer/plugins/sk-ais-status/config", expect=200)

    # ---- n. the end state of every collection
    for kind in ("waypoints", "routes", "notes", "regions", "charts"):
        get(f"{RES}/{kind}")


drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:47311")
