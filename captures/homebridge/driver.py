#!/usr/bin/env python3
"""Scenario driver for Homebridge Config UI X 5.10.0's REST API (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:46381 --mode capture [-v]

The seed (start.sh's files and seed.py, not recorded): users 1 admin, 2 operator (admin), 3 viewer; config.json
with the bridge 0E:11:22:33:44:55, one accessory block (DummySwitch "Porch Light"), the UI's own platform block
(`config`) and a child-bridge platform (DemoLights, bridge 0E:AA:BB:CC:DD:01); cached accessories (three in
`cachedAccessories`, one in `cachedAccessories.0EAABBCCDD01`); pairings of three bridges (0E1122334455 main and
paired, 0EAABBCCDD01 not paired, 0EFFEEDDCC02 a stale one). Every call carries admin's bearer token from a
recorded login unless it says otherwise. Every call is sequential, with a random 50-150 ms sleep before it.
Config backups are named by the millisecond of each config write, so the scenario reads their ids from the list.
"""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

API = "/api"
MAIN_CACHE = "cachedAccessories"
CHILD_CACHE = "cachedAccessories.0EAABBCCDD01"
KITCHEN = "3f8a7d2e-1111-4c3b-9a1e-000000000001"
HALL = "3f8a7d2e-1111-4c3b-9a1e-000000000002"
DESK = "3f8a7d2e-1111-4c3b-9a1e-000000000003"
GARDEN = "7c9e1b40-2222-4d5e-8f60-000000000004"


def make_driver(base, min_sleep, max_sleep, verbose):
    return Driver(base, min_sleep, max_sleep, verbose)


