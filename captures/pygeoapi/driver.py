#!/usr/bin/env python3
"""Scenario driver for pygeoapi 0.21.0's OGC API - Features with transactions (talks to the mitmproxy
reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:46351 --mode capture [-v]

The seed (seed.py, run by start.sh, not recorded): parks p-1..p-6 (points), trails t-1..t-3 (lines), both
editable TinyDB collections; landmarks lm-1..lm-3, a read-only GeoJSON file. No authentication. Every call
is sequential, with a random 50-150 ms sleep before it. A create is a POST of a GeoJSON Feature with
Content-Type application/geo+json (a POST with application/json is a CQL query instead).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

GEOJSON = {"Content-Type": "application/geo+json"}


def make_driver(base, min_sleep, max_sleep, verbose):
    return Driver(base, min_sleep, max_sleep, verbose)


def feature(geometry, properties, fid=None):
    body = {"type": "Feature", "geometry": geometry, "properties": properties}
    if fid is not None:
        body["id"] = fid
    return body


def point(x, y):
    return {"type": "Point", "coordinates": [x, y]}


def capture(d):
    call, check = d.call, d.check

    def get(path, expect=200, **params):
        return call("GET", path, params=params or None, expect=expect)[1]

    def ids(path, **params):
        return [f["id"] for f in get(path, **params)["features"]]

    def create(collection, body, expect=201, raw=None):
        status, answer = call("POST", f"/collections/{collection}/items", body=body, raw=raw, expect=expect,
                              headers=GEOJSON)
        return answer

    def replace(collection, fid, body, expect=204, raw=None):
        return call("PUT", f"/collections/{collection}/items/{fid}", body=body, raw=raw, expect=expect,
                    headers=GEOJSON)[1]

    def delete(collection, fid, expect=200):
        return call("DELETE", f"/collections/{collection}/items/{fid}", expect=expect)[1]

    # ---- a. reads before any write: landing, conformance, collections, queryables, every item
    get("/")
    get("/conformance")
    collections = get("/collections")
    check("collections", [c["id"] for c in collections["collections"]], ["parks", "trails", "landmarks"])
    for c in ("parks", "trails", "landmarks"):
        get(f"/collections/{c}")
        get(f"/collections/{c}/queryables")
    check("parks", ids("/collections/parks/items"), ["p-1", "p-2", "p-3", "p-4", "p-5", "p-6"])
    ids("/collections/trails/items")
    ids("/collections/landmarks/items")
    for fid in ("p-1", "p-2", "p-3", "p-4", "p-5", "p-6"):
        get(f"/collections/parks/items/{fid}")
    for fid in ("t-1", "t-2", "t-3"):
        get(f"/collections/trails/items/{fid}")
    for fid in ("lm-1", "lm-2", "lm-3"):
        get(f"/collections/landmarks/items/{fid}")

    # ---- b. list filters, sorts and pages
    check("north parks", ids("/collections/parks/items", district="north"), ["p-1", "p-5"])
    ids("/collections/parks/items", dogs="no")
    ids("/collections/parks/items", district="east")
    ids("/collections/parks/items", district="nowhere")
    ids("/collections/parks/items", sortby="name")
    ids("/collections/parks/items", sortby="-area_ha")
    ids("/collections/parks/items", limit="2")
    ids("/collections/parks/items", limit="2", offset="2")
    ids("/collections/parks/items", limit="2", offset="4")
    ids("/collections/parks/items", limit="3", sortby="name")
    ids("/collections/parks/items", bbox="2.25,48.80,2.32,48.85")
    ids("/collections/trails/items", surface="paved")
    ids("/collections/trails/items", sortby="-length_km")
    ids("/collections/landmarks/items", kind="bridge")
    get("/collections/parks/items", resulttype="hits")
    get("/collections/parks/items", f="json", limit="1")

    # ---- c. absences
    get("/collections/parks/items/p-99", expect=404)
    get("/collections/trails/items/nope", expect=404)
    get("/collections/landmarks/items/lm-9", expect=404)
    get("/collections/rivers", expect=404)
    get("/collections/rivers/items", expect=404)
    get("/collections/rivers/items/r-1", expect=404)
    get("/collections/parks/items", expect=400, limit="-1")
    get("/collections/parks/items", expect=400, sortby="colour")

    # ---- d. creates with a given id, reads showing them
    create("parks", feature(point(2.40, 48.85), {"name": "Heron Pond", "area_ha": 2.4, "district": "east",
                                                 "dogs": "no", "opened": "2019-07-14"}, "p-7"))
    get("/collections/parks/items/p-7")
    ids("/collections/parks/items")
    ids("/collections/parks/items", district="east")
    create("parks", feature(point(2.28, 48.88), {"name": "Beacon Field", "area_ha": 5.0, "district": "north",
                                                 "dogs": "yes", "opened": "2021-03-01"}, "p-8"))
    get("/collections/parks/items/p-8")
    ids("/collections/parks/items", district="north")
    create("trails", feature({"type": "LineString", "coordinates": [[2.40, 48.85], [2.41, 48.86]]},
                             {"name": "Heron Path", "length_km": 0.9, "surface": "boardwalk"}, "t-4"))
    get("/collections/trails/items/t-4")
    ids("/collections/trails/items")

    # ---- e. creates without an id: the server makes a UUID, shown only in the Location header
    for name, district in (("Willow Corner", "south"), ("Aster Court", "centre")):
        status, _ = call("POST", "/collections/parks/items", expect=201, headers=GEOJSON,
                         body=feature(point(2.32, 48.83), {"name": name, "area_ha": 0.3, "district": district,
                                                            "dogs": "no", "opened": "2026-01-10"}))
    listed = get("/collections/parks/items", limit="20")
    fresh = [f["id"] for f in listed["features"] if not f["id"].startswith("p-")]
    check("fresh ids", len(fresh), 2)
    for fid in fresh:
        get(f"/collections/parks/items/{fid}")
    ids("/collections/parks/items", district="south")

    # ---- f. refused creates
    create("parks", feature(point(2.0, 48.0), {"name": "Again"}, "p-1"), expect=500)      # id taken
    create("parks", None, expect=500, raw="{not json")     # pygeoapi 0.21: invalid data is 500
    create("parks", {"type": "Feature", "id": "p-50", "properties": {"name": "No geometry"}}, expect=500)
    create("parks", {"type": "Feature", "id": "p-51", "geometry": point(1, 2)}, expect=500)  # no properties
    create("landmarks", feature(point(2.0, 48.0), {"name": "Read only"}, "lm-4"), expect=400)
    create("rivers", feature(point(2.0, 48.0), {"name": "Nowhere"}, "r-1"), expect=404)
    get("/collections/parks/items/p-50", expect=404)
    ids("/collections/parks/items", limit="20")
    get("/collections/landmarks/items/lm-4", expect=404)

    # ---- g. replacements (PUT a whole feature), reads after each
    replace("parks", "p-2", feature(point(2.33, 48.84), {"name": "Linden Square", "area_ha": 0.9,
                                                         "district": "centre", "dogs": "yes",
                                                         "opened": "1932-09-12"}))
    get("/collections/parks/items/p-2")
    ids("/collections/parks/items", dogs="no")
    replace("parks", "p-3", feature(point(2.385, 48.865), {"name": "Mill Meadows", "area_ha": 7.2,
                                                           "district": "east", "dogs": "yes",
                                                           "opened": "2004-04-20"}))
    get("/collections/parks/items/p-3")
    replace("parks", "p-7", feature(point(2.40, 48.85), {"name": "Heron Pond", "district": "east"}))
    get("/collections/parks/items/p-7")          # properties replaced whole: area_ha, dogs, opened gone
    ids("/collections/parks/items", sortby="name")
    replace("trails", "t-2", feature({"type": "LineString", "coordinates": [[2.27, 48.83], [2.29, 48.84],
                                                                            [2.30, 48.85]]},
                                     {"name": "Orchard Loop", "length_km": 2.3, "surface": "gravel"}))
    get("/collections/trails/items/t-2")
    ids("/collections/trails/items", surface="gravel")
    replace("parks", fresh[0], feature(point(2.32, 48.83), {"name": "Willow Corner", "area_ha": 0.35,
                                                            "district": "south", "dogs": "yes",
                                                            "opened": "2026-01-10"}))
    get(f"/collections/parks/items/{fresh[0]}")
    replace("parks", "p-5", feature(point(2.36, 48.89), {"name": "Quarry Hill", "area_ha": 21.0,
                                                         "district": "north", "dogs": "no",
                                                         "opened": "2011-10-02"}))
    get("/collections/parks/items/p-5")
    ids("/collections/parks/items", district="north")
    get("/collections/parks/items/p-5")

    # ---- h. refused replacements
    replace("parks", "p-2", None, expect=500, raw="{broken")
    replace("parks", "p-2", {"type": "Feature", "properties": {"name": "No geometry"}}, expect=500)
    replace("landmarks", "lm-1", feature(point(2.35, 48.86), {"name": "Bell Tower"}), expect=400)
    replace("rivers", "r-1", feature(point(2.35, 48.86), {"name": "x"}), expect=404)
    get("/collections/parks/items/p-2")
    get("/collections/landmarks/items/lm-1")
    # a replacement of an id that names nothing: 204, and nothing is made
    replace("parks", "p-77", feature(point(2.3, 48.8), {"name": "Ghost Park", "district": "south"}))
    get("/collections/parks/items/p-77", expect=404)
    ids("/collections/parks/items", district="south")

    # ---- i. deletes, reads after, a second delete, refused deletes
    delete("parks", "p-4")
    get("/collections/parks/items/p-4", expect=404)
    ids("/collections/parks/items", limit="20")
    ids("/collections/parks/items", dogs="no")
    delete("trails", "t-3")
    get("/collections/trails/items/t-3", expect=404)
    ids("/collections/trails/items")
    delete("parks", fresh[1])
    get(f"/collections/parks/items/{fresh[1]}", expect=404)
    ids("/collections/parks/items", district="centre")
    delete("parks", "p-4")                          # again: 200, nothing to remove
    get("/collections/parks/items/p-4", expect=404)
    delete("parks", "p-88")                         # never existed: 200 as well
    delete("landmarks", "lm-2", expect=400)
    delete("rivers", "r-1", expect=404)
    get("/collections/landmarks/items/lm-2")
    ids("/collections/landmarks/items")

    # ---- j. a park made, changed and removed again; a created id used again after its delete
    create("parks", feature(point(2.26, 48.86), {"name": "Pop-up Plaza", "area_ha": 0.1, "district": "west",
                                                 "dogs": "no", "opened": "2026-12-01"}, "p-9"))
    get("/collections/parks/items/p-9")
    replace("parks", "p-9", feature(point(2.26, 48.86), {"name": "Pop-up Plaza", "area_ha": 0.2,
                                                         "district": "west", "dogs": "yes",
                                                         "opened": "2026-12-01"}))
    get("/collections/parks/items/p-9")
    ids("/collections/parks/items", district="west")
    delete("parks", "p-9")
    get("/collections/parks/items/p-9", expect=404)
    ids("/collections/parks/items", district="west")
    create("parks", feature(point(2.27, 48.83), {"name": "Orchard Gardens", "area_ha": 3.3, "district": "west",
                                                 "dogs": "no", "opened": "1975-06-30"}, "p-4"))
    get("/collections/parks/items/p-4")
    ids("/collections/parks/items", limit="20")

    # ---- k. the final state
    for c in ("parks", "trails", "landmarks"):
        get(f"/collections/{c}")
        get(f"/collections/{c}/queryables")
    for fid in ("p-1", "p-2", "p-3", "p-5", "p-6", "p-7", "p-8"):
        get(f"/collections/parks/items/{fid}")
    for fid in ("t-1", "t-2", "t-4"):
        get(f"/collections/trails/items/{fid}")
    ids("/collections/parks/items", limit="3", offset="3")
    ids("/collections/parks/items", dogs="yes")
    ids("/collections/parks/items", sortby="name", limit="20")
    ids("/collections/parks/items", district="north", sortby="-area_ha")
    ids("/collections/trails/items", sortby="name")
    get("/collections/parks/items", resulttype="hits")
    get("/collections/parks/items/p-1")
    get("/collections/trails/items/t-1")


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:46351")
