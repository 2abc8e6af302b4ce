#!/usr/bin/env python3
"""Scenario driver for OctoPrint 1.11.8's REST API (talks to the mitmproxy reverse proxy in front of
`octoprint serve`).

Usage:
  python driver.py --base http://127.0.0.1:42951 --mode capture [-v]

Every call sends start.sh's throwaway global API key in X-Api-Key (no Authorization header). The
seed (seed.sh, run by start.sh, not recorded): the admin user `admin` (start.sh), users alice
(active, groups users and operators) and bob (inactive), the group `operators`, the printer
profile `workshop_mk3` beside OctoPrint's own `_default`, folders models/ (cube.gcode,
bracket.gcode) and archive/ (old_part.gcode) on local storage, the appearance name. No printer is
connected; the virtual printer plugin is on, so the connection can be opened to `VIRTUAL`.
Folder creates and uploads are multipart/form-data, as OctoPrint takes them; every other body is
JSON. Every call is sequential, with a random 50-150 ms sleep before it.
"""
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

API_KEY = "capenv-octoprint-throwaway-api-key-0001"


class OctoPrintDriver(Driver):
    def call(self, method, path, body=None, raw=None, params=None, expect=None, headers=None, **kw):
        merged = {"X-Api-Key": API_KEY}
        merged.update(headers or {})
        return super().call(method, path, body, raw=raw, params=params, expect=expect, headers=merged,
                            token=None)

    def form(self, path, fields, files=None, expect=None):
        """A multipart/form-data POST (folder creates and uploads), logged and checked as call does."""
        time.sleep(random.uniform(self.min_sleep, self.max_sleep))
        r = self.c.post(path, data=fields, files=files, headers={"X-Api-Key": API_KEY})
        self.c.cookies.clear()
        self.n += 1
        if self.verbose:
            print(f"{self.n - 1:5d} POST   {path} (form) -> {r.status_code}", file=sys.stderr)
        if expect is not None and r.status_code != expect:
            self.unexpected += 1
            print(f"UNEXPECTED #{self.n - 1} POST {path}: {r.status_code} (expected {expect}) {r.text[:300]}",
                  file=sys.stderr)
        try:
            return r.status_code, r.json()
        except ValueError:
            return r.status_code, r.text


def make_driver(base, min_sleep, max_sleep, verbose):
    return OctoPrintDriver(base, min_sleep, max_sleep, verbose)


GCODE = b"G28 ; home\nG1 Z5 F5000\nG1 X20 Y20 F3000\nG1 X40 Y40\nM84\n"


