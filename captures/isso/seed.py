#!/usr/bin/env python3
"""Seed Isso 0.14.0 through its own API (not recorded): three pages, eight comments, votes.

Usage: python seed.py BASE   (BASE: http://127.0.0.1:PORT)

Pages (threads) are made by their first comment, each with a title (an untitled thread would be looked up
at the configured origin). Comments get the ids 1-8 in this order:
  /blog/first-post   1 alice, 2 bob replying to 1, 3 carol, 4 alice replying to 2 (Isso files it under 1)
  /blog/second-post  5 dave, 6 erin, 7 frank replying to 5
  /about             8 anonymous (no author, no email)
Votes come from other addresses (X-Forwarded-For, trusted from loopback): 1 liked twice, 3 liked once,
5 disliked once. The comments' cookies are not kept: the seed's comments cannot be edited or deleted by
their authors in the recorded session (Isso refuses 403 without the cookie).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from seed_calls import checked_call  # noqa: E402

COMMENTS = [
    ("/blog/first-post", {"title": "First post", "author": "alice", "email": "alice@example.test",
                          "website": "https://alice.example.test", "text": "Great write-up on *SQLite*."}),
    ("/blog/first-post", {"author": "bob", "email": "bob@example.test", "parent": 1,
                          "text": "Agreed, especially the WAL part."}),
    ("/blog/first-post", {"author": "carol", "text": "Could you cover indexes next?"}),
    ("/blog/first-post", {"author": "alice", "email": "alice@example.test", "parent": 2,
                          "text": "WAL deserves a post of its own."}),
    ("/blog/second-post", {"title": "Second post", "author": "dave", "email": "dave@example.test",
                           "text": "First!"}),
    ("/blog/second-post", {"author": "erin", "website": "erin.example.test", "text": "Nice diagrams."}),
    ("/blog/second-post", {"author": "frank", "parent": 5, "text": "Not quite first, dave."}),
    ("/about", {"title": "About", "text": "Hello from nowhere."}),
]
VOTES = [("like", 1, "10.0.1.7"), ("like", 1, "10.0.2.7"), ("like", 3, "10.0.3.7"), ("dislike", 5, "10.0.4.7")]


def main(base):
    for number, (uri, comment) in enumerate(COMMENTS, start=1):
        made = checked_call(base, "POST", f"/new?uri={uri}", body=comment, expect=(201,))
        if made["id"] != number:
            sys.exit(f"seeded comment {made['id']}, expected {number}")
    for action, comment_id, address in VOTES:
        checked_call(base, "POST", f"/id/{comment_id}/{action}", headers={"X-Forwarded-For": address},
                     body={}, expect=(200,))


if __name__ == "__main__":
    main(sys.argv[1])
