#!/usr/bin/env python3
"""Scenario driver for LoopBack 4's todo example, @loopback/example-todo 6.0.0 (talks to the
mitmproxy reverse proxy).

Usage:
  python driver.py --base http://127.0.0.1:42971 --mode capture   # ~170 calls

No authentication. The seed (seed.json, copied by start.sh into the memory connector's file, not
recorded) holds todos 1-6; the connector's id counter stands at 7, so creates get 7, 8, ... (never
reused after a delete). A create may not name an id (422); PUT may repeat the item's own id.
The geocoder (`remindAtAddress`) is never used: it calls a remote service this machine cannot reach.
Every call is sequential, with a random 50-150 ms sleep before it. Query strings are built by
httpx from (name, value) pairs, so `filter[where][x]` brackets are percent-encoded as a browser's
qs would; JSON `filter=`/`where=` values are sent as one parameter.
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)


def j(value):
    return json.dumps(value, separators=(",", ":"))


def capture(d):
    call, get = d.call, d.get
    # ---- a. initial reads, before any write
    get("/todos")
    for i in range(1, 7):
        get(f"/todos/{i}")
    get("/todos/count")
    get("/todos/99", expect=404)
    get("/todos/abc", expect=400)                       # not a number: 400 INVALID_PARAMETER_VALUE
    call("GET", "/todos", params=[("filter[where][isComplete]", "true")], expect=200)
    call("GET", "/todos", params=[("filter[where][tag]", "home")], expect=200)
    call("GET", "/todos", params={"filter": j({"where": {"isComplete": False}})}, expect=200)
    call("GET", "/todos", params={"filter": j({"order": ["title ASC"]})}, expect=200)
    call("GET", "/todos", params={"filter": j({"order": ["id DESC"], "limit": 3})}, expect=200)
    call("GET", "/todos", params={"filter": j({"limit": 2, "skip": 2})}, expect=200)
    call("GET", "/todos", params=[("filter[limit]", "2"), ("filter[skip]", "4")], expect=200)
    call("GET", "/todos", params={"filter": j({"fields": {"id": True, "title": True}})}, expect=200)
    call("GET", "/todos", params={"filter": j({"where": {"id": {"gt": 3}}})}, expect=200)
    call("GET", "/todos", params={"filter": j({"where": {"id": {"inq": [1, 3, 5]}}})}, expect=200)
    call("GET", "/todos/count", params=[("where[isComplete]", "false")], expect=200)
    call("GET", "/todos/count", params={"where": j({"tag": "work"})}, expect=200)
    call("GET", "/todos/2", params={"filter": j({"fields": {"title": True, "isComplete": True}})},
         expect=200)
    call("GET", "/todos", params={"filter": "notjson"}, expect=400)

    # ---- b. creates (server ids 7, 8, 9, 10), each followed by an item read and a list read
    _, t7 = call("POST", "/todos", {"title": "Pay rent", "desc": "Before the 5th",
                                    "isComplete": False}, expect=200)
    id7 = t7.get("id") if isinstance(t7, dict) else 7
    get(f"/todos/{id7}")
    get("/todos")
    get("/todos/count")
    _, t8 = call("POST", "/todos", {"title": "Fix the bike"}, expect=200)
    id8 = t8.get("id") if isinstance(t8, dict) else 8
    get(f"/todos/{id8}")
    _, t9 = call("POST", "/todos", {"title": "Plan the party", "desc": "Saturday",
                                    "isComplete": True, "tag": {"guests": 12, "theme": "retro"}},
                 expect=200)
    id9 = t9.get("id") if isinstance(t9, dict) else 9
    get(f"/todos/{id9}")
    _, t10 = call("POST", "/todos", {"title": "Read a book", "tag": ["leisure", "books"],
                                     "remindAtGeo": "38.72,-9.14"}, expect=200)
    id10 = t10.get("id") if isinstance(t10, dict) else 10
    get(f"/todos/{id10}")
    get("/todos")
    call("GET", "/todos", params=[("filter[where][isComplete]", "true")], expect=200)
    get("/todos/count")

    # ---- c. create validation errors (422 with details; 400 for a body that is not JSON)
    call("POST", "/todos", {"desc": "no title"}, expect=422)
    call("POST", "/todos", {"id": 50, "title": "client id"}, expect=422)     # id is excluded
    call("POST", "/todos", {"title": 5}, expect=422)
    call("POST", "/todos", {"title": "odd", "colour": "red"}, expect=422)    # unknown property
    call("POST", "/todos", {"title": "Wrong type", "isComplete": "yes"}, expect=422)
    call("POST", "/todos", {"title": ""}, expect=422)                       # juggler: can't be blank
    call("POST", "/todos", [{"title": "array"}], expect=422)
    call("POST", "/todos", raw="not json", expect=400)
    get("/todos/count")
    get("/todos")

    # ---- d. PATCH an item (204, no body), then read it back
    call("PATCH", "/todos/1", {"isComplete": True}, expect=204)
    get("/todos/1")
    call("PATCH", "/todos/3", {"desc": "Leaking tap in the kitchen", "tag": "home"}, expect=204)
    get("/todos/3")
    call("PATCH", f"/todos/{id8}", {"title": "Fix the bike brakes", "isComplete": False}, expect=204)
    get(f"/todos/{id8}")
    call("PATCH", "/todos/4", {"tag": {"trip": "lisbon", "priority": 1}}, expect=204)
    get("/todos/4")
    call("PATCH", "/todos/2", {"id": 2, "desc": "Quarterly numbers, final"}, expect=204)  # own id
    get("/todos/2")
    call("PATCH", "/todos/6", {}, expect=204)                                # empty patch
    get("/todos/6")
    get("/todos")
    call("PATCH", "/todos/99", {"title": "missing"}, expect=404)
    call("PATCH", "/todos/1", {"title": None}, expect=422)
    call("PATCH", "/todos/1", {"colour": "red"}, expect=422)
    call("PATCH", "/todos/1", {"isComplete": "no"}, expect=422)
    call("PATCH", "/todos/abc", {"title": "x"}, expect=400)
    get("/todos/1")

    # ---- e. PUT an item (204): replaces, members not sent are gone
    call("PUT", "/todos/5", {"title": "Renew passport and ID"}, expect=204)
    get("/todos/5")
    call("PUT", f"/todos/{id7}", {"id": id7, "title": "Pay rent", "desc": "Before the 3rd",
                                  "isComplete": True}, expect=204)
    get(f"/todos/{id7}")
    call("PUT", "/todos/3", {"title": "Call the plumber", "desc": "Monday 9:00",
                             "isComplete": False, "tag": ["home", "urgent"]}, expect=204)
    get("/todos/3")
    get("/todos")
    call("PUT", "/todos/99", {"title": "missing"}, expect=404)
    call("PUT", "/todos/3", {"desc": "no title"}, expect=422)
    call("PUT", "/todos/3", {"id": 42, "title": "moved"}, expect=400)       # id cannot change
    get("/todos/3")
    get("/todos/42", expect=404)

    # ---- f. PATCH the collection with a where: answers {count}
    call("PATCH", "/todos", {"tag": "done"}, params=[("where[isComplete]", "true")], expect=200)
    get("/todos")
    call("GET", "/todos", params=[("filter[where][tag]", "done")], expect=200)
    call("PATCH", "/todos", {"desc": "Someday"}, params={"where": j({"id": {"gt": id9}})},
         expect=200)
    get(f"/todos/{id10}")
    get(f"/todos/{id9}")
    call("PATCH", "/todos", {"isComplete": False}, params={"where": j({"title": "nothing like it"})},
         expect=200)                                                       # {count: 0}
    get("/todos/count")
    call("GET", "/todos/count", params=[("where[tag]", "done")], expect=200)
    call("PATCH", "/todos", {"colour": "red"}, expect=422)

    # ---- g. deletes (204), then reads that 404 and lists without them
    call("DELETE", "/todos/6", expect=204)
    get("/todos/6", expect=404)
    get("/todos")
    get("/todos/count")
    call("DELETE", "/todos/6", expect=404)
    call("DELETE", f"/todos/{id8}", expect=204)
    get(f"/todos/{id8}", expect=404)
    call("DELETE", "/todos/99", expect=404)
    call("DELETE", "/todos/abc", expect=400)
    call("PATCH", "/todos/6", {"title": "gone"}, expect=404)
    call("PUT", "/todos/6", {"title": "gone"}, expect=404)
    get("/todos")

    # ---- h. more creates after deletes: the counter goes on (11, 12), ids are not reused
    _, t11 = call("POST", "/todos", {"title": "Water the plants", "desc": "Balcony only"},
                  expect=200)
    id11 = t11.get("id") if isinstance(t11, dict) else 11
    get(f"/todos/{id11}")
    _, t12 = call("POST", "/todos", {"title": "Clean the garage", "isComplete": False,
                                     "tag": "home"}, expect=200)
    id12 = t12.get("id") if isinstance(t12, dict) else 12
    get(f"/todos/{id12}")
    get("/todos/count")
    call("GET", "/todos", params=[("filter[where][tag]", "home")], expect=200)
    call("GET", "/todos", params={"filter": j({"order": ["title DESC"], "limit": 4})}, expect=200)
    call("GET", "/todos", params={"filter": j({"where": {"isComplete": False},
                                               "fields": {"id": True, "title": True}})},
         expect=200)
    call("PATCH", f"/todos/{id12}", {"isComplete": True}, expect=204)
    get(f"/todos/{id12}")
    call("PUT", f"/todos/{id11}", {"title": "Water the plants", "isComplete": True}, expect=204)
    get(f"/todos/{id11}")
    call("DELETE", f"/todos/{id10}", expect=204)
    get(f"/todos/{id10}", expect=404)
    get("/todos")
    get("/todos/count")
    for i in (1, 2, 3, 4, 5, id7, id9, id11, id12):
        get(f"/todos/{i}")


if __name__ == "__main__":
    drive({"capture": capture}, lambda base, lo, hi, v: Driver(base, lo, hi, v),
          default_base="http://127.0.0.1:42971")
