#!/usr/bin/env python3
"""Scenario driver for WordPress 6.1.9's REST API, wp/v2 (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:42761 --mode capture [-v]

Every call sends HTTP Basic auth: the administrator `admin` and its fixed throwaway Application
Password (application-password.txt), no cookie. Routes are under /wp-json/wp/v2/ (pretty
permalinks). The seed (install.php, run by start.sh, not recorded) has these ids:
  posts      1 "Hello world!" (WordPress's own), 4 "Version 2.0 released", 5 "Getting started with
             the REST API", 6 "Tuning the database", 7 "Roadmap draft" (draft), 8 "Community meetup"
  pages      2 "Sample Page" (WordPress's own), 3 "Privacy Policy" (draft), 9 "About", 10 "Team" (child of 9)
  categories 1 Uncategorized, 2 News, 3 Releases (child of 2), 4 Guides
  tags       5 php, 6 rest, 7 databases
  users      1 admin, 2 editor (editor), 3 alice (author), 4 bob (subscriber)
  comments   1 (WordPress's own, on post 1), 2 and 3 (a reply) on post 4, 4 on post 5
Lists answer bare arrays with X-WP-Total and X-WP-TotalPages headers; creates 201 with the entity
(context=edit); updates 200 with it, by POST, PUT or PATCH to the item; DELETE of a post or comment
moves it to the trash (200 with it, status "trash"), `?force=true` deletes and answers
{"deleted": true, "previous": {...}}; terms and users cannot be trashed (501 without force; users
also need `reassign`). Errors answer {"code", "message", "data": {"status"}}.
Every call is sequential, with a random 50-150 ms sleep before it.
"""
import base64
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

PASSWORD = (Path(__file__).resolve().parent / "application-password.txt").read_text().strip()
TOKEN = base64.b64encode(f"admin:{PASSWORD}".encode()).decode()
API = "/wp-json/wp/v2"
NEVER = 999  # an id no entity of any type ever has


def make_driver(base, min_sleep, max_sleep, verbose):
    return Driver(base, min_sleep, max_sleep, verbose, token=TOKEN, scheme="Basic")


