#!/usr/bin/env python3
"""Seed Chroma (chromadb 1.5.9) through its own v2 API, then give every seeded collection a fixed id.

Usage: python3 seed.py PORT DATA_DIR seed   (the server is up: writes the seed through the API)
       python3 seed.py PORT DATA_DIR fix    (the server is stopped: rewrites the collection ids)

Chroma draws a random UUID4 for every collection it creates and takes none from the client, so the
seed is written through the API (as a user would) and then, with the server stopped, every seeded
collection's id is replaced in its SQLite store (chroma.sqlite3) by a fixed one, 5c0e0000-0000-4000-
8000-00000000000N (N the collection's place below), wherever the store holds it (collections,
segments, collection_metadata, the embeddings queue's topics). Records are ids the client chooses.
Every embedding is sent: nothing downloads an embedding model. Standard library only.

Seed (README "Seed data"), in tenant default_tenant, database default_database:
  articles  ...0001  metadata {topic: news, lang: en}; cosine space; 4 records a1-a4 (3-dim)
  recipes   ...0002  metadata {cuisine: mixed};       l2 space;     3 records r1-r3 (3-dim)
  archive   ...0003  no metadata;                      l2 space;     2 records x1-x2 (2-dim)
"""
import json
import sqlite3
import sys
import urllib.request
from pathlib import Path

FIXED = "5c0e0000-0000-4000-8000-{:012d}"
DB = "/api/v2/tenants/default_tenant/databases/default_database"
SEED = [
    ("articles", {"topic": "news", "lang": "en"}, "cosine", {
        "ids": ["a1", "a2", "a3", "a4"],
        "embeddings": [[1.0, 0.0, 0.0], [0.9, 0.1, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
        "documents": ["Rivers rise after the storm", "Storm closes the coast road",
                      "Markets calm as rates hold", "Local team wins the cup"],
        "metadatas": [{"section": "weather", "year": 2025, "score": 4.5},
                      {"section": "weather", "year": 2026, "score": 3.0},
                      {"section": "business", "year": 2026, "score": 2.5},
                      {"section": "sport", "year": 2024, "score": 5.0, "featured": True}]}),
    ("recipes", {"cuisine": "mixed"}, "l2", {
        "ids": ["r1", "r2", "r3"],
        "embeddings": [[0.5, 0.5, 0.0], [0.0, 0.5, 0.5], [0.5, 0.0, 0.5]],
        "documents": ["Tomato soup with basil", "Lentil curry", "Apple pie"],
        "metadatas": [{"course": "starter", "minutes": 30}, {"course": "main", "minutes": 45},
                      {"course": "dessert", "minutes": 90}]}),
    ("archive", None, "l2", {
        "ids": ["x1", "x2"],
        "embeddings": [[1.0, 1.0], [2.0, 2.0]],
        "documents": ["Old note one", "Old note two"],
        "metadatas": [{"kept": True}, {"kept": False}]}),
]


def call(port, method, path, body=None):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method,
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read() or b"null")


def seed(port, data_dir):
    made = {}
    for n, (name, metadata, space, records) in enumerate(SEED, start=1):
        body = {"name": name, "configuration": {"hnsw": {"space": space}}}
        if metadata:
            body["metadata"] = metadata
        collection = call(port, "POST", f"{DB}/collections", body)
        call(port, "POST", f"{DB}/collections/{collection['id']}/add", records)
        made[collection["id"]] = FIXED.format(n)
        print(f"seeded {name} {collection['id']} -> {FIXED.format(n)}, {len(records['ids'])} records")
    (Path(data_dir) / "seed-ids.json").write_text(json.dumps(made))


def fix(data_dir):
    """Replace each drawn collection id by its fixed one in every text column of the store."""
    made = json.loads((Path(data_dir) / "seed-ids.json").read_text())
    db = sqlite3.connect(Path(data_dir) / "chroma.sqlite3")
    tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    changed = 0
    for table in tables:
        if table.startswith("embedding_fulltext_search"):
            continue  # documents' full-text index: no ids
        for column in [row[1] for row in db.execute(f'PRAGMA table_info("{table}")')]:
            for drawn, fixed in made.items():
                cursor = db.execute(f'UPDATE "{table}" SET "{column}" = replace("{column}", ?, ?) '
                                    f'WHERE typeof("{column}") = \'text\' AND instr("{column}", ?) > 0',
                                    (drawn, fixed, drawn))
                changed += cursor.rowcount
    db.commit()
    db.close()
    print(f"fixed {len(made)} collection ids ({changed} values)")


if __name__ == "__main__":
    port, data_dir, step = sys.argv[1], sys.argv[2], sys.argv[3]
    seed(port, data_dir) if step == "seed" else fix(data_dir)
