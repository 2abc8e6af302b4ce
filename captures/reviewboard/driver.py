#!/usr/bin/env python3
"""Scenario driver for Review Board 7.0.6's Web API (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:46101 --mode capture [-v]

Every call sends HTTP Basic authentication of the throwaway site administrator (start.sh) unless
it says otherwise, and httpx's `Accept: */*`; every write sends a form-encoded body
(application/x-www-form-urlencoded), as the API takes them (a JSON body is refused 400), and every
answer is JSON under a vendor media type (`application/vnd.reviewboard.org.review-groups+json`): `{"stat": "ok", "<plural>": [...], "total_results",
"links"}` for lists, `{"stat": "ok", "<singular>": {...}}` for items, `{"stat": "fail", "err":
{"code", "msg", "type"}}` for errors. Paths end in a slash. Review groups and users are named by
name, default reviewers, webhooks, review requests, reviews and replies by integer ids. The seed
(seed.py, run by start.sh, not recorded): README "Seed data". Every call is sequential, with a
random 50-150 ms sleep before it.
"""
import base64
import sys
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

ADMIN = base64.b64encode(b"admin:capenv-reviewboard-throwaway").decode()
FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def make_driver(base, min_sleep, max_sleep, verbose):
    # httpx's own Accept: */* (Review Board answers its vendor types, application/vnd.reviewboard.org.*+json,
    # whatever a client accepts of JSON; RBTools asks for nothing in particular either)
    return Driver(base, min_sleep, max_sleep, verbose, token=ADMIN, scheme="Basic")


