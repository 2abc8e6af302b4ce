#!/usr/bin/env python3
"""Write changedetection.io 0.60.10's datastore for a fresh, seeded start (run by start.sh).

Usage: python datastore.py DATASTORE_DIR

The datastore is files: changedetection.json (settings) and one folder per watch ({uuid}/watch.json)
and per tag ({uuid}/tag.json). Everything here is fixed, so every start (recorded or live) holds the
same ids, titles and clocks:
- settings: a fixed throwaway API key (sent as x-api-key), fixed app_guid and RSS token, and every
  check paused (all_paused: the scheduler queues nothing, so no watch is ever fetched, and nothing
  the fetcher writes, last_checked, check_count, history, ever changes), a recheck interval of 52
  weeks besides;
- tags: `production` and `staging` (fixed uuids, created 2026-01-02 and 2026-01-03);
- watches: the release notes page (tagged production) and the status page (tagged staging, paused),
  both at a loopback port nobody serves, created 2026-01-05 and 2026-01-06.
Fields the app fills in on load (its defaults) are left out: it writes them back itself.
"""
import json
import os
import sys

API_KEY = "capenv0changedetection0throwaway"  # a throwaway; sent in x-api-key
UNSERVED = "http://127.0.0.1:43069"  # a loopback port nobody listens on (never fetched: all paused)

SETTINGS = {
    "note": "Settings file - watches are in {uuid}/watch.json, tags are in {uuid}/tag.json",
    "app_guid": "c0ffee00-0000-4000-8000-000000000001",
    "settings": {
        "headers": {},
        "requests": {
            "extra_proxies": [],
            "extra_browsers": [],
            "jitter_seconds": 0,
            "proxy": None,
            "time_between_check": {"weeks": 52, "days": None, "hours": None, "minutes": None,
                                   "seconds": None},
            "timeout": 45,
            "workers": 1,
        },
        "application": {
            "all_paused": True,
            "all_muted": True,
            "api_access_token_enabled": True,
            "api_access_token": API_KEY,
            "base_url": None,
            "fetch_backend": "html_requests",
            "notification_urls": [],
            "password": False,
            "rss_access_token": "capenv0rss0throwaway0token000001",
            "schema_version": 33,
            "tags": {},
        },
    },
    "build_sha": None,
    "version_tag": None,
}

TAGS = {
    "1a2b3c4d-0001-4000-8000-00000000a001": {"title": "production", "date_created": 1767312000},
    "1a2b3c4d-0002-4000-8000-00000000a002": {"title": "staging", "date_created": 1767398400},
}

WATCHES = {
    "5e7d0c1a-0001-4000-8000-00000000b001": {
        "url": f"{UNSERVED}/releases.html", "title": "Release notes", "date_created": 1767571200,
        "tags": ["1a2b3c4d-0001-4000-8000-00000000a001"], "paused": False,
    },
    "5e7d0c1a-0002-4000-8000-00000000b002": {
        "url": f"{UNSERVED}/status.json", "title": "Status page", "date_created": 1767657600,
        "tags": ["1a2b3c4d-0002-4000-8000-00000000a002"], "paused": True,
    },
}


def write(path, value):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(value, f, indent=2)


def main(root):
    write(os.path.join(root, "changedetection.json"), SETTINGS)
    for uuid, tag in TAGS.items():
        write(os.path.join(root, uuid, "tag.json"), {"uuid": uuid, **tag})
    for uuid, watch in WATCHES.items():
        write(os.path.join(root, uuid, "watch.json"), {"uuid": uuid, **watch})


if __name__ == "__main__":
    main(sys.argv[1])
