#!/usr/bin/env python3
"""Scenario driver for Parse Server 9.10.0's REST API on PostgreSQL (talks to the mitmproxy
reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:42751 --mode capture [-v]

Every call carries the application id and the throwaway master key start.sh fixed, in Parse's
own headers `X-Parse-Application-Id` and `X-Parse-Master-Key` (one call goes without them, to
record the 403). The seed (seed.py, run by start.sh, not recorded): classes Author (3 objects),
Book (5, each with an `author` pointer) and Review (3, each with a `book` pointer), with fixed
objectIds. Objects live under the generic class segment /parse/classes/{ClassName}[/{objectId}];
creates answer 201 {"objectId","createdAt"} with a Location header, updates (PUT, a merge)
answer {"updatedAt"} plus the new value of any member changed by an operation (Increment,
AddUnique), deletes answer {}; lists answer {"results": [...]} (and "count" with count=1), with
`where` (JSON), `order`, `limit`, `skip`, `keys` and `include`; absences answer 404
{"code":101,"error":"Object not found."}. Unordered lists are read only before any update
(PostgreSQL returns an updated row last), and `count=1` only with a `where` (without one, the
PostgreSQL adapter answers the planner's row estimate, not the count).
Every call is sequential, with a random 50-150 ms sleep before it.
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import SEND_TOKEN, Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

APP_ID = "capenv-parse-app"
MASTER_KEY = "capenv-parse-master-key-not-a-secret"
P = "/parse"
C = f"{P}/classes"
AUTHORS = ["Hx4bT0qLmZ", "pR7nWc2KdE", "Ja9sYv5FtQ"]   # Le Guin, Lem, Butler
BOOKS = ["kQ2mV8xNcA", "Zt5pL1wRgB", "e3YuN6sHjC", "Gw8dK4oPvD", "m1XcB9zTeF"]
REVIEWS = ["Rv3nQ7aLxG", "Tb6hM2eWsH", "Yc1kF8rUpJ"]
NEVER = "Qq0Qq0Qq0Q"                                  # an objectId no class ever had


class ParseDriver(Driver):
    """The kit's driver with Parse's application id and master key headers instead of Authorization."""

    def call(self, method, path, body=None, raw=None, params=None, expect=None, token=SEND_TOKEN,
             headers=None):
        headers = dict(headers or {})
        if token is SEND_TOKEN:
            headers["X-Parse-Application-Id"] = APP_ID
            headers["X-Parse-Master-Key"] = MASTER_KEY
        return super().call(method, path, body, raw, params, expect, token=None, headers=headers)


def make_driver(base, min_sleep, max_sleep, verbose):
    return ParseDriver(base, min_sleep, max_sleep, verbose)


def pointer(cls, object_id):
    return {"__type": "Pointer", "className": cls, "objectId": object_id}


def where(condition):
    return json.dumps(condition, separators=(",", ":"))


def capture(d):
    call, check, get = d.call, d.check, d.get

    def new_id(answer):
        return answer.get("objectId") if isinstance(answer, dict) else None

    # ---- a. reads before any write: lists, every object, filters, sorts, pages, absences
    get(f"{P}/health")
    get(f"{C}/Author")
    get(f"{C}/Book")
    get(f"{C}/Review")
    for object_id in BOOKS:
        get(f"{C}/Book/{object_id}")
    for object_id in AUTHORS:
        get(f"{C}/Author/{object_id}")
    for object_id in REVIEWS:
        get(f"{C}/Review/{object_id}")
    get(f"{C}/Book", order="title")
    get(f"{C}/Book", order="-year")
    get(f"{C}/Book", order="title", limit=2)
    get(f"{C}/Book", order="title", limit=2, skip=2)
    get(f"{C}/Book", order="title", limit=2, skip=4)
    get(f"{C}/Book", where=where({"genre": "scifi"}), order="year")
    get(f"{C}/Book", where=where({"year": {"$gte": 1965}}), order="-year", count=1)
    get(f"{C}/Book", where=where({"inPrint": False}))
    get(f"{C}/Book", where=where({"author": pointer("Author", AUTHORS[1])}), order="title")
    get(f"{C}/Book", keys="title,year", order="year")
    get(f"{C}/Book", where=where({"genre": "fantasy"}), count=1, limit=0)
    get(f"{C}/Review", where=where({"rating": {"$gte": 4}}), order="-rating")
    get(f"{C}/Review", include="book", order="rating")
    get(f"{C}/Author", where=where({"country": "US"}), order="born")
    get(f"{C}/Book/{NEVER}", 404)
    get(f"{C}/Author/{BOOKS[0]}", 404)                     # a Book's id read as an Author
    get(f"{C}/Nothing/{NEVER}", 404)                       # a class that does not exist
    get(f"{C}/Nothing")                                    # its list: empty
    get(f"{C}/Book", 400, where="{not json")
    call("GET", f"{C}/Book", expect=403, token=None)       # no application id, no key
    get(f"{P}/schemas/Book")

    # ---- b. creates (201 {"objectId","createdAt"} + Location), each read back
    a4 = new_id(call("POST", f"{C}/Author", {"name": "Italo Calvino", "born": 1923, "country": "IT"},
                     expect=201)[1])
    get(f"{C}/Author/{a4}")
    get(f"{C}/Author", order="born")
    b6 = new_id(call("POST", f"{C}/Book", {"title": "Invisible Cities", "year": 1972, "genre": "fantasy",
                                           "pages": 165, "inPrint": True, "tags": ["cities", "travel"],
                                           "author": pointer("Author", a4)}, expect=201)[1])
    get(f"{C}/Book/{b6}")
    get(f"{C}/Book", order="year")
    get(f"{C}/Book", where=where({"author": pointer("Author", a4)}))
    b7 = new_id(call("POST", f"{C}/Book", {"title": "The Baron in the Trees"}, expect=201)[1])  # the rest stays unset
    get(f"{C}/Book/{b7}")
    get(f"{C}/Book", order="-createdAt", limit=3)
    b8 = new_id(call("POST", f"{C}/Book", {"title": "His Master's Voice", "year": 1968, "genre": "scifi",
                                           "pages": 199, "inPrint": False, "tags": [],
                                           "author": pointer("Author", AUTHORS[1])}, expect=201)[1])
    get(f"{C}/Book/{b8}")
    get(f"{C}/Book", where=where({"genre": "scifi"}), order="year")
    r4 = new_id(call("POST", f"{C}/Review", {"rating": 5, "reviewer": "grace", "text": "A city for every word.",
                                             "book": pointer("Book", b6)}, expect=201)[1])
    get(f"{C}/Review/{r4}")
    get(f"{C}/Review", order="createdAt")
    r5 = new_id(call("POST", f"{C}/Review", {"rating": 2, "reviewer": "alan", "text": "Too quiet.",
                                             "book": pointer("Book", BOOKS[4])}, expect=201)[1])
    get(f"{C}/Review/{r5}")
    get(f"{C}/Review", where=where({"reviewer": "alan"}), order="rating")
    # a class made by its first create (the master key may create classes)
    s1 = new_id(call("POST", f"{C}/Shelf", {"name": "Favourites", "position": 1}, expect=201)[1])
    get(f"{C}/Shelf/{s1}")
    s2 = new_id(call("POST", f"{C}/Shelf", {"name": "To read", "position": 2}, expect=201)[1])
    get(f"{C}/Shelf/{s2}")
    get(f"{C}/Shelf", order="position")
    # refused creates: a client objectId (allowCustomObjectId is off), a wrong type, a bad field name, not JSON
    call("POST", f"{C}/Author", {"objectId": "AbCdEfGhIj", "name": "Nobody"}, expect=400)
    call("POST", f"{C}/Book", {"title": "Wrong year", "year": "nineteen"}, expect=400)
    call("POST", f"{C}/Book", {"title": "Bad field", "_secret": 1}, expect=400)
    call("POST", f"{C}/Book", raw="{not json", expect=400)
    get(f"{C}/Book", order="-createdAt", limit=2)
    get(f"{C}/Author", order="name")

    # ---- c. updates (PUT merges; answer {"updatedAt"} and members an operation computed)
    call("PUT", f"{C}/Book/{b7}", {"year": 1957, "genre": "fantasy", "pages": 217}, expect=200)
    get(f"{C}/Book/{b7}")
    call("PUT", f"{C}/Book/{b7}", {"author": pointer("Author", a4), "inPrint": True}, expect=200)
    get(f"{C}/Book/{b7}")
    get(f"{C}/Book", where=where({"author": pointer("Author", a4)}), order="year")
    call("PUT", f"{C}/Author/{AUTHORS[2]}", {"name": "Octavia Estelle Butler"}, expect=200)
    get(f"{C}/Author/{AUTHORS[2]}")
    get(f"{C}/Author", order="name")
    call("PUT", f"{C}/Book/{BOOKS[0]}", {"pages": {"__op": "Increment", "amount": 13}}, expect=200)
    get(f"{C}/Book/{BOOKS[0]}")
    call("PUT", f"{C}/Book/{BOOKS[0]}", {"tags": {"__op": "AddUnique", "objects": ["classic", "physics"]}},
         expect=200)
    get(f"{C}/Book/{BOOKS[0]}")
    call("PUT", f"{C}/Book/{BOOKS[3]}", {"inPrint": True, "pages": 300}, expect=200)
    get(f"{C}/Book/{BOOKS[3]}")
    get(f"{C}/Book", where=where({"inPrint": False}), order="title")
    call("PUT", f"{C}/Review/{REVIEWS[2]}", {"rating": 4, "text": "Robots with better jokes."}, expect=200)
    get(f"{C}/Review/{REVIEWS[2]}")
    get(f"{C}/Review", where=where({"rating": {"$gte": 4}}), order="createdAt", count=1)
    call("PUT", f"{C}/Book/{BOOKS[1]}", {"genre": {"__op": "Delete"}}, expect=200)  # unset a member
    get(f"{C}/Book/{BOOKS[1]}")
    call("PUT", f"{C}/Book/{BOOKS[2]}", {"isbn": "978-0156027601"}, expect=200)    # a new column
    get(f"{C}/Book/{BOOKS[2]}")
    get(f"{C}/Book", keys="title,isbn", order="title")
    call("PUT", f"{C}/Shelf/{s2}", {"name": "Reading now", "position": 3}, expect=200)
    get(f"{C}/Shelf/{s2}")
    get(f"{C}/Shelf", order="-position")
    call("PUT", f"{C}/Book/{b8}", {"year": 1968, "pages": {"__op": "Increment", "amount": -9}}, expect=200)
    get(f"{C}/Book/{b8}")
    call("PUT", f"{C}/Book/{NEVER}", {"title": "Nowhere"}, expect=404)
    call("PUT", f"{C}/Book/{BOOKS[4]}", {"year": "late seventies"}, expect=400)
    call("PUT", f"{C}/Book/{BOOKS[4]}", raw="[1, 2", expect=400)
    get(f"{C}/Book/{BOOKS[4]}")
    get(f"{C}/Book", order="title")

    # ---- d. deletes (answer {}); nothing cascades: a review keeps its pointer to a deleted book
    call("DELETE", f"{C}/Review/{r5}", expect=200)
    get(f"{C}/Review/{r5}", 404)
    get(f"{C}/Review", order="createdAt")
    call("DELETE", f"{C}/Review/{r5}", expect=404)
    call("DELETE", f"{C}/Book/{b8}", expect=200)
    get(f"{C}/Book/{b8}", 404)
    get(f"{C}/Book", order="year")
    call("DELETE", f"{C}/Book/{BOOKS[3]}", expect=200)                # Review Yc1kF8rUpJ points at it
    get(f"{C}/Book/{BOOKS[3]}", 404)
    get(f"{C}/Review/{REVIEWS[2]}")
    get(f"{C}/Review", include="book", order="createdAt")
    get(f"{C}/Book", where=where({"author": pointer("Author", AUTHORS[1])}), order="title")
    call("DELETE", f"{C}/Shelf/{s1}", expect=200)
    get(f"{C}/Shelf", order="position")
    call("DELETE", f"{C}/Author/{NEVER}", expect=404)

    # ---- e. users: signup (master key: no session token in the answer), reads, update, delete
    u1 = new_id(call("POST", f"{P}/users", {"username": "ada", "password": "capenv-pw-ada",
                                           "email": "ada@example.com"}, expect=201)[1])
    get(f"{P}/users/{u1}")
    u2 = new_id(call("POST", f"{P}/users", {"username": "alan", "password": "capenv-pw-alan",
                                           "email": "alan@example.com", "nickname": "turing"}, expect=201)[1])
    get(f"{P}/users/{u2}")
    get(f"{P}/users", order="username")
    call("POST", f"{P}/users", {"username": "ada", "password": "another"}, expect=400)   # taken
    call("POST", f"{P}/users", {"password": "no-name"}, expect=400)                    # no username
    call("PUT", f"{P}/users/{u2}", {"email": "alan.turing@example.com", "nickname": "prof"}, expect=200)
    get(f"{P}/users/{u2}")
    get(f"{P}/users", where=where({"nickname": "prof"}))
    get(f"{P}/users/{NEVER}", 404)
    call("POST", f"{P}/login", {"username": "alan", "password": "capenv-pw-alan"}, expect=200)
    call("POST", f"{P}/login", {"username": "alan", "password": "wrong"}, expect=404)
    call("DELETE", f"{P}/users/{u1}", expect=200)
    get(f"{P}/users/{u1}", 404)
    get(f"{P}/users", order="username")

    # ---- f. schemas: a class made and changed through /schemas, dropped once empty
    call("POST", f"{P}/schemas/Genre", {"className": "Genre", "fields": {"label": {"type": "String"},
                                                                          "rank": {"type": "Number"}}},
         expect=200)
    get(f"{P}/schemas/Genre")
    g1 = new_id(call("POST", f"{C}/Genre", {"label": "scifi", "rank": 1}, expect=201)[1])
    get(f"{C}/Genre/{g1}")
    call("PUT", f"{P}/schemas/Genre", {"className": "Genre", "fields": {"blurb": {"type": "String"}}},
         expect=200)
    get(f"{P}/schemas/Genre")
    call("PUT", f"{C}/Genre/{g1}", {"blurb": "Futures and elsewheres"}, expect=200)
    get(f"{C}/Genre/{g1}")
    call("DELETE", f"{P}/schemas/Genre", expect=400)                 # not empty
    call("DELETE", f"{C}/Genre/{g1}", expect=200)
    call("DELETE", f"{P}/schemas/Genre", expect=200)
    get(f"{P}/schemas/Genre", 400)
    get(f"{C}/Genre")

    # ---- g. last reads of everything
    get(f"{C}/Author", order="name")
    get(f"{C}/Book", order="title")
    get(f"{C}/Review", order="createdAt")
    get(f"{C}/Shelf", order="position")
    for object_id in [a4, *AUTHORS]:
        get(f"{C}/Author/{object_id}")
    for object_id in [b6, b7, BOOKS[0], BOOKS[1], BOOKS[2], BOOKS[4]]:
        get(f"{C}/Book/{object_id}")
    get(f"{C}/Book", where=where({"year": {"$lt": 1970}}), order="year", count=1)
    get(f"{C}/Book", where=where({"genre": {"$in": ["fantasy"]}}), order="title")
    get(f"{C}/Author", where=where({"country": {"$ne": "US"}}), order="name")
    get(f"{C}/Book", keys="title", order="-pages", limit=3)


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:42751")