def capture(d):
    call, check = d.call, d.check

    def get(path, expect=200, token=None, **params):
        kwargs = {} if token is None else {"token": token}
        return call("GET", path, params=params or None, expect=expect, **kwargs)[1]

    def send(method, path, fields=None, expect=200):
        raw = urllib.parse.urlencode(fields or {}, doseq=True) if fields is not None else None
        return call(method, path, raw=raw, expect=expect, headers=FORM if raw is not None else None)[1]

    def member(answer, key):
        return answer.get(key) if isinstance(answer, dict) else None

    def names(answer, plural, key="name"):
        return [item.get(key) for item in (member(answer, plural) or [])]

    # ---- a. reads before any write: the root, server info, session, users, groups, review requests
    get("/api/")
    get("/api/info/")
    get("/api/session/")
    check("users", names(get("/api/users/"), "users", "username"), ["admin", "alice", "bob", "carol", "dave"])
    for username in ("alice", "bob", "carol", "dave", "admin"):
        get(f"/api/users/{username}/")
    check("groups", names(get("/api/groups/"), "groups"), ["backend", "frontend", "security"])
    for group in ("backend", "frontend", "security"):
        get(f"/api/groups/{group}/")
        get(f"/api/groups/{group}/users/")
    get("/api/groups/backend/users/alice/")
    get("/api/default-reviewers/")
    get("/api/default-reviewers/1/")
    get("/api/webhooks/")
    get("/api/webhooks/1/")
    get("/api/review-requests/")
    for rid in (1, 2):
        get(f"/api/review-requests/{rid}/")
    get("/api/review-requests/1/reviews/")
    get("/api/review-requests/1/reviews/1/")
    get("/api/review-requests/1/reviews/1/replies/")
    get("/api/repositories/")
    # absences and an anonymous read
    get("/api/groups/nobody/", expect=404)
    get("/api/users/nobody/", expect=404)
    get("/api/review-requests/99/", expect=404)
    get("/api/default-reviewers/99/", expect=404)
    get("/api/webhooks/99/", expect=404)
    get("/api/groups/backend/users/carol/", expect=404)
    call("GET", "/api/groups/", token=None, expect=200)

    # ---- b. paging and filters
    get("/api/users/", **{"max-results": "2"})
    get("/api/users/", **{"start": "2", "max-results": "2"})
    get("/api/users/", q="a")
    get("/api/users/", q="bo")
    get("/api/groups/", **{"max-results": "1"})
    get("/api/groups/", **{"start": "1", "max-results": "2"})
    get("/api/groups/", q="front")
    get("/api/review-requests/", **{"from-user": "alice"})
    get("/api/review-requests/", **{"to-groups": "frontend"})
    get("/api/review-requests/", **{"counts-only": "1"})

    # ---- c. review groups: create, read back (item and list), duplicates and bad fields
    created = send("POST", "/api/groups/", {"name": "qa", "display_name": "Quality team",
                                            "mailing_list": "qa@example.com"}, expect=201)
    check("group created", member(member(created, "group"), "name"), "qa")
    get("/api/groups/qa/")
    get("/api/groups/")
    send("POST", "/api/groups/", {"name": "ops", "display_name": "Operations", "visible": "0"}, expect=201)
    get("/api/groups/ops/")
    get("/api/groups/")
    send("POST", "/api/groups/", {"name": "mobile", "display_name": "Mobile apps", "invite_only": "1"}, expect=201)
    get("/api/groups/mobile/")
    get("/api/groups/", q="mo")
    send("POST", "/api/groups/", {"name": "qa", "display_name": "Another QA"}, expect=409)
    get("/api/groups/qa/")
    send("POST", "/api/groups/", {"name": "infra"}, expect=400)
    get("/api/groups/infra/", expect=404)
    send("POST", "/api/groups/", {"display_name": "No name"}, expect=400)
    # updates
    send("PUT", "/api/groups/qa/", {"display_name": "QA guild"})
    get("/api/groups/qa/")
    get("/api/groups/")
    send("PUT", "/api/groups/qa/", {"mailing_list": "qa-guild@example.com", "invite_only": "1"})
    get("/api/groups/qa/")
    send("PUT", "/api/groups/ops/", {"display_name": "Ops crew", "visible": "1"})
    get("/api/groups/ops/")
    get("/api/groups/")
    send("PUT", "/api/groups/frontend/", {"mailing_list": "frontend@example.com"})
    get("/api/groups/frontend/")
    send("PUT", "/api/groups/nobody/", {"display_name": "Nobody"}, expect=404)
    # members: add, read back (member item, members list), remove
    send("POST", "/api/groups/qa/users/", {"username": "carol"}, expect=201)
    get("/api/groups/qa/users/carol/")
    get("/api/groups/qa/users/")
    send("POST", "/api/groups/qa/users/", {"username": "dave"}, expect=201)
    get("/api/groups/qa/users/")
    send("POST", "/api/groups/backend/users/", {"username": "carol"}, expect=201)
    get("/api/groups/backend/users/")
    get("/api/groups/backend/users/carol/")
    send("POST", "/api/groups/qa/users/", {"username": "nobody"}, expect=400)
    get("/api/groups/qa/users/")
    send("POST", "/api/groups/nobody/users/", {"username": "alice"}, expect=404)
    send("DELETE", "/api/groups/qa/users/carol/", expect=204)
    get("/api/groups/qa/users/carol/", expect=404)
    get("/api/groups/qa/users/")
    send("DELETE", "/api/groups/backend/users/bob/", expect=204)
    get("/api/groups/backend/users/")
    get("/api/groups/backend/users/bob/", expect=404)
    send("DELETE", "/api/groups/qa/users/alice/", expect=404)
    # deletes
    send("DELETE", "/api/groups/mobile/", expect=204)
    get("/api/groups/mobile/", expect=404)
    get("/api/groups/")
    send("DELETE", "/api/groups/mobile/", expect=404)

    # ---- d. users: create, read back, update, bad fields
    send("POST", "/api/users/", {"username": "erin", "email": "erin@example.com", "first_name": "Erin",
                                 "last_name": "Hale", "password": "capenv-erin-throwaway"}, expect=201)
    get("/api/users/erin/")
    get("/api/users/")
    send("POST", "/api/users/", {"username": "frank", "email": "frank@example.org",
                                 "password": "capenv-frank-throwaway"}, expect=201)
    get("/api/users/frank/")
    get("/api/users/", q="fr")
    send("POST", "/api/users/", {"username": "erin", "email": "erin2@example.com"}, expect=400)
    send("POST", "/api/users/", {"username": "gina", "email": "not-an-address"}, expect=400)
    get("/api/users/gina/", expect=404)
    send("POST", "/api/users/", {"username": "gina"}, expect=400)
    send("PUT", "/api/users/erin/", {"first_name": "Erin J."})
    get("/api/users/erin/")
    send("PUT", "/api/users/frank/", {"first_name": "Frank", "last_name": "Lloyd"})
    get("/api/users/frank/")
    get("/api/users/")
    send("PUT", "/api/users/bob/", {"email": "bob@example.com"})
    get("/api/users/bob/")
    send("PUT", "/api/users/nobody/", {"first_name": "No"}, expect=404)
    # the group membership of a new user
    send("POST", "/api/groups/ops/users/", {"username": "erin"}, expect=201)
    get("/api/groups/ops/users/")
    get("/api/groups/ops/users/erin/")

    # ---- e. default reviewers
    send("POST", "/api/default-reviewers/", {"name": "QA plans", "file_regex": "^docs/qa/",
                                             "groups": "qa"}, expect=201)
    get("/api/default-reviewers/2/")
    get("/api/default-reviewers/")
    send("POST", "/api/default-reviewers/", {"name": "Frontend styles", "file_regex": r"\.css$",
                                             "users": "carol,erin"}, expect=201)
    get("/api/default-reviewers/3/")
    get("/api/default-reviewers/")
    send("POST", "/api/default-reviewers/", {"name": "Broken", "file_regex": "["}, expect=400)
    send("POST", "/api/default-reviewers/", {"name": "No regex"}, expect=400)
    send("POST", "/api/default-reviewers/", {"name": "Ghost group", "file_regex": ".*", "groups": "nobody"},
         expect=400)
    get("/api/default-reviewers/")
    send("PUT", "/api/default-reviewers/2/", {"name": "QA test plans", "file_regex": "^docs/qa/"})
    get("/api/default-reviewers/2/")
    send("PUT", "/api/default-reviewers/3/", {"name": "Frontend styles", "file_regex": r"\.(css|scss)$"})
    get("/api/default-reviewers/3/")
    get("/api/default-reviewers/")
    send("PUT", "/api/default-reviewers/1/", {"name": "Backend sources", "file_regex": "^src/backend/",
                                             "users": "bob,alice"})
    get("/api/default-reviewers/1/")
    # every update sends name and file_regex (the form behind it needs both): one without, 400
    send("PUT", "/api/default-reviewers/2/", {"name": "QA plans again"}, expect=400)
    get("/api/default-reviewers/1/")
    send("PUT", "/api/default-reviewers/99/", {"name": "x"}, expect=404)
    send("DELETE", "/api/default-reviewers/3/", expect=204)
    get("/api/default-reviewers/3/", expect=404)
    get("/api/default-reviewers/")

    # ---- f. webhooks (disabled, or for events the scenario never causes)
    send("POST", "/api/webhooks/", {"url": "http://127.0.0.1:1/hooks/closed", "events": "review_request_closed",
                                    "enabled": "0", "apply_to": "all", "encoding": "application/json"}, expect=201)
    get("/api/webhooks/2/")
    get("/api/webhooks/")
    send("POST", "/api/webhooks/", {"url": "http://127.0.0.1:1/hooks/reviews", "events": "review_published,reply_published",
                                    "enabled": "0", "apply_to": "none", "encoding": "application/x-www-form-urlencoded"},
         expect=201)
    get("/api/webhooks/3/")
    get("/api/webhooks/")
    send("POST", "/api/webhooks/", {"url": "http://127.0.0.1:1/hooks/x", "events": "review_published",
                                    "apply_to": "all"}, expect=400)
    send("POST", "/api/webhooks/", {"url": "http://127.0.0.1:1/hooks/x", "events": "nope", "apply_to": "all",
                                    "encoding": "application/json"}, expect=400)
    send("PUT", "/api/webhooks/2/", {"url": "http://127.0.0.1:1/hooks/closed-v2"})
    get("/api/webhooks/2/")
    send("PUT", "/api/webhooks/3/", {"custom_content": "{\"event\": \"{{event}}\"}", "apply_to": "all"})
    get("/api/webhooks/3/")
    get("/api/webhooks/")
    send("PUT", "/api/webhooks/99/", {"url": "http://127.0.0.1:1/x"}, expect=404)
    send("DELETE", "/api/webhooks/3/", expect=204)
    get("/api/webhooks/3/", expect=404)
    get("/api/webhooks/")

    # ---- g. review requests without a repository: create, draft, publish, close, reopen, delete
    rr = member(send("POST", "/api/review-requests/", {"submit_as": "erin"}, expect=201), "review_request") or {}
    rid = rr.get("id", 4)
    get(f"/api/review-requests/{rid}/")
    get(f"/api/review-requests/{rid}/draft/")
    send("PUT", f"/api/review-requests/{rid}/draft/", {"summary": "Retry flaky uploads",
                                                       "description": "Three retries with backoff."})
    get(f"/api/review-requests/{rid}/draft/")
    send("PUT", f"/api/review-requests/{rid}/draft/", {"testing_done": "Uploaded 200 files.",
                                                       "target_groups": "qa"})
    get(f"/api/review-requests/{rid}/draft/")
    send("PUT", f"/api/review-requests/{rid}/draft/", {"public": "1"})
    get(f"/api/review-requests/{rid}/")
    get(f"/api/review-requests/{rid}/draft/", expect=404)
    get("/api/review-requests/")
    get("/api/review-requests/", **{"to-groups": "qa"})
    rr2 = member(send("POST", "/api/review-requests/", {"submit_as": "frank"}, expect=201), "review_request") or {}
    rid2 = rr2.get("id", 5)
    send("PUT", f"/api/review-requests/{rid2}/draft/", {"summary": "Rename the settings page",
                                                        "description": "Settings becomes Preferences.",
                                                        "target_people": "alice,bob"})
    get(f"/api/review-requests/{rid2}/draft/")
    send("PUT", f"/api/review-requests/{rid2}/draft/", {"public": "1"})
    get(f"/api/review-requests/{rid2}/")
    get("/api/review-requests/", **{"from-user": "frank"})
    # a draft that cannot publish (no reviewer): Review Board answers 500 with its error code 225
    rr3 = member(send("POST", "/api/review-requests/", {}, expect=201), "review_request") or {}
    rid3 = rr3.get("id", 6)
    send("PUT", f"/api/review-requests/{rid3}/draft/", {"summary": "Admin's cleanup", "description": "Old rows."})
    send("PUT", f"/api/review-requests/{rid3}/draft/", {"public": "1"}, expect=500)
    get(f"/api/review-requests/{rid3}/")
    send("PUT", f"/api/review-requests/{rid3}/draft/", {"target_groups": "nobody"},
         expect=400)
    get(f"/api/review-requests/{rid3}/draft/")
    # a second round of a published request: a new draft changes nothing until published
    send("PUT", f"/api/review-requests/{rid}/draft/", {"summary": "Retry flaky uploads (v2)"})
    get(f"/api/review-requests/{rid}/")
    get(f"/api/review-requests/{rid}/draft/")
    send("PUT", f"/api/review-requests/{rid}/draft/", {"public": "1"})
    get(f"/api/review-requests/{rid}/")
    # close, reopen, discard
    send("PUT", "/api/review-requests/2/", {"status": "submitted", "close_description": "Shipped in 7.1"})
    get("/api/review-requests/2/")
    get("/api/review-requests/")
    get("/api/review-requests/", status="submitted")
    send("PUT", "/api/review-requests/2/", {"status": "pending"})
    get("/api/review-requests/2/")
    send("PUT", f"/api/review-requests/{rid2}/", {"status": "discarded"})
    get(f"/api/review-requests/{rid2}/")
    get("/api/review-requests/", status="all")
    send("PUT", "/api/review-requests/2/", {"status": "closed"}, expect=400)
    send("PUT", "/api/review-requests/99/", {"status": "submitted"}, expect=404)
    # delete (the administrator may)
    send("DELETE", f"/api/review-requests/{rid3}/", expect=204)
    get(f"/api/review-requests/{rid3}/", expect=404)
    get("/api/review-requests/", status="all")
    send("DELETE", f"/api/review-requests/{rid3}/", expect=404)

    # ---- h. reviews and replies
    review = member(send("POST", f"/api/review-requests/{rid}/reviews/", {"body_top": "Nice retries.",
                                                                          "ship_it": "1", "public": "1"},
                         expect=201), "review") or {}
    rev_id = review.get("id", 3)
    get(f"/api/review-requests/{rid}/reviews/{rev_id}/")
    get(f"/api/review-requests/{rid}/reviews/")
    get(f"/api/review-requests/{rid}/")
    # a draft review, updated, then published
    draft = member(send("POST", "/api/review-requests/2/reviews/", {"body_top": "Two typos."}, expect=201),
                   "review") or {}
    draft_id = draft.get("id", 4)
    get(f"/api/review-requests/2/reviews/{draft_id}/")
    send("PUT", f"/api/review-requests/2/reviews/{draft_id}/", {"body_top": "Two typos, one broken link."})
    get(f"/api/review-requests/2/reviews/{draft_id}/")
    send("PUT", f"/api/review-requests/2/reviews/{draft_id}/", {"body_bottom": "Otherwise fine.", "public": "1"})
    get(f"/api/review-requests/2/reviews/{draft_id}/")
    get("/api/review-requests/2/reviews/")
    # a draft review deleted
    other = member(send("POST", "/api/review-requests/1/reviews/", {"body_top": "Never mind."}, expect=201),
                   "review") or {}
    other_id = other.get("id", 5)
    get(f"/api/review-requests/1/reviews/{other_id}/")
    send("DELETE", f"/api/review-requests/1/reviews/{other_id}/", expect=204)
    get(f"/api/review-requests/1/reviews/{other_id}/", expect=404)
    get("/api/review-requests/1/reviews/")
    # replies
    reply = member(send("POST", f"/api/review-requests/{rid}/reviews/{rev_id}/replies/",
                        {"body_top": "Thanks!", "public": "1"}, expect=201), "reply") or {}
    reply_id = reply.get("id", 6)
    get(f"/api/review-requests/{rid}/reviews/{rev_id}/replies/{reply_id}/")
    get(f"/api/review-requests/{rid}/reviews/{rev_id}/replies/")
    reply2 = member(send("POST", "/api/review-requests/2/reviews/{}/replies/".format(draft_id),
                         {"body_top": "Fixed both."}, expect=201), "reply") or {}
    reply2_id = reply2.get("id", 7)
    send("PUT", f"/api/review-requests/2/reviews/{draft_id}/replies/{reply2_id}/",
         {"body_top": "Fixed all three.", "public": "1"})
    get(f"/api/review-requests/2/reviews/{draft_id}/replies/{reply2_id}/")
    get(f"/api/review-requests/2/reviews/{draft_id}/replies/")
    get("/api/review-requests/1/reviews/99/", expect=404)
    send("POST", "/api/review-requests/99/reviews/", {"body_top": "x"}, expect=404)

    # ---- i. one more round: a group made, used, then deleted; a user's reads at the end
    send("POST", "/api/groups/", {"name": "release", "display_name": "Release managers"}, expect=201)
    send("POST", "/api/groups/release/users/", {"username": "frank"}, expect=201)
    get("/api/groups/release/users/")
    send("PUT", "/api/groups/release/", {"display_name": "Release crew"})
    get("/api/groups/release/")
    send("DELETE", "/api/groups/release/", expect=204)
    get("/api/groups/release/", expect=404)
    get("/api/groups/")
    get("/api/users/")
    get("/api/users/erin/")
    get("/api/review-requests/", **{"counts-only": "1", "status": "all"})


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:46101")