def capture(d):
    call, check = d.call, d.check

    def get(path, expect=200, **params):
        return d.get(API + path, expect, **params)

    def create(path, body, expect=201):
        answer = call("POST", API + path, body, expect=expect)[1]
        return answer.get("id") if isinstance(answer, dict) else None

    def write(method, path, body, expect=200):
        return call(method, API + path, body, expect=expect)[1]

    def delete(path, expect=200, **params):
        return call("DELETE", API + path, params=params or None, expect=expect)[1]

    # ---- a. reads before any write: every list with its paging, filters and projections, items, absences
    get("/posts")
    get("/posts", per_page=2)
    get("/posts", per_page=2, page=2)
    get("/posts", per_page=2, page=3)
    get("/posts", search="database")
    get("/posts", orderby="title", order="asc")
    get("/posts", categories=4)
    get("/posts", tags=6)
    get("/posts", status="draft")
    get("/posts", author=3)
    get("/posts", _fields="id,title,slug")
    get("/posts", context="edit", per_page=3)
    for post in (1, 4, 5, 6, 7, 8):
        get(f"/posts/{post}")
    get("/posts/4", context="edit")
    get("/posts/4", _fields="id,slug,status,categories,tags")
    get("/pages")
    get("/pages", parent=9)
    get("/pages", orderby="menu_order", order="asc")
    for page in (2, 9, 10):
        get(f"/pages/{page}")
    get("/categories")
    get("/categories", parent=2)
    get("/categories", hide_empty="true")
    get("/categories", orderby="count", order="desc")
    for category in (1, 2, 3, 4):
        get(f"/categories/{category}")
    get("/tags")
    get("/tags", search="re")
    get("/tags", per_page=2, page=2)
    for tag in (5, 6, 7):
        get(f"/tags/{tag}")
    get("/users")
    get("/users", roles="author")
    get("/users", context="edit")
    for user in (1, 2, 3, 4):
        get(f"/users/{user}")
    get("/users/me")
    get("/comments")
    get("/comments", post=4)
    get("/comments", parent=2)
    for comment in (1, 2, 3, 4):
        get(f"/comments/{comment}")
    for kind in ("posts", "pages", "categories", "tags", "users", "comments"):
        get(f"/{kind}/{NEVER}", 404)
    get("/posts/hello-world", 404)            # the item route takes digits only: rest_no_route
    get("/posts", 400, per_page=500)           # rest_invalid_param, out of bounds
    get("/posts", 400, orderby="color")        # not one of the enum
    get("/posts", 400, page=40)                # rest_post_invalid_page_number
    get("/categories", 400, per_page=0)

    # ---- b. posts: create (slug from the title), read, update by POST/PUT/PATCH, trash, force delete
    p1 = create("/posts", {"title": "Release notes for 2.1", "content": "Faster builds and fewer bugs.",
                           "status": "publish", "categories": [3], "tags": [5, 6]})
    get(f"/posts/{p1}")
    get(f"/posts/{p1}", context="edit")
    get("/posts")
    get("/posts", categories=3)
    get("/categories/3")                       # its count went up
    write("POST", f"/posts/{p1}", {"title": "Release notes for version 2.1"})
    get(f"/posts/{p1}")                        # the slug stays what it was
    write("PUT", f"/posts/{p1}", {"excerpt": "What changed in 2.1.", "tags": [6]})
    get(f"/posts/{p1}")
    write("PATCH", f"/posts/{p1}", {"sticky": True, "comment_status": "closed"})
    get(f"/posts/{p1}")
    get("/posts", sticky="true")
    p2 = create("/posts", {"title": "Release notes for 2.1", "content": "A second post, same title.",
                           "status": "publish"})  # the slug gets "-2"
    get(f"/posts/{p2}")
    p3 = create("/posts", {"title": "Plans for 3.0", "content": "Ideas.", "status": "draft",
                           "slug": "plans-three", "author": 3})
    get(f"/posts/{p3}")
    get("/posts", status="draft")
    write("POST", f"/posts/{p3}", {"status": "publish"})
    get(f"/posts/{p3}")
    get("/posts", author=3)
    get("/posts", search="Release")
    create("/posts", {}, expect=400)                        # empty_content
    create("/posts", {"title": "Bad", "status": "lost"}, expect=400)
    create("/posts", {"title": "Bad", "categories": "news"}, expect=400)
    write("POST", f"/posts/{NEVER}", {"title": "Nobody"}, expect=404)
    write("PATCH", f"/posts/{p1}", {"format": "poster"}, expect=400)
    delete(f"/posts/{p2}")                      # to the trash: 200 with status "trash"
    get(f"/posts/{p2}")
    get("/posts")                               # no longer listed
    get("/posts", status="trash")
    delete(f"/posts/{p2}", 410)                 # already trashed
    delete(f"/posts/{p2}", force="true")        # {deleted, previous}
    get(f"/posts/{p2}", 404)
    delete(f"/posts/{p3}", force="true")
    get(f"/posts/{p3}", 404)
    get("/posts")
    delete(f"/posts/{NEVER}", 404)

    # ---- c. pages: nested under a parent, menu order, updates, delete
    pg1 = create("/pages", {"title": "Careers", "content": "Join us.", "status": "publish",
                            "parent": 9, "menu_order": 3})
    get(f"/pages/{pg1}")
    get("/pages", parent=9)
    write("PUT", f"/pages/{pg1}", {"title": "Jobs", "menu_order": 1})
    get(f"/pages/{pg1}")
    get("/pages", orderby="menu_order", order="asc")
    pg2 = create("/pages", {"title": "Contact", "status": "publish"})
    get(f"/pages/{pg2}")
    write("PATCH", f"/pages/{pg2}", {"content": "Write to us.", "slug": "contact-us"})
    get(f"/pages/{pg2}")
    create("/pages", {"title": "Orphan", "parent": NEVER}, expect=400)
    delete(f"/pages/{pg2}")
    get(f"/pages/{pg2}")
    delete(f"/pages/{pg2}", force="true")
    get(f"/pages/{pg2}", 404)
    get("/pages")

    # ---- d. categories: slug from the name, parent, duplicates, no trash
    c1 = create("/categories", {"name": "Tutorials", "description": "Step by step", "parent": 4})
    get(f"/categories/{c1}")
    get("/categories")
    get("/categories", parent=4)
    c2 = create("/categories", {"name": "Case Studies", "slug": "cases"})
    get(f"/categories/{c2}")
    create("/categories", {"name": "News"}, expect=400)              # term_exists
    create("/categories", {"description": "no name"}, expect=400)    # missing name
    create("/categories", {"name": "Lost", "parent": NEVER}, expect=400)
    write("POST", f"/categories/{c1}", {"name": "Tutorials and How-tos"})
    get(f"/categories/{c1}")
    write("PUT", f"/categories/{c2}", {"description": "Who uses it"})
    get(f"/categories/{c2}")
    write("PATCH", f"/categories/{c2}", {"slug": "case-studies"})
    get(f"/categories/{c2}")
    write("POST", f"/categories/{NEVER}", {"name": "Nowhere"}, expect=404)
    p4 = create("/posts", {"title": "A case study", "status": "publish", "categories": [c2]})
    get(f"/categories/{c2}")
    get("/posts", categories=c2)
    delete(f"/categories/{c2}", 501)            # rest_trash_not_supported
    delete(f"/categories/{c2}", force="true")
    get(f"/categories/{c2}", 404)
    get(f"/posts/{p4}")                          # falls back to Uncategorized
    get("/categories")
    delete(f"/categories/{NEVER}", 404, force="true")

    # ---- e. tags
    t1 = create("/tags", {"name": "Performance Tips"})
    get(f"/tags/{t1}")
    get("/tags")
    t2 = create("/tags", {"name": "security", "description": "Keeping safe"})
    get(f"/tags/{t2}")
    create("/tags", {"name": "php"}, expect=400)
    write("PUT", f"/tags/{t1}", {"name": "Performance"})
    get(f"/tags/{t1}")
    write("PATCH", f"/tags/{t2}", {"description": "Keeping things safe"})
    get(f"/tags/{t2}")
    write("POST", f"/posts/{p4}", {"tags": [t1, t2]})
    get(f"/posts/{p4}")
    get("/tags", post=p4)
    get(f"/tags/{t1}")
    delete(f"/tags/{t1}", force="true")
    get(f"/tags/{t1}", 404)
    get(f"/posts/{p4}")
    get("/tags")

    # ---- f. users: create, read, update, delete with reassign
    u1 = create("/users", {"username": "carol", "email": "carol@capenv.test", "password": "capenv-carol-pw",
                           "name": "Carol Diaz", "first_name": "Carol", "last_name": "Diaz",
                           "roles": ["author"]})
    get(f"/users/{u1}")
    get(f"/users/{u1}", context="edit")
    get("/users")
    u2 = create("/users", {"username": "dave", "email": "dave@capenv.test", "password": "capenv-dave-pw"})
    get(f"/users/{u2}", context="edit")
    create("/users", {"username": "carol", "email": "other@capenv.test", "password": "x"}, expect=500)
    create("/users", {"username": "erin", "email": "not-an-email", "password": "x"}, expect=400)
    create("/users", {"username": "frank", "email": "frank@capenv.test"}, expect=400)  # no password
    write("POST", f"/users/{u1}", {"description": "Writes case studies.", "url": "http://carol.capenv.test"})
    get(f"/users/{u1}")
    write("PUT", f"/users/{u2}", {"name": "Dave Kim", "roles": ["editor"]})
    get(f"/users/{u2}", context="edit")
    write("PATCH", f"/users/{u1}", {"nickname": "cdiaz"})
    get(f"/users/{u1}", context="edit")
    write("POST", f"/users/{NEVER}", {"name": "Nobody"}, expect=404)
    p5 = create("/posts", {"title": "Carol's first post", "status": "publish", "author": u1})
    get("/posts", author=u1)
    delete(f"/users/{u2}", 400)                 # reassign is required
    delete(f"/users/{u2}", 501, reassign=1)     # users cannot be trashed
    delete(f"/users/{u2}", force="true", reassign=1)
    get(f"/users/{u2}", 404)
    delete(f"/users/{u1}", force="true", reassign=3)
    get(f"/users/{u1}", 404)
    get(f"/posts/{p5}")                          # now alice's
    get("/users")

    # ---- g. comments: create on a post, reply, update, trash, force delete
    cm1 = create("/comments", {"post": p4, "content": "Great release!", "author_name": "Grace",
                               "author_email": "grace@capenv.test"})
    get(f"/comments/{cm1}")
    get("/comments", post=p4)
    get(f"/posts/{p4}")
    cm2 = create("/comments", {"post": p4, "parent": cm1, "content": "Agreed."})
    get(f"/comments/{cm2}")
    get("/comments", parent=cm1)
    create("/comments", {"post": NEVER, "content": "Lost"}, expect=403)
    create("/comments", {"post": p4}, expect=400)      # no content
    write("POST", f"/comments/{cm1}", {"content": "Great release, thank you!"})
    get(f"/comments/{cm1}")
    write("PATCH", f"/comments/{cm2}", {"status": "hold"})
    get(f"/comments/{cm2}", context="edit")
    get("/comments", post=p4)
    get("/comments", post=p4, status="hold")
    write("PUT", f"/comments/{cm2}", {"status": "approved", "content": "Agreed, well done."})
    get(f"/comments/{cm2}")
    write("POST", f"/comments/{NEVER}", {"content": "Nobody"}, expect=404)
    delete(f"/comments/{cm2}")                  # to the trash
    get(f"/comments/{cm2}", context="edit")
    get("/comments", post=p4)
    delete(f"/comments/{cm2}", force="true")
    get(f"/comments/{cm2}", 404)
    delete(f"/comments/{cm1}", force="true")
    get(f"/comments/{cm1}", 404)
    get("/comments")
    delete(f"/comments/{NEVER}", 404)

    # ---- h. the seed's own entities changed, then every list once more
    write("PATCH", "/posts/5", {"title": "Getting started with the WordPress REST API"})
    get("/posts/5")
    write("PUT", "/categories/4", {"description": "How to do things"})
    get("/categories/4")
    write("POST", "/users/3", {"first_name": "Alicia"})
    get("/users/3", context="edit")
    delete("/posts/1", force="true")
    get("/posts/1", 404)
    get("/comments", post=1)
    for kind in ("posts", "pages", "categories", "tags", "users", "comments"):
        get(f"/{kind}")
    check("posts created", all(x is not None for x in (p1, p2, p3, p4, p5)), True)


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:42761")
