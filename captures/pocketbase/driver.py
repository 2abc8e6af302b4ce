#!/usr/bin/env python3
"""Scenario driver for PocketBase 0.40.6 (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:42461 --mode capture [-v]

No token: the collections' API rules are public (start.sh), so every call is anonymous.
The seed (seed.py, run by start.sh, not recorded): collection `posts` P1-P4 and `comments` C1-C5
(C1, C2 on P1; C3 on P2; C4, C5 on P4), fixed 15-character ids. Records live under the generic
collection segment: /api/collections/{collection}/records[/{id}]. Lists answer
{"page", "perPage", "totalItems", "totalPages", "items"}.
Every call is sequential, with a random 50-150 ms sleep before it.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

P1, P2, P3, P4 = "t6cu5l28akg4mky", "tji0qp4u6dy78tp", "matavwrwme382xr", "cagzde72kg0rlkj"
C1, C2, C3, C4, C5 = ("swqqk0m73getjfi", "44504gvo60ba5pc", "ipuonszk4uyaz8m", "5rxhdx9am4grmk2",
                      "soux67glw62sjx0")
NEVER = "zzzzzzzzzzzzzzz"        # an id no record ever had
CHOSEN = "customid0000001"       # a post id the client chooses
POSTS = "/api/collections/posts/records"
COMMENTS = "/api/collections/comments/records"


def make_driver(base, min_sleep, max_sleep, verbose):
    return Driver(base, min_sleep, max_sleep, verbose)


def capture(d):
    call, check = d.call, d.check

    get = d.get

    def new_id(answer):
        return answer.get("id") if isinstance(answer, dict) else None

    # ---- a. reads before any write: every list and item, absences
    get("/api/health")
    get(POSTS)
    get(COMMENTS)
    for pid in (P1, P2, P3, P4):
        get(f"{POSTS}/{pid}")
    for cid in (C1, C2, C3, C4, C5):
        get(f"{COMMENTS}/{cid}")
    get(f"{COMMENTS}/{C1}", expand="post")
    get(COMMENTS, expand="post")
    get(f"{POSTS}/{NEVER}", 404)
    get(f"{COMMENTS}/{NEVER}", 404)
    get(f"{POSTS}/{C1}", 404)                    # a comment's id read as a post
    get(f"{COMMENTS}/{P1}", 404)                 # a post's id read as a comment
    get("/api/collections/tags/records", 404)   # no such collection

    # ---- b. creates, each followed by an item read and a list read
    a = call("POST", POSTS, {"title": "Structured programming", "body": "Go to, considered.",
                             "status": "draft", "views": 0}, expect=200)[1]
    p5 = new_id(a)
    get(f"{POSTS}/{p5}")
    get(POSTS)
    a = call("POST", POSTS, {"title": "Notes on sorting"}, expect=200)[1]     # defaults fill the rest
    p6 = new_id(a)
    get(f"{POSTS}/{p6}")
    get(POSTS)
    a = call("POST", POSTS, {"id": CHOSEN, "title": "A client-chosen id", "status": "published",
                             "views": 12, "body": "The id is ours."}, expect=200)[1]
    check("chosen id", new_id(a), CHOSEN)
    get(f"{POSTS}/{CHOSEN}")
    get(POSTS)

    c = call("POST", COMMENTS, {"post": p5, "author": "edsger", "body": "Structure first.",
                                "score": 4}, expect=200)[1]
    c6 = new_id(c)
    get(f"{COMMENTS}/{c6}")
    get(COMMENTS)
    c = call("POST", COMMENTS, {"post": P2, "author": "grace", "body": "Nanoseconds matter.",
                                "score": 5}, expect=200)[1]
    c7 = new_id(c)
    get(f"{COMMENTS}/{c7}")
    get(COMMENTS)
    c = call("POST", COMMENTS, {"post": P3, "author": "kurt", "body": "Some things are undecidable.",
                                "score": 1}, expect=200)[1]
    c8 = new_id(c)
    get(f"{COMMENTS}/{c8}")
    get(COMMENTS)
    get(COMMENTS, filter=f"(post='{P2}')")

    # ---- c. updates (PATCH merges the members sent; `updated` moves), each followed by reads
    call("PATCH", f"{POSTS}/{P3}", {"status": "published", "views": 1}, expect=200)
    get(f"{POSTS}/{P3}")
    get(POSTS)
    call("PATCH", f"{POSTS}/{p6}", {"body": "Bubble sort is not the answer.", "status": "draft"},
         expect=200)
    get(f"{POSTS}/{p6}")
    call("PATCH", f"{POSTS}/{P1}", {"views": 121}, expect=200)
    get(f"{POSTS}/{P1}")
    call("PATCH", f"{POSTS}/{P1}", {"views": 121}, expect=200)               # the same value again
    get(f"{POSTS}/{P1}")
    call("PATCH", f"{POSTS}/{CHOSEN}", {"title": "A client-chosen id, renamed"}, expect=200)
    get(f"{POSTS}/{CHOSEN}")
    get(POSTS)
    call("PATCH", f"{COMMENTS}/{C3}", {"body": "First actual case of a bug being found.",
                                        "score": 5}, expect=200)
    get(f"{COMMENTS}/{C3}")
    call("PATCH", f"{COMMENTS}/{c6}", {"score": 2}, expect=200)
    get(f"{COMMENTS}/{c6}")
    call("PATCH", f"{COMMENTS}/{C5}", {"post": P2}, expect=200)             # moved to another post
    get(f"{COMMENTS}/{C5}")
    get(COMMENTS)
    get(COMMENTS, filter=f"(post='{P2}')")

    # ---- d. deletes, each followed by an item read (404) and a list read
    call("DELETE", f"{COMMENTS}/{C2}", expect=204)
    get(f"{COMMENTS}/{C2}", 404)
    get(COMMENTS)
    call("DELETE", f"{COMMENTS}/{c8}", expect=204)
    get(f"{COMMENTS}/{c8}", 404)
    get(COMMENTS)
    call("DELETE", f"{POSTS}/{p6}", expect=204)                             # no comment names it
    get(f"{POSTS}/{p6}", 404)
    get(POSTS)
    # a post its comment C4 still names: PocketBase clears C4's relation (cascadeDelete is off)
    call("DELETE", f"{POSTS}/{P4}", expect=204)
    get(f"{POSTS}/{P4}", 404)
    get(f"{COMMENTS}/{C4}")
    get(COMMENTS)
    get(POSTS)
    # a deleted id is not reused: a new post gets a new random id
    a = call("POST", POSTS, {"title": "Literate programming", "body": "Programs as essays.",
                             "status": "published", "views": 3}, expect=200)[1]
    p7 = new_id(a)
    get(f"{POSTS}/{p7}")
    get(POSTS)

    # ---- e. filters, sorting, paging, field selection
    get(POSTS, filter="(status='published')")
    get(POSTS, filter="(status='draft')")
    get(POSTS, filter="(views>100)")
    get(POSTS, filter="(views>=12 && status='published')")
    get(POSTS, filter="(title~'programming')")
    get(POSTS, sort="title")
    get(POSTS, sort="-views")
    get(POSTS, sort="-created")
    get(POSTS, sort="-views,title")
    get(POSTS, filter="(status='published')", sort="-views")
    get(POSTS, perPage="2")
    get(POSTS, page="2", perPage="2")
    get(POSTS, page="3", perPage="2")
    get(POSTS, page="9", perPage="2")
    get(POSTS, skipTotal="1")
    get(POSTS, fields="id,title")
    get(COMMENTS, sort="-score")
    get(COMMENTS, filter="(score>=4)")
    get(COMMENTS, filter="(author='ada')")
    get(COMMENTS, filter=f"(post='{P1}')", sort="author")
    get(COMMENTS, filter="(post='')")
    get(COMMENTS, perPage="3")
    get(COMMENTS, page="2", perPage="3")
    get(COMMENTS, sort="created")

    # ---- f. failures
    call("PATCH", f"{POSTS}/{NEVER}", {"views": 1}, expect=404)
    call("DELETE", f"{POSTS}/{p6}", expect=404)                             # already deleted
    call("DELETE", f"{COMMENTS}/{NEVER}", expect=404)
    call("PATCH", f"{COMMENTS}/{C2}", {"score": 1}, expect=404)             # deleted above
    call("POST", POSTS, {"body": "no title"}, expect=400)
    call("POST", POSTS, {"title": "Bad status", "status": "archived"}, expect=400)
    call("POST", POSTS, {"id": CHOSEN, "title": "The same id again"}, expect=400)
    call("POST", POSTS, {"id": "short", "title": "An id too short"}, expect=400)
    call("POST", POSTS, raw='{"title": "broken json"', expect=400)
    call("PATCH", f"{POSTS}/{P1}", {"title": ""}, expect=400)               # required
    call("POST", COMMENTS, {"post": NEVER, "author": "nobody"}, expect=400)  # relation to nothing
    call("POST", COMMENTS, {"post": P1}, expect=400)                        # author required
    call("POST", "/api/collections/tags/records", {"name": "x"}, expect=404)
    get(POSTS, 400, filter="(title=)")                                      # a filter that does not parse
    get(POSTS, 400, sort="nosuchfield")

    # ---- g. final state
    get(POSTS)
    get(COMMENTS)
    for pid in (P1, P2, P3, p5, CHOSEN, p7):
        get(f"{POSTS}/{pid}")
    for cid in (C1, C3, C4, C5, c6, c7):
        get(f"{COMMENTS}/{cid}")
    get(f"{POSTS}/{P4}", 404)
    get(f"{COMMENTS}/{C2}", 404)


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:42461")