def capture(d):
    call, check = d.call, d.check

    def get(path, expect=200, **params):
        return call("GET", path, params=params or None, expect=expect)[1]

    def send(method, path, body=None, expect=None, raw=None, headers=None):
        return call(method, path, body, raw=raw, expect=expect, headers=headers)[1]

    def names(answer, key, member):
        return sorted(x.get(member) for x in (answer or {}).get(key, [])) if isinstance(answer, dict) else []

    # ---- a. reads before any write: the server, profiles, access, files, settings, the rest; absences
    get("/api/version")
    get("/api/server")
    get("/api/currentuser")
    get("/api/printerprofiles")
    get("/api/printerprofiles/_default")
    get("/api/printerprofiles/workshop_mk3")
    get("/api/printerprofiles/no_such_profile", expect=404)
    get("/api/access/users")
    get("/api/access/users/alice")
    get("/api/access/users/bob")
    get("/api/access/users/nobody", expect=404)
    get("/api/access/groups")
    get("/api/access/groups/operators")
    get("/api/access/groups/users")
    get("/api/access/groups/admins")
    get("/api/access/groups/no_such_group", expect=404)
    get("/api/access/permissions")
    get("/api/files")
    get("/api/files", recursive="true")
    get("/api/files/local")
    get("/api/files/local/models")
    get("/api/files/local/models/cube.gcode")
    get("/api/files/local/archive/old_part.gcode")
    get("/api/files/local/no_such_file.gcode", expect=404)
    get("/api/files/local/no_such_folder", expect=404)
    get("/api/settings")
    get("/api/connection")
    get("/api/timelapse")
    get("/api/system/commands")
    get("/api/system/commands/core")
    get("/api/languages")
    get("/api/printer", expect=409)
    get("/api/job")

    # ---- b. printer profiles: creates with client-chosen ids, merge updates, deletes, refusals
    created = send("POST", "/api/printerprofiles", {"profile": {
        "id": "garage_ender", "name": "Garage Ender 3", "model": "Creality Ender 3", "color": "red",
        "volume": {"width": 220, "depth": 220, "height": 250}, "heatedBed": True}}, expect=200)
    check("created profile id", (created or {}).get("profile", {}).get("id"), "garage_ender")
    get("/api/printerprofiles/garage_ender")
    get("/api/printerprofiles")
    send("POST", "/api/printerprofiles", {"profile": {
        "id": "desk_mini", "name": "Desk Mini", "model": "Prusa Mini", "color": "black",
        "volume": {"width": 180, "depth": 180, "height": 180}, "heatedBed": True}}, expect=200)
    get("/api/printerprofiles/desk_mini")
    get("/api/printerprofiles")
    send("POST", "/api/printerprofiles", {"profile": {
        "id": "lab_delta", "name": "Lab Delta", "model": "Anycubic Kossel", "color": "default",
        "volume": {"width": 180, "depth": 180, "height": 300}, "heatedBed": False}}, expect=200)
    get("/api/printerprofiles/lab_delta")
    get("/api/printerprofiles")
    send("PATCH", "/api/printerprofiles/garage_ender", {"profile": {"name": "Garage Ender 3 Pro", "color": "green"}},
         expect=200)
    get("/api/printerprofiles/garage_ender")
    send("PATCH", "/api/printerprofiles/garage_ender", {"profile": {"model": "Creality Ender 3 Pro"}}, expect=200)
    get("/api/printerprofiles/garage_ender")
    get("/api/printerprofiles")
    send("PATCH", "/api/printerprofiles/desk_mini", {"profile": {"heatedChamber": True, "color": "yellow"}},
         expect=200)
    get("/api/printerprofiles/desk_mini")
    send("PATCH", "/api/printerprofiles/workshop_mk3", {"profile": {"name": "Workshop MK3S"}}, expect=200)
    get("/api/printerprofiles/workshop_mk3")
    get("/api/printerprofiles")
    send("DELETE", "/api/printerprofiles/lab_delta", expect=204)
    get("/api/printerprofiles/lab_delta", expect=404)
    get("/api/printerprofiles")
    # a create based on another profile: its unsent members come from workshop_mk3, not _default
    send("POST", "/api/printerprofiles", {"basedOn": "workshop_mk3", "profile": {
        "id": "workshop_copy", "name": "Workshop copy"}}, expect=200)
    get("/api/printerprofiles/workshop_copy")
    get("/api/printerprofiles")
    # refusals
    send("POST", "/api/printerprofiles", {"name": "no envelope"}, expect=400)
    send("POST", "/api/printerprofiles", {"profile": {"id": "garage_ender", "name": "Again"}},
         expect=500)  # OctoPrint 1.11.8 answers an existing id 500 "Could not save profile"
    send("PATCH", "/api/printerprofiles/garage_ender", {"name": "no envelope"}, expect=400)
    send("DELETE", "/api/printerprofiles/_default", expect=409)
    send("DELETE", "/api/printerprofiles/no_such_profile", expect=204)
    send("POST", "/api/printerprofiles", raw="{not json", expect=400)
    get("/api/printerprofiles")

    # ---- c. users: creates, updates and deletes answering the whole list; per-user settings
    users = send("POST", "/api/access/users", {"name": "carol", "password": "carol-throwaway-1", "active": True,
                                               "groups": ["users"], "permissions": []}, expect=200)
    check("users after create", "carol" in names(users, "users", "name"), True)
    get("/api/access/users/carol")
    get("/api/access/users")
    send("POST", "/api/access/users", {"name": "dave", "password": "dave-throwaway-1", "active": False,
                                       "groups": ["users", "operators"], "permissions": ["WEBCAM"]}, expect=200)
    get("/api/access/users/dave")
    get("/api/access/users")
    send("PUT", "/api/access/users/carol", {"active": False}, expect=200)
    get("/api/access/users/carol")
    send("PUT", "/api/access/users/carol", {"groups": ["users", "operators"]}, expect=200)
    get("/api/access/users/carol")
    send("PUT", "/api/access/users/bob", {"active": True, "permissions": ["STATUS"]}, expect=200)
    get("/api/access/users/bob")
    get("/api/access/users")
    send("PATCH", "/api/access/users/alice/settings", {"interface": {"color": "red"}}, expect=200)
    get("/api/access/users/alice/settings")
    get("/api/access/users/alice")
    send("PUT", "/api/access/users/alice/password", {"password": "alice-throwaway-2"}, expect=200)
    get("/api/access/users/alice")
    send("DELETE", "/api/access/users/dave", expect=200)
    get("/api/access/users/dave", expect=404)
    get("/api/access/users")
    send("POST", "/api/access/users", {"name": "carol", "password": "x-throwaway", "active": True}, expect=409)
    send("POST", "/api/access/users", {"name": "erin", "active": True}, expect=400)
    send("POST", "/api/access/users", {"password": "x-throwaway", "active": True}, expect=400)
    send("PUT", "/api/access/users/nobody", {"active": True}, expect=404)
    send("DELETE", "/api/access/users/nobody", expect=404)
    get("/api/access/users/nobody/settings", expect=404)

    # ---- d. groups: creates, updates and deletes answering the whole list
    send("POST", "/api/access/groups", {"key": "viewers", "name": "Viewers", "description": "Watch only",
                                        "permissions": ["STATUS", "WEBCAM"], "subgroups": [], "default": False},
         expect=200)
    get("/api/access/groups/viewers")
    get("/api/access/groups")
    send("POST", "/api/access/groups", {"key": "maintainers", "name": "Maintainers",
                                        "description": "Keep the printers running",
                                        "permissions": ["CONTROL", "CONNECTION"], "subgroups": ["viewers"],
                                        "default": False}, expect=200)
    get("/api/access/groups/maintainers")
    get("/api/access/groups")
    send("PUT", "/api/access/groups/viewers", {"description": "Watch and list files",
                                               "permissions": ["STATUS", "WEBCAM", "FILES_LIST"]}, expect=200)
    get("/api/access/groups/viewers")
    send("PUT", "/api/access/groups/operators", {"description": "Run and watch the printers"}, expect=200)
    get("/api/access/groups/operators")
    get("/api/access/groups")
    send("DELETE", "/api/access/groups/maintainers", expect=200)
    get("/api/access/groups/maintainers", expect=404)
    get("/api/access/groups")
    send("POST", "/api/access/groups", {"key": "viewers", "name": "Again", "permissions": [], "subgroups": []},
         expect=409)
    send("POST", "/api/access/groups", {"key": "nameless", "permissions": [], "subgroups": []}, expect=400)
    send("PUT", "/api/access/groups/no_such_group", {"description": "x"}, expect=404)
    send("DELETE", "/api/access/groups/no_such_group", expect=404)
    send("DELETE", "/api/access/groups/admins", expect=403)

    # ---- e. files and folders on local storage
    d.form("/api/files/local", {"foldername": "prints", "path": ""}, expect=201)
    get("/api/files/local/prints")
    get("/api/files/local")
    d.form("/api/files/local", {"foldername": "drafts", "path": "models"}, expect=201)
    get("/api/files/local/models/drafts")
    d.form("/api/files/local", {"path": "prints"}, files={"file": ("hook.gcode", GCODE, "application/octet-stream")},
           expect=201)
    get("/api/files/local/prints/hook.gcode")
    get("/api/files/local/prints")
    send("POST", "/api/files/local/models/cube.gcode", {"command": "copy", "destination": "prints"}, expect=201)
    get("/api/files/local/prints/cube.gcode")
    get("/api/files/local/models/cube.gcode")
    send("POST", "/api/files/local/models/bracket.gcode", {"command": "move", "destination": "archive"}, expect=201)
    get("/api/files/local/archive/bracket.gcode")
    get("/api/files/local/models/bracket.gcode", expect=404)
    send("POST", "/api/files/local/archive/old_part.gcode", {"command": "move",
                                                             "destination": "archive/older_part.gcode"}, expect=201)
    get("/api/files/local/archive/older_part.gcode")
    send("DELETE", "/api/files/local/prints/cube.gcode", expect=204)
    get("/api/files/local/prints/cube.gcode", expect=404)
    get("/api/files/local/prints")
    send("DELETE", "/api/files/local/models/drafts", expect=204)
    get("/api/files/local/models/drafts", expect=404)
    get("/api/files", recursive="true")
    send("POST", "/api/files/local/models/cube.gcode", {"command": "copy", "destination": "no_such_folder"},
         expect=415)
    send("POST", "/api/files/local/models/cube.gcode", {"command": "fold"}, expect=400)
    send("POST", "/api/files/local/no_such_file.gcode", {"command": "copy", "destination": "prints"}, expect=404)
    send("DELETE", "/api/files/local/no_such_file.gcode", expect=404)
    d.form("/api/files/local", {"foldername": "prints", "path": ""}, expect=201)  # an existing folder: 201 again
    get("/api/files/local")

    # ---- f. settings: a document, partial merges
    get("/api/settings")
    send("POST", "/api/settings", {"appearance": {"name": "Workshop North", "color": "green"}}, expect=200)
    get("/api/settings")
    send("POST", "/api/settings", {"feature": {"modelSizeDetection": False}}, expect=200)
    get("/api/settings")
    send("POST", "/api/settings", {"temperature": {"cutoff": 45}}, expect=200)
    get("/api/settings")

    # ---- g. timelapse configuration, connection
    send("POST", "/api/timelapse", {"type": "zchange", "postRoll": 0, "fps": 25, "retractionZHop": 0.5},
         expect=200)
    get("/api/timelapse")
    send("POST", "/api/timelapse", {"type": "timed", "postRoll": 5, "fps": 30, "interval": 10}, expect=200)
    get("/api/timelapse")
    send("POST", "/api/timelapse", {"type": "timed", "fps": -3}, expect=400)
    send("POST", "/api/connection", {"command": "connect", "port": "VIRTUAL", "baudrate": 115200,
                                     "printerProfile": "_default", "autoconnect": False}, expect=204)
    time.sleep(3)
    get("/api/connection")
    send("POST", "/api/connection", {"command": "disconnect"}, expect=204)
    time.sleep(1)
    get("/api/connection")
    send("POST", "/api/connection", {"command": "teleport"}, expect=400)

    # ---- h. final state
    get("/api/printerprofiles")
    for pid in ("_default", "workshop_mk3", "garage_ender", "desk_mini", "workshop_copy"):
        get(f"/api/printerprofiles/{pid}")
    get("/api/access/users")
    for name in ("admin", "alice", "bob", "carol"):
        get(f"/api/access/users/{name}")
    get("/api/access/groups")
    for key in ("operators", "viewers"):
        get(f"/api/access/groups/{key}")
    get("/api/files", recursive="true")
    get("/api/timelapse")


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:42951")
