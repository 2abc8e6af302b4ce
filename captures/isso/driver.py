#!/usr/bin/env python3
"""Scenario driver for Isso 0.14.0's comment API (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:46361 --mode capture [-v]

The seed (seed.py, run by start.sh, not recorded): /blog/first-post comments 1-4 (2 and 4 replies under 1),
/blog/second-post 5-7 (7 under 5), /about 8; votes on 1 (2 likes), 3 (1 like), 5 (1 dislike). No login for
comments: each create answers a signed cookie named after the new comment's id (`Set-Cookie: 9=...`), which
its view, edit and delete need; an edit answers a new one (the old one names the old text and is refused).
The driver keeps those cookies itself and sends each only where the scenario says (the kit's client clears
its jar after every call). Voters are told apart by X-Forwarded-For (Isso trusts it from loopback); the
driver's own address (127.0.0.1, anonymised 127.0.0.0) is every created comment's author. The admin logs in
with a form and a session cookie and moderates by keys its HTML page names. Every call is sequential, with a
random 50-150 ms sleep before it.
"""
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

ADMIN_PASSWORD = "capenv-admin-secret"
FIRST, SECOND, ABOUT, THIRD = "/blog/first-post", "/blog/second-post", "/about", "/blog/third-post"


def make_driver(base, min_sleep, max_sleep, verbose):
    d = Driver(base, min_sleep, max_sleep, verbose)
    d.last = None

    def keep(response):
        d.last = response
    d.c.event_hooks = {"request": [], "response": [keep]}
    return d


