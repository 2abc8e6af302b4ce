#!/usr/bin/env python3
"""Seed a fresh Superset through its REST API, directly on the app port (never recorded).

Usage: python seed.py BASE_URL TOKEN DATABASE
  TOKEN     the admin's JWT, sent as `Authorization: Bearer`
  DATABASE  the app's superset.db (SQLite): the dashboards' uuids are set there
Standard library only. A fresh metadata database numbers every table from 1, so the seed's ids are
fixed: annotation layers 1-3, annotations 1-3, CSS templates 1-2, tags 1-3, dashboards 1-3. The API
gives each dashboard a random uuid, which its reads show; the seed then writes fixed ones into the
database (no API call sets a uuid), so every fresh start shows the same seed.
"""
import json
import sqlite3
import sys
import urllib.request
import uuid

LAYERS = [
    {"name": "Releases", "descr": "Product releases"},
    {"name": "Incidents", "descr": "Production outages"},
    {"name": "Campaigns", "descr": "Marketing pushes"},
]
ANNOTATIONS = [  # (layer id, annotation)
    (1, {"short_descr": "v1.0", "long_descr": "First public release",
         "start_dttm": "2026-01-15T09:00:00", "end_dttm": "2026-01-15T09:00:00"}),
    (1, {"short_descr": "v1.1", "long_descr": "Dark mode and exports",
         "start_dttm": "2026-03-02T09:00:00", "end_dttm": "2026-03-02T09:00:00"}),
    (2, {"short_descr": "Database failover", "long_descr": "Primary lost, replica promoted",
         "start_dttm": "2026-02-10T03:00:00", "end_dttm": "2026-02-10T05:30:00"}),
]
CSS_TEMPLATES = [
    {"template_name": "Dark", "css": ".dashboard { background: #111; color: #eee; }"},
    {"template_name": "Compact", "css": ".chart-header { padding: 2px; }"},
]
TAGS = [
    {"name": "finance", "description": "Money in and out"},
    {"name": "operations", "description": "Keeping the lights on"},
    {"name": "quarterly", "description": "Reviewed every quarter"},
]
DASHBOARDS = [
    {"dashboard_title": "Sales overview", "slug": "sales", "published": True},
    {"dashboard_title": "Ops health", "slug": "ops-health", "published": False},
    {"dashboard_title": "Board pack", "published": True, "css": ".header { font-weight: bold; }"},
]


DASHBOARD_UUIDS = {1: "5e1d0a51-7c3a-4f0e-9a8b-000000000001", 2: "5e1d0a51-7c3a-4f0e-9a8b-000000000002",
                   3: "5e1d0a51-7c3a-4f0e-9a8b-000000000003"}


def post(base: str, token: str, path: str, body: dict) -> dict:
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST", headers={
        "Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read() or b"{}")


def main() -> None:
    base, token, database = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3]
    for layer in LAYERS:
        post(base, token, "/api/v1/annotation_layer/", layer)
    for layer_id, annotation in ANNOTATIONS:
        post(base, token, f"/api/v1/annotation_layer/{layer_id}/annotation/", annotation)
    for template in CSS_TEMPLATES:
        post(base, token, "/api/v1/css_template/", template)
    for tag in TAGS:
        post(base, token, "/api/v1/tag/", tag)
    for dashboard in DASHBOARDS:
        post(base, token, "/api/v1/dashboard/", dashboard)
    with sqlite3.connect(database) as db:  # Superset stores a uuid as its 16 bytes
        for dashboard_id, fixed in DASHBOARD_UUIDS.items():
            db.execute("UPDATE dashboards SET uuid = ? WHERE id = ?", (uuid.UUID(fixed).bytes, dashboard_id))


if __name__ == "__main__":
    main()
