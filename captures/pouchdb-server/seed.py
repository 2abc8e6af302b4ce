"""Seed a fresh PouchDB Server (captures/pouchdb-server/start.sh): databases `authors` and `books`.

Usage: seed.py BASE_URL

Every document is written with a fixed id by PUT /{db}/{id}; PouchDB computes its revision from
its content, so every start holds the same seed with the same revisions. Runs directly on the app
port, never through the recording proxy.
"""

from __future__ import annotations

import json
import sys
import urllib.request

AUTHORS = [
    ("le-guin", {"type": "author", "name": "Ursula K. Le Guin", "born": 1929, "country": "US"}),
    ("lem", {"type": "author", "name": "Stanislaw Lem", "born": 1921, "country": "PL"}),
    ("butler", {"type": "author", "name": "Octavia E. Butler", "born": 1947, "country": "US"}),
]
BOOKS = [
    ("dispossessed", {"type": "book", "title": "The Dispossessed", "year": 1974, "genre": "scifi",
                      "pages": 387, "author": "le-guin", "tags": ["anarchy", "physics"]}),
    ("earthsea", {"type": "book", "title": "A Wizard of Earthsea", "year": 1968, "genre": "fantasy",
                  "pages": 183, "author": "le-guin", "tags": ["magic", "school"]}),
    ("solaris", {"type": "book", "title": "Solaris", "year": 1961, "genre": "scifi", "pages": 204,
                 "author": "lem", "tags": ["ocean", "contact"]}),
    ("cyberiad", {"type": "book", "title": "The Cyberiad", "year": 1965, "genre": "scifi",
                  "pages": 295, "author": "lem", "tags": ["robots", "humor"]}),
    ("kindred", {"type": "book", "title": "Kindred", "year": 1979, "genre": "scifi", "pages": 264,
                 "author": "butler", "tags": ["time", "history"]}),
]


def call(base: str, method: str, path: str, body: object | None = None) -> object:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method, headers={
        "Content-Type": "application/json", "Accept": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def main() -> None:
    base = sys.argv[1].rstrip("/")
    for db, docs in (("authors", AUTHORS), ("books", BOOKS)):
        call(base, "PUT", f"/{db}")
        for doc_id, doc in docs:
            call(base, "PUT", f"/{db}/{doc_id}", doc)


if __name__ == "__main__":
    main()
