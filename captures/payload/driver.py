#!/usr/bin/env python3
"""Scenario driver for Payload CMS 2.32.3's REST API (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:18401 --mode capture [-v]

Every collection is under a generic segment, `/api/{collection}`: lists are pages `{docs, totalDocs,
limit, totalPages, page, pagingCounter, hasPrevPage, hasNextPage, prevPage, nextPage}` with
`limit`/`page`/`sort`/`where[field][operator]=`/`depth`; an item `/api/{collection}/{id}` with
serial integer ids; creates answer 201 `{doc, message}`, updates (PATCH, by id or in bulk by a
`where` on the collection path) `{doc, message}` or `{docs, errors, message}`, deletes the deleted
document. Relationships are written as ids and read populated to `depth` (2 by default).
Most calls send the admin's API key (`Authorization: users API-Key <key>`, start.sh); one part of
the scenario logs in as the editor and sends the JWT it answers (`Authorization: JWT <token>`).
The seed (seed.py, run by start.sh, not recorded): README "Seed data". Every call is sequential,
with a random 50-150 ms sleep before it.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

API_KEY = "0b5c3a1e-6f2d-4c8a-9e71-capenv000001"
EDITOR = {"email": "editor@capenv.test", "password": "capenv-editor-throwaway"}
MISSING = 9999


def make_driver(base, min_sleep, max_sleep, verbose):
    return Driver(base, min_sleep, max_sleep, verbose, token=API_KEY, scheme="users API-Key")


def capture(d):
    call, check, get = d.call, d.check, d.get

    def send(method, path, body=None, expect=200, params=None, **kw):
        return call(method, path, body=body, params=params, expect=expect, **kw)[1]

    def doc(answer):
        return answer.get("doc", {}) if isinstance(answer, dict) else {}

    def titles(answer):
        return [p.get("title") for p in answer.get("docs", [])] if isinstance(answer, dict) else []

    # ---- a. reads before any write: lists, items, pages, sorts, filters, depths
    get("/api/users/me")
    check("posts", len(titles(get("/api/posts"))), 6)
    get("/api/posts/1")
    get("/api/posts/2")
    get("/api/posts/4", depth="0")
    get("/api/posts/5", depth="1")
    get("/api/posts", limit="2")
    get("/api/posts", limit="2", page="2")
    get("/api/posts", limit="2", page="3")
    get("/api/posts", sort="-views")
    get("/api/posts", sort="title", depth="0")
    get("/api/posts", **{"where[status][equals]": "published"})
    get("/api/posts", **{"where[status][equals]": "draft", "depth": "0"})
    get("/api/posts", **{"where[views][greater_than]": "100", "sort": "-views"})
    get("/api/posts", **{"where[or][0][status][equals]": "draft", "where[or][1][views][greater_than]": "300"})
    get("/api/posts", **{"where[author][equals]": "1", "depth": "0"})
    get("/api/posts", **{"where[tags][in]": "2", "depth": "0"})
    get("/api/posts", **{"where[title][like]": "python"})
    get("/api/authors")
    get("/api/authors/1")
    get("/api/authors/3")
    get("/api/authors", sort="name")
    get("/api/tags")
    get("/api/tags/2")
    get("/api/tags", **{"where[name][equals]": "release"})
    get("/api/globals/settings")
    get("/api/users", depth="0")
    get(f"/api/posts/{MISSING}", expect=404)
    get(f"/api/authors/{MISSING}", expect=404)
    get(f"/api/tags/{MISSING}", expect=404)
    call("GET", "/api/posts", token=None, expect=403)
    call("GET", "/api/posts/1", token=None, expect=403)
    call("POST", "/api/tags", body={"name": "anonymous"}, token=None, expect=403)

    # ---- b. tags: create, read back, update, errors
    rust = doc(send("POST", "/api/tags", {"name": "rust", "color": "orange"}, expect=201)).get("id", MISSING)
    get(f"/api/tags/{rust}")
    go = doc(send("POST", "/api/tags", {"name": "go"}, expect=201)).get("id", MISSING)
    get(f"/api/tags/{go}")
    get("/api/tags")
    send("PATCH", f"/api/tags/{go}", {"color": "cyan"})
    get(f"/api/tags/{go}")
    send("PATCH", f"/api/tags/{rust}", {"name": "rust-lang"})
    get(f"/api/tags/{rust}")
    send("POST", "/api/tags", {"name": "python"}, expect=400)
    send("POST", "/api/tags", {"color": "black"}, expect=400)
    send("POST", "/api/tags", {"name": "long-color", "color": "a colour name that is far too long"}, expect=400)
    send("PATCH", f"/api/tags/{go}", {"name": "databases"}, expect=400)
    get(f"/api/tags/{go}")
    send("PATCH", f"/api/tags/{MISSING}", {"color": "x"}, expect=404)
    get("/api/tags", sort="name")

    # ---- c. authors
    linus = doc(send("POST", "/api/authors", {"name": "Linus Torvalds", "email": "linus@capenv.test",
                                              "bio": "Kernels."}, expect=201)).get("id", MISSING)
    get(f"/api/authors/{linus}")
    barbara = doc(send("POST", "/api/authors", {"name": "Barbara Liskov"}, expect=201)).get("id", MISSING)
    get(f"/api/authors/{barbara}")
    get("/api/authors")
    send("PATCH", f"/api/authors/{barbara}", {"email": "barbara@capenv.test", "bio": "Substitution."})
    get(f"/api/authors/{barbara}")
    send("PATCH", f"/api/authors/{linus}", {"bio": None})
    get(f"/api/authors/{linus}")
    send("POST", "/api/authors", {"name": "No Mail", "email": "not-an-email"}, expect=400)
    send("POST", "/api/authors", {"email": "nameless@capenv.test"}, expect=400)
    send("POST", "/api/authors", {"name": "Ada Again", "email": "ada@capenv.test"}, expect=400)
    send("PATCH", f"/api/authors/{barbara}", {"email": "grace@capenv.test"}, expect=400)
    get(f"/api/authors/{barbara}")
    send("DELETE", f"/api/authors/{MISSING}", expect=404)
    get("/api/authors", **{"where[name][like]": "Lin"})

    # ---- d. posts: creates with relationships, read at depths 0 and 1
    made = send("POST", "/api/posts", {"title": "Ownership in Rust", "slug": "ownership-in-rust",
                                       "status": "draft", "views": 3, "tags": [rust, 1],
                                       "author": linus}, expect=201)
    p1 = doc(made).get("id", MISSING)
    get(f"/api/posts/{p1}")
    get(f"/api/posts/{p1}", depth="0")
    get(f"/api/posts/{p1}", depth="1")
    p2 = doc(send("POST", "/api/posts", {"title": "Goroutines", "slug": "goroutines"}, expect=201)).get("id", MISSING)
    get(f"/api/posts/{p2}")
    p3 = doc(send("POST", "/api/posts?depth=0", {"title": "Abstraction", "slug": "abstraction",
                                                 "status": "published", "views": 48, "tags": [4],
                                                 "author": barbara}, expect=201)).get("id", MISSING)
    get(f"/api/posts/{p3}", depth="0")
    get("/api/posts", sort="-views", limit="3")
    get("/api/posts", **{"where[author][equals]": str(linus)})
    get("/api/posts", limit="4", page="2")

    # ---- e. posts: updates of every kind, read back
    send("PATCH", f"/api/posts/{p2}", {"views": 9})
    get(f"/api/posts/{p2}")
    send("PATCH", f"/api/posts/{p2}", {"tags": [go], "author": linus})
    get(f"/api/posts/{p2}", depth="1")
    send("PATCH", f"/api/posts/{p2}", {"status": "published", "title": "Goroutines and channels"})
    get(f"/api/posts/{p2}")
    send("PATCH", f"/api/posts/{p1}?depth=0", {"tags": [rust]})
    get(f"/api/posts/{p1}", depth="0")
    send("PATCH", f"/api/posts/{p1}", {"author": None})
    get(f"/api/posts/{p1}")
    send("PATCH", f"/api/posts/{p3}", {"slug": "abstraction-and-specification"})
    get(f"/api/posts/{p3}")
    send("PATCH", "/api/posts/6", {"views": 13, "tags": [2, 3]})
    get("/api/posts/6")
    send("PATCH", "/api/posts/2", {"status": "draft"})
    get("/api/posts/2")
    get("/api/posts", **{"where[status][equals]": "published", "depth": "0"})
    get("/api/posts", **{"where[tags][in]": str(go)})
    send("PATCH", "/api/posts/3", {"tags": []})
    get("/api/posts/3", depth="0")

    # ---- f. posts: validation errors and missing ids
    send("POST", "/api/posts", {"slug": "untitled"}, expect=400)
    send("POST", "/api/posts", {"title": "Negative", "views": -1}, expect=400)
    send("POST", "/api/posts", {"title": "Odd status", "status": "archived"}, expect=400)
    send("POST", "/api/posts", {"title": "Taken slug", "slug": "hello-payload"}, expect=400)
    send("POST", "/api/posts", {"title": "x" * 130}, expect=400)
    send("PATCH", f"/api/posts/{p3}", {"views": -5}, expect=400)
    send("PATCH", f"/api/posts/{p3}", {"title": ""}, expect=400)
    send("PATCH", f"/api/posts/{p3}", {"slug": "typing-in-python"}, expect=400)
    get(f"/api/posts/{p3}", depth="0")
    send("PATCH", f"/api/posts/{MISSING}", {"views": 1}, expect=404)
    send("DELETE", f"/api/posts/{MISSING}", expect=404)
    get("/api/posts", **{"where[slug][equals]": "untitled"})

    # ---- g. the editor logs in and works with a JWT
    status, login = call("POST", "/api/users/login", body=EDITOR, token=None, expect=200)
    jwt = login.get("token", "") if isinstance(login, dict) else ""
    as_editor = {"Authorization": f"JWT {jwt}"}
    call("POST", "/api/users/login", body={"email": EDITOR["email"], "password": "wrong"}, token=None,
         expect=401)
    call("GET", "/api/users/me", token=None, headers=as_editor, expect=200)
    call("GET", "/api/posts", token=None, headers=as_editor, params={"limit": "3", "depth": "0"}, expect=200)
    answer = call("POST", "/api/posts", body={"title": "Editor's note", "slug": "editors-note", "tags": [3]},
                  token=None, headers=as_editor, expect=201)[1]
    p4 = doc(answer).get("id", MISSING)
    call("GET", f"/api/posts/{p4}", token=None, headers=as_editor, expect=200)
    call("PATCH", f"/api/posts/{p4}", body={"views": 1, "author": 2}, token=None, headers=as_editor, expect=200)
    call("GET", f"/api/posts/{p4}", token=None, headers=as_editor, expect=200)
    call("GET", "/api/posts", token=None, headers={"Authorization": "JWT not-a-token"}, expect=403)
    get(f"/api/posts/{p4}")

    # ---- h. the global: read, update, errors
    get("/api/globals/settings")
    send("POST", "/api/globals/settings", {"postsPerPage": 25})
    get("/api/globals/settings")
    send("POST", "/api/globals/settings", {"siteName": "capenv journal", "maintenance": True})
    get("/api/globals/settings")
    send("POST", "/api/globals/settings", {"postsPerPage": 0}, expect=400)
    send("POST", "/api/globals/settings", {"postsPerPage": 500}, expect=400)
    get("/api/globals/settings", depth="0")
    send("POST", "/api/globals/settings", {"maintenance": False})
    get("/api/globals/settings")
    call("GET", "/api/globals/settings", token=None, expect=403)

    # ---- i. bulk updates and deletes by `where` on the collection path
    get("/api/posts", **{"where[status][equals]": "draft", "depth": "0"})
    send("PATCH", "/api/posts", {"views": 100}, params={"where[status][equals]": "draft", "depth": "0"})
    get("/api/posts", **{"where[status][equals]": "draft", "depth": "0"})
    get("/api/posts/4")
    send("PATCH", "/api/tags", {"color": "grey"}, params={"where[color][exists]": "false"})
    get("/api/tags")
    get(f"/api/tags/{go}")
    send("PATCH", "/api/posts", {"views": 1}, params={"where[slug][equals]": "no-such-slug"})
    get("/api/posts", sort="-views", depth="0")

    # ---- j. deletes: by id, in bulk, and what they leave behind
    send("DELETE", f"/api/posts/{p4}")
    get(f"/api/posts/{p4}", expect=404)
    send("DELETE", f"/api/posts/{p4}", expect=404)
    get("/api/posts", depth="0")
    send("DELETE", f"/api/tags/{rust}")
    get(f"/api/tags/{rust}", expect=404)
    get(f"/api/posts/{p1}", depth="0")
    get("/api/tags")
    send("DELETE", f"/api/authors/{barbara}")
    get(f"/api/authors/{barbara}", expect=404)
    get(f"/api/posts/{p3}", depth="0")
    get(f"/api/posts/{p3}")
    get("/api/authors")
    send("DELETE", "/api/posts", params={"where[views][equals]": "100"})
    get("/api/posts", depth="0")
    get("/api/posts", **{"where[status][equals]": "draft"})
    get("/api/posts/4", expect=404)
    send("DELETE", "/api/tags", params={"where[name][in]": "go,howto"})
    get("/api/tags")
    get(f"/api/posts/{p2}", depth="0")
    get("/api/posts/1", depth="0")

    # ---- k. reads after every write
    get("/api/posts")
    get("/api/posts", sort="-views", limit="2")
    get("/api/posts", limit="2", page="2", depth="0")
    get("/api/posts", **{"where[or][0][author][equals]": "1", "where[or][1][author][equals]": "3", "depth": "0"})
    get("/api/authors")
    get("/api/authors/1")
    get(f"/api/authors/{linus}")
    get("/api/tags", sort="-name")
    get("/api/globals/settings")
    get("/api/posts/2", expect=404)
    for pid in (1, 3, 5, p2, p3):
        get(f"/api/posts/{pid}", depth="1")


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:18401")
