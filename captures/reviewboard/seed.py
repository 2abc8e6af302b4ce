#!/usr/bin/env python3
"""Seed a fresh Review Board site through its own Web API (standard library only).

Usage: seed.py BASE_URL ADMIN_USER ADMIN_PASSWORD

Runs directly on the application's port (start.sh), never through a recording proxy. Every write
is form-encoded (application/x-www-form-urlencoded), as the API takes them, with HTTP Basic
authentication of the site administrator. What it makes (README "Seed data"): users alice, bob,
carol, dave; review groups backend (alice, bob), frontend (carol) and security (invite only,
dave); a default reviewer; a disabled webhook; review requests 1 (alice, published, a review and
a reply), 2 (bob, published) and 3 (carol, a draft never published).
"""
import base64
import json
import sys
import urllib.error
import urllib.parse
import urllib.request

BASE, USER, PASSWORD = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3]
AUTH = "Basic " + base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()


def send(method, path, fields=None, expect=(200, 201)):
    data = urllib.parse.urlencode(fields or {}, doseq=True).encode() if fields is not None else None
    request = urllib.request.Request(BASE + path, data=data, method=method)
    request.add_header("Authorization", AUTH)
    if data is not None:
        request.add_header("Content-Type", "application/x-www-form-urlencoded")
    try:
        with urllib.request.urlopen(request, timeout=120) as answer:
            status, body = answer.status, answer.read()
    except urllib.error.HTTPError as error:
        status, body = error.code, error.read()
    if status not in expect:
        raise SystemExit(f"seed: {method} {path} answered {status}: {body[:300]!r}")
    return json.loads(body) if body else None


for username, email, first, last in (("alice", "alice@example.com", "Alice", "Liddell"),
                                     ("bob", "bob@example.org", "Bob", "Builder"),
                                     ("carol", "carol@example.net", "Carol", "Danvers"),
                                     ("dave", "dave@example.com", "Dave", "")):
    send("POST", "/api/users/", {"username": username, "email": email, "first_name": first,
                                 "last_name": last, "password": f"capenv-{username}-throwaway"})

send("POST", "/api/groups/", {"name": "backend", "display_name": "Backend team",
                              "mailing_list": "backend@example.com"})
send("POST", "/api/groups/", {"name": "frontend", "display_name": "Frontend team"})
send("POST", "/api/groups/", {"name": "security", "display_name": "Security reviewers", "invite_only": "1"})
for group, username in (("backend", "alice"), ("backend", "bob"), ("frontend", "carol"), ("security", "dave")):
    send("POST", f"/api/groups/{group}/users/", {"username": username})

send("POST", "/api/default-reviewers/", {"name": "Backend sources", "file_regex": "^src/backend/",
                                         "groups": "backend", "users": "bob"})
send("POST", "/api/webhooks/", {"url": "http://127.0.0.1:1/hooks/review-board", "events": "review_request_published",
                                "enabled": "0", "apply_to": "all", "encoding": "application/json"})

send("POST", "/api/review-requests/", {"submit_as": "alice"})
send("PUT", "/api/review-requests/1/draft/", {"summary": "Speed up the search index",
                                              "description": "Batch the index writes.",
                                              "testing_done": "Ran the indexer on 10k rows.",
                                              "target_groups": "backend", "target_people": "bob"})
send("PUT", "/api/review-requests/1/draft/", {"public": "1"})
send("POST", "/api/review-requests/", {"submit_as": "bob"})
send("PUT", "/api/review-requests/2/draft/", {"summary": "Document the API", "description": "Every resource.",
                                              "target_groups": "frontend"})
send("PUT", "/api/review-requests/2/draft/", {"public": "1"})
send("POST", "/api/review-requests/", {"submit_as": "carol"})
send("PUT", "/api/review-requests/3/draft/", {"summary": "Draft: new colours", "target_people": "alice"})
send("POST", "/api/review-requests/1/reviews/", {"body_top": "One question inline.", "public": "1"})
send("POST", "/api/review-requests/1/reviews/1/replies/", {"body_top": "Answered.", "public": "1"})
