#!/usr/bin/env python3
"""Seed pygeoapi's two editable collections through its own transactions API (OGC API - Features Part 4).

Usage: python seed.py BASE_URL   (run by start.sh once the server answers; not recorded)

Every feature is created with its own `id` in the body, so every seed gives the same ids (a create
without one gets a random UUID). The landmarks collection is a read-only GeoJSON file (landmarks.geojson).
"""
import json
import sys
import urllib.request

PARKS = [
    ("p-1", [2.30, 48.87], {"name": "Riverside Park", "area_ha": 12.5, "district": "north", "dogs": "yes",
                            "opened": "1998-05-01"}),
    ("p-2", [2.33, 48.84], {"name": "Linden Square", "area_ha": 0.8, "district": "centre", "dogs": "no",
                            "opened": "1932-09-12"}),
    ("p-3", [2.38, 48.86], {"name": "Mill Meadow", "area_ha": 7.2, "district": "east", "dogs": "yes",
                            "opened": "2004-04-20"}),
    ("p-4", [2.27, 48.83], {"name": "Orchard Gardens", "area_ha": 3.1, "district": "west", "dogs": "no",
                            "opened": "1975-06-30"}),
    ("p-5", [2.36, 48.89], {"name": "Quarry Hill", "area_ha": 21.0, "district": "north", "dogs": "yes",
                            "opened": "2011-10-02"}),
    ("p-6", [2.31, 48.82], {"name": "Canal Green", "area_ha": 1.9, "district": "south", "dogs": "yes",
                            "opened": "1989-03-15"}),
]
TRAILS = [
    ("t-1", [[2.30, 48.87], [2.32, 48.88], [2.35, 48.88]], {"name": "River Walk", "length_km": 4.2,
                                                           "surface": "gravel"}),
    ("t-2", [[2.27, 48.83], [2.29, 48.84]], {"name": "Orchard Loop", "length_km": 1.6, "surface": "paved"}),
    ("t-3", [[2.36, 48.89], [2.37, 48.90], [2.39, 48.90]], {"name": "Quarry Ridge", "length_km": 6.8,
                                                           "surface": "dirt"}),
]


def create(base, collection, feature):
    request = urllib.request.Request(f"{base}/collections/{collection}/items", data=json.dumps(feature).encode(),
                                     headers={"Content-Type": "application/geo+json"}, method="POST")
    with urllib.request.urlopen(request) as response:
        if response.status != 201:
            raise SystemExit(f"seed: {collection} {feature['id']} answered {response.status}")


def main():
    base = sys.argv[1].rstrip("/")
    for fid, point, properties in PARKS:
        create(base, "parks", {"type": "Feature", "id": fid, "geometry": {"type": "Point", "coordinates": point},
                               "properties": properties})
    for fid, line, properties in TRAILS:
        create(base, "trails", {"type": "Feature", "id": fid,
                                "geometry": {"type": "LineString", "coordinates": line}, "properties": properties})


if __name__ == "__main__":
    main()
