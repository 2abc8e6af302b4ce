#!/usr/bin/env python3
"""Scenario driver for Syncthing 1.19.2's configuration REST API (talks to the mitmproxy reverse
proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:42721 --mode capture [-v]

Every call sends start.sh's throwaway API key in X-API-Key. The seed (seed.py, run by start.sh,
not recorded): devices phone, nas, office besides the local device laptop, folders photos,
docs-2024, music. Writes answer 200 with an empty body; reads after them show what was stored.
Every call is sequential, with a random 50-150 ms sleep before it.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

API_KEY = "syncthing-capture-key-not-a-secret-0001"
LAPTOP = "ZSPT5EW-VDJQO3K-KWSO43W-Q22CIS6-366GUZS-5PVEBUW-FH665ET-D2VKRAC"   # the local device
PHONE = "TDYPPE5-45KCNDU-QEPLH2T-QF2FV5M-FRGLJN7-BWOVKXG-ZXLRAK6-HG3ZNA2"
NAS = "HLEZ5RQ-NMW7NXZ-2WJMMVF-DRQNHJA-DIODYJ6-Y4MNQSM-JGHA3DZ-NH7H7QU"
OFFICE = "KJFAQSB-7DIUHRE-EGU6YVM-WAZ6TYT-Z5FWYU2-DG6YY2T-3VOFP6U-TTNWCQE"
TABLET = "V4G5NVU-IY6HCAV-O27AYKP-6UXDB77-LIXBLXX-JCDYHCZ-2VZZNR2-K5R45QK"   # created by POST
DESKTOP = "IRB6UKV-VCBOI7O-HDNWSFM-4I2QSUS-G6IJZWE-JEMH54N-A3FJQ7K-UVRRKQD"  # created by PUT
NEVER = "LESJCOZ-TFQU3JR-2IVXFHC-EDTARK6-HDR6JN3-G7LMP57-B2Z3WEX-KYEJNQ6"    # a valid id never added
SPARE = "75MEWTW-NOW75LF-WRRNH2Y-X4ZQKXP-ZEGGW63-7WZMY73-RDS5XZF-K5W4TAM"    # added, then deleted
BAD_CHECK = NAS[:-1] + "A"                                                  # a wrong check character


class ApiKeyDriver(Driver):
    def call(self, method, path, body=None, raw=None, params=None, expect=None, headers=None, **kw):
        return super().call(method, path, body, raw=raw, params=params, expect=expect,
                            headers={"X-API-Key": API_KEY, **(headers or {})}, **kw)


def make_driver(base, min_sleep, max_sleep, verbose):
    return ApiKeyDriver(base, min_sleep, max_sleep, verbose)


def capture(d):
    call, check = d.call, d.check

    def get(path, expect=200, **params):
        return call("GET", "/rest" + path, params=params or None, expect=expect)[1]

    def send(method, path, body=None, expect=200, raw=None):
        return call(method, "/rest" + path, body, raw=raw, expect=expect)[1]

    def folder(fid, expect=200):
        return get(f"/config/folders/{fid}", expect)

    def device(did, expect=200):
        return get(f"/config/devices/{did}", expect)

    # ---- a. reads before any write
    get("/system/status")
    get("/system/config/insync")
    get("/config/folders")
    for fid in ("photos", "docs-2024", "music"):
        folder(fid)
    get("/config/devices")
    for did in (LAPTOP, PHONE, NAS, OFFICE):
        device(did)
    get("/config/options")
    get("/config/gui")
    get("/config/defaults/folder")
    get("/config/defaults/device")
    get("/config/defaults/ignores")
    for fid in ("photos", "docs-2024", "music"):
        get("/db/status", folder=fid)
    # other spellings of a device id: lower case and without dashes answer the same device
    device(NAS.lower())
    device(NAS.replace("-", ""))
    # absences and refusals of reads
    folder("videos", 404)                           # a folder that never existed
    device(NEVER, 404)                              # a valid device id never added
    device("not-a-device", 400)                     # no device id at all
    device(BAD_CHECK, 400)                          # a wrong check character
    device("photos", 400)                           # a folder id read as a device
    folder(PHONE, 404)                              # a device id read as a folder
    folder("Photos", 404)                           # folder ids are case sensitive
    get("/db/status", 404, folder="videos")

    # ---- b. creates: POST answers 200 with no body; defaults fill what the body leaves out
    send("POST", "/config/devices", {"deviceID": TABLET, "name": "tablet",
                                     "addresses": ["tcp://192.0.2.33:22000"]})
    device(TABLET)
    get("/config/devices")
    # a folder shared with two devices: the local device is added to its devices
    send("POST", "/config/folders", {"id": "camera", "label": "Camera uploads", "path": "camera",
                                     "type": "receiveonly",
                                     "devices": [{"deviceID": PHONE}, {"deviceID": TABLET}]})
    folder("camera")
    get("/config/folders")
    get("/db/status", folder="camera")
    # a folder with only an id and a path: every other member comes from the defaults
    send("POST", "/config/folders", {"id": "notes-x7k2", "path": "notes"})
    folder("notes-x7k2")
    get("/config/folders")
    # a device with only its id: name empty, the default device's members
    send("POST", "/config/devices", {"deviceID": DESKTOP})
    device(DESKTOP)
    get("/config/devices")
    # PUT at a new id creates the folder (and the device)
    send("PUT", "/config/folders/recipes", {"id": "recipes", "label": "Recipes", "path": "recipes",
                                            "devices": [{"deviceID": OFFICE}],
                                            "rescanIntervalS": 7200})
    folder("recipes")
    get("/config/folders")
    # POST of a folder that exists replaces it (no conflict)
    send("POST", "/config/folders", {"id": "notes-x7k2", "label": "Notes", "path": "notes",
                                     "devices": [{"deviceID": NAS}]})
    folder("notes-x7k2")
    # a folder naming a device that is not configured: that device is dropped
    send("POST", "/config/folders", {"id": "scratch", "label": "Scratch", "path": "scratch",
                                     "devices": [{"deviceID": NEVER}, {"deviceID": OFFICE}]})
    folder("scratch")
    device(NEVER, 404)

    # ---- c. the defaults: a changed default folder fills later creates
    send("PATCH", "/config/defaults/folder", {"rescanIntervalS": 900, "fsWatcherDelayS": 30,
                                              "path": "inbox"})
    get("/config/defaults/folder")
    send("POST", "/config/folders", {"id": "inbox", "label": "Inbox"})
    folder("inbox")
    get("/config/folders")
    folder("photos")                                # existing folders keep their own values
    send("PATCH", "/config/defaults/device", {"compression": "always", "addresses": ["dynamic"]})
    get("/config/defaults/device")
    send("POST", "/config/devices", {"deviceID": SPARE, "name": "spare"})
    device(SPARE)                                   # compression from the changed default
    send("DELETE", f"/config/devices/{SPARE}")
    device(SPARE, 404)

    # ---- d. updates of folders: PATCH merges the members sent, PUT replaces from the defaults
    send("PATCH", "/config/folders/photos", {"label": "Family photos", "rescanIntervalS": 300})
    folder("photos")
    get("/config/folders")
    send("PATCH", "/config/folders/camera", {"paused": True})
    folder("camera")
    get("/db/status", folder="camera")              # a paused folder's state is ""
    send("PATCH", "/config/folders/camera", {"devices": [{"deviceID": TABLET}]})
    folder("camera")                                # the local device is kept
    send("PATCH", "/config/folders/docs-2024", {"versioning": {"type": "trashcan",
                                                               "params": {"cleanoutDays": "30"}}})
    folder("docs-2024")
    send("PUT", "/config/folders/recipes", {"id": "recipes", "label": "Cookbook", "path": "recipes"})
    folder("recipes")                               # rescanIntervalS and devices back to defaults
    send("PUT", "/config/folders/music", {"id": "music", "label": "Music library", "path": "music",
                                          "type": "receiveonly", "devices": [{"deviceID": NAS}],
                                          "paused": False, "maxConflicts": 5})
    folder("music")
    get("/config/folders")

    # ---- e. updates of devices, options, GUI
    send("PATCH", f"/config/devices/{PHONE}", {"name": "pixel", "paused": True})
    device(PHONE)
    get("/config/devices")
    send("PATCH", f"/config/devices/{TABLET}", {"addresses": ["dynamic", "tcp://192.0.2.34:22000"],
                                                "maxSendKbps": 1500})
    device(TABLET)
    send("PUT", f"/config/devices/{OFFICE}", {"deviceID": OFFICE, "name": "office-pc",
                                              "addresses": ["tcp://198.51.100.5:22000"]})
    device(OFFICE)                                  # paused back to false: PUT replaces
    send("PATCH", f"/config/devices/{DESKTOP}", {"name": "desktop", "introducer": True})
    device(DESKTOP)
    send("PATCH", "/config/options", {"maxSendKbps": 800, "maxRecvKbps": 1600,
                                      "reconnectionIntervalS": 90})
    get("/config/options")
    get("/system/config/insync")
    send("PATCH", "/config/options", {"keepTemporariesH": 12, "progressUpdateIntervalS": 10})
    get("/config/options")
    send("PATCH", "/config/gui", {"theme": "dark", "debugging": True})
    get("/config/gui")

    # ---- f. deletes: 200 with no body; a missing id answers 200 too
    get("/db/status", folder="scratch")
    send("DELETE", "/config/folders/scratch")
    folder("scratch", 404)
    get("/config/folders")
    get("/db/status", 404, folder="scratch")
    send("DELETE", "/config/folders/scratch")      # again: 200
    send("DELETE", "/config/folders/videos")       # never existed: 200
    # deleting a device removes it from every folder that shared with it
    send("DELETE", f"/config/devices/{TABLET}")
    device(TABLET, 404)
    get("/config/devices")
    folder("camera")
    send("DELETE", f"/config/devices/{PHONE}")
    device(PHONE, 404)
    folder("photos")
    get("/config/folders")
    send("DELETE", f"/config/devices/{PHONE}")     # again: 200
    send("DELETE", "/config/folders/docs-2024")    # a seeded folder
    folder("docs-2024", 404)
    get("/config/folders")

    # ---- g. refusals, and writes the API takes without storing anything
    send("POST", "/config/devices", {"deviceID": "not-a-device", "name": "bad"}, expect=400)
    send("POST", "/config/devices", {"deviceID": BAD_CHECK, "name": "bad check"}, expect=400)
    send("PATCH", f"/config/devices/{NEVER}", {"name": "ghost"}, expect=404)
    send("PATCH", "/config/devices/not-a-device", {"name": "ghost"}, expect=400)
    send("PATCH", "/config/folders/videos", {"label": "Videos"}, expect=404)
    send("POST", "/config/folders", {"label": "No id", "path": "noid"}, expect=500)
    send("PUT", "/config/folders/noid", {"label": "No id", "path": "noid"}, expect=500)
    folder("noid", 404)
    send("POST", "/config/folders", raw='{"id": "broken", ', expect=400)
    send("PATCH", "/config/folders/photos", {"rescanIntervalS": "often"}, expect=400)
    folder("photos")
    send("PATCH", "/config/options", {"maxSendKbps": "fast"}, expect=400)
    send("POST", "/config/devices", {"name": "no id"})   # 200, nothing stored
    get("/config/devices")
    send("PUT", f"/config/devices/{NAS}", {"name": "nas without id"})  # 200, nothing changes
    device(NAS)
    send("PUT", "/config/folders/music", {"id": "music-2", "label": "Moved", "path": "music2"})
    folder("music")                                 # the body's id counts: music stays
    folder("music-2")
    get("/config/folders")
    call("GET", "/rest/config/folders", expect=403, headers={"X-API-Key": "wrong-key"})

    # ---- h. final state
    get("/config/folders")
    get("/config/devices")
    for fid in ("photos", "camera", "notes-x7k2", "recipes", "inbox", "music", "music-2"):
        folder(fid)
    for did in (LAPTOP, NAS, OFFICE, DESKTOP):
        device(did)
    get("/config/defaults/folder")
    get("/config/options")
    get("/system/config/insync")


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:42721")
