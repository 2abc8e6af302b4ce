#!/usr/bin/env python3
"""Scenario driver for NocoBase 2.2.15's REST API (`/api/...`) on SQLite (talks to the mitmproxy
reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:43231 --mode capture [-v]

Every call carries the throwaway JWT start.sh signs with the fixed APP_KEY (the root user, role
root) as `Authorization: Bearer`; one call goes without it, to record the 401. The seed is
start.sh's: the root user, two collections defined at run time (authors, tags) with three authors
and two tags. NocoBase answers `{data, meta}`; it takes both spellings of its resource actions:
`/api/{collection}:{action}` (`:list`, `:get?filterByTk=`, `:create`, `:update?filterByTk=`,
`:destroy?filterByTk=`) and the REST form (`GET/POST /api/{collection}`, `GET/PUT/PATCH/DELETE
/api/{collection}/{id}`); associations are `/api/{collection}/{id}/{association}[:action]`.
Authors and posts are written in the REST form, tags and notes in the action form. Every call is
sequential, with a random 50-150 ms sleep before it.
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

TOKEN = ("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ1c2VySWQiOjEsInJvbGVOYW1lIjoicm9vdCIsImlhdCI6MTc2NDgwNjQwMH0."
         "Fip_kxIN1tUb9CQo-wX4y5hIYOJyNxUVWxGlg_oRSIE")
A = "/api"


def make_driver(base, min_sleep, max_sleep, verbose):
    return Driver(base, min_sleep, max_sleep, verbose, token=TOKEN)


def f(obj) -> str:
    return json.dumps(obj, separators=(",", ":"))


POSTS = {"name": "posts", "title": "Posts", "autoGenId": True, "createdAt": True, "updatedAt": True,
         "sortable": False,
         "fields": [{"name": "title", "type": "string", "interface": "input"},
                    {"name": "status", "type": "string", "defaultValue": "draft", "interface": "select"},
                    {"name": "views", "type": "integer", "defaultValue": 0, "interface": "integer"},
                    {"name": "author", "type": "belongsTo", "target": "authors", "foreignKey": "authorId",
                     "onDelete": "SET NULL"},
                    {"name": "tags", "type": "belongsToMany", "target": "tags", "through": "posts_tags",
                     "foreignKey": "postId", "otherKey": "tagId"}]}
NOTES = {"name": "notes", "title": "Notes", "autoGenId": True, "createdAt": True, "updatedAt": True,
         "sortable": False,
         "fields": [{"name": "text", "type": "string", "interface": "input"},
                    {"name": "pinned", "type": "boolean", "defaultValue": False, "interface": "checkbox"}]}


def capture(d: Driver) -> None:
    # 1. The seed, as it is.
    d.get(f"{A}/app:getInfo")
    d.get(f"{A}/auth:check")
    d.get(f"{A}/authors")
    for i in (1, 2, 3):
        d.get(f"{A}/authors/{i}")
    d.get(f"{A}/authors:list")
    d.get(f"{A}/authors:get", filterByTk="2")
    d.get(f"{A}/tags:list")
    d.get(f"{A}/tags:get", filterByTk="1")
    d.get(f"{A}/tags/2")
    d.get(f"{A}/authors/99")
    d.get(f"{A}/tags:get", filterByTk="99")
    d.call("GET", f"{A}/authors", token=None, expect=401)
    d.call("GET", f"{A}/nothing:list", expect=404)
    d.get(f"{A}/collections:get", filterByTk="authors")
    d.get(f"{A}/collections/authors/fields:list")

    # 2. A collection defined at run time, and a field added to it.
    d.call("POST", f"{A}/collections:create", POSTS, expect=200)
    d.get(f"{A}/collections:get", filterByTk="posts")
    d.get(f"{A}/collections/posts/fields:list", sort="name")
    d.get(f"{A}/posts")
    d.call("POST", f"{A}/collections/posts/fields:create",
           {"name": "summary", "type": "text", "interface": "textarea"}, expect=200)
    d.call("POST", f"{A}/collections/posts/fields:create",
           {"name": "rating", "type": "integer", "interface": "integer"}, expect=200)
    d.get(f"{A}/collections/posts/fields:list", sort="name")
    d.call("POST", f"{A}/collections:update", {"title": "Blog posts"}, params={"filterByTk": "posts"}, expect=200)
    d.get(f"{A}/collections:get", filterByTk="posts")

    # 3. Authors, in the REST form: creates read back, a taken email, a body that is no JSON.
    authors = {}
    for name, email in [("Edsger Dijkstra", "edsger@capenv.test"), ("Barbara Liskov", "barbara@capenv.test"),
                        ("Donald Knuth", "donald@capenv.test")]:
        _, body = d.call("POST", f"{A}/authors", {"name": name, "email": email}, expect=200)
        authors[name] = body["data"]["id"]
        d.get(f"{A}/authors/{authors[name]}")
    d.get(f"{A}/authors")
    d.call("POST", f"{A}/authors", {"name": "Someone", "email": "ada@capenv.test"}, expect=400)
    d.call("POST", f"{A}/authors", raw='{"name": "Broken', expect=400)
    d.get(f"{A}/authors")
    edsger, barbara, donald = authors["Edsger Dijkstra"], authors["Barbara Liskov"], authors["Donald Knuth"]

    # 4. Tags, in the action form.
    tags = {}
    for name in ("algorithms", "languages", "drafts"):
        _, body = d.call("POST", f"{A}/tags:create", {"name": name}, expect=200)
        tags[name] = body["data"]["id"]
        d.get(f"{A}/tags:get", filterByTk=str(tags[name]))
    d.get(f"{A}/tags:list")
    d.call("POST", f"{A}/tags:create", {"name": "history"}, expect=400)
    d.get(f"{A}/tags:list", sort="name")

    # 5. Posts: creates with a reference and links, read back alone and in the list.
    posts = {}
    for title, author, status, views, tag_names in [
            ("Go To Statement Considered Harmful", edsger, "published", 120, ["history"]),
            ("A Discipline of Programming", edsger, "draft", 3, []),
            ("Data Abstraction and Hierarchy", barbara, "published", 48, ["languages"]),
            ("The Art of Computer Programming", donald, "published", 300, ["algorithms"]),
            ("Literate Programming", donald, "draft", 0, []),
            ("Notes on the Analytical Engine", 1, "published", 75, ["history"])]:
        tag_ids = [1 if t == "history" else 2 if t == "computing" else tags[t] for t in tag_names]
        _, body = d.call("POST", f"{A}/posts", {"title": title, "authorId": author, "status": status,
                                                "views": views, "tags": tag_ids}, expect=200)
        posts[title] = body["data"]["id"]
        d.get(f"{A}/posts/{posts[title]}")
    goto, discipline, abstraction, taocp, literate, engine = posts.values()
    d.call("POST", f"{A}/posts", {"title": "Defaults only"}, expect=200)
    defaults = d.get(f"{A}/posts", sort="-id", pageSize="1")["data"][0]["id"]
    d.get(f"{A}/posts/{defaults}")
    d.get(f"{A}/posts")
    d.get(f"{A}/posts:list")
    d.get(f"{A}/posts/{goto}", appends="author,tags")
    d.get(f"{A}/posts/{taocp}", appends="tags")
    d.get(f"{A}/posts/{engine}", appends="author")

    # 6. Filters, sort, paging, projections.
    d.get(f"{A}/posts:list", filter=f({"status": {"$eq": "published"}}))
    d.get(f"{A}/posts:list", filter=f({"status": {"$eq": "draft"}}))
    d.get(f"{A}/posts:list", filter=f({"views": {"$gt": 50}}))
    d.get(f"{A}/posts:list", filter=f({"title": {"$includes": "Programming"}}))
    d.get(f"{A}/posts:list", filter=f({"$and": [{"status": "published"}, {"views": {"$lt": 100}}]}))
    d.get(f"{A}/posts:list", filter=f({"authorId": {"$eq": donald}}))
    d.get(f"{A}/posts:list", sort="-views")
    d.get(f"{A}/posts:list", sort="title")
    d.get(f"{A}/posts:list", page="1", pageSize="3")
    d.get(f"{A}/posts:list", page="2", pageSize="3")
    d.get(f"{A}/posts:list", page="3", pageSize="3")
    d.get(f"{A}/posts:list", fields="id,title,views", sort="-views")
    d.get(f"{A}/posts:list", appends="author", filter=f({"author.name": {"$eq": "Donald Knuth"}}))
    d.get(f"{A}/authors:list", sort="name")
    d.get(f"{A}/authors:list", filter=f({"email": {"$endsWith": "@capenv.test"}}), sort="-id", pageSize="2")
    d.get(f"{A}/tags:list", filter=f({"name": {"$in": ["history", "drafts"]}}))
    d.get(f"{A}/posts/{goto}/tags")
    d.get(f"{A}/posts/{taocp}/tags")
    d.get(f"{A}/authors/{donald}")

    # 7. Updates: PUT and PATCH in the REST form, update in the action form; each read back.
    d.call("PUT", f"{A}/authors/{barbara}", {"name": "Barbara H. Liskov"}, expect=200)
    d.get(f"{A}/authors/{barbara}")
    d.call("PUT", f"{A}/authors/{donald}", {"name": "Donald E. Knuth", "email": "knuth@capenv.test"}, expect=200)
    d.get(f"{A}/authors/{donald}")
    d.get(f"{A}/authors")
    d.call("PATCH", f"{A}/posts/{discipline}", {"status": "published"}, expect=200)
    d.get(f"{A}/posts/{discipline}")
    d.call("PATCH", f"{A}/posts/{literate}", {"views": 17, "summary": "Programs as literature"}, expect=200)
    d.get(f"{A}/posts/{literate}")
    d.call("PATCH", f"{A}/posts/{goto}", {"title": "Go To Statement Considered Harmful (1968)", "rating": 5}, expect=200)
    d.get(f"{A}/posts/{goto}")
    d.call("PUT", f"{A}/posts/{abstraction}", {"views": 49}, expect=200)
    d.get(f"{A}/posts/{abstraction}")
    d.get(f"{A}/posts:list", filter=f({"status": {"$eq": "published"}}))
    d.get(f"{A}/posts")
    d.call("POST", f"{A}/tags:update", {"name": "algorithm design"}, params={"filterByTk": str(tags["algorithms"])},
           expect=200)
    d.get(f"{A}/tags:get", filterByTk=str(tags["algorithms"]))
    d.call("POST", f"{A}/tags:update", {"name": "programming languages"},
           params={"filterByTk": str(tags["languages"])}, expect=200)
    d.get(f"{A}/tags:get", filterByTk=str(tags["languages"]))
    d.get(f"{A}/tags:list")
    d.get(f"{A}/posts/{taocp}/tags")
    d.call("PUT", f"{A}/authors/999", {"name": "Nobody"}, expect=200)
    d.call("PATCH", f"{A}/posts/999", {"views": 1}, expect=200)
    d.call("POST", f"{A}/tags:update", {"name": "x"}, params={"filterByTk": "999"}, expect=200)
    d.call("PUT", f"{A}/authors/{edsger}", {"email": "grace@capenv.test"}, expect=400)
    d.get(f"{A}/authors/{edsger}")

    # 8. Links of a post to tags: add, set, remove, each seen before and after.
    d.get(f"{A}/posts/{taocp}/tags")
    d.call("POST", f"{A}/posts/{taocp}/tags:add", raw=f([2]), expect=200)
    d.get(f"{A}/posts/{taocp}/tags")
    d.call("POST", f"{A}/posts/{engine}/tags:add", raw=f([2]), expect=200)
    d.get(f"{A}/posts/{engine}", appends="tags")
    d.get(f"{A}/posts/{literate}/tags")
    d.call("POST", f"{A}/posts/{literate}/tags:set", raw=f([tags["algorithms"], 2]), expect=200)
    d.get(f"{A}/posts/{literate}/tags")
    d.get(f"{A}/posts/{literate}", appends="tags")
    d.call("POST", f"{A}/posts/{literate}/tags:add", raw=f([1]), expect=200)
    d.get(f"{A}/posts/{literate}/tags")
    d.call("POST", f"{A}/posts/{literate}/tags:remove", raw=f([2]), expect=200)
    d.get(f"{A}/posts/{literate}/tags")
    d.get(f"{A}/posts/{discipline}/tags")
    d.call("POST", f"{A}/posts/{discipline}/tags:set", raw=f([tags["drafts"]]), expect=200)
    d.get(f"{A}/posts/{discipline}/tags")
    d.get(f"{A}/posts:list", appends="tags", filter=f({"tags.id": {"$eq": 1}}))

    # 9. Deletes: REST and action forms, each read back; a missing id.
    d.call("DELETE", f"{A}/posts/{defaults}", expect=200)
    d.get(f"{A}/posts/{defaults}")
    d.get(f"{A}/posts")
    d.call("DELETE", f"{A}/posts/{abstraction}", expect=200)
    d.get(f"{A}/posts/{abstraction}")
    d.get(f"{A}/posts")
    d.call("DELETE", f"{A}/posts/{abstraction}", expect=200)
    d.call("DELETE", f"{A}/authors/999", expect=200)
    # A tag delete takes it off the posts that held it.
    d.get(f"{A}/posts/{discipline}/tags")
    d.call("POST", f"{A}/tags:destroy", params={"filterByTk": str(tags["drafts"])}, expect=200)
    d.get(f"{A}/tags:get", filterByTk=str(tags["drafts"]))
    d.get(f"{A}/tags:list")
    d.get(f"{A}/posts/{discipline}/tags")
    d.get(f"{A}/posts/{literate}/tags")
    d.call("POST", f"{A}/tags:destroy", params={"filterByTk": str(tags["algorithms"])}, expect=200)
    d.get(f"{A}/tags:get", filterByTk=str(tags["algorithms"]))
    d.get(f"{A}/tags:list")
    d.get(f"{A}/posts/{literate}/tags")
    d.get(f"{A}/posts/{taocp}", appends="tags")
    d.call("POST", f"{A}/tags:destroy", params={"filterByTk": "999"}, expect=200)
    # An author delete clears the authorId of the posts that named it (onDelete SET NULL).
    d.get(f"{A}/posts/{goto}")
    d.get(f"{A}/posts/{discipline}")
    d.call("DELETE", f"{A}/authors/{edsger}", expect=200)
    d.get(f"{A}/authors/{edsger}")
    d.get(f"{A}/authors")
    d.get(f"{A}/posts/{goto}")
    d.get(f"{A}/posts/{discipline}")
    d.get(f"{A}/posts:list", filter=f({"authorId": {"$empty": True}}))
    d.call("DELETE", f"{A}/authors/{barbara}", expect=200)
    d.get(f"{A}/authors/{barbara}")
    d.get(f"{A}/authors")

    # 10. A second collection, its records in the action form, then the collection dropped.
    d.call("POST", f"{A}/collections:create", NOTES, expect=200)
    d.get(f"{A}/collections:get", filterByTk="notes")
    d.get(f"{A}/notes:list")
    notes = []
    for text, pinned in [("Buy milk", False), ("Call the printer", True), ("Renew the domain", False)]:
        _, body = d.call("POST", f"{A}/notes:create", {"text": text, "pinned": pinned}, expect=200)
        notes.append(body["data"]["id"])
        d.get(f"{A}/notes:get", filterByTk=str(notes[-1]))
    d.get(f"{A}/notes:list")
    d.get(f"{A}/notes:list", filter=f({"pinned": {"$isTruly": True}}))
    d.call("POST", f"{A}/notes:update", {"pinned": True}, params={"filterByTk": str(notes[0])}, expect=200)
    d.get(f"{A}/notes:get", filterByTk=str(notes[0]))
    d.call("POST", f"{A}/notes:update", {"text": "Renew the domain before May"},
           params={"filterByTk": str(notes[2])}, expect=200)
    d.get(f"{A}/notes:get", filterByTk=str(notes[2]))
    d.get(f"{A}/notes:list", sort="-id")
    d.call("POST", f"{A}/notes:destroy", params={"filterByTk": str(notes[1])}, expect=200)
    d.get(f"{A}/notes:get", filterByTk=str(notes[1]))
    d.get(f"{A}/notes:list")
    d.call("POST", f"{A}/notes:create", {"text": 12}, expect=200)
    d.get(f"{A}/notes:list")
    d.call("POST", f"{A}/collections:create", {"name": "notes", "fields": []}, expect=500)
    d.call("POST", f"{A}/collections:destroy", params={"filterByTk": "notes"}, expect=200)
    d.call("GET", f"{A}/notes:list", expect=500)
    d.call("GET", f"{A}/collections:get", params={"filterByTk": "notes"}, expect=200)

    # 11. Where it ends.
    d.get(f"{A}/authors")
    d.get(f"{A}/tags:list")
    d.get(f"{A}/posts", appends="author,tags")
    d.get(f"{A}/collections/posts/fields:list", sort="name")


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:43231")
