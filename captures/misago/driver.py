#!/usr/bin/env python3
"""Scenario driver for Misago 0.39.6 (a Django + DRF forum) through its JSON API
(talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:19001 --mode capture [-v]

Threads live in categories; posts are nested under their thread (/api/threads/<t>/posts/<p>/) and
read only as a page of the thread (GET /api/threads/<t>/posts/?page=n answers the thread with a
post_set {results, page, pages, count, first, previous, next, last}); the threads list is keyset-paged
(?start=<the next cursor it answered>) and filtered by ?category= and ?list=. A thread is created by
POST /api/threads/ {category, title, post} (answers {id, title, url}), a reply by POST to its posts,
a post edited by PUT {post}; threads and posts are moderated by PATCH bodies that are lists of
operations ([{"op": "replace", "path": "weight", "value": 1}]) answering {id, <member>, detail};
DELETE answers {}. Every call sends a fixed session cookie and the CSRF token (seed.py fixes both):
admin's unless a call says alice's or bob's, or none (an anonymous read or write).
The seed (seed.py, run by start.sh, not recorded): README "Seed data". Every call is sequential,
with a random 50-150 ms sleep before it.
"""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

CSRF = "capenv0misago0csrf0token00000001"
SESSIONS = {"admin": "capenv0misago0throwaway0admin0session",
            "alice": "capenv0misago0throwaway0alice0session",
            "bob": "capenv0misago0throwaway0bob0session00"}
GENERAL, ANNOUNCEMENTS = 3, 4
WELCOME, INTRO, EDITORS = 1, 2, 3  # threads; posts 1 (welcome), 2 (intro), 3 (editors), 4-5 (intro), 6 (editors)


def as_user(name):
    if name is None:
        return {"Cookie": "", "X-CSRFToken": ""}
    return {"Cookie": f"sessionid={SESSIONS[name]}; csrftoken={CSRF}", "X-CSRFToken": CSRF}


def make_driver(base, low, high, verbose):
    return Driver(base, low, high, verbose, headers=as_user("admin"))


