#!/usr/bin/env python3
"""Seed a fresh Syncthing 1.19.2 through its REST API (run by start.sh on the app port, not recorded).

Usage: python3 seed.py BASE_URL API_KEY

Three remote devices (phone, nas, office) and three folders (photos, documents, music) shared
with them. Device ids are valid Syncthing ids (base32 of a certificate hash with Luhn check
characters) of throwaway certificates nothing uses. Folder paths are relative: Syncthing runs in
start.sh's st-home, where they are created. Standard library only.
"""
import json
import sys
import urllib.request

PHONE = "TDYPPE5-45KCNDU-QEPLH2T-QF2FV5M-FRGLJN7-BWOVKXG-ZXLRAK6-HG3ZNA2"
NAS = "HLEZ5RQ-NMW7NXZ-2WJMMVF-DRQNHJA-DIODYJ6-Y4MNQSM-JGHA3DZ-NH7H7QU"
OFFICE = "KJFAQSB-7DIUHRE-EGU6YVM-WAZ6TYT-Z5FWYU2-DG6YY2T-3VOFP6U-TTNWCQE"

DEVICES = [
    {"deviceID": PHONE, "name": "phone", "addresses": ["dynamic"], "compression": "always"},
    {"deviceID": NAS, "name": "nas", "addresses": ["tcp://192.0.2.20:22000"], "introducer": True,
     "maxRecvKbps": 2000},
    {"deviceID": OFFICE, "name": "office", "addresses": ["tcp://198.51.100.4:22000", "dynamic"],
     "paused": True},
]
FOLDERS = [
    {"id": "photos", "label": "Photos", "path": "photos", "type": "sendreceive",
     "devices": [{"deviceID": PHONE}, {"deviceID": NAS}], "rescanIntervalS": 600},
    {"id": "docs-2024", "label": "Documents", "path": "documents", "type": "sendonly",
     "devices": [{"deviceID": NAS}, {"deviceID": OFFICE}], "fsWatcherEnabled": False,
     "versioning": {"type": "simple", "params": {"keep": "5"}}},
    {"id": "music", "label": "Music", "path": "music", "type": "receiveonly",
     "devices": [{"deviceID": NAS}], "paused": True, "maxConflicts": 0},
]


def send(base, key, method, path, body):
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method=method,
                                     headers={"X-API-Key": key, "Content-Type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        answer.read()


def main():
    base, key = sys.argv[1], sys.argv[2]
    for device in DEVICES:
        send(base, key, "POST", "/rest/config/devices", device)
    for folder in FOLDERS:
        send(base, key, "POST", "/rest/config/folders", folder)


if __name__ == "__main__":
    main()
