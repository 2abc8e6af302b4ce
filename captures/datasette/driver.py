#!/usr/bin/env python3
"""Scenario driver for Datasette 1.0a41 (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:42311 --mode capture [-v]

Auth: every call sends `Authorization: Bearer <TOKEN>`, a throwaway signed token of the actor
{"id": "root"} (start.sh runs Datasette with --root and the fixed --secret the token was made
with), except two deliberate failures (no token, a forged token).
The seed (seed.sql, loaded by start.sh, not recorded): database `blog` with tables
  articles 1-4 (INTEGER PRIMARY KEY AUTOINCREMENT), authors 1-3, comments 1-5 (plain INTEGER
  PRIMARY KEY: SQLite may reuse the highest id after it is deleted), tags keyed by a text slug
  (history, hardware, ai).
Every call is sequential, with a random 50-150 ms sleep before it.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

TOKEN = "dstok_eyJhIjoicm9vdCIsInQiOjE3OTYxNjUzNzR9.Fm8ZR5izLRZTKacgmUXPak5eddU"
FORGED = "dstok_eyJhIjoicm9vdCIsInQiOjE3OTYxNjUzNzR9.not-the-signature-0000000000"
DB = "/blog"


def make_driver(base, min_sleep, max_sleep, verbose):
    return Driver(base, min_sleep, max_sleep, verbose, token=TOKEN, scheme="Bearer")


def first_id(answer, key="id"):
    try:
        return answer["rows"][0][key]
    except (TypeError, KeyError, IndexError):
        return None


def capture(d):
    call, check = d.call, d.check
    get = lambda path, expect=200: call("GET", path, expect=expect)  # noqa: E731

    # ---- a. reads before any write
    get("/-/versions.json")
    get(f"{DB}.json")
    for table in ("articles", "authors", "comments", "tags"):
        get(f"{DB}/{table}.json")
    get(f"{DB}/articles.json?_shape=array")
    get(f"{DB}/authors.json?_shape=array")
    get(f"{DB}/comments.json?_shape=objects")
    for i in range(1, 5):
        get(f"{DB}/articles/{i}.json")
    for i in range(1, 4):
        get(f"{DB}/authors/{i}.json")
    for i in range(1, 6):
        get(f"{DB}/comments/{i}.json")
    for slug in ("history", "hardware", "ai"):
        get(f"{DB}/tags/{slug}.json")
    # absent rows: ids that were never there (article 5 is created below), a missing slug,
    # a missing table
    get(f"{DB}/articles/5.json", 404)
    get(f"{DB}/articles/999.json", 404)
    get(f"{DB}/authors/999.json", 404)
    get(f"{DB}/comments/999.json", 404)
    get(f"{DB}/tags/no-such-tag.json", 404)
    get(f"{DB}/no_such_table.json", 404)

    # ---- b. creates, each followed by an item read and a list read
    st, a = call("POST", f"{DB}/articles/-/insert", {"row": {
        "title": "Punched cards for everyone", "body": "Jacquard looms read cards.",
        "author_id": 1, "status": "published", "views": 3,
        "published_at": "2026-04-02T10:00:00Z"}}, expect=201)
    check("article id", first_id(a), 5)
    get(f"{DB}/articles/5.json")
    get(f"{DB}/articles.json")
    st, a = call("POST", f"{DB}/articles/-/insert",
                 {"row": {"title": "Draft: on sorting", "author_id": 3}, "return": True},
                 expect=201)   # minimal row: defaults fill status, views, body, published_at
    check("article id", first_id(a), 6)
    get(f"{DB}/articles/6.json")
    get(f"{DB}/articles.json")

    st, a = call("POST", f"{DB}/authors/-/insert",
                 {"row": {"name": "Edsger Dijkstra", "email": "edsger@example.com"}}, expect=201)
    check("author id", first_id(a), 4)
    get(f"{DB}/authors/4.json")
    get(f"{DB}/authors.json")
    # a client-chosen integer id, then the next generated id follows it (max + 1)
    st, a = call("POST", f"{DB}/authors/-/insert",
                 {"row": {"id": 10, "name": "Barbara Liskov", "email": "barbara@example.com",
                          "bio": "Abstraction and substitution."}}, expect=201)
    check("author id", first_id(a), 10)
    get(f"{DB}/authors/10.json")
    st, a = call("POST", f"{DB}/authors/-/insert",
                 {"row": {"name": "Donald Knuth", "bio": "Literate programs."}}, expect=201)
    check("author id", first_id(a), 11)
    get(f"{DB}/authors/11.json")
    get(f"{DB}/authors.json")

    st, c = call("POST", f"{DB}/comments/-/insert", {"row": {
        "article_id": 5, "commenter": "jacquard", "body": "My looms agree.", "score": 4.0}},
        expect=201)
    check("comment id", first_id(c), 6)
    get(f"{DB}/comments/6.json")
    get(f"{DB}/comments.json")
    get(f"{DB}/comments.json?article_id=5")
    # several rows at once, asking for them back
    st, c = call("POST", f"{DB}/comments/-/insert", {"rows": [
        {"article_id": 5, "commenter": "hollerith", "body": "Cards scale to a census."},
        {"article_id": 2, "commenter": "edsger", "body": "Testing shows bugs, not their absence.",
         "score": 4.5, "approved": 1}], "return": True}, expect=201)
    check("comment ids", [r.get("id") for r in c.get("rows", [])] if isinstance(c, dict) else c,
          [7, 8])
    get(f"{DB}/comments/7.json")
    get(f"{DB}/comments/8.json")
    get(f"{DB}/comments.json")
    # "rows" without "return": the answer is only {"ok": true}
    st, c = call("POST", f"{DB}/comments/-/insert", {"rows": [
        {"article_id": 6, "commenter": "knuth", "body": "Sorting deserves a volume."}]},
        expect=201)
    check("answer", c, {"ok": True})
    get(f"{DB}/comments.json")
    get(f"{DB}/comments/9.json")

    # the table keyed by a text slug: the client names the key
    st, t = call("POST", f"{DB}/tags/-/insert",
                 {"row": {"slug": "math", "label": "Mathematics", "color": "#225522"}}, expect=201)
    check("tag slug", first_id(t, "slug"), "math")
    get(f"{DB}/tags/math.json")
    get(f"{DB}/tags.json")
    st, t = call("POST", f"{DB}/tags/-/insert",
                 {"row": {"slug": "compilers", "label": "Compilers"}, "return": True}, expect=201)
    get(f"{DB}/tags/compilers.json")
    get(f"{DB}/tags.json")

    # ---- c. updates, each followed by an item read
    st, u = call("POST", f"{DB}/articles/6/-/update",
                 {"update": {"status": "published", "published_at": "2026-04-03T12:00:00Z"}},
                 expect=200)
    check("answer", u, {"ok": True})
    get(f"{DB}/articles/6.json")
    get(f"{DB}/articles.json")
    call("POST", f"{DB}/articles/1/-/update", {"update": {"views": 121}, "return": True},
         expect=200)
    get(f"{DB}/articles/1.json")
    call("POST", f"{DB}/articles/1/-/update", {"update": {"views": 121}, "return": True},
         expect=200)   # the same value again
    get(f"{DB}/articles/1.json")
    call("POST", f"{DB}/articles/3/-/update",
         {"update": {"title": "Computing machinery and intelligence",
                     "body": "I propose to consider the question."}}, expect=200)
    get(f"{DB}/articles/3.json")
    call("POST", f"{DB}/authors/3/-/update", {"update": {"bio": "Machines, morphogenesis."}},
         expect=200)
    get(f"{DB}/authors/3.json")
    call("POST", f"{DB}/authors/4/-/update",
         {"update": {"email": "ewd@example.com", "bio": "Go To considered harmful."},
          "return": True}, expect=200)
    get(f"{DB}/authors/4.json")
    call("POST", f"{DB}/authors/1/-/update", {"update": {"bio": None}}, expect=200)  # set null
    get(f"{DB}/authors/1.json")
    call("POST", f"{DB}/comments/4/-/update", {"update": {"approved": 1, "score": 4.0}},
         expect=200)
    get(f"{DB}/comments/4.json")
    get(f"{DB}/comments.json?approved=1")
    call("POST", f"{DB}/comments/7/-/update",
         {"update": {"body": "Cards scaled to the 1890 census."}, "return": True}, expect=200)
    get(f"{DB}/comments/7.json")
    call("POST", f"{DB}/tags/ai/-/update", {"update": {"color": "#aa00ff"}}, expect=200)
    get(f"{DB}/tags/ai.json")
    call("POST", f"{DB}/tags/math/-/update",
         {"update": {"label": "Math", "article_count": 1}, "return": True}, expect=200)
    get(f"{DB}/tags/math.json")
    get(f"{DB}/tags.json")

    # upsert: update the rows whose key exists, insert the others
    st, up = call("POST", f"{DB}/tags/-/upsert", {"rows": [
        {"slug": "ai", "label": "AI"},
        {"slug": "databases", "label": "Databases", "color": "#003b57"}], "return": True},
        expect=200)
    get(f"{DB}/tags/ai.json")
    get(f"{DB}/tags/databases.json")
    get(f"{DB}/tags.json")
    # a partial row: SQLite's INSERT .. ON CONFLICT still needs the NOT NULL title
    call("POST", f"{DB}/articles/-/upsert", {"rows": [{"id": 2, "views": 341}]}, expect=400)
    call("POST", f"{DB}/articles/-/upsert",
         {"rows": [{"id": 2, "title": "A bug in relay 70", "views": 341}]}, expect=200)
    get(f"{DB}/articles/2.json")
    # insert with "replace": the whole row is replaced (unsent columns take their defaults)
    call("POST", f"{DB}/comments/-/insert", {"rows": [
        {"id": 2, "article_id": 1, "commenter": "mary", "body": "The looms, answered."}],
        "replace": True, "return": True}, expect=201)
    get(f"{DB}/comments/2.json")
    # insert with "ignore" of an existing id: nothing changes, the stored row is answered
    call("POST", f"{DB}/authors/-/insert", {"row": {"id": 1, "name": "Someone else"},
                                            "ignore": True}, expect=201)
    get(f"{DB}/authors/1.json")

    # ---- d. deletes, each followed by an item read (404) and a list read
    st, x = call("POST", f"{DB}/comments/8/-/delete", expect=200)
    check("answer", x, {"ok": True})
    get(f"{DB}/comments/8.json", 404)
    get(f"{DB}/comments.json")
    # the highest article id (AUTOINCREMENT): the next insert does not reuse it
    call("POST", f"{DB}/articles/6/-/delete", expect=200)
    get(f"{DB}/articles/6.json", 404)
    get(f"{DB}/articles.json")
    st, a = call("POST", f"{DB}/articles/-/insert",
                 {"row": {"title": "Structured programming", "author_id": 4}}, expect=201)
    check("article id", first_id(a), 7)
    get(f"{DB}/articles/7.json")
    get(f"{DB}/articles.json")
    # the highest comment id (plain INTEGER PRIMARY KEY): the next insert takes max(id) + 1,
    # here 8, the id of the comment deleted above
    call("POST", f"{DB}/comments/9/-/delete", expect=200)
    get(f"{DB}/comments/9.json", 404)
    get(f"{DB}/comments.json")
    st, c = call("POST", f"{DB}/comments/-/insert", {"row": {
        "article_id": 7, "commenter": "wirth", "body": "Programs = algorithms + data."}},
        expect=201)
    check("comment id", first_id(c), 8)
    get(f"{DB}/comments/8.json")
    get(f"{DB}/comments.json")
    # an article with comments: no cascade (SQLite foreign keys are not enforced)
    call("POST", f"{DB}/articles/4/-/delete", expect=200)
    get(f"{DB}/articles/4.json", 404)
    get(f"{DB}/comments/4.json")
    get(f"{DB}/comments.json?article_id=4")
    get(f"{DB}/articles.json")
    call("POST", f"{DB}/tags/history/-/delete", expect=200)
    get(f"{DB}/tags/history.json", 404)
    get(f"{DB}/tags.json")
    call("POST", f"{DB}/authors/10/-/delete", expect=200)
    get(f"{DB}/authors/10.json", 404)
    get(f"{DB}/authors.json")

    # a table made and dropped through the API
    call("POST", f"{DB}/-/create", {"table": "bookmarks", "columns": [
        {"name": "id", "type": "integer"}, {"name": "url", "type": "text"},
        {"name": "note", "type": "text"}], "pk": "id"}, expect=201)
    get(f"{DB}/bookmarks.json")
    st, b = call("POST", f"{DB}/bookmarks/-/insert",
                 {"row": {"url": "https://sqlite.org/lang.html", "note": "SQL syntax"}},
                 expect=201)
    check("bookmark id", first_id(b), 1)
    get(f"{DB}/bookmarks/1.json")
    get(f"{DB}/bookmarks.json")
    call("POST", f"{DB}/bookmarks/1/-/update", {"update": {"note": "SQL as SQLite speaks it"}},
         expect=200)
    get(f"{DB}/bookmarks/1.json")
    call("POST", f"{DB}/bookmarks/-/drop", expect=200)      # without confirm: nothing dropped
    get(f"{DB}/bookmarks.json")
    call("POST", f"{DB}/bookmarks/-/drop", {"confirm": True}, expect=200)
    get(f"{DB}/bookmarks.json", 404)
    get(f"{DB}/bookmarks/1.json", 404)
    # a table made from rows (columns inferred)
    call("POST", f"{DB}/-/create", {"table": "events", "rows": [
        {"id": 1, "name": "Launch", "day": "2026-05-01", "attendees": 40},
        {"id": 2, "name": "Meetup", "day": "2026-06-12", "attendees": 12}], "pk": "id"},
        expect=201)
    get(f"{DB}/events.json")
    get(f"{DB}/events/2.json")
    get(f"{DB}.json")

    # ---- e. filters, sorting, paging, column selection
    get(f"{DB}/articles.json?status__exact=published")
    get(f"{DB}/articles.json?status=draft")
    get(f"{DB}/articles.json?author_id=2")
    get(f"{DB}/articles.json?views__gt=100")
    get(f"{DB}/articles.json?title__contains=machin")
    get(f"{DB}/articles.json?_sort=title")
    get(f"{DB}/articles.json?_sort_desc=views")
    get(f"{DB}/articles.json?status__exact=published&_sort_desc=views")
    get(f"{DB}/articles.json?_shape=array&_sort=title")
    get(f"{DB}/articles.json?_col=title&_col=views")
    get(f"{DB}/articles.json?_extra=count")
    get(f"{DB}/articles.json?_size=2")
    get(f"{DB}/articles.json?_size=2&_next=2")
    get(f"{DB}/articles.json?_size=2&_next=5")
    get(f"{DB}/comments.json?article_id=1&_sort=score")
    get(f"{DB}/comments.json?score__gte=4")
    get(f"{DB}/comments.json?approved__exact=0")
    get(f"{DB}/comments.json?_shape=array&commenter=mary")
    get(f"{DB}/comments.json?_size=3")
    get(f"{DB}/comments.json?_size=3&_next=3")
    get(f"{DB}/tags.json?_sort=label")
    get(f"{DB}/tags.json?_size=2")
    get(f"{DB}/tags.json?_size=2&_next=compilers")
    get(f"{DB}/authors.json?email__isnull=1")
    get(f"{DB}/authors.json?_shape=array&_sort=name")

    # ---- f. failures
    call("POST", f"{DB}/articles/999/-/update", {"update": {"views": 1}}, expect=404)
    call("POST", f"{DB}/articles/6/-/delete", expect=404)                    # already deleted
    call("POST", f"{DB}/tags/no-such-tag/-/delete", expect=404)
    call("POST", f"{DB}/articles/-/insert", {"row": {"body": "no title"}}, expect=400)
    call("POST", f"{DB}/articles/-/insert", {"row": {"title": "x", "subtitle": "y"}},
         expect=400)                                                          # unknown column
    call("POST", f"{DB}/articles/-/insert", {"rows": "not a list"}, expect=400)
    call("POST", f"{DB}/articles/-/insert", {"title": "no row wrapper"}, expect=400)
    call("POST", f"{DB}/articles/-/insert", raw='{"row": {"title": "broken json"', expect=400)
    call("POST", f"{DB}/tags/-/insert", {"row": {"slug": "ai", "label": "Again"}},
         expect=400)                                                          # duplicate key
    call("POST", f"{DB}/articles/1/-/update", {"update": {"subtitle": "y"}}, expect=400)
    call("POST", f"{DB}/articles/1/-/update", {"views": 5}, expect=400)      # no "update"
    call("POST", f"{DB}/articles/-/upsert", {"rows": [{"title": "no key"}]}, expect=400)
    call("POST", f"{DB}/no_such_table/-/insert", {"row": {"x": 1}}, expect=404)
    get("/no_such_db/articles.json", 404)
    call("POST", f"{DB}/articles/-/insert", {"row": {"title": "anonymous"}}, token=None,
         expect=403)
    call("POST", f"{DB}/articles/-/insert", {"row": {"title": "forged"}}, token=FORGED,
         expect=401)

    # ---- g. final state
    for table in ("articles", "authors", "comments", "tags"):
        get(f"{DB}/{table}.json")
    get(f"{DB}/articles/1.json")
    get(f"{DB}/articles/2.json")
    get(f"{DB}/authors/1.json")
    get(f"{DB}/comments/2.json")
    get(f"{DB}/tags/ai.json")
    get(f"{DB}/articles/4.json", 404)



if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:42311")
