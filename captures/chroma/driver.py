#!/usr/bin/env python3
"""Scenario driver for Chroma (chromadb 1.5.9) through its v2 REST API (talks to the mitmproxy
reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:18951 --mode capture [-v]

Collections live under /api/v2/tenants/{tenant}/databases/{database}/collections: created by POST
(answered 200 with the whole collection: a server-drawn UUID beside its unique name), listed with
limit/offset, read by name at /collections/{name} and by id at /collections/by-id/{id}, modified by
PUT at /collections/{id} ({new_name, new_metadata}, answered {}), deleted by DELETE at
/collections/{name}. Records are RPC-style POST actions at /collections/{id}/<verb>: add (201 {}),
update, upsert (200 {}), delete (200 {"deleted": n}), and the reads get and query (POST bodies:
ids, where, where_document, include, limit/offset, n_results) beside GET /collections/{id}/count.
Databases are created by POST at /tenants/{tenant}/databases and deleted by name. No auth.
The seed (seed.py, run by start.sh, not recorded): README "Seed data". Every embedding is sent
explicitly (nothing downloads a model). Every call is sequential, with a random 50-150 ms sleep before it.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

API = "/api/v2"
TENANT = f"{API}/tenants/default_tenant"
DB = f"{TENANT}/databases/default_database"
COLS = f"{DB}/collections"
ID = "5c0e0000-0000-4000-8000-{:012d}"
ARTICLES, RECIPES, ARCHIVE = ID.format(1), ID.format(2), ID.format(3)
MISSING = ID.format(999)


def make_driver(base, low, high, verbose):
    return Driver(base, low, high, verbose)


def capture(d: Driver):
    call, get, check = d.call, d.get, d.check

    def post(path, body, expect=200):
        return call("POST", path, body, expect=expect)[1]

    def records(cid, body=None, expect=200):
        return post(f"{COLS}/{cid}/get", {} if body is None else body, expect)

    def count(cid, expect=200):
        return get(f"{COLS}/{cid}/count", expect=expect)

    # ---- a. the seed: the server, the tenant, the database, every collection and its records
    get(f"{API}/version")
    get(f"{API}/auth/identity")
    get(TENANT)
    get(f"{TENANT}/databases")
    get(DB)
    cols = get(COLS)
    check("seeded collections", sorted(c["name"] for c in cols), ["archive", "articles", "recipes"])
    check("seeded collection count", get(f"{DB}/collections_count"), 3)
    for name, cid in (("articles", ARTICLES), ("recipes", RECIPES), ("archive", ARCHIVE)):
        check(f"{name} by name", get(f"{COLS}/{name}").get("id"), cid)
        check(f"{name} by id", get(f"{COLS}/by-id/{cid}").get("name"), name)
        count(cid)
        records(cid)
    check("articles records", records(ARTICLES, {"include": ["embeddings", "documents", "metadatas"]})["ids"],
          ["a1", "a2", "a3", "a4"])

    # ---- b. list queries: collection pages, record filters, includes, pages, nearest neighbours
    get(COLS, limit="1")
    get(COLS, limit="2", offset="1")
    get(COLS, offset="2")
    records(ARTICLES, {"ids": ["a1"]})
    records(ARTICLES, {"ids": ["a3", "a1"]})
    records(ARTICLES, {"ids": ["a2"], "include": ["embeddings"]})
    records(ARTICLES, {"ids": ["a4"], "include": ["metadatas"]})
    records(ARTICLES, {"ids": ["a4"], "include": []})
    records(ARTICLES, {"where": {"section": "weather"}})
    records(ARTICLES, {"where": {"year": {"$gte": 2026}}})
    records(ARTICLES, {"where": {"score": {"$lt": 3.5}}, "include": ["metadatas"]})
    records(ARTICLES, {"where": {"section": {"$in": ["sport", "business"]}}})
    records(ARTICLES, {"where": {"section": {"$ne": "weather"}}, "include": ["documents"]})
    records(ARTICLES, {"where": {"$and": [{"section": "weather"}, {"year": 2026}]}})
    records(ARTICLES, {"where": {"$or": [{"featured": True}, {"year": 2025}]}})
    records(ARTICLES, {"where_document": {"$contains": "Storm"}})
    records(ARTICLES, {"where_document": {"$not_contains": "storm"}, "include": ["documents"]})
    records(ARTICLES, {"limit": 2})
    records(ARTICLES, {"limit": 2, "offset": 2})
    records(ARTICLES, {"offset": 3})
    records(RECIPES, {"where": {"minutes": {"$lte": 45}}})
    records(RECIPES, {"where": {"course": "main"}, "include": ["embeddings", "metadatas"]})
    records(ARCHIVE, {"where": {"kept": True}})
    post(f"{COLS}/{ARTICLES}/query", {"query_embeddings": [[1.0, 0.0, 0.0]], "n_results": 2})
    post(f"{COLS}/{ARTICLES}/query", {"query_embeddings": [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]], "n_results": 1})
    post(f"{COLS}/{ARTICLES}/query", {"query_embeddings": [[1.0, 0.0, 0.0]], "n_results": 3,
                                      "where": {"section": {"$ne": "weather"}}, "include": ["distances"]})
    post(f"{COLS}/{RECIPES}/query", {"query_embeddings": [[0.5, 0.5, 0.0]], "n_results": 2,
                                     "include": ["documents", "distances"]})
    post(f"{COLS}/{ARCHIVE}/query", {"query_embeddings": [[1.0, 1.0]], "n_results": 1})

    # ---- c. absences and errors on reads
    get(f"{COLS}/missing-collection", expect=404)
    get(f"{COLS}/by-id/{MISSING}", expect=404)
    get(f"{COLS}/by-id/not-a-uuid", expect=400)
    count(MISSING, expect=404)
    records(MISSING, expect=404)
    post(f"{COLS}/{MISSING}/query", {"query_embeddings": [[1.0, 0.0, 0.0]]}, expect=404)
    records(ARTICLES, {"ids": ["no-such-record"]})
    records(ARTICLES, {"where": {"section": "travel"}})
    records(ARTICLES, {"include": ["bogus"]}, expect=422)
    call("POST", f"{COLS}/{ARTICLES}/get", raw="{not json", expect=400)
    post(f"{COLS}/{ARTICLES}/query", {"query_embeddings": [[1.0, 0.0]]}, expect=400)
    post(f"{COLS}/{ARTICLES}/query", {"n_results": 1}, expect=422)
    get(f"{TENANT}/databases/no-such-database", expect=404)
    get(f"{API}/tenants/no-such-tenant", expect=404)

    # ---- d. collections: create, read, modify (name, metadata), conflicts, delete
    made = post(COLS, {"name": "glossary", "metadata": {"owner": "docs", "version": 1},
                       "configuration": {"hnsw": {"space": "ip"}}})
    glossary = made.get("id", MISSING)
    get(COLS)
    get(f"{COLS}/glossary")
    get(f"{COLS}/by-id/{glossary}")
    get(f"{DB}/collections_count")
    count(glossary)
    records(glossary)
    post(COLS, {"name": "glossary"}, expect=409)
    post(COLS, {"name": "glossary", "get_or_create": True})
    post(COLS, {"name": "ab"}, expect=400)
    post(COLS, {"name": "bad name!"}, expect=400)
    post(COLS, {"metadata": {"owner": "nobody"}}, expect=422)
    call("POST", COLS, raw="{name: glossary", expect=400)
    call("PUT", f"{COLS}/{glossary}", {"new_metadata": {"owner": "docs", "version": 2, "reviewed": True}})
    get(f"{COLS}/glossary")
    get(f"{COLS}/by-id/{glossary}")
    get(COLS)
    call("PUT", f"{COLS}/{glossary}", {"new_name": "terms"})
    get(f"{COLS}/glossary", expect=404)
    get(f"{COLS}/terms")
    get(f"{COLS}/by-id/{glossary}")
    get(COLS)
    call("PUT", f"{COLS}/{glossary}", {"new_name": "lexicon", "new_metadata": {"owner": "editors"}})
    get(f"{COLS}/lexicon")
    get(f"{COLS}/terms", expect=404)
    get(f"{COLS}/by-id/{glossary}")
    call("PUT", f"{COLS}/{MISSING}", {"new_name": "ghost-collection"}, expect=404)
    call("PUT", f"{COLS}/not-a-uuid", {"new_name": "ghost-collection"}, expect=400)
    call("PUT", f"{COLS}/{glossary}", {"new_name": "x"}, expect=400)
    call("PUT", f"{COLS}/{glossary}", {"new_name": "recipes"}, expect=500)
    get(f"{COLS}/by-id/{glossary}")
    get(f"{COLS}/recipes")
    # a seeded collection's metadata and name
    call("PUT", f"{COLS}/{RECIPES}", {"new_metadata": {"cuisine": "world", "reviewed": False}})
    get(f"{COLS}/recipes")
    get(f"{COLS}/by-id/{RECIPES}")
    call("PUT", f"{COLS}/{ARCHIVE}", {"new_name": "old-notes"})
    get(f"{COLS}/archive", expect=404)
    get(f"{COLS}/old-notes")
    get(f"{COLS}/by-id/{ARCHIVE}")
    get(COLS)
    # delete, by name
    call("DELETE", f"{COLS}/lexicon")
    get(f"{COLS}/lexicon", expect=404)
    get(f"{COLS}/by-id/{glossary}", expect=404)
    count(glossary, expect=404)
    records(glossary, expect=404)
    get(COLS)
    get(f"{DB}/collections_count")
    call("DELETE", f"{COLS}/lexicon", expect=404)
    call("DELETE", f"{COLS}/never-made", expect=404)

    # ---- e. records of a new collection: add, get, update, upsert, delete, count after each
    made = post(COLS, {"name": "notes", "metadata": {"kind": "scratch"}})
    notes = made.get("id", MISSING)
    get(f"{COLS}/notes")
    count(notes)
    records(notes)
    post(f"{COLS}/{notes}/add", {"ids": ["n1", "n2", "n3"],
                                 "embeddings": [[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]],
                                 "documents": ["first note", "second note", "third note"],
                                 "metadatas": [{"tag": "a", "rank": 1}, {"tag": "b", "rank": 2},
                                               {"tag": "a", "rank": 3}]}, expect=201)
    count(notes)
    records(notes)
    records(notes, {"ids": ["n2"]})
    records(notes, {"ids": ["n1"], "include": ["embeddings", "documents", "metadatas"]})
    records(notes, {"where": {"tag": "a"}})
    get(f"{COLS}/notes")
    post(f"{COLS}/{notes}/query", {"query_embeddings": [[0.3, 0.4]], "n_results": 1})
    # add: a taken id is ignored, a wrong dimension refused, arrays of other lengths refused
    post(f"{COLS}/{notes}/add", {"ids": ["n1"], "embeddings": [[9.0, 9.0]], "documents": ["replaced?"]},
         expect=201)
    records(notes, {"ids": ["n1"]})
    post(f"{COLS}/{notes}/add", {"ids": ["n9"], "embeddings": [[1.0, 2.0, 3.0]]}, expect=400)
    post(f"{COLS}/{notes}/add", {"ids": ["n8", "n9"], "embeddings": [[1.0, 2.0]]}, expect=400)
    post(f"{COLS}/{notes}/add", {"ids": ["n9"]}, expect=422)
    count(notes)
    # update: documents, metadatas (merged), embeddings; a missing id is ignored
    post(f"{COLS}/{notes}/update", {"ids": ["n2"], "documents": ["second note, edited"]})
    records(notes, {"ids": ["n2"]})
    post(f"{COLS}/{notes}/update", {"ids": ["n3"], "metadatas": [{"rank": 30, "done": True}]})
    records(notes, {"ids": ["n3"]})
    records(notes, {"where": {"done": True}})
    post(f"{COLS}/{notes}/update", {"ids": ["n1"], "embeddings": [[0.9, 0.9]]})
    records(notes, {"ids": ["n1"], "include": ["embeddings"]})
    post(f"{COLS}/{notes}/query", {"query_embeddings": [[0.9, 0.9]], "n_results": 1})
    post(f"{COLS}/{notes}/update", {"ids": ["n1", "n2"], "metadatas": [{"tag": "c"}, {"tag": "c"}]})
    records(notes, {"where": {"tag": "c"}})
    post(f"{COLS}/{notes}/update", {"ids": ["n404"], "documents": ["nobody"]})
    records(notes, {"ids": ["n404"]})
    count(notes)
    post(f"{COLS}/{notes}/update", {"ids": ["n1"], "embeddings": [[1.0]]}, expect=400)
    post(f"{COLS}/{MISSING}/update", {"ids": ["n1"], "documents": ["x"]}, expect=404)
    # upsert: a new id is added, a held one changed
    post(f"{COLS}/{notes}/upsert", {"ids": ["n4"], "embeddings": [[0.7, 0.8]], "documents": ["fourth note"],
                                    "metadatas": [{"tag": "d", "rank": 4}]})
    count(notes)
    records(notes, {"ids": ["n4"]})
    post(f"{COLS}/{notes}/upsert", {"ids": ["n2"], "embeddings": [[0.3, 0.4]], "documents": ["second note, again"],
                                    "metadatas": [{"rank": 20}]})
    records(notes, {"ids": ["n2"]})
    records(notes)
    count(notes)
    post(f"{COLS}/{notes}/upsert", {"ids": ["n5"], "documents": ["no embedding"]}, expect=422)
    # delete: by ids, by where, by where_document
    post(f"{COLS}/{notes}/delete", {"ids": ["n4"]})
    count(notes)
    records(notes, {"ids": ["n4"]})
    records(notes)
    post(f"{COLS}/{notes}/delete", {"where": {"tag": "c"}})
    count(notes)
    records(notes)
    post(f"{COLS}/{notes}/add", {"ids": ["n6", "n7"], "embeddings": [[0.2, 0.2], [0.4, 0.4]],
                                 "documents": ["remove me", "keep me"]}, expect=201)
    count(notes)
    records(notes)
    post(f"{COLS}/{notes}/delete", {"where_document": {"$contains": "remove"}})
    count(notes)
    records(notes)
    post(f"{COLS}/{MISSING}/delete", {"ids": ["n1"]}, expect=404)
    post(f"{COLS}/{notes}/delete", {"where": {"$bogus": 1}}, expect=400)

    # ---- f. records of a seeded collection
    post(f"{COLS}/{ARTICLES}/add", {"ids": ["a5"], "embeddings": [[0.5, 0.5, 0.0]], "documents": ["Budget vote delayed"],
                                    "metadatas": [{"section": "politics", "year": 2026, "score": 3.5}]},
         expect=201)
    count(ARTICLES)
    records(ARTICLES)
    records(ARTICLES, {"where": {"year": {"$gte": 2026}}})
    records(ARTICLES, {"ids": ["a5"]})
    post(f"{COLS}/{ARTICLES}/query", {"query_embeddings": [[0.5, 0.5, 0.0]], "n_results": 1})
    post(f"{COLS}/{ARTICLES}/update", {"ids": ["a3"], "documents": ["Markets rally as rates fall"],
                                       "metadatas": [{"score": 4.0}]})
    records(ARTICLES, {"ids": ["a3"]})
    records(ARTICLES, {"where_document": {"$contains": "rally"}})
    post(f"{COLS}/{ARTICLES}/upsert", {"ids": ["a4"], "embeddings": [[0.0, 0.0, 1.0]],
                                       "documents": ["Local team loses the final"],
                                       "metadatas": [{"featured": False}]})
    records(ARTICLES, {"ids": ["a4"]})
    records(ARTICLES, {"where": {"featured": True}})
    post(f"{COLS}/{ARTICLES}/delete", {"ids": ["a1"]})
    count(ARTICLES)
    records(ARTICLES)
    records(ARTICLES, {"ids": ["a1"]})
    post(f"{COLS}/{ARTICLES}/query", {"query_embeddings": [[1.0, 0.0, 0.0]], "n_results": 2})
    get(f"{COLS}/articles")
    post(f"{COLS}/{RECIPES}/delete", {"where": {"course": "dessert"}})
    count(RECIPES)
    records(RECIPES)
    post(f"{COLS}/{RECIPES}/upsert", {"ids": ["r4"], "embeddings": [[0.1, 0.1, 0.1]], "documents": ["Green salad"],
                                      "metadatas": [{"course": "starter", "minutes": 10}]})
    count(RECIPES)
    records(RECIPES, {"where": {"course": "starter"}})

    # ---- g. databases: create, read, a collection inside, delete
    get(f"{TENANT}/databases")
    post(f"{TENANT}/databases", {"name": "research"})
    get(f"{TENANT}/databases")
    get(f"{TENANT}/databases/research")
    post(f"{TENANT}/databases", {"name": "research"}, expect=409)
    post(f"{TENANT}/databases", {}, expect=422)
    research = f"{TENANT}/databases/research/collections"
    get(research)
    made = post(research, {"name": "papers", "metadata": {"field": "ml"}})
    papers = made.get("id", MISSING)
    get(research)
    get(f"{research}/papers")
    get(f"{COLS}/papers", expect=404)
    post(f"{TENANT}/databases/research/collections/{papers}/add",
         {"ids": ["p1"], "embeddings": [[1.0, 0.0]], "documents": ["Attention"]}, expect=201)
    get(f"{TENANT}/databases/research/collections/{papers}/count")
    post(f"{TENANT}/databases/research/collections/{papers}/get", {})
    get(f"{TENANT}/databases/research/collections_count")
    call("DELETE", f"{TENANT}/databases/research")
    get(f"{TENANT}/databases/research", expect=404)
    get(f"{TENANT}/databases")
    call("DELETE", f"{TENANT}/databases/research", expect=404)

    # ---- h. the end state
    get(COLS)
    get(f"{DB}/collections_count")
    for cid in (ARTICLES, RECIPES, ARCHIVE, notes):
        count(cid)
        records(cid)


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:18951")
