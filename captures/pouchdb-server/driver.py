#!/usr/bin/env python3
"""Scenario driver for PouchDB Server 4.2.0's CouchDB HTTP API (talks to the mitmproxy reverse
proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:42941 --mode capture [-v]

No credentials: the server has no admin ("admin party"), as a fresh CouchDB. Every call sends
`Accept: application/json` (without it the server labels its JSON answers text/plain, as CouchDB
does for browsers). The seed (seed.py, run by start.sh, not recorded): databases `authors` (3
documents) and `books` (5), fixed ids. Documents live at /{db}/{docid}; every write answers an
acknowledgement {"ok":true,"id","rev"} (201, 200 for a delete) and the server computes the new
revision `N-<md5 of the content>`; an update or delete must name the current revision (`_rev` in
the body, `?rev=` or If-Match), else 409 {"error":"conflict"}. Reads of a deleted document answer
404 {"error":"not_found","reason":"deleted"}, of one never written "missing".
Every call is sequential, with a random 50-150 ms sleep before it.
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import SEND_TOKEN, Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

BOOKS = ["dispossessed", "earthsea", "solaris", "cyberiad", "kindred"]
AUTHORS = ["le-guin", "lem", "butler"]


class CouchDriver(Driver):
    """The kit's driver asking for JSON answers, without any Authorization header."""

    def call(self, method, path, body=None, raw=None, params=None, expect=None, token=SEND_TOKEN,
             headers=None):
        headers = {"Accept": "application/json", **dict(headers or {})}
        return super().call(method, path, body, raw, params, expect, token=None, headers=headers)


def make_driver(base, min_sleep, max_sleep, verbose):
    return CouchDriver(base, min_sleep, max_sleep, verbose)


def js(value):
    """A CouchDB query value: JSON text (keys, startkey, endkey are JSON)."""
    return json.dumps(value, separators=(",", ":"))


