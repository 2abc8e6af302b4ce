#!/usr/bin/env python3
"""Seed Signal K server 2.23.0 through its own API (start.sh runs it after the server answers; standard
library only). Logs in as the admin user of the seeded security.json, then writes each resource by PUT under a
fixed UUID (the API's client-chosen id, so every start holds the same ids) and adds a second user.

Usage: python seed.py BASE_URL
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from seed_calls import checked_call, json_call  # noqa: E402  (captures/kit: what every seed shares)

ADMIN = {"username": "admin", "password": "skipper-pass-37"}
RESOURCES = "/signalk/v2/api/resources"


def point(lon, lat):
    return {"type": "Feature", "geometry": {"type": "Point", "coordinates": [lon, lat]}, "properties": {}}


def line(*coordinates):
    return {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [list(c) for c in coordinates]},
            "properties": {}}


def polygon(*coordinates):
    ring = [list(c) for c in coordinates] + [list(coordinates[0])]
    return {"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [ring]}, "properties": {}}


WAYPOINTS = {
    "1f0c6a52-3b1e-4c59-9a2e-0d7b1c2e3f01": {"name": "Harbour entrance", "description": "Red and green leading lights",
                                             "type": "pseudoaid", "feature": point(23.1045, 59.9012)},
    "1f0c6a52-3b1e-4c59-9a2e-0d7b1c2e3f02": {"name": "Fuel dock", "description": "Diesel and water, 08-20",
                                             "type": "marina", "feature": point(23.1130, 59.9055)},
    "1f0c6a52-3b1e-4c59-9a2e-0d7b1c2e3f03": {"name": "North cardinal", "description": "Pass to the north",
                                             "feature": point(23.2410, 59.8701)},
    "1f0c6a52-3b1e-4c59-9a2e-0d7b1c2e3f04": {"name": "Anchorage", "description": "Sand, 6 m, sheltered from W",
                                             "type": "anchorage", "feature": point(23.5502, 59.7423)},
}
ROUTES = {
    "2e1d7b63-4c2f-4d6a-8b3f-1e8c2d3f4a01": {"name": "Harbour to anchorage", "description": "Inner passage",
                                             "feature": line((23.1045, 59.9012), (23.2410, 59.8701),
                                                             (23.5502, 59.7423))},
    "2e1d7b63-4c2f-4d6a-8b3f-1e8c2d3f4a02": {"name": "Outer passage", "description": "Offshore, 12 nm",
                                             "feature": line((23.1045, 59.9012), (23.0100, 59.6000),
                                                             (23.4000, 59.5500))},
}
NOTES = {
    "3f2e8c74-5d3a-4e7b-9c4a-2f9d3e4a5b01": {"title": "Fuel prices", "description": "Diesel 1.89/l in 2026",
                                             "position": {"latitude": 59.9055, "longitude": 23.1130},
                                             "mimeType": "text/plain"},
    "3f2e8c74-5d3a-4e7b-9c4a-2f9d3e4a5b02": {"title": "Anchorage holding",
                                             "description": "Good holding in sand; weed near the shore",
                                             "href": "/resources/waypoints/1f0c6a52-3b1e-4c59-9a2e-0d7b1c2e3f04",
                                             "mimeType": "text/plain"},
    "3f2e8c74-5d3a-4e7b-9c4a-2f9d3e4a5b03": {"title": "Marina office", "description": "VHF 71, open 09-17",
                                             "position": {"latitude": 59.9040, "longitude": 23.1100},
                                             "mimeType": "text/plain"},
}
REGIONS = {
    "4a3f9d85-6e4b-4f8c-8d5b-3a0e4f5b6c01": {"name": "Speed limit 5 kn", "description": "Harbour approach",
                                             "feature": polygon((23.09, 59.89), (23.13, 59.89), (23.13, 59.91),
                                                                (23.09, 59.91))},
    "4a3f9d85-6e4b-4f8c-8d5b-3a0e4f5b6c02": {"name": "Firing range", "description": "Closed weekdays",
                                             "feature": polygon((23.30, 59.60), (23.45, 59.60), (23.45, 59.68),
                                                                (23.30, 59.68))},
}
CHARTS = {
    "5b4a0e96-7f5c-4a9d-9e6c-4b1f5a6c7d01": {"name": "Archipelago tiles", "description": "Local tile set",
                                             "type": "tilelayer", "url": "/charts/archipelago/{z}/{x}/{y}.png",
                                             "minzoom": 6, "maxzoom": 16, "format": "png", "scale": 50000},
}


def main(base: str) -> None:
    token = checked_call(base, "POST", "/signalk/v1/auth/login", body=ADMIN)["token"]
    auth = {"Authorization": f"Bearer {token}"}
    for kind, resources in (("waypoints", WAYPOINTS), ("routes", ROUTES), ("notes", NOTES),
                            ("regions", REGIONS), ("charts", CHARTS)):
        for resource_id, body in resources.items():
            checked_call(base, "PUT", f"{RESOURCES}/{kind}/{resource_id}", auth, body)
    # answered as text ("User added"): json_call takes a text answer, and raises on a refusal
    json_call(base, "POST", "/skServer/security/users/navigator", auth,
              {"type": "readwrite", "password": "navigator-pass-37"})


if __name__ == "__main__":
    main(sys.argv[1])
