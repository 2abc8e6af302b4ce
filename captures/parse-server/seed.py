"""Seed a fresh Parse Server (captures/parse-server/start.sh): classes Author, Book and Review.

Usage: seed.py BASE_URL APP_ID MASTER_KEY PSQL PG_PORT DATABASE

The objects are created through the REST API with the master key (which creates each class and
its columns); then their random objectIds, the pointers naming them and their createdAt/updatedAt
are set to fixed values in PostgreSQL, so every start holds the same seed. Runs directly on the
app port, never through the recording proxy.
"""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request

AUTHORS = [
    ("Hx4bT0qLmZ", {"name": "Ursula K. Le Guin", "born": 1929, "country": "US"}),
    ("pR7nWc2KdE", {"name": "Stanislaw Lem", "born": 1921, "country": "PL"}),
    ("Ja9sYv5FtQ", {"name": "Octavia E. Butler", "born": 1947, "country": "US"}),
]
BOOKS = [
    ("kQ2mV8xNcA", {"title": "The Dispossessed", "year": 1974, "genre": "scifi", "pages": 387,
                    "inPrint": True, "tags": ["anarchy", "physics"]}, "Hx4bT0qLmZ"),
    ("Zt5pL1wRgB", {"title": "A Wizard of Earthsea", "year": 1968, "genre": "fantasy", "pages": 183,
                    "inPrint": True, "tags": ["magic", "school"]}, "Hx4bT0qLmZ"),
    ("e3YuN6sHjC", {"title": "Solaris", "year": 1961, "genre": "scifi", "pages": 204,
                    "inPrint": True, "tags": ["ocean", "contact"]}, "pR7nWc2KdE"),
    ("Gw8dK4oPvD", {"title": "The Cyberiad", "year": 1965, "genre": "scifi", "pages": 295,
                    "inPrint": False, "tags": ["robots", "humor"]}, "pR7nWc2KdE"),
    ("m1XcB9zTeF", {"title": "Kindred", "year": 1979, "genre": "fantasy", "pages": 264,
                    "inPrint": True, "tags": ["time", "history"]}, "Ja9sYv5FtQ"),
]
REVIEWS = [
    ("Rv3nQ7aLxG", {"rating": 5, "reviewer": "ada", "text": "Two worlds, one wall."}, "kQ2mV8xNcA"),
    ("Tb6hM2eWsH", {"rating": 4, "reviewer": "alan", "text": "The ocean thinks."}, "e3YuN6sHjC"),
    ("Yc1kF8rUpJ", {"rating": 3, "reviewer": "ada", "text": "Robots with jokes."}, "Gw8dK4oPvD"),
]
CREATED = "2026-11-30 09:00:00+00"


def main() -> None:
    base, app_id, master_key, psql, pg_port, database = sys.argv[1:7]

    def create(cls: str, body: dict) -> str:
        request = urllib.request.Request(
            f"{base}/classes/{cls}", data=json.dumps(body).encode(), method="POST",
            headers={"X-Parse-Application-Id": app_id, "X-Parse-Master-Key": master_key,
                     "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.load(response)["objectId"]

    def pointer(cls: str, object_id: str) -> dict:
        return {"__type": "Pointer", "className": cls, "objectId": object_id}

    sql: list[str] = []

    def fix(cls: str, random_id: str, fixed_id: str, minute: int) -> None:
        at = CREATED.replace(":00:00", f":{minute:02d}:00")
        sql.append(f"""UPDATE "{cls}" SET "objectId" = '{fixed_id}', "createdAt" = '{at}', """
                   f""""updatedAt" = '{at}' WHERE "objectId" = '{random_id}';""")

    minute = 0
    authors: dict[str, str] = {}
    for fixed, body in AUTHORS:
        authors[fixed] = create("Author", body)
        fix("Author", authors[fixed], fixed, minute)
        minute += 1
    books: dict[str, str] = {}
    for fixed, body, author in BOOKS:
        books[fixed] = create("Book", {**body, "author": pointer("Author", authors[author])})
        fix("Book", books[fixed], fixed, minute)
        sql.append(f"""UPDATE "Book" SET "author" = '{author}' WHERE "author" = '{authors[author]}';""")
        minute += 1
    for fixed, body, book in REVIEWS:
        random_id = create("Review", {**body, "book": pointer("Book", books[book])})
        fix("Review", random_id, fixed, minute)
        sql.append(f"""UPDATE "Review" SET "book" = '{book}' WHERE "book" = '{books[book]}';""")
        minute += 1
    # Pointers first would match no fixed id; objectIds are fixed before pointers are rewritten,
    # which is safe because the random and fixed id sets never overlap.
    subprocess.run([psql, "-h", "127.0.0.1", "-p", pg_port, "-U", "postgres", "-d", database,
                    "-v", "ON_ERROR_STOP=1", "-q", "-c", "BEGIN;" + "".join(sql) + "COMMIT;"],
                   check=True, stdout=subprocess.DEVNULL)


if __name__ == "__main__":
    main()
