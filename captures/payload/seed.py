"""Seed a fresh Payload CMS 2.32.3 through its REST API, then fix the clocks in PostgreSQL.

Usage: seed.py BASE_URL AUTHORIZATION PSQL PG_PORT  (run by start.sh on the app port, not recorded)

What it makes (beside the admin user server.js made, users id 1):
- authors 1-3 (Ada Lovelace, Grace Hopper, Alan Turing), tags 1-4 (python, databases, release,
  howto), posts 1-6 with slugs, statuses, views, tags and authors;
- a second user, editor@capenv.test (users id 2, password below), whom the scenario logs in as;
- the global `settings` (siteName, postsPerPage, maintenance).
PostgreSQL's serial ids make the ids the same on every start; every createdAt/updatedAt is then
set to 2026-12-01T09:00:00.000Z so that a fresh start answers what the recording read.
"""
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "kit"))
from seed_calls import checked_call  # noqa: E402

BASE, AUTHORIZATION, PSQL, PG_PORT = sys.argv[1:5]
HEADERS = {"Authorization": AUTHORIZATION}
CLOCK = "2026-12-01 09:00:00+00"

AUTHORS = [("Ada Lovelace", "ada@capenv.test", "Wrote the first program."),
           ("Grace Hopper", "grace@capenv.test", "Compilers and COBOL."),
           ("Alan Turing", "alan@capenv.test", None)]
TAGS = [("python", "blue"), ("databases", "green"), ("release", "red"), ("howto", None)]
POSTS = [  # title, slug, status, views, tag ids, author id
    ("Hello Payload", "hello-payload", "published", 120, [1, 4], 1),
    ("Indexes in PostgreSQL", "indexes-in-postgresql", "published", 340, [2], 2),
    ("Release notes 1.0", "release-notes-1-0", "published", 75, [3], 1),
    ("Draft: query planner", "draft-query-planner", "draft", 0, [2, 4], 2),
    ("Typing in Python", "typing-in-python", "published", 210, [1], 3),
    ("Backups that restore", "backups-that-restore", "draft", 12, [], None),
]


def post(path, body):
    return checked_call(BASE, "POST", path, HEADERS, body, expect=(200, 201))


def main():
    for name, email, bio in AUTHORS:
        post("/api/authors", {"name": name, "email": email, **({"bio": bio} if bio else {})})
    for name, color in TAGS:
        post("/api/tags", {"name": name, **({"color": color} if color else {})})
    for title, slug, status, views, tags, author in POSTS:
        post("/api/posts", {"title": title, "slug": slug, "status": status, "views": views,
                            "tags": tags, **({"author": author} if author else {})})
    post("/api/users", {"email": "editor@capenv.test", "password": "capenv-editor-throwaway", "name": "Editor"})
    post("/api/globals/settings", {"siteName": "capenv blog", "postsPerPage": 10, "maintenance": False})
    clocks = "; ".join(f"UPDATE {table} SET created_at = '{CLOCK}', updated_at = '{CLOCK}'"
                       for table in ("users", "authors", "tags", "posts"))
    clocks += f"; UPDATE settings SET created_at = '{CLOCK}', updated_at = '{CLOCK}'"
    subprocess.run([PSQL, "-h", "127.0.0.1", "-p", PG_PORT, "-U", "postgres", "-d", "payload",
                    "-v", "ON_ERROR_STOP=1", "-q", "-c", clocks], check=True, capture_output=True)


if __name__ == "__main__":
    main()