def capture(d):
    call, check, get = d.call, d.check, d.get

    def rev(answer):
        return answer.get("rev") if isinstance(answer, dict) else None

    def current(db, doc_id):
        return get(f"/{db}/{doc_id}").get("_rev")

    # ---- a. reads before any write: server, databases, every document, lists, finds, absences
    get("/")
    get("/_all_dbs")
    get("/books")
    get("/authors")
    get("/books/_all_docs")
    get("/books/_all_docs", include_docs="true")
    get("/authors/_all_docs", include_docs="true")
    revs = {}
    for doc_id in BOOKS:
        revs[doc_id] = get(f"/books/{doc_id}")["_rev"]
    for doc_id in AUTHORS:
        revs[doc_id] = get(f"/authors/{doc_id}")["_rev"]
    get("/books/_all_docs", limit="2")
    get("/books/_all_docs", limit="2", skip="2")
    get("/books/_all_docs", startkey=js("d"), endkey=js("k"))
    get("/books/_all_docs", descending="true", include_docs="true")
    get("/books/_all_docs", keys=js(["solaris", "kindred", "nothing-here"]))
    call("POST", "/books/_all_docs", {"keys": ["earthsea", "cyberiad"]}, expect=200)
    call("POST", "/books/_all_docs", {"keys": ["dispossessed"]}, params={"include_docs": "true"}, expect=200)
    call("POST", "/books/_find", {"selector": {"genre": "scifi"}}, expect=200)
    call("POST", "/books/_find", {"selector": {"year": {"$gte": 1968}}, "fields": ["_id", "title", "year"]},
         expect=200)
    call("POST", "/books/_find", {"selector": {"author": "le-guin"}, "limit": 1}, expect=200)
    call("POST", "/authors/_find", {"selector": {"country": "US"}}, expect=200)
    call("GET", "/books/nothing-here", expect=404)
    call("GET", "/authors/nothing-here", expect=404)
    call("GET", "/no-such-db", expect=404)
    call("GET", "/no-such-db/solaris", expect=404)
    call("GET", "/no-such-db/_all_docs", expect=404)

    # ---- b. a document at a client-chosen id: create, read, updates by revision, conflicts
    s, a = call("PUT", "/books/left-hand", {"type": "book", "title": "The Left Hand of Darkness",
                                            "year": 1969, "genre": "scifi", "pages": 304,
                                            "author": "le-guin", "tags": ["gender", "winter"]}, expect=201)
    r1 = rev(a)
    get("/books/left-hand")
    get("/books/_all_docs")
    call("PUT", "/books/left-hand", {"type": "book", "title": "no revision given"}, expect=409)
    get("/books/left-hand")
    s, a = call("PUT", "/books/left-hand", {"_rev": r1, "type": "book", "title": "The Left Hand of Darkness",
                                            "year": 1969, "genre": "scifi", "pages": 286,
                                            "author": "le-guin", "tags": ["gender", "winter", "hainish"]},
                expect=201)
    r2 = rev(a)
    get("/books/left-hand")
    call("PUT", "/books/left-hand", {"_rev": r1, "type": "book", "title": "a stale revision"}, expect=409)
    get("/books/left-hand")
    s, a = call("PUT", "/books/left-hand", {"type": "book", "title": "The Left Hand of Darkness",
                                            "year": 1969, "genre": "scifi", "pages": 286,
                                            "author": "le-guin", "tags": ["hainish"]},
                params={"rev": r2}, expect=201)
    r3 = rev(a)
    get("/books/left-hand")
    get("/books/_all_docs", include_docs="true")
    # a seeded document updated with its seed revision
    s, a = call("PUT", "/books/solaris", {"_rev": revs["solaris"], "type": "book", "title": "Solaris",
                                          "year": 1961, "genre": "scifi", "pages": 224, "author": "lem",
                                          "tags": ["ocean", "contact", "mimoid"]}, expect=201)
    revs["solaris"] = rev(a)
    get("/books/solaris")
    get("/books/_all_docs", keys=js(["solaris", "left-hand"]))

    # ---- c. documents at server ids (POST) and with an _id in the body
    s, a = call("POST", "/books", {"type": "book", "title": "Parable of the Sower", "year": 1993,
                                   "genre": "scifi", "pages": 345, "author": "butler",
                                   "tags": ["drought", "faith"]}, expect=201)
    sower = a.get("id") if isinstance(a, dict) else None
    get(f"/books/{sower}")
    get("/books/_all_docs")
    s, a = call("PUT", f"/books/{sower}", {"_rev": rev(a), "type": "book", "title": "Parable of the Sower",
                                           "year": 1993, "genre": "scifi", "pages": 329, "author": "butler",
                                           "tags": ["drought", "faith", "earthseed"]}, expect=201)
    get(f"/books/{sower}")
    s, a = call("POST", "/books", {"_id": "fiasco", "type": "book", "title": "Fiasco", "year": 1986,
                                   "genre": "scifi", "pages": 322, "author": "lem", "tags": ["contact"]},
                expect=201)
    fiasco = rev(a)
    get("/books/fiasco")
    call("POST", "/books", {"_id": "fiasco", "type": "book", "title": "Fiasco again"}, expect=409)
    get("/books/fiasco")
    s, a = call("POST", "/authors", {"type": "author", "name": "Arkady Strugatsky", "born": 1925,
                                     "country": "RU"}, expect=201)
    arkady = a.get("id") if isinstance(a, dict) else None
    get(f"/authors/{arkady}")
    get("/authors/_all_docs", include_docs="true")

    # ---- d. deletes: ?rev=, If-Match, stale, missing; recreate over a deleted document
    s, a = call("DELETE", "/books/left-hand", params={"rev": r3}, expect=200)
    call("GET", "/books/left-hand", expect=404)
    get("/books/_all_docs")
    call("DELETE", "/books/left-hand", params={"rev": r3}, expect=409)
    call("DELETE", "/books/cyberiad", expect=200)  # no revision at all: PouchDB deletes the current one
    call("GET", "/books/cyberiad", expect=404)
    call("DELETE", "/books/dispossessed", headers={"If-Match": revs["dispossessed"]}, expect=200)
    call("GET", "/books/dispossessed", expect=404)
    call("DELETE", "/books/nothing-here", params={"rev": "1-0123456789abcdef0123456789abcdef"}, expect=404)
    call("DELETE", "/no-such-db/solaris", params={"rev": revs["solaris"]}, expect=404)
    s, a = call("PUT", "/books/left-hand", {"type": "book", "title": "The Left Hand of Darkness",
                                            "year": 1969, "genre": "scifi", "pages": 300,
                                            "author": "le-guin", "tags": ["reissued"]}, expect=201)
    get("/books/left-hand")
    get("/books/_all_docs", include_docs="true")
    call("DELETE", f"/authors/{arkady}", params={"rev": current("authors", arkady)}, expect=200)
    call("GET", f"/authors/{arkady}", expect=404)
    get("/authors/_all_docs")

    # ---- e. _bulk_docs: creates (given and server ids), an update, a delete, a conflict
    s, a = call("POST", "/books/_bulk_docs", {"docs": [
        {"_id": "invincible", "type": "book", "title": "The Invincible", "year": 1964, "genre": "scifi",
         "pages": 223, "author": "lem", "tags": ["swarm"]},
        {"type": "book", "title": "Dawn", "year": 1987, "genre": "scifi", "pages": 248, "author": "butler",
         "tags": ["aliens"]},
        {"_id": "kindred", "_rev": revs["kindred"], "type": "book", "title": "Kindred", "year": 1979,
         "genre": "scifi", "pages": 287, "author": "butler", "tags": ["time", "history", "classic"]},
        {"_id": "earthsea", "_rev": revs["earthsea"], "_deleted": True},
    ]}, expect=201)
    dawn = a[1].get("id") if isinstance(a, list) and len(a) > 1 else None
    get("/books/invincible")
    get(f"/books/{dawn}")
    get("/books/kindred")
    call("GET", "/books/earthsea", expect=404)
    get("/books/_all_docs", include_docs="true")
    call("POST", "/books/_bulk_docs", {"docs": [
        {"_id": "kindred", "_rev": revs["kindred"], "type": "book", "title": "a stale revision"},
        {"_id": "the-wild-shore", "type": "book", "title": "The Wild Shore", "year": 1984, "genre": "scifi",
         "pages": 369, "author": "robinson", "tags": ["california"]},
    ]}, expect=201)
    get("/books/kindred")
    get("/books/the-wild-shore")
    get("/books/_all_docs")

    # ---- f. finds after the writes
    call("POST", "/books/_find", {"selector": {"genre": "scifi"}}, expect=200)
    call("POST", "/books/_find", {"selector": {"author": "butler"}, "fields": ["_id", "title"]}, expect=200)
    call("POST", "/books/_find", {"selector": {"pages": {"$lt": 250}}}, expect=200)
    call("POST", "/books/_find", {"selector": {"tags": {"$elemMatch": {"$eq": "contact"}}}}, expect=200)

    # ---- g. a design document and its views
    s, a = call("PUT", "/books/_design/catalog", {"language": "javascript", "views": {
        "by_year": {"map": "function (doc) { if (doc.type === 'book') { emit(doc.year, doc.title); } }"},
        "by_author": {"map": "function (doc) { if (doc.type === 'book') { emit(doc.author, 1); } }",
                      "reduce": "_count"},
    }}, expect=201)
    get("/books/_design/catalog")
    get("/books/_design/catalog/_view/by_year")
    get("/books/_design/catalog/_view/by_year", descending="true", limit="3")
    get("/books/_design/catalog/_view/by_year", startkey="1965", endkey="1980")
    get("/books/_design/catalog/_view/by_year", key="1961", include_docs="true")
    get("/books/_design/catalog/_view/by_author")
    get("/books/_design/catalog/_view/by_author", group="true")
    get("/books/_design/catalog/_view/by_author", reduce="false", key=js("lem"))
    s, a = call("PUT", "/books/stand-on-zanzibar", {"type": "book", "title": "Stand on Zanzibar",
                                                    "year": 1968, "genre": "scifi", "pages": 650,
                                                    "author": "brunner", "tags": ["overpopulation"]},
                expect=201)
    get("/books/stand-on-zanzibar")
    get("/books/_design/catalog/_view/by_year")
    get("/books/_design/catalog/_view/by_author", group="true")
    call("GET", "/books/_design/nothing-here", expect=404)
    call("GET", "/books/_design/catalog/_view/nothing-here", expect=404)
    get("/books/_all_docs")
    call("PUT", "/books/_design/catalog", {"views": {}}, expect=409)
    s, a = call("PUT", "/books/_design/catalog", {"_rev": current("books", "_design/catalog"),
                                                   "language": "javascript", "views": {
        "by_pages": {"map": "function (doc) { if (doc.pages) { emit(doc.pages, null); } }"}}}, expect=201)
    get("/books/_design/catalog")
    get("/books/_design/catalog/_view/by_pages", limit="4")

    # ---- h. databases: create, read, clash, documents in it, delete, absence
    call("PUT", "/reviews", expect=201)
    get("/reviews")
    get("/_all_dbs")
    call("PUT", "/reviews", expect=412)
    s, a = call("PUT", "/reviews/r-solaris", {"type": "review", "book": "solaris", "stars": 5,
                                              "text": "The ocean thinks."}, expect=201)
    get("/reviews/r-solaris")
    s, a = call("POST", "/reviews", {"type": "review", "book": "kindred", "stars": 4,
                                     "text": "Hard to put down."}, expect=201)
    review = a.get("id") if isinstance(a, dict) else None
    get(f"/reviews/{review}")
    get("/reviews/_all_docs", include_docs="true")
    call("POST", "/reviews/_find", {"selector": {"stars": {"$gte": 5}}}, expect=200)
    call("DELETE", "/reviews", expect=200)
    call("GET", "/reviews", expect=404)
    call("GET", "/reviews/r-solaris", expect=404)
    get("/_all_dbs")
    call("DELETE", "/reviews", expect=200)  # PouchDB Server answers ok for a database it does not hold
    call("PUT", "/shelves", expect=201)
    s, a = call("PUT", "/shelves/favourites", {"type": "shelf", "books": ["solaris", "kindred"]}, expect=201)
    get("/shelves/favourites")
    s, a = call("PUT", "/shelves/favourites", {"_rev": rev(a), "type": "shelf",
                                               "books": ["solaris", "kindred", "fiasco"]}, expect=201)
    get("/shelves/favourites")
    get("/shelves/_all_docs", include_docs="true")
    get("/_all_dbs")
    get("/shelves")

    # ---- i. malformed and refused writes
    call("PUT", "/books/bad-json", raw='{"title": "no closing brace"', expect=400)
    call("PUT", "/books/bad-member", {"_secret": 1, "title": "an unknown underscore member"}, expect=500)
    call("GET", "/books/bad-member", expect=404)
    call("POST", "/books/_bulk_docs", {"documents": []}, expect=400)
    call("POST", "/books/_find", {"fields": ["_id"]}, expect=400)
    call("PUT", "/books/_design/catalog/_view/by_year", {"x": 1}, expect=None)
    call("PUT", "/books/fiasco", {"_rev": "1-not-a-real-revision", "title": "Fiasco"}, expect=None)
    get("/books/fiasco")

    # ---- j. authors: update, delete, reads after
    s, a = call("PUT", "/authors/lem", {"_rev": revs["lem"], "type": "author", "name": "Stanisław Lem",
                                        "born": 1921, "country": "PL", "died": 2006}, expect=201)
    get("/authors/lem")
    s, a = call("PUT", "/authors/strugatsky-b", {"type": "author", "name": "Boris Strugatsky",
                                                 "born": 1933, "country": "RU"}, expect=201)
    get("/authors/strugatsky-b")
    call("DELETE", "/authors/butler", params={"rev": revs["butler"]}, expect=200)
    call("GET", "/authors/butler", expect=404)
    get("/authors/_all_docs", include_docs="true")
    call("POST", "/authors/_find", {"selector": {"born": {"$lt": 1930}}, "fields": ["_id", "name"]}, expect=200)
    get("/authors")
    get("/books")
    get("/_all_dbs")
    get("/books/fiasco")
    get("/books/_all_docs", include_docs="true", limit="5", skip="1")


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:42941")
