#!/usr/bin/env python3
"""Scenario driver for a Feathers 5 REST API (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:43021 --mode capture [-v]

No credentials. The app (app/app.js) has three services on @feathersjs/memory, served by
@feathersjs/koa's REST transport:
  users     GET/POST /users, GET/PUT/PATCH/DELETE /users/{id} (no query validation: Feathers'
            own paging applies, default 10, max 50; query values stay strings)
  messages  GET/POST/PATCH/DELETE /messages (PATCH and DELETE with a query write every match and
            answer an array: multi), GET/PATCH/DELETE /messages/{id}; queries validated and coerced
            by a TypeBox schema (no default page size then)
  notes     GET/POST /notes, GET/PUT/PATCH/DELETE /notes/{_id}; a create adds slug from the title
Lists answer {total, limit, skip, data}; errors {name, message, code, className[, data]}.
The seed (app.js, not recorded): users 1-12, messages 1-12, notes 1-5, fixed clocks.
Every call is sequential, with a random 50-150 ms sleep before it; query parameters use Feathers'
bracket syntax ($sort[createdAt]=-1, $select[]=text, userId[$in][]=1), percent-encoded as
@feathersjs/rest-client's qs does.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import SEND_TOKEN, Driver, drive  # noqa: E402  (captures/kit: what every driver shares)


class FeathersDriver(Driver):
    """The kit's driver without any Authorization header."""

    def call(self, method, path, body=None, raw=None, params=None, expect=None, token=SEND_TOKEN,
             headers=None):
        return super().call(method, path, body, raw, params, expect, token=None, headers=headers)


def make_driver(base, min_sleep, max_sleep, verbose):
    return FeathersDriver(base, min_sleep, max_sleep, verbose)


