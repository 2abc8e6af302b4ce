#!/usr/bin/env python3
"""Scenario driver for a Sails 1.5.18 app's REST blueprints (talks to the mitmproxy reverse proxy in
front of it).

Usage:
  python driver.py --base http://127.0.0.1:42981 --mode capture [-v]

No credentials: the app has no policies. Its three models (project/api/models): author (name,
country, born; books: the books naming it), book (title, year, pages, genre from a fixed list,
inPrint; author: one author; tags: many tags) and tag (label; books: many books, the other side of
book.tags). No controller: Sails's blueprints answer `GET /{model}` (where= JSON, sort=, limit=,
skip=, select=, bare attribute filters), `GET /{model}/{id}` (associations populated), `POST
/{model}` (200 with the new record, populated), `PATCH /{model}/{id}` (200 with the record),
`DELETE /{model}/{id}` (200 with the record as it was), `PUT /{model}/{id}/{association}/{fk}`
(add), `DELETE /{model}/{id}/{association}/{fk}` (remove), `PUT /{model}/{id}/{association}` (replace
by an array of ids), `GET /{model}/{id}/{association}` (populate). Missing ids answer 404 text
"Not Found"; invalid values 400 {"code","details","message"}.
The seed (project/config/bootstrap.js, not recorded): authors 1-4, tags 1-5, books 1-10.
Every call is sequential, with a random 50-150 ms sleep before it.
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import SEND_TOKEN, Driver, drive  # noqa: E402  (captures/kit: what every driver shares)


class SailsDriver(Driver):
    """The kit's driver without any Authorization header."""

    def call(self, method, path, body=None, raw=None, params=None, expect=None, token=SEND_TOKEN,
             headers=None):
        return super().call(method, path, body, raw, params, expect, token=None, headers=headers)


def make_driver(base, min_sleep, max_sleep, verbose):
    return SailsDriver(base, min_sleep, max_sleep, verbose)


def js(value):
    return json.dumps(value, separators=(",", ":"))