def capture(d: Driver):
    call, get, check = d.call, d.get, d.check

    def ops(*triples):
        return [{"op": op, "path": path, "value": value} for op, path, value in triples]

    last_posted = {}

    def post(path, body, user="admin", expect=200):
        """A thread or reply written as user: Misago refuses a member's posts less than 3 s apart."""
        wait = last_posted.get(user, 0) + 3.2 - time.monotonic()
        if wait > 0 and user != "admin":  # admins omit the flood protection
            time.sleep(wait)
        status, answer = call("POST", path, body, expect=expect, headers=as_user(user))
        if status == 200:
            last_posted[user] = time.monotonic()
        return status, answer

    def posts(thread, page=None, user="admin", expect=200):
        params = {"page": page} if page is not None else None
        return call("GET", f"/api/threads/{thread}/posts/", params=params, expect=expect,
                    headers=as_user(user))[1]

    # ---- a. the seed: who am I, every list and item
    check("admin signed in", get("/api/auth/").get("username"), "admin")
    check("alice signed in", call("GET", "/api/auth/", headers=as_user("alice"))[1].get("username"), "alice")
    check("anonymous", call("GET", "/api/auth/", headers=as_user(None))[1].get("id"), None)
    first = get("/api/threads/")
    check("first page of threads", [t["id"] for t in first["results"]], [EDITORS, INTRO])
    second = get("/api/threads/", start=first["next"])
    check("second page of threads", [t["id"] for t in second["results"]], [WELCOME])
    get("/api/threads/", category=GENERAL)
    get("/api/threads/", category=ANNOUNCEMENTS)
    get("/api/threads/", category=GENERAL, list="my")
    call("GET", "/api/threads/", params={"list": "my"}, headers=as_user("alice"))
    call("GET", "/api/threads/", headers=as_user(None))
    for thread in (WELCOME, INTRO, EDITORS):
        get(f"/api/threads/{thread}/")
        posts(thread)
    posts(INTRO, 2)
    posts(INTRO, 3)
    posts(INTRO, 9, expect=404)
    get("/api/threads/999/", expect=404)
    posts(999, expect=404)
    get("/api/threads/", category=999, expect=404)
    for user in (1, 2, 3):
        get(f"/api/users/{user}/")
    get("/api/users/999/", expect=404)
    get("/api/ranks/")
    get(f"/api/threads/{INTRO}/posts/4/likes/")
    call("GET", f"/api/threads/{INTRO}/posts/4/edits/", expect=403)  # a post never edited has no history
    get(f"/api/threads/{INTRO}/posts/999/likes/", expect=404)

    # ---- b. a thread created, read everywhere it shows
    _, made = post("/api/threads/", {"category": GENERAL, "title": "Favourite hiking trails",
                                             "post": "Share your favourite trails here."}, expect=200)
    trails = made.get("id")
    get(f"/api/threads/{trails}/")
    posts(trails)
    get("/api/threads/")
    get("/api/threads/", category=GENERAL)
    # alice's own thread, in Announcements
    _, made = post("/api/threads/", {"category": ANNOUNCEMENTS, "title": "Meetup in March",
                                             "post": "Who is coming to the meetup?"}, user="alice", expect=200)
    meetup = made.get("id")
    get(f"/api/threads/{meetup}/")
    call("GET", "/api/threads/", params={"list": "my"}, headers=as_user("alice"))
    get("/api/threads/", category=ANNOUNCEMENTS)

    # ---- c. replies, and a reply's edit
    _, reply = post(f"/api/threads/{trails}/posts/", {"post": "The West Highland Way."}, expect=200)
    first_reply = reply.get("id")
    posts(trails)
    get(f"/api/threads/{trails}/")
    _, reply = post(f"/api/threads/{trails}/posts/", {"post": "GR20 in Corsica, in June."}, user="alice", expect=200)
    alice_reply = reply.get("id")
    posts(trails)
    posts(trails, 2)
    _, edited = call("PUT", f"/api/threads/{trails}/posts/{first_reply}/",
                     {"post": "The West Highland Way, in May."}, expect=200)
    check("edited content", edited.get("content"), "<p>The West Highland Way, in May.</p>")
    posts(trails)
    get(f"/api/threads/{trails}/posts/{first_reply}/edits/")
    call("PUT", f"/api/threads/{trails}/posts/{alice_reply}/", {"post": "GR20 in Corsica, in early June."},
         expect=200, headers=as_user("alice"))
    posts(trails, 2)

    # ---- d. thread moderation: PATCH bodies that are lists of operations
    call("PATCH", f"/api/threads/{trails}/", ops(("replace", "title", "Favourite hiking trails in Europe")),
         expect=200)
    get(f"/api/threads/{trails}/")
    get("/api/threads/", category=GENERAL)
    call("PATCH", f"/api/threads/{trails}/", ops(("replace", "weight", 1)), expect=200)
    get(f"/api/threads/{trails}/")
    get("/api/threads/")
    call("PATCH", f"/api/threads/{trails}/", ops(("replace", "weight", 0)), expect=200)
    get(f"/api/threads/{trails}/")
    call("PATCH", f"/api/threads/{EDITORS}/", ops(("replace", "is-closed", True)), expect=200)
    get(f"/api/threads/{EDITORS}/")
    post(f"/api/threads/{EDITORS}/posts/", {"post": "Nano!"}, user="bob", expect=403)
    posts(EDITORS)
    call("PATCH", f"/api/threads/{EDITORS}/", ops(("replace", "is-closed", False)), expect=200)
    get(f"/api/threads/{EDITORS}/")
    call("PATCH", f"/api/threads/{meetup}/", ops(("replace", "category", GENERAL)), expect=200)
    get(f"/api/threads/{meetup}/")
    get("/api/threads/", category=ANNOUNCEMENTS)
    get("/api/threads/", category=GENERAL)
    call("PATCH", f"/api/threads/{meetup}/",
         ops(("replace", "title", "Meetup in April"), ("replace", "weight", 1)), expect=200)
    get(f"/api/threads/{meetup}/")
    call("PATCH", f"/api/threads/{meetup}/", ops(("replace", "is-hidden", True)), expect=200)
    get(f"/api/threads/{meetup}/")
    call("GET", f"/api/threads/{meetup}/", expect=404, headers=as_user("bob"))
    call("PATCH", f"/api/threads/{meetup}/", ops(("replace", "is-hidden", False)), expect=200)
    get(f"/api/threads/{meetup}/")
    call("GET", f"/api/threads/{meetup}/", expect=200, headers=as_user("bob"))

    # ---- e. post moderation and likes
    call("PATCH", f"/api/threads/{INTRO}/posts/4/", ops(("replace", "is-liked", True)), expect=200,
         headers=as_user("alice"))
    posts(INTRO)
    posts(INTRO, 2)
    get(f"/api/threads/{INTRO}/posts/4/likes/")
    call("PATCH", f"/api/threads/{INTRO}/posts/4/", ops(("replace", "is-liked", True)), expect=200,
         headers=as_user("bob"))
    get(f"/api/threads/{INTRO}/posts/4/likes/")
    call("PATCH", f"/api/threads/{INTRO}/posts/4/", ops(("replace", "is-liked", False)), expect=200,
         headers=as_user("alice"))
    get(f"/api/threads/{INTRO}/posts/4/likes/")
    posts(INTRO, 2)
    call("PATCH", f"/api/threads/{trails}/posts/{alice_reply}/", ops(("replace", "is-protected", True)),
         expect=200)
    posts(trails, 2)
    call("PUT", f"/api/threads/{trails}/posts/{alice_reply}/", {"post": "GR20, any month."},
         expect=403, headers=as_user("alice"))
    posts(trails, 2)
    call("PATCH", f"/api/threads/{trails}/posts/{alice_reply}/", ops(("replace", "is-protected", False)),
         expect=200)
    posts(trails, 2)
    call("PATCH", f"/api/threads/{INTRO}/posts/5/", ops(("replace", "is-hidden", True)), expect=200)
    posts(INTRO, 2)
    call("GET", f"/api/threads/{INTRO}/posts/", params={"page": 2}, headers=as_user("alice"))
    call("PATCH", f"/api/threads/{INTRO}/posts/5/", ops(("replace", "is-hidden", False)), expect=200)
    posts(INTRO, 2)

    # ---- f. errors: validation, permissions, unknown operations, missing things
    post("/api/threads/", {"category": GENERAL, "title": "Hi", "post": "Too short a title."}, expect=400)
    post("/api/threads/", {"category": GENERAL, "title": "A thread with no message"}, expect=400)
    post("/api/threads/", {"category": 999, "title": "Nowhere to go", "post": "Lost."}, expect=400)
    post(f"/api/threads/{trails}/posts/", {"post": ""}, expect=400)
    post("/api/threads/999/posts/", {"post": "To nowhere."}, expect=404)
    call("PUT", f"/api/threads/{trails}/posts/999/", {"post": "Nothing here."}, expect=404)
    # an operation on a member Misago has no handler for is skipped: 200 {"id", "detail": ["ok"]}
    call("PATCH", f"/api/threads/{trails}/", ops(("replace", "colour", "red")), expect=200)
    call("PATCH", f"/api/threads/{trails}/", ops(("replace", "title", "")), expect=400)
    call("PATCH", f"/api/threads/{trails}/", {"op": "replace", "path": "weight", "value": 1}, expect=400)
    call("PATCH", "/api/threads/999/", ops(("replace", "weight", 1)), expect=404)
    call("PATCH", f"/api/threads/{trails}/", ops(("replace", "weight", 1)), expect=400,
         headers=as_user("alice"))
    get(f"/api/threads/{trails}/")
    call("POST", "/api/threads/", {"category": GENERAL, "title": "Anonymous thread", "post": "Hello?"},
         expect=403, headers=as_user(None))
    call("POST", "/api/threads/", {"category": GENERAL, "title": "No CSRF token here", "post": "Hello?"},
         expect=403, headers={"X-CSRFToken": ""})
    call("DELETE", f"/api/threads/{INTRO}/", expect=403, headers=as_user("bob"))
    call("DELETE", "/api/threads/999/", expect=404)
    get("/api/threads/", category=GENERAL)

    # ---- g. a second thread of replies, paged
    _, made = post("/api/threads/", {"category": GENERAL, "title": "Books worth reading",
                                             "post": "What are you reading this month?"}, user="bob", expect=200)
    books = made.get("id")
    replies = []
    for n, (user, text) in enumerate([("admin", "Dune, again."), ("alice", "The Overstory."),
                                      ("admin", "Piranesi, short and strange.")]):
        _, reply = post(f"/api/threads/{books}/posts/", {"post": text}, user=user)
        replies.append(reply.get("id"))
        posts(books, (n + 2) // 2 + 1)
    page = posts(books)
    for n in range(2, page.get("post_set", {}).get("pages", 1) + 1):
        posts(books, n)
    first = get("/api/threads/")
    get("/api/threads/", start=first.get("next"))
    get("/api/threads/", list="new")
    call("GET", "/api/threads/", params={"list": "my"}, headers=as_user("bob"))
    get(f"/api/threads/{books}/")

    # ---- h. deletes: a reply, then whole threads
    call("DELETE", f"/api/threads/{books}/posts/{replies[1]}/", expect=200)
    posts(books)
    posts(books, 2)
    get(f"/api/threads/{books}/")
    call("DELETE", f"/api/threads/{books}/posts/{replies[1]}/", expect=404)
    call("DELETE", f"/api/threads/{trails}/posts/{first_reply}/", expect=403, headers=as_user("alice"))
    posts(trails)
    call("DELETE", f"/api/threads/{meetup}/", expect=200)
    get(f"/api/threads/{meetup}/", expect=404)
    posts(meetup, expect=404)
    get("/api/threads/", category=GENERAL)
    call("GET", "/api/threads/", params={"list": "my"}, headers=as_user("alice"))
    call("DELETE", f"/api/threads/{meetup}/", expect=404)
    call("PATCH", f"/api/threads/{meetup}/", ops(("replace", "weight", 1)), expect=404)
    post(f"/api/threads/{meetup}/posts/", {"post": "Too late."}, expect=404)
    call("DELETE", f"/api/threads/{books}/", expect=200)
    get(f"/api/threads/{books}/", expect=404)
    first = get("/api/threads/")
    get("/api/threads/", start=first.get("next"))
    get("/api/threads/", category=GENERAL)

    # ---- i. a last round of writes read back
    call("PATCH", f"/api/threads/{WELCOME}/", ops(("replace", "weight", 2)), expect=200)
    get(f"/api/threads/{WELCOME}/")
    get("/api/threads/")
    get("/api/threads/", category=ANNOUNCEMENTS)
    call("PUT", f"/api/threads/{EDITORS}/posts/3/", {"post": "I have used vim for eleven years."},
         expect=200, headers=as_user("bob"))
    posts(EDITORS)
    call("PATCH", f"/api/threads/{EDITORS}/", ops(("replace", "title", "Which text editor do you use, and why")),
         expect=200)
    get(f"/api/threads/{EDITORS}/")
    posts(EDITORS)
    get("/api/threads/", category=GENERAL)
    for user in (1, 2, 3):
        get(f"/api/users/{user}/")


drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:19001")