def capture(d):
    call, check = d.call, d.check

    def q(path, *pairs, expect=200):
        """A GET with query pairs (name, value), in order; answers the body."""
        return call("GET", path, params=list(pairs) or None, expect=expect)[1]

    def ident(answer, field="id"):
        return answer.get(field) if isinstance(answer, dict) else None

    # ---- a. reads before any write: lists, items, absences
    q("/users")
    q("/users", ("$limit", "50"))
    q("/messages")
    q("/notes")
    for i in (1, 2, 3, 5, 9):
        q(f"/users/{i}")
    for i in (1, 4, 5, 8, 12):
        q(f"/messages/{i}")
    for i in (1, 2, 3, 4, 5):
        q(f"/notes/{i}")
    q("/users/99", expect=404)
    q("/messages/99", expect=404)
    q("/notes/99", expect=404)
    q("/messages/abc", expect=404)

    # ---- b. list queries: paging, sort, select, comparisons, $in, $or, errors
    q("/users", ("$limit", "3"))
    q("/users", ("$limit", "3"), ("$skip", "3"))
    q("/users", ("$skip", "10"))
    q("/users", ("$sort[name]", "1"))
    q("/users", ("$sort[name]", "-1"), ("$limit", "5"))
    q("/users", ("role", "admin"))
    q("/users", ("$select[]", "name"), ("$select[]", "email"), ("$limit", "4"))
    q("/users", ("$limit", "100"))
    q("/users", ("role[$in][]", "admin"), ("role[$in][]", "member"), ("$limit", "2"))
    q("/users", ("id", "2"))
    q("/messages", ("$sort[createdAt]", "-1"), ("$limit", "5"))
    q("/messages", ("userId", "1"))
    q("/messages", ("userId[$in][]", "2"), ("userId[$in][]", "4"))
    q("/messages", ("read", "false"))
    q("/messages", ("createdAt[$gt]", "1767610000000"))
    q("/messages", ("createdAt[$gte]", "1767608000000"), ("createdAt[$lt]", "1767610000000"),
      ("$sort[createdAt]", "1"))
    q("/messages", ("$or[0][userId]", "3"), ("$or[1][read]", "false"), ("$limit", "4"))
    q("/messages", ("$select[]", "text"), ("$limit", "3"))
    q("/messages", ("id[$gt]", "8"))
    q("/messages", ("userId[$ne]", "1"), ("$sort[userId]", "1"), ("$limit", "6"))
    q("/messages", ("$limit", "0"))
    q("/messages", ("$limit", "4"), ("$skip", "8"))
    q("/messages", ("bogus", "1"), expect=400)
    q("/messages", ("userId", "x"), expect=400)
    q("/messages", ("$limit", "-1"), expect=400)
    q("/notes", ("$sort[updatedAt]", "-1"))
    q("/notes", ("pinned", "true"))
    q("/notes", ("$select[]", "title"), ("$select[]", "slug"))
    q("/notes", ("_id[$in][]", "1"), ("_id[$in][]", "3"))
    q("/notes", ("title", "Reading list"))
    q("/notes", ("$sort[title]", "1"), ("$limit", "2"), ("$skip", "1"))

    # ---- c. users: create (role defaults to member), invalid, PATCH merges, PUT replaces, delete
    s, a = call("POST", "/users", {"name": "Hedy Lamarr", "email": "hedy@example.com", "role": "admin"},
                expect=201)
    hedy = ident(a)
    q(f"/users/{hedy}")
    s, a = call("POST", "/users", {"name": "Claude Shannon", "email": "claude@example.com"}, expect=201)
    claude = ident(a)
    q(f"/users/{claude}")
    q("/users", ("$skip", "10"))
    call("POST", "/users", {"name": "No Mail"}, expect=400)
    call("POST", "/users", {"name": "Bad Mail", "email": "not-an-email"}, expect=400)
    call("POST", "/users", {"name": "Owner", "email": "owner@example.com", "role": "owner"}, expect=400)
    call("POST", "/users", {"name": "", "email": "empty@example.com"}, expect=400)
    call("POST", "/users", {"name": "Extra", "email": "extra@example.com", "age": 40}, expect=400)
    call("POST", "/users", raw='{"name": "no closing brace"', expect=500)
    q("/users", ("$limit", "50"))
    call("PATCH", f"/users/{claude}", {"role": "admin"}, expect=200)
    q(f"/users/{claude}")
    call("PATCH", "/users/2", {"name": "Grace Brewster Hopper"}, expect=200)
    q("/users/2")
    call("PATCH", "/users/6", {"email": "knuth@example.com", "role": "admin"}, expect=200)
    q("/users/6")
    call("PUT", "/users/3", {"name": "Alan M. Turing", "email": "turing@example.com"}, expect=200)
    q("/users/3")
    call("PUT", f"/users/{hedy}", {"name": "Hedy Kiesler", "email": "hedy@example.com", "role": "member"},
         expect=200)
    q(f"/users/{hedy}")
    call("PATCH", "/users/4", {"email": "nope"}, expect=400)
    call("PATCH", "/users/4", {"role": "root"}, expect=400)
    call("PUT", "/users/4", {"name": "Only A Name"}, expect=400)
    q("/users/4")
    call("PATCH", "/users/99", {"name": "Nobody"}, expect=404)
    call("PUT", "/users/99", {"name": "Nobody", "email": "nobody@example.com"}, expect=404)
    q("/users", ("role", "admin"))
    s, a = call("DELETE", f"/users/{claude}", expect=200)
    q(f"/users/{claude}", expect=404)
    call("DELETE", "/users/11", expect=200)
    q("/users/11", expect=404)
    call("DELETE", "/users/99", expect=404)
    q("/users", ("$limit", "50"))

    # ---- d. messages: create (createdAt from the clock, read defaults false), invalid, PATCH, bulk
    s, a = call("POST", "/messages", {"text": "Hello from Hedy", "userId": hedy}, expect=201)
    m1 = ident(a)
    q(f"/messages/{m1}")
    s, a = call("POST", "/messages", {"text": "Read receipts are on", "userId": 5, "read": True}, expect=201)
    m2 = ident(a)
    q(f"/messages/{m2}")
    s, a = call("POST", "/messages", {"text": "Who broke the build?", "userId": 3}, expect=201)
    m3 = ident(a)
    q(f"/messages/{m3}")
    q("/messages", ("$sort[createdAt]", "-1"), ("$limit", "3"))
    q("/messages", ("userId", "3"))
    call("POST", "/messages", {"userId": 2}, expect=400)
    call("POST", "/messages", {"text": "", "userId": 2}, expect=400)
    call("POST", "/messages", {"text": "x" * 401, "userId": 2}, expect=400)
    call("POST", "/messages", {"text": "Zero user", "userId": 0}, expect=400)
    call("POST", "/messages", {"text": "Text user", "userId": "two"}, expect=400)
    call("POST", "/messages", {"text": "With a date", "userId": 2, "createdAt": 0}, expect=400)
    call("PUT", "/messages/5", {"text": "Replace me", "userId": 4}, expect=405)
    q("/messages", ("$limit", "50"))
    call("PATCH", "/messages/5", {"read": True}, expect=200)
    q("/messages/5")
    call("PATCH", "/messages/6", {"text": "Debugging is twice as hard as writing the code"}, expect=200)
    q("/messages/6")
    call("PATCH", f"/messages/{m1}", {"text": "Hello again from Hedy", "read": True}, expect=200)
    q(f"/messages/{m1}")
    call("PATCH", "/messages/7", {"read": "yes"}, expect=400)
    call("PATCH", "/messages/99", {"read": True}, expect=404)
    q("/messages/7")
    # bulk PATCH: every match of the query, answered as an array
    call("PATCH", "/messages", {"read": True}, params=[("userId", "3")], expect=200)
    q("/messages", ("userId", "3"))
    q("/messages/7")
    call("PATCH", "/messages", {"read": True}, params=[("userId", "4"), ("read", "false")], expect=200)
    q("/messages", ("userId", "4"))
    call("PATCH", "/messages", {"read": False}, params=[("userId", "12")], expect=200)
    q("/messages", ("read", "false"))
    # deletes: the removed message; bulk by query
    s, a = call("DELETE", "/messages/2", expect=200)
    q("/messages/2", expect=404)
    call("DELETE", "/messages/2", expect=404)
    call("DELETE", f"/messages/{m2}", expect=200)
    q(f"/messages/{m2}", expect=404)
    call("DELETE", "/messages", params=[("userId", "1"), ("read", "true")], expect=200)
    q("/messages", ("userId", "1"))
    q("/messages/1", expect=404)
    q("/messages/8")
    call("DELETE", "/messages", params=[("userId", "10")], expect=200)
    q("/messages", ("$limit", "50"))
    call("DELETE", "/messages", params=[("nope", "1")], expect=400)

    # ---- e. notes: create (slug derived from the title), client-chosen _id, PATCH, PUT, delete
    s, a = call("POST", "/notes", {"title": "Garden Plans 2026", "body": "Tomatoes, beans, basil",
                                   "tags": ["home", "garden"]}, expect=201)
    n1 = ident(a, "_id")
    q(f"/notes/{n1}")
    s, a = call("POST", "/notes", {"title": "Quick thought", "body": "Koa or Express?"}, expect=201)
    n2 = ident(a, "_id")
    q(f"/notes/{n2}")
    s, a = call("POST", "/notes", {"title": "Books to lend: Knuth & Dijkstra", "body": "TAOCP vol. 1",
                                   "tags": ["books"], "pinned": True}, expect=201)
    n3 = ident(a, "_id")
    q(f"/notes/{n3}")
    q("/notes", ("$sort[updatedAt]", "-1"), ("$limit", "3"))
    s, a = call("POST", "/notes", {"_id": 500, "title": "Imported note", "body": "From the old app"},
                expect=201)
    q("/notes/500")
    s, a = call("POST", "/notes", {"title": "After the import", "body": "Ids keep counting"}, expect=201)
    n5 = ident(a, "_id")
    q(f"/notes/{n5}")
    q("/notes")
    call("POST", "/notes", {"body": "No title"}, expect=400)
    call("POST", "/notes", {"title": "No body"}, expect=400)
    call("POST", "/notes", {"title": "Bad tags", "body": "x", "tags": "home"}, expect=400)
    call("POST", "/notes", {"title": "Extra", "body": "x", "colour": "red"}, expect=400)
    call("PATCH", "/notes/2", {"pinned": False}, expect=200)
    q("/notes/2")
    call("PATCH", "/notes/3", {"body": "Notes on the Analytical Engine, by Ada", "tags": ["books", "history"]},
         expect=200)
    q("/notes/3")
    call("PATCH", "/notes/1", {"title": "Groceries"}, expect=200)
    q("/notes/1")
    call("PUT", "/notes/4", {"title": "Team Meeting", "body": "Agenda: release"}, expect=200)
    q("/notes/4")
    call("PUT", f"/notes/{n2}", {"title": "A longer thought", "body": "Koa.", "tags": ["work"],
                                 "pinned": True}, expect=200)
    q(f"/notes/{n2}")
    call("PATCH", "/notes/3", {"pinned": "no"}, expect=400)
    call("PUT", "/notes/3", {"title": "Missing body"}, expect=400)
    call("PATCH", "/notes/99", {"pinned": True}, expect=404)
    call("PUT", "/notes/99", {"title": "Nobody", "body": "x"}, expect=404)
    call("PATCH", "/notes", {"pinned": True}, expect=405)
    call("DELETE", "/notes", params=[("pinned", "true")], expect=405)
    q("/notes", ("pinned", "true"))
    s, a = call("DELETE", "/notes/5", expect=200)
    q("/notes/5", expect=404)
    call("DELETE", "/notes/500", expect=200)
    q("/notes/500", expect=404)
    call("DELETE", "/notes/99", expect=404)
    q("/notes", ("$limit", "50"))

    # ---- f. after the deletes: ids are not reused; final reads
    s, a = call("POST", "/users", {"name": "Katherine Johnson", "email": "katherine@example.com"}, expect=201)
    kj = ident(a)
    q(f"/users/{kj}")
    s, a = call("POST", "/messages", {"text": "Trajectory checked", "userId": kj}, expect=201)
    q(f"/messages/{ident(a)}")
    s, a = call("POST", "/notes", {"title": "Last note", "body": "The end"}, expect=201)
    q(f"/notes/{ident(a, '_id')}")
    q("/users", ("$limit", "50"))
    q("/users", ("$sort[name]", "1"), ("$limit", "5"), ("$skip", "5"))
    q("/messages", ("$limit", "50"))
    q("/messages", ("$sort[createdAt]", "-1"), ("$limit", "5"))
    q("/messages", ("read", "true"), ("$select[]", "text"), ("$select[]", "userId"))
    q("/notes")
    q("/notes", ("$sort[updatedAt]", "-1"), ("$limit", "3"))
    check("final user count", q("/users", ("$limit", "0")).get("total"), 13)


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:43021")