def capture(d):
    call, check, get = d.call, d.check, d.get

    def new_id(answer):
        return answer.get("id") if isinstance(answer, dict) else None

    # ---- a. reads before any write: lists, items (populated), associations, absences
    get("/author")
    get("/book")
    get("/tag")
    for i in (1, 2, 3, 4):
        get(f"/author/{i}")
    for i in range(1, 11):
        get(f"/book/{i}")
    for i in (1, 2, 3, 4, 5):
        get(f"/tag/{i}")
    get("/book/1/tags")
    get("/book/4/author")
    get("/author/2/books")
    get("/tag/2/books")
    call("GET", "/book/99", expect=404)
    call("GET", "/author/99", expect=404)
    call("GET", "/tag/99", expect=404)
    call("GET", "/book/abc", expect=400)

    # ---- b. list queries: where (JSON), sort, limit, skip, select, bare attribute filters
    get("/book", limit="3")
    get("/book", limit="3", skip="3")
    get("/book", sort="title ASC")
    get("/book", sort="year DESC", limit="4")
    get("/book", where=js({"year": {">": 1970}}))
    get("/book", where=js({"year": {">=": 1970, "<": 1980}}), sort="year ASC")
    get("/book", where=js({"genre": "fiction", "inPrint": True}))
    get("/book", where=js({"title": {"contains": "the"}}))
    get("/book", where=js({"title": {"startsWith": "If"}}), sort="id DESC")
    get("/book", where=js({"id": {"in": [2, 4, 6]}}))
    get("/book", where=js({"author": 4}), sort="year ASC")
    get("/book", where=js({"or": [{"genre": "poetry"}, {"pages": {"<": 170}}]}))
    get("/book", genre="fiction")
    get("/book", author="1", sort="pages DESC")
    get("/book", select="title,year", sort="year ASC", limit="5")
    get("/author", where=js({"country": "IT"}))
    get("/author", sort="born ASC")
    get("/tag", sort="label ASC", skip="1", limit="2")
    get("/tag", where=js({"label": {"endsWith": "read"}}))

    # ---- c. authors: create, read back, invalid
    s, a = call("POST", "/author", {"name": "Stanisław Lem", "country": "PL", "born": 1921}, expect=200)
    lem = new_id(a)
    get(f"/author/{lem}")
    s, a = call("POST", "/author", {"name": "Octavia E. Butler"}, expect=200)
    butler = new_id(a)
    get(f"/author/{butler}")
    get("/author")
    call("POST", "/author", {"country": "RU"}, expect=400)
    call("POST", "/author", {"name": "Too Early", "born": 900}, expect=400)
    call("POST", "/author", {"name": "A string year", "born": "nineteen"}, expect=400)
    get("/author", sort="id DESC", limit="2")

    # ---- d. books: create with an author and tags, with defaults, read back in lists
    s, a = call("POST", "/book", {"title": "Solaris", "year": 1961, "pages": 204, "genre": "fiction",
                                  "author": lem, "tags": [1, 2]}, expect=200)
    solaris = new_id(a)
    get(f"/book/{solaris}")
    get(f"/author/{lem}")
    get("/tag/1")
    s, a = call("POST", "/book", {"title": "The Cyberiad", "year": 1965, "author": lem}, expect=200)
    cyberiad = new_id(a)
    get(f"/book/{cyberiad}")
    s, a = call("POST", "/book", {"title": "Kindred"}, expect=200)
    kindred = new_id(a)
    get(f"/book/{kindred}")
    s, a = call("POST", "/book", {"title": "Parable of the Sower", "year": 1993, "pages": 345,
                                  "genre": "fiction", "inPrint": True, "author": butler,
                                  "tags": [5]}, expect=200)
    sower = new_id(a)
    get(f"/book/{sower}")
    get("/tag/5")
    get("/book", where=js({"author": lem}))
    get("/book", sort="id DESC", limit="4")
    get("/book")
    get(f"/author/{lem}/books")

    # ---- e. invalid creates (nothing is written)
    call("POST", "/book", {"year": 2001}, expect=400)
    call("POST", "/book", {"title": "A Cookbook", "genre": "cookbook"}, expect=400)
    call("POST", "/book", {"title": "Negative", "pages": -5}, expect=400)
    call("POST", "/book", {"title": "x" * 130}, expect=400)
    call("POST", "/book", {"title": "Wrong type", "year": "last year"}, expect=400)
    call("POST", "/book", {"title": "Bad flag", "inPrint": "maybe"}, expect=400)
    call("POST", "/book", raw='{"title": "no closing brace"', expect=400)
    call("POST", "/tag", {}, expect=400)
    get("/book", sort="id DESC", limit="2")

    # ---- f. tags: create, read
    s, a = call("POST", "/tag", {"label": "science-fiction"}, expect=200)
    scifi = new_id(a)
    get(f"/tag/{scifi}")
    s, a = call("POST", "/tag", {"label": "dystopia", "books": [sower]}, expect=200)
    dystopia = new_id(a)
    get(f"/tag/{dystopia}")
    get(f"/book/{sower}")
    get("/tag")

    # ---- g. updates: PATCH answers the record; reads after; invalid and missing
    s, a = call("PATCH", f"/book/{kindred}", {"year": 1979, "pages": 264, "author": butler}, expect=200)
    get(f"/book/{kindred}")
    get(f"/author/{butler}")
    call("PATCH", f"/book/{cyberiad}", {"pages": 295, "genre": "science"}, expect=200)
    get(f"/book/{cyberiad}")
    call("PATCH", "/book/5", {"inPrint": True}, expect=200)
    get("/book/5")
    call("PATCH", "/book/2", {"title": "The Dispossessed: An Ambiguous Utopia"}, expect=200)
    get("/book/2")
    get("/book", where=js({"inPrint": False}))
    call("PATCH", "/book/9", {"author": 2}, expect=200)
    get("/book/9")
    get("/author/4")
    get("/author/2")
    call("PATCH", "/book/9", {"author": 4}, expect=200)
    get("/book/9")
    call("PATCH", "/book/10", {"year": None}, expect=200)
    get("/book/10")
    call("PATCH", f"/author/{lem}", {"country": "Poland"}, expect=200)
    get(f"/author/{lem}")
    call("PATCH", "/tag/4", {"label": "favorite"}, expect=200)
    get("/tag/4")
    get("/book/1")
    call("PATCH", "/book/3", {"genre": "cookbook"}, expect=400)
    call("PATCH", "/book/3", {"pages": "many"}, expect=400)
    call("PATCH", "/book/3", {"title": None}, expect=400)
    get("/book/3")
    call("PATCH", "/book/99", {"pages": 1}, expect=404)
    call("PATCH", "/author/99", {"name": "Nobody"}, expect=404)
    call("PUT", f"/book/{solaris}", {"pages": 216}, expect=200)
    get(f"/book/{solaris}")

    # ---- h. many-to-many: add, remove, replace, from both sides
    call("PUT", f"/book/{kindred}/tags/{scifi}", expect=200)
    get(f"/book/{kindred}")
    get(f"/tag/{scifi}")
    call("PUT", f"/book/{kindred}/tags/3", expect=200)
    get(f"/book/{kindred}")
    call("PUT", f"/book/{kindred}/tags/3", expect=200)
    get(f"/book/{kindred}/tags")
    call("DELETE", f"/book/{kindred}/tags/3", expect=200)
    get(f"/book/{kindred}")
    get("/tag/3")
    call("DELETE", "/book/1/tags/4", expect=200)
    get("/book/1")
    get("/tag/4")
    call("PUT", f"/tag/{scifi}/books/{solaris}", expect=200)
    get(f"/tag/{scifi}")
    get(f"/book/{solaris}")
    call("DELETE", f"/tag/{scifi}/books/{solaris}", expect=200)
    get(f"/book/{solaris}")
    call("PUT", "/book/7/tags", [2, 3, 4], expect=200)
    get("/book/7")
    get("/tag/5")
    call("PUT", f"/author/{butler}/books/10", expect=200)
    get("/book/10")
    get(f"/author/{butler}")
    get("/author/4")
    call("PUT", f"/book/{kindred}/tags/99", expect=404)
    call("PUT", f"/book/99/tags/{scifi}", expect=404)
    call("DELETE", "/book/99/tags/1", expect=404)
    get(f"/tag/{scifi}/books")

    # ---- i. deletes: the answer is the record as it was; reads after; missing ids
    s, a = call("DELETE", f"/book/{cyberiad}", expect=200)
    call("GET", f"/book/{cyberiad}", expect=404)
    get(f"/author/{lem}")
    call("DELETE", f"/book/{cyberiad}", expect=404)
    s, a = call("DELETE", "/book/8", expect=200)
    call("GET", "/book/8", expect=404)
    get("/tag/1")
    get("/author/4")
    get("/book", sort="id ASC")
    s, a = call("DELETE", f"/tag/{dystopia}", expect=200)
    call("GET", f"/tag/{dystopia}", expect=404)
    get(f"/book/{sower}")
    s, a = call("DELETE", "/tag/2", expect=200)
    get("/book/4")
    get("/book/7")
    get("/tag")
    s, a = call("DELETE", "/author/3", expect=200)
    call("GET", "/author/3", expect=404)
    get("/book/7")
    get("/book", where=js({"author": None}))
    call("DELETE", "/author/99", expect=404)
    call("DELETE", "/tag/99", expect=404)
    call("DELETE", "/book/abc", expect=400)

    # ---- j. a create after deletes (ids keep counting), then final reads
    s, a = call("POST", "/book", {"title": "Fiasco", "year": 1986, "pages": 322, "genre": "fiction",
                                  "author": lem, "tags": [scifi]}, expect=200)
    fiasco = new_id(a)
    get(f"/book/{fiasco}")
    s, a = call("POST", "/tag", {"label": "re-read"}, expect=200)
    get(f"/tag/{new_id(a)}")
    call("PATCH", f"/book/{fiasco}", {"tags": [scifi, 1]}, expect=200)
    get(f"/book/{fiasco}")
    get("/tag/1")
    get("/author")
    get("/book")
    get("/tag")
    get("/book", where=js({"year": {"<": 1970}}), sort="year DESC")
    get("/book", limit="5", skip="5", sort="id ASC")


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:42981")