def capture(d):
    call, check = d.call, d.check

    def get(path, expect=200, **params):
        return call("GET", API + path, params=params or None, expect=expect)[1]

    def send(method, path, body, expect, **kw):
        return call(method, API + path, body=body, expect=expect, **kw)[1]

    def usernames():
        return [u["username"] for u in get("/users")]

    # ---- a. authentication: settings, refused logins, the login, refused unauthenticated reads
    get("/auth/settings")
    send("POST", "/auth/login", {"username": "admin", "password": "wrong"}, 403)
    send("POST", "/auth/login", {"username": "nobody", "password": "x"}, 403)
    send("POST", "/auth/login", {"username": "admin"}, 400)
    d.token = send("POST", "/auth/login", {"username": "admin", "password": "admin-pass-1"}, 201)["access_token"]
    get("/auth/check")
    call("GET", API + "/users", token=None, expect=401)
    call("GET", API + "/config-editor", token=None, expect=401)
    call("GET", API + "/users", token="not-a-token", expect=401)
    get("/setup-wizard/get-setup-wizard-token", expect=403)

    # ---- b. reads before any write
    check("seeded users", usernames(), ["admin", "operator", "viewer"])
    get("/config-editor")
    get("/config-editor/backups")
    get("/config-editor/plugin/homebridge-config-ui-x")
    get("/config-editor/ui/plugins/hide-updates-for")
    get("/config-editor/ui/bridges/0E:AA:BB:CC:DD:01")
    get("/config-editor/ui/bridges/not-a-mac")
    get("/server/cached-accessories")
    get("/server/pairings")
    get("/server/pairings/0E1122334455")
    get("/server/pairings/0EAABBCCDD01")
    get("/server/pairings/0EFFEEDDCC02")
    get("/server/pairings/0E0000000000", expect=404)
    get("/server/pairing")
    get("/server/network-interfaces/bridge")
    get("/server/mdns-advertiser")
    get("/server/port")
    get("/server/ports")
    get("/config-editor/backups/123456789", expect=404)
    get("/config-editor/backups/abc", expect=400)

    # ---- c. users: creates, refused creates, reads after
    made = send("POST", "/users", {"username": "guest", "name": "Gina Guest", "password": "guest-pass-1",
                                   "admin": False}, 201)
    guest = made["id"]                                                        # 4
    get("/users")
    made = send("POST", "/users", {"username": "installer", "name": "Ivan Installer", "password": "inst-pass-1",
                                   "admin": True}, 201)
    installer = made["id"]                                                    # 5
    check("users after creates", usernames(), ["admin", "operator", "viewer", "guest", "installer"])
    send("POST", "/users", {"username": "guest", "name": "Other", "password": "x1", "admin": False}, 409)
    send("POST", "/users", {"username": "GUEST", "name": "Other", "password": "x1", "admin": False}, 409)
    send("POST", "/users", {"username": "nopass", "name": "No Pass", "admin": False}, 500)   # hashing nothing
    send("POST", "/users", {"name": "No Username", "password": "x1", "admin": False}, 400)
    send("POST", "/users", {"username": "badadmin", "name": "Bad", "password": "x1", "admin": "yes"}, 400)
    call("POST", API + "/users", raw="{not json", expect=400)
    call("POST", API + "/users", body={"username": "anon", "name": "A", "password": "x1", "admin": False},
         token=None, expect=401)
    get("/users")
    send("POST", "/auth/login", {"username": "guest", "password": "guest-pass-1"}, 201)

    # ---- d. users: updates of each kind, refusals, reads after
    send("PATCH", f"/users/{guest}", {"username": "guest", "name": "Gina G. Guest", "admin": False}, 200)
    get("/users")
    send("PATCH", f"/users/{guest}", {"username": "gina", "name": "Gina G. Guest", "admin": False}, 200)
    check("after rename", usernames(), ["admin", "operator", "viewer", "gina", "installer"])
    send("PATCH", f"/users/{guest}", {"username": "gina", "name": "Gina G. Guest", "admin": True}, 200)
    get("/users")
    send("PATCH", f"/users/{guest}", {"username": "gina", "name": "Gina G. Guest", "admin": True,
                                      "password": "gina-pass-2"}, 200)
    send("POST", "/auth/login", {"username": "gina", "password": "gina-pass-2"}, 201)
    send("POST", "/auth/login", {"username": "gina", "password": "guest-pass-1"}, 403)
    send("PATCH", f"/users/{guest}", {"username": "operator", "name": "Gina", "admin": True}, 409)
    send("PATCH", "/users/99", {"username": "ghost", "name": "Ghost", "admin": False}, 400)
    send("PATCH", "/users/abc", {"username": "ghost", "name": "Ghost", "admin": False}, 400)
    send("PATCH", f"/users/{installer}", {"name": "Ivan", "admin": True}, 400)
    get("/users")
    send("PATCH", "/users/3", {"username": "viewer", "name": "Victor V. Viewer", "admin": False}, 200)
    get("/users")

    # ---- e. own password and two-factor refusals (admin's own)
    send("POST", "/users/change-password", {"currentPassword": "wrong", "newPassword": "admin-pass-2"}, 403)
    send("POST", "/users/change-password", {"currentPassword": "admin-pass-1"}, 500)   # no DTO check
    send("POST", "/users/change-password", {"currentPassword": "admin-pass-1", "newPassword": "admin-pass-2"}, 201)
    send("POST", "/auth/login", {"username": "admin", "password": "admin-pass-1"}, 403)
    send("POST", "/auth/login", {"username": "admin", "password": "admin-pass-2"}, 201)
    send("POST", "/users/otp/activate", {"code": "123456"}, 400)
    send("POST", "/users/otp/deactivate", {"password": "wrong"}, 403)
    send("POST", "/users/otp/activate", {}, 400)
    get("/users")

    # ---- f. user deletes, refusals, reads after
    call("DELETE", f"{API}/users/{installer}", expect=200)
    check("after delete", usernames(), ["admin", "operator", "viewer", "gina"])
    call("DELETE", f"{API}/users/{installer}", expect=400)
    call("DELETE", f"{API}/users/99", expect=400)
    call("DELETE", f"{API}/users/abc", expect=400)
    send("POST", "/auth/login", {"username": "installer", "password": "inst-pass-1"}, 403)
    made = send("POST", "/users", {"username": "installer", "name": "Ivan Again", "password": "inst-pass-2",
                                   "admin": False}, 201)
    check("a new id after a delete", made["id"], installer)
    get("/users")

    # ---- g. the whole config: a write, reads after, refusals, backups
    config = get("/config-editor")
    config["bridge"]["name"] = "Homebridge Lab Two"
    config["accessories"].append({"accessory": "DummySwitch", "name": "Garage Door"})
    send("POST", "/config-editor", config, 201)
    get("/config-editor")
    get("/server/pairing")
    backups = get("/config-editor/backups")
    check("one backup", len(backups), 1)
    config = get("/config-editor")
    config["platforms"].append({"platform": "WeatherStation", "name": "Weather"})
    config["bridge"]["port"] = "51830"
    send("POST", "/config-editor", config, 201)
    get("/config-editor")
    get("/server/port")
    time.sleep(0.01)
    backups = get("/config-editor/backups")
    check("two backups", len(backups), 2)
    first, second = backups[-1]["id"], backups[0]["id"]
    call("GET", f"{API}/config-editor/backups/{first}", expect=200)
    call("GET", f"{API}/config-editor/backups/{second}", expect=200)
    call("DELETE", f"{API}/config-editor/backups/{first}", expect=200)
    get("/config-editor/backups")
    get(f"/config-editor/backups/{first}", expect=404)
    call("DELETE", f"{API}/config-editor/backups/{first}", expect=404)
    call("DELETE", f"{API}/config-editor/backups/abc", expect=400)
    call("POST", API + "/config-editor", raw="{broken", expect=400)
    get("/config-editor")

    # ---- h. the UI's own block, plugin blocks, plugin enable/disable
    blocks = get("/config-editor/plugin/homebridge-config-ui-x")
    blocks[0]["theme"] = "green"
    send("POST", "/config-editor/plugin/homebridge-config-ui-x", blocks, 201)
    get("/config-editor/plugin/homebridge-config-ui-x")
    send("POST", "/config-editor/plugin/homebridge-config-ui-x", {"theme": "red"}, 400)
    send("POST", "/config-editor/plugin/homebridge-config-ui-x", ["red"], 400)
    get("/config-editor/plugin/homebridge-not-installed", expect=404)
    send("PUT", "/config-editor/ui", {"key": "lightingMode", "value": "dark"}, 200)
    get("/config-editor/plugin/homebridge-config-ui-x")
    get("/auth/settings")
    send("PUT", "/config-editor/ui", {"key": "log.maxSize", "value": 100000}, 200)
    send("PUT", "/config-editor/ui", {"key": "platform", "value": "other"}, 400)
    get("/config-editor/plugin/homebridge-config-ui-x")
    send("PUT", "/config-editor/ui/plugins/hide-updates-for", ["homebridge-demo-lights", "not a plugin"], 200)
    get("/config-editor/ui/plugins/hide-updates-for")
    send("PUT", "/config-editor/ui/accessory-control/instance-blacklist", ["0e:aa:bb:cc:dd:01"], 200)
    get("/config-editor/plugin/homebridge-config-ui-x")
    send("PUT", "/config-editor/ui/bridges/0E:AA:BB:CC:DD:01/hide-hap-alert", {"value": True}, 200)
    get("/config-editor/ui/bridges/0E:AA:BB:CC:DD:01")
    send("PUT", "/config-editor/ui/bridges/0E:AA:BB:CC:DD:01/scheduled-restart-cron", {"value": "0 4 * * *"}, 200)
    get("/config-editor/ui/bridges/0E:AA:BB:CC:DD:01")
    send("PUT", "/config-editor/ui/bridges/0E:AA:BB:CC:DD:01/hide-hap-alert", {"value": False}, 200)
    get("/config-editor/ui/bridges/0E:AA:BB:CC:DD:01")
    send("PUT", "/config-editor/ui/bridges/not-a-mac/hide-hap-alert", {"value": True}, 404)
    send("PUT", "/config-editor/plugin/homebridge-demo-lights/disable", None, 200)
    get("/config-editor")
    send("PUT", "/config-editor/plugin/homebridge-weather/disable", None, 200)
    send("PUT", "/config-editor/plugin/homebridge-config-ui-x/disable", None, 400)
    send("PUT", "/config-editor/plugin/homebridge-demo-lights/enable", None, 200)
    send("PUT", "/config-editor/plugin/homebridge-never-disabled/enable", None, 200)
    get("/config-editor")
    get("/config-editor/backups")

    # ---- i. server settings: name, port, ports, mDNS, bridge interfaces, reads after, refusals
    send("PUT", "/server/name", {"name": "Lab Bridge"}, 200)
    get("/server/pairing")
    send("PUT", "/server/name", {"name": "!bad name"}, 400)
    send("PUT", "/server/name", {}, 400)
    send("PUT", "/server/port", {"port": 51840}, 200)
    get("/server/port")
    send("PUT", "/server/port", {"port": 80}, 400)
    send("PUT", "/server/port", {"port": "51841"}, 400)
    get("/server/port")
    send("PUT", "/server/ports", {"start": 52100, "end": 52150}, 200)
    get("/server/ports")
    send("PUT", "/server/ports", {"start": 52200, "end": 52100}, 400)
    send("PUT", "/server/ports", {"start": None, "end": None}, 200)
    get("/server/ports")
    send("PUT", "/server/mdns-advertiser", {"advertiser": "ciao"}, 200)
    get("/server/mdns-advertiser")
    send("PUT", "/server/mdns-advertiser", {"advertiser": "nonsense"}, 400)
    send("PUT", "/server/mdns-advertiser", {"advertiser": "avahi"}, 200)
    get("/server/mdns-advertiser")
    send("PUT", "/server/network-interfaces/bridge", {"adapters": ["eth0"]}, 200)
    get("/server/network-interfaces/bridge")
    send("PUT", "/server/network-interfaces/bridge", {"adapters": []}, 200)
    get("/server/network-interfaces/bridge")
    send("PUT", "/server/network-interfaces/bridge", {}, 500)   # adapters undefined
    get("/config-editor")

    # ---- j. cached accessories: single deletes, bulk delete, refusals, reads after
    get("/server/cached-accessories")
    call("DELETE", f"{API}/server/cached-accessories/{HALL}", params={"cacheFile": MAIN_CACHE}, expect=204)
    get("/server/cached-accessories")
    call("DELETE", f"{API}/server/cached-accessories/{HALL}", params={"cacheFile": MAIN_CACHE}, expect=404)
    call("DELETE", f"{API}/server/cached-accessories/00000000-0000-0000-0000-000000000000", expect=404)
    call("DELETE", f"{API}/server/cached-accessories/{GARDEN}", expect=404)   # not in the main cache file
    call("DELETE", f"{API}/server/cached-accessories/{GARDEN}", params={"cacheFile": CHILD_CACHE}, expect=204)
    get("/server/cached-accessories")
    call("DELETE", f"{API}/server/cached-accessories", body=[{"uuid": DESK, "cacheFile": MAIN_CACHE}], expect=204)
    get("/server/cached-accessories")
    call("DELETE", f"{API}/server/cached-accessories/{KITCHEN}", expect=204)
    get("/server/cached-accessories")

    # ---- k. pairings: delete one (reset), delete accessories of a bridge, reads after, refusals
    call("DELETE", f"{API}/server/pairings/0EFFEEDDCC02", params={"resetPairingInfo": "true"}, expect=204)
    get("/server/pairings")
    get("/server/pairings/0EFFEEDDCC02", expect=404)
    call("DELETE", f"{API}/server/pairings/0EAABBCCDD01/accessories", expect=204)
    get("/server/pairings")
    get("/server/pairings/0E0000000000", expect=404)

    # ---- l. more user writes and the config backups' bulk delete, final reads of everything
    made = send("POST", "/users", {"username": "auditor", "name": "Ada Auditor", "password": "audit-pass-1",
                                   "admin": False}, 201)
    get("/users")
    call("DELETE", f"{API}/users/{made['id']}", expect=200)
    call("DELETE", f"{API}/users/3", expect=200)
    get("/users")
    call("DELETE", f"{API}/config-editor/backups", expect=200)
    get("/config-editor/backups")
    get("/config-editor")
    get("/config-editor/plugin/homebridge-config-ui-x")
    get("/config-editor/ui/plugins/hide-updates-for")
    get("/server/cached-accessories")
    get("/server/pairings")
    get("/server/pairing")
    get("/server/port")
    get("/server/ports")
    get("/server/mdns-advertiser")
    get("/server/network-interfaces/bridge")
    for user in get("/users"):
        send("PATCH", f"/users/{user['id']}", {"username": user["username"], "name": user["name"] + " (checked)",
                                               "admin": user["admin"]}, 200)
    get("/users")


drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:46381")
