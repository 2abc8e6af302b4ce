#!/usr/bin/env python3
"""Seed a fresh Shaarli 0.12.1 through its REST API v1 (standard library only).

Usage: seed.py BASE_URL API_SECRET

Runs directly on the application's port (start.sh), never through a recording proxy, with a token
minted per call (api_token.py). Each bookmark is sent with a fixed `created` date, so its id (0, 1,
... in order) and its shorturl (a hash of that date and the id) are the same on every fresh start.
What it makes (README "Seed data"):
  0 https://www.python.org/           Python          tags python programming       public
  1 https://docs.python.org/3/        Python docs     tags python docs              public
  2 https://www.php.net/manual/en/    PHP manual      tags php docs programming     public
  3 https://sqlite.org/lang.html      SQL as SQLite   tags sqlite databases docs    public
  4 https://intranet.capenv.test/hr   HR portal       tags work                     private
  5 (a note: no url)                  Reading list    tags reading                  private
  6 https://en.wikipedia.org/wiki/Bookmark  Bookmark  tags reading wiki             public
  7 https://www.debian.org/           Debian          tags linux                    public
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "kit"))
sys.path.insert(0, str(HERE))
from api_token import mint  # noqa: E402
from seed_calls import checked_call  # noqa: E402  (captures/kit: what every seed shares)

BASE, SECRET = sys.argv[1].rstrip("/") + "/api/v1", sys.argv[2]

BOOKMARKS = [
    {"url": "https://www.python.org/", "title": "Python", "description": "The Python home page.",
     "tags": ["python", "programming"], "private": False, "created": "2026-11-02T09:15:00+00:00"},
    {"url": "https://docs.python.org/3/", "title": "Python docs",
     "description": "Library reference and tutorial.", "tags": ["python", "docs"], "private": False,
     "created": "2026-11-03T10:00:00+00:00"},
    {"url": "https://www.php.net/manual/en/", "title": "PHP manual", "description": "",
     "tags": ["php", "docs", "programming"], "private": False, "created": "2026-11-05T14:30:00+00:00"},
    {"url": "https://sqlite.org/lang.html", "title": "SQL as understood by SQLite",
     "description": "Every statement SQLite knows.", "tags": ["sqlite", "databases", "docs"],
     "private": False, "created": "2026-11-08T08:45:00+00:00"},
    {"url": "https://intranet.capenv.test/hr", "title": "HR portal", "description": "Leave requests.",
     "tags": ["work"], "private": True, "created": "2026-11-10T16:20:00+00:00"},
    {"title": "Reading list", "description": "- Designing Data-Intensive Applications\n- SICP",
     "tags": ["reading"], "private": True, "created": "2026-11-12T19:05:00+00:00"},
    {"url": "https://en.wikipedia.org/wiki/Bookmark", "title": "Bookmark (digital)",
     "description": "What a bookmark is.", "tags": ["reading", "wiki"], "private": False,
     "created": "2026-11-15T11:11:00+00:00"},
    {"url": "https://www.debian.org/", "title": "Debian", "description": "The universal operating system.",
     "tags": ["linux"], "private": False, "created": "2026-11-20T07:30:00+00:00"},
]

for number, bookmark in enumerate(BOOKMARKS):
    made = checked_call(BASE, "POST", "/links", {"Authorization": f"Bearer {mint(SECRET)}"}, bookmark,
                        expect=(201,))
    if made["id"] != number:
        raise SystemExit(f"seed: bookmark {bookmark['title']!r} got id {made['id']}, expected {number}")
