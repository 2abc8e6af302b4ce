#!/usr/bin/env python3
"""Seed a fresh GNS3 server 2.2.61 through its own REST API (/v2, standard library only).

Usage: seed.py BASE_URL

Runs directly on the application's port (start.sh), never through a recording proxy. Every id is
chosen by the client (projects, nodes, drawings and templates take one in the body), so the seed is
the same on every start and probes can name what it made. What it makes (README "Seed data"):
projects campus (QEMU nodes core1, edge1, edge2; a rectangle and a text drawing), branch (node
br1) and archive (closed); custom templates Alpine router (qemu), Lab switch (ethernet_switch) and
Office hub (ethernet_hub). No link and no snapshot: their ids are always the server's random UUIDs.
"""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "kit"))
from seed_calls import checked_call  # noqa: E402

BASE = sys.argv[1].rstrip("/") + "/v2"

CAMPUS = "6f1a2b3c-4d5e-4f60-8a7b-9c0d1e2f3a41"
BRANCH = "7a2b3c4d-5e6f-4071-9b8c-0d1e2f3a4b52"
ARCHIVE = "8b3c4d5e-6f70-4182-8c9d-1e2f3a4b5c63"


def send(method, path, body=None, expect=(200, 201, 204)):
    return checked_call(BASE, method, path, None, body, expect)


# The controller reaches its own local compute a few seconds after it starts: nodes need it.
for _ in range(300):
    computes = send("GET", "/computes")
    if any(c.get("compute_id") == "local" and c.get("connected") for c in computes):
        break
    time.sleep(0.2)
else:
    raise SystemExit("seed: the local compute never connected")


def node(project, node_id, name, x, y, **properties):
    send("POST", f"/projects/{project}/nodes",
         {"node_id": node_id, "name": name, "node_type": "qemu", "compute_id": "local", "x": x, "y": y,
          "properties": {"platform": "x86_64", **properties}})


send("POST", "/projects", {"name": "campus", "project_id": CAMPUS})
send("PUT", f"/projects/{CAMPUS}", {"scene_width": 3000, "scene_height": 1500, "show_grid": True})
node(CAMPUS, "0c0e0f10-1111-4222-8333-444455556661", "core1", 0, -150, adapters=4, ram=512)
node(CAMPUS, "0c0e0f10-1111-4222-8333-444455556662", "edge1", -200, 100, adapters=2)
node(CAMPUS, "0c0e0f10-1111-4222-8333-444455556663", "edge2", 200, 100, adapters=2)
send("POST", f"/projects/{CAMPUS}/drawings",
     {"drawing_id": "d1a0b0c0-0000-4000-8000-00000000d001", "x": -300, "y": -250, "z": 0,
      "svg": '<svg height="450" width="650"><rect fill="#e8f4ff" height="450" width="650" '
             'stroke="#4a90d9" stroke-width="2"/></svg>'})
send("POST", f"/projects/{CAMPUS}/drawings",
     {"drawing_id": "d1a0b0c0-0000-4000-8000-00000000d002", "x": -280, "y": -240, "z": 2,
      "svg": '<svg height="24" width="120"><text fill="#000000" font-family="Sans" font-size="14">'
             'Campus core</text></svg>'})

send("POST", "/projects", {"name": "branch", "project_id": BRANCH})
node(BRANCH, "0c0e0f10-1111-4222-8333-444455556671", "br1", 0, 0, ram=256)

send("POST", "/projects", {"name": "archive", "project_id": ARCHIVE})
send("POST", f"/projects/{ARCHIVE}/close", {})

send("POST", "/templates", {"template_id": "e5f60718-293a-4b4c-9d5e-6f708192a3b1", "name": "Alpine router",
                            "template_type": "qemu", "compute_id": "local", "platform": "x86_64",
                            "ram": 256, "adapters": 4, "category": "router"})
send("POST", "/templates", {"template_id": "e5f60718-293a-4b4c-9d5e-6f708192a3b2", "name": "Lab switch",
                            "template_type": "ethernet_switch", "compute_id": "local"})
send("POST", "/templates", {"template_id": "e5f60718-293a-4b4c-9d5e-6f708192a3b3", "name": "Office hub",
                            "template_type": "ethernet_hub", "compute_id": "local"})
print("seed: 3 projects, 4 nodes, 2 drawings, 3 templates")
