#!/usr/bin/env python3
"""Scenario driver for json-server 1.0.0-beta.15 (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:18301 --mode capture [-v]

No authentication. Every top-level key of db.json (seed.json, copied by start.sh) is a resource:
the arrays posts, comments (postId, userId), users and tags are collections of items named by a
string id; profile is one object (GET/PUT/PATCH, no id). Every call is sequential, with a random
50-150 ms sleep before it. Query strings are written into the path as the application reads them
(`views:gt=100`, `_sort=-views`): operators live in the query keys.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

COLLECTIONS = ("posts", "comments", "users", "tags")
SEEDED = {"posts": ["1", "2", "3", "4", "5"], "comments": ["1", "2", "3", "4", "5"],
          "users": ["1", "2", "3", "dave", "erin"], "tags": ["intro", "howto", "embed", "4", "5"]}


def make_driver(base, min_sleep, max_sleep, verbose):
    return Driver(base, min_sleep, max_sleep, verbose)


def capture(d):
    call, check = d.call, d.check

    def get(path, expect=200):
        return call("GET", path, expect=expect)[1]

    def ids(answer):
        return [item.get("id") for item in answer] if isinstance(answer, list) else None

    def send(method, path, body, expect=200):
        return call(method, path, body=body, expect=expect)[1]

    # ---- a. reads of the seed: every collection, every item, the singular
    for name in COLLECTIONS:
        check(f"{name} ids", ids(get(f"/{name}")), SEEDED[name])
    for name in COLLECTIONS:
        for item_id in SEEDED[name]:
            get(f"/{name}/{item_id}")
    get("/profile")

    # ---- b. paging (an envelope), sorting, filters by operators in the keys, embedding
    page = get("/posts?_page=1&_per_page=2")
    check("page 1", [page.get("first"), page.get("next"), page.get("pages"), page.get("items")], [1, 2, 3, 5])
    get("/posts?_page=2&_per_page=2")
    get("/posts?_page=3&_per_page=2")
    get("/comments?_page=1")
    get("/users?_page=2&_per_page=3")
    check("sorted by views, descending", ids(get("/posts?_sort=-views")), ["3", "1", "5", "2", "4"])
    get("/posts?_sort=title")
    get("/users?_sort=name")
    check("views:gt=100", ids(get("/posts?views:gt=100")), ["1", "3"])
    get("/posts?views:lte=77")
    get("/posts?title:contains=ing")
    get("/posts?published=true")
    get("/posts?userId=1")
    get("/comments?postId=1")
    get("/users?role:in=editor,viewer")
    get("/users?email:endsWith=example.com&role:ne=admin")
    get("/tags?label:startsWith=e")
    get("/posts?views_gte=100")
    get("/posts?published=false&_sort=-views")
    get("/posts?_sort=-views&_page=1&_per_page=2")
    get("/posts?_embed=comments")
    get("/posts/1?_embed=comments")
    get("/comments?_embed=post")
    get("/comments/2?_embed=post")

    # ---- c. creates: the server names every new item with a random id, even when the body names one
    post = send("POST", "/posts", {"title": "Recorded post", "body": "Made by the driver.", "views": 0,
                                   "published": False, "userId": "2", "tags": []}, expect=201)
    post_id = post.get("id")
    get(f"/posts/{post_id}")
    get("/posts")
    named = send("POST", "/tags", {"id": "release", "label": "Release", "color": "red"}, expect=201)
    tag_id = named.get("id")
    check("a tag's own id is replaced", tag_id != "release", True)
    get(f"/tags/{tag_id}")
    get("/tags/release", expect=404)
    get("/tags")
    comment = send("POST", "/comments", {"text": "First!", "postId": post_id, "userId": "1"}, expect=201)
    comment_id = comment.get("id")
    get(f"/comments/{comment_id}")
    get(f"/posts/{post_id}?_embed=comments")
    second = send("POST", "/comments", {"text": "Second on post 4", "postId": "4", "userId": "2"}, expect=201)
    second_id = second.get("id")
    get(f"/comments/{second_id}")
    get("/comments?postId=4")
    user = send("POST", "/users", {"name": "Frank", "email": "frank@example.com", "role": "viewer"}, expect=201)
    user_id = user.get("id")
    get(f"/users/{user_id}")
    get("/users")
    send("POST", "/tags", {"label": "Tips", "color": "yellow"}, expect=201)
    get("/tags")

    # ---- d. updates: PATCH merges, PUT replaces (the path's id kept), on items and on the singular
    send("PATCH", f"/posts/{post_id}", {"title": "Recorded post, edited", "views": 12})
    get(f"/posts/{post_id}")
    send("PATCH", "/posts/1", {"views": 121, "tags": ["intro", "howto"]})
    get("/posts/1")
    get("/posts?views:gt=100")
    send("PUT", "/posts/2", {"title": "Paging, rewritten", "body": "Replaced.", "views": 50,
                             "published": True, "userId": "2"})
    get("/posts/2")
    send("PUT", f"/posts/{post_id}", {"id": "ignored", "title": "Recorded post, replaced", "views": 13,
                                      "published": True, "userId": "2"})
    get(f"/posts/{post_id}")
    get("/posts/ignored", expect=404)
    get("/posts")
    send("PATCH", "/posts/4", {"published": False, "body": "_embed=comments, edited."})
    get("/posts/4")
    send("PATCH", "/comments/3", {"text": "Thanks a lot"})
    get("/comments/3")
    send("PUT", f"/comments/{comment_id}", {"text": "First, replaced", "postId": post_id})
    get(f"/comments/{comment_id}")
    send("PATCH", "/users/dave", {"role": "editor"})
    get("/users/dave")
    send("PATCH", "/users/2", {"email": "bob@example.org"})
    get("/users/2")
    send("PUT", f"/users/{user_id}", {"name": "Frank F.", "email": "frank@example.org"})
    get(f"/users/{user_id}")
    get("/users")
    send("PATCH", "/tags/howto", {"color": "teal"})
    get("/tags/howto")
    send("PATCH", "/tags/embed", {"label": "Embedded", "color": "amber"})
    get("/tags/embed")
    send("PUT", "/tags/4", {"label": "Release notes", "color": "black"})
    get("/tags/4")
    get("/tags")
    send("PATCH", "/profile", {"theme": "dark"})
    get("/profile")
    send("PATCH", "/profile", {"bio": "json-server 1.0 demo", "website": "https://example.com"})
    get("/profile")
    send("PUT", "/profile", {"name": "typicode", "theme": "solarized"})
    get("/profile")
    send("PUT", "/profile", {"name": "typicode", "bio": "back again", "theme": "light"})
    get("/profile")

    # ---- e. deletes: the answer is the deleted item; children's foreign keys become null, and
    # _dependent=<collection> deletes the children whose foreign key is null
    deleted = send("DELETE", f"/tags/{tag_id}", None)
    check("delete answers the item", deleted.get("label") if isinstance(deleted, dict) else None, "Release")
    get(f"/tags/{tag_id}", expect=404)
    get("/tags")
    send("DELETE", f"/comments/{second_id}", None)
    get(f"/comments/{second_id}", expect=404)
    get("/comments?postId=4")
    send("DELETE", "/posts/4", None)
    get("/posts/4", expect=404)
    get("/posts")
    get("/comments")
    send("DELETE", f"/posts/{post_id}?_dependent=comments", None)
    get(f"/posts/{post_id}", expect=404)
    get(f"/comments/{comment_id}", expect=404)
    get("/comments")
    send("DELETE", "/posts/5?_dependent=comments", None)
    get("/posts/5", expect=404)
    get("/comments/5", expect=404)
    get("/comments")
    send("DELETE", "/users/erin", None)
    get("/users/erin", expect=404)
    get("/users")
    send("DELETE", "/users/3", None)
    get("/users/3", expect=404)
    check("a deleted user's comments lose their userId", get("/comments/2").get("userId", "absent"), None)
    get("/comments/3")
    get("/comments")
    get("/users")

    # ---- f. errors: missing ids and collections (404 {"error": "Not Found"}), bodies that are not
    # a JSON object (400), a body that is not JSON at all (500, text), writes the routes do not have
    for method, body in (("GET", None), ("PATCH", {"views": 1}), ("PUT", {"title": "x"}), ("DELETE", None)):
        call(method, "/posts/no-such-post", body=body, expect=404)
    get("/comments/999", expect=404)
    get("/users/no-such-user", expect=404)
    get("/nothing", expect=404)
    get("/nothing/1", expect=404)
    send("POST", "/nothing", {"a": 1}, expect=404)
    send("POST", "/posts", ["not", "an", "object"], expect=400)
    send("PATCH", "/posts/1", ["nope"], expect=400)
    send("PUT", "/profile", [1, 2], expect=400)
    call("POST", "/posts", raw='{"title": "broken', expect=500)
    send("POST", "/profile", {"name": "x"}, expect=404)
    get("/profile/1", expect=404)
    send("PATCH", "/posts", {"title": "x"}, expect=404)
    get("/posts")
    get("/profile")

    # ---- g. a second round of writes on what is left, each read back
    third = send("POST", "/comments", {"text": "Late comment", "postId": "1", "userId": "dave"}, expect=201)
    third_id = third.get("id")
    get(f"/comments/{third_id}")
    get("/posts/1?_embed=comments")
    send("PATCH", f"/comments/{third_id}", {"text": "Late comment, edited"})
    get(f"/comments/{third_id}")
    send("PUT", "/posts/3", {"title": "Filters, replaced", "views": 311, "published": True, "userId": "1"})
    get("/posts/3")
    get("/posts?_sort=-views")
    get("/posts?_page=1&_per_page=2")
    send("DELETE", f"/comments/{third_id}", None)
    get(f"/comments/{third_id}", expect=404)

    # ---- h. every collection and item once more after the writes
    for name in COLLECTIONS:
        for item in get(f"/{name}") or []:
            get(f"/{name}/{item['id']}")
    get("/profile")


drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:18301")