def capture(d):
    call, check = d.call, d.check
    cookies = {}  # comment id -> its signed cookie value, as the last answer about it set it

    def thread(uri, expect=200, **params):
        return call("GET", "/", params={"uri": uri, **params}, expect=expect)[1]

    def set_cookie(name):
        for header in d.last.headers.get_list("set-cookie"):
            if header.startswith(f"{name}="):
                return header.split(";", 1)[0].split("=", 1)[1]
        return None

    def cookie(comment_id, value=None):
        return {"Cookie": f"{comment_id}={cookies[comment_id] if value is None else value}"}

    def new(uri, body, expect=201):
        status, made = call("POST", "/new", body=body, params={"uri": uri}, expect=expect)
        if status == 201:
            cookies[made["id"]] = set_cookie(made["id"])
        return made

    def edit(comment_id, body, expect=200, headers=None):
        status, rv = call("PUT", f"/id/{comment_id}", body=body, expect=expect,
                          headers=cookie(comment_id) if headers is None else headers)
        if status == 200:
            cookies[comment_id] = set_cookie(comment_id)
        return rv

    def delete(comment_id, expect=200, headers=None):
        return call("DELETE", f"/id/{comment_id}", expect=expect,
                    headers=cookie(comment_id) if headers is None else headers)[1]

    def view(comment_id, expect=200, **params):
        return call("GET", f"/id/{comment_id}", params=params or None, expect=expect,
                    headers=cookie(comment_id) if comment_id in cookies else None)[1]

    def vote(comment_id, action, address=None):
        headers = {"X-Forwarded-For": address} if address else None
        return call("POST", f"/id/{comment_id}/{action}", body={}, headers=headers, expect=200)[1]

    def counts(uris):
        return call("POST", "/count", body=uris, expect=200)[1]

    # ---- a. reads of the seed: the config, every page with its sorts, paging and nesting, absences
    call("GET", "/config", expect=200)
    first = thread(FIRST)
    check("first-post top level", [c["id"] for c in first["replies"]], [1, 3])
    check("replies under 1", [c["id"] for c in first["replies"][0]["replies"]], [2, 4])
    thread(SECOND)
    thread(ABOUT)
    thread(FIRST, sort="newest")
    thread(FIRST, sort="upvotes")
    thread(SECOND, sort="oldest")
    thread(FIRST, limit=1)
    thread(FIRST, limit=1, offset=1)
    thread(FIRST, nested_limit=1)
    thread(FIRST, nested_limit=0)
    thread(FIRST, limit=0)
    thread(FIRST, parent=1)
    thread(SECOND, parent=5)
    thread(FIRST, plain=1)
    thread("/nothing-here")
    thread(FIRST, expect=400, sort="loudest")
    thread(FIRST, expect=400, limit="some")
    thread(FIRST, expect=400, offset=-1)
    thread(FIRST, expect=400, parent="one")
    call("GET", "/", expect=400)
    view(1, expect=403)                       # a comment's view needs its own cookie
    view(99, expect=404)
    check("seed counts", counts([FIRST, SECOND, ABOUT, "/nothing-here"]), [4, 3, 1, 0])
    counts([])
    call("GET", "/latest", params={"limit": 3}, expect=200)
    call("GET", "/latest", expect=400)
    call("GET", "/feed", params={"uri": FIRST}, expect=200)
    call("GET", "/feed", params={"uri": "/nothing-here"}, expect=200)
    call("POST", "/preview", body={"text": "**bold** and _slanted_"}, expect=200)
    call("POST", "/preview", body={}, expect=400)

    # ---- b. creates: top level, replies (a reply to a reply is filed under the top comment), a new page
    gina = new(FIRST, {"author": "gina", "email": "gina@example.test", "text": "Thanks for the SQLite tips!"})["id"]
    thread(FIRST)
    view(gina)
    view(gina, plain=1)
    hank = new(FIRST, {"author": "hank", "parent": gina, "text": "Same here, very useful."})["id"]
    thread(FIRST)
    reply = new(FIRST, {"author": "gina", "email": "gina@example.test", "parent": hank, "text": "Glad it helped, hank."})
    check("a reply to a reply is filed under the top comment", reply["parent"], gina)
    gina2 = reply["id"]
    thread(FIRST)
    thread(FIRST, parent=gina)
    ivan = new(THIRD, {"title": "Third post", "author": "ivan", "website": "https://ivan.example.test/",
                       "text": "Opening the thread."})["id"]
    thread(THIRD)
    judy = new(ABOUT, {"author": "judy", "email": "judy@example.test", "notification": 1,
                       "text": "Markdown *works* here:\n\n- one\n- two"})["id"]
    thread(ABOUT)
    kim = new(SECOND, {"author": "kim", "parent": 7, "website": "kim.example.test", "text": "Replying to frank."})["id"]
    thread(SECOND)
    lee = new(SECOND, {"author": "lee", "text": "Extra fields are dropped.", "likes": 99, "id": 500,
                       "mode": 4, "created": 1.0})["id"]
    view(lee)
    mia = new(ABOUT, {"author": "mia", "parent": 1, "text": "A parent from another page."})["id"]
    nico = new(ABOUT, {"author": "nico", "parent": 999, "text": "A parent that does not exist."})["id"]
    thread(ABOUT)
    # refused creates
    new("/blog/untitled", {"text": "No title and no page to read it from."}, expect=400)
    thread("/blog/untitled")
    new(FIRST, {"text": "ab"}, expect=400)
    new(FIRST, {"author": "nobody"}, expect=400)
    new(FIRST, {"text": "A parent that is no number.", "parent": "one"}, expect=400)
    new(FIRST, {"text": "A website that is none.", "website": "not a website"}, expect=400)
    new(FIRST, {"text": "An author that is a number.", "author": 5}, expect=400)
    call("POST", "/new", raw="text=form+encoded+comment", params={"uri": FIRST}, expect=403,
         headers={"Content-Type": "application/x-www-form-urlencoded"})
    call("POST", "/new", body={"text": "No page named."}, expect=400)
    call("POST", "/new", raw="{not json", params={"uri": FIRST}, expect=400)
    call("GET", "/new", params={"uri": FIRST}, expect=405)
    thread(FIRST)
    check("counts after the creates", counts([FIRST, SECOND, ABOUT, THIRD]), [7, 5, 4, 1])
    call("GET", "/latest", params={"limit": 5}, expect=200)
    call("GET", "/feed", params={"uri": ABOUT}, expect=200)

    # ---- c. edits by the author (its cookie), each kind; refused edits
    old_gina_cookie = cookies[gina]
    edit(gina, {"text": "Thanks for the SQLite and WAL tips!"})
    view(gina)
    thread(FIRST)
    edit(gina, {"text": "Thanks for the SQLite and WAL tips!", "author": "Gina", "website": "gina.example.test"})
    view(gina, plain=1)
    edit(ivan, {"text": "Opening the thread, edited.", "email": "ivan@example.test", "parent": 1, "likes": 7})
    thread(THIRD)
    edit(judy, {"text": "Markdown **still** works.", "author": None})
    thread(ABOUT)
    edit(gina, {"text": "With the old cookie."}, expect=403, headers=cookie(gina, old_gina_cookie))
    edit(hank, {"text": "With another comment's cookie."}, expect=403, headers=cookie(hank, cookies[gina2]))
    edit(hank, {"text": "Without a cookie."}, expect=403, headers={})
    edit(1, {"text": "A seeded comment, no cookie."}, expect=403, headers={})
    edit(hank, {"author": "hank"}, expect=400)
    edit(hank, {"text": "no"}, expect=400)
    edit(hank, {"text": "A website that is none.", "website": "no website"}, expect=400)
    call("PUT", f"/id/{hank}", raw="text=form", expect=403,
         headers={**cookie(hank), "Content-Type": "application/x-www-form-urlencoded"})
    view(hank)
    thread(FIRST)

    # ---- d. votes: from other addresses, repeated, by the author, on a missing comment
    vote(hank, "like", "10.0.5.7")
    vote(hank, "like", "10.0.6.7")
    vote(hank, "like", "10.0.5.7")            # the same address again: unchanged, with a message
    vote(hank, "dislike", "10.0.7.7")
    vote(hank, "like")                        # the author's own address
    vote(3, "dislike", "10.0.8.7")
    vote(lee, "like", "10.0.9.7")
    vote(999, "like", "10.0.5.7")             # answers null
    thread(FIRST)
    thread(FIRST, sort="upvotes")
    thread(SECOND, sort="upvotes")

    # ---- e. deletes: a leaf, a comment with replies (kept as deleted text), its last reply (both go)
    delete(gina2)
    thread(FIRST)
    view(gina2, expect=404)
    delete(gina)
    thread(FIRST)
    thread(FIRST, parent=gina)
    check("counts leave out the deleted parent kept", counts([FIRST]), [5])
    edit(gina, {"text": "Editing a deleted comment."}, expect=403, headers=cookie(gina))
    delete(hank)
    thread(FIRST)
    check("counts after the thread under gina went", counts([FIRST]), [4])
    delete(ivan, expect=403, headers={})
    delete(ivan, expect=403, headers=cookie(ivan, cookies[judy]))
    delete(ivan)
    thread(THIRD)
    delete(ivan, expect=500)                   # a valid cookie for a comment gone: Isso fails
    delete(5, expect=403, headers={})
    check("counts after the deletes", counts([FIRST, SECOND, ABOUT, THIRD]), [4, 5, 4, 0])

    # ---- f. the admin: login, its pages, moderation by the keys they name
    call("GET", "/admin/", expect=200)         # the login page
    call("POST", "/login/", raw="password=wrong", expect=200,
         headers={"Content-Type": "application/x-www-form-urlencoded"})
    call("POST", "/login/", raw=f"password={ADMIN_PASSWORD}", expect=302,
         headers={"Content-Type": "application/x-www-form-urlencoded"})
    admin = {"Cookie": f"admin-session={set_cookie('admin-session')}"}
    status, page = call("GET", "/admin/", params={"mode": 1}, expect=200, headers=admin)
    keys = dict((int(i), k) for i, k in re.findall(r"delete_com\((\d+), '([^']+)'", page))
    call("GET", "/admin/", params={"mode": 1, "order_by": "id", "asc": 1}, expect=200, headers=admin)
    call("GET", "/admin/", params={"mode": 4}, expect=200, headers=admin)
    call("GET", f"/id/{judy}/edit/{keys[judy]}", expect=200)
    call("POST", f"/id/{judy}/edit/{keys[judy]}", body={"text": "Edited by the admin.", "author": "judy"}, expect=200)
    thread(ABOUT)
    call("POST", f"/id/{judy}/activate/{keys[judy]}", expect=200)
    call("POST", f"/id/{nico}/delete/{keys[nico]}", expect=200)
    thread(ABOUT)
    call("POST", f"/id/{nico}/delete/{keys[nico]}", expect=404)
    call("POST", f"/id/{mia}/delete/not-a-key", expect=403)
    call("POST", f"/id/{mia}/publish/{keys[mia]}", expect=404)
    call("POST", f"/id/1/delete/{keys[1]}", expect=200)    # a seeded comment with a reply: kept as deleted
    thread(FIRST)
    call("GET", "/admin/", params={"mode": 1}, expect=200, headers=admin)

    # ---- g. final reads of every page
    for uri in (FIRST, SECOND, ABOUT, THIRD):
        thread(uri)
        thread(uri, sort="newest", nested_limit=1)
    view(lee)
    view(kim)
    counts([FIRST, SECOND, ABOUT, THIRD, "/blog/untitled"])
    call("GET", "/latest", params={"limit": 10}, expect=200)
    call("GET", "/feed", params={"uri": FIRST}, expect=200)


drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:46361")
