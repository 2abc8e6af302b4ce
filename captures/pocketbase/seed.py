#!/usr/bin/env python3
"""Seed a fresh PocketBase 0.40.6 through its superuser API (not recorded).

Usage: python seed.py BASE_URL EMAIL PASSWORD

Makes two base collections with public API rules (every rule the empty string: anyone may list,
view, create, update and delete, so the recorded traffic carries no token) and their records,
each with a fixed 15-character id so that every fresh start holds the same ids:
  posts     title (text, required), body (text), status (select: draft | published),
            views (number), created / updated (autodate)
  comments  post (relation to posts, one record, not required, no cascade delete: deleting a
            post clears the relation of its comments), author (text, required), body (text),
            score (number), created / updated (autodate)
Standard library only (the pocketbase venv's python).
"""
import json
import sys
import urllib.request

POSTS = [
    {"id": "t6cu5l28akg4mky", "title": "Punched cards for everyone", "status": "published",
     "body": "Jacquard looms read cards.", "views": 120},
    {"id": "tji0qp4u6dy78tp", "title": "A bug in relay 70", "status": "published",
     "body": "A moth, taped into the log book.", "views": 340},
    {"id": "matavwrwme382xr", "title": "On computable numbers", "status": "draft",
     "body": "A machine with a tape.", "views": 0},
    {"id": "cagzde72kg0rlkj", "title": "The analytical engine", "status": "published",
     "body": "Notes by the translator.", "views": 57},
]
COMMENTS = [
    {"id": "swqqk0m73getjfi", "post": "t6cu5l28akg4mky", "author": "ada",
     "body": "The engine weaves algebra.", "score": 5},
    {"id": "44504gvo60ba5pc", "post": "t6cu5l28akg4mky", "author": "charles",
     "body": "Cards for the engine too.", "score": 3},
    {"id": "ipuonszk4uyaz8m", "post": "tji0qp4u6dy78tp", "author": "grace",
     "body": "First actual case of bug being found.", "score": 4},
    {"id": "5rxhdx9am4grmk2", "post": "cagzde72kg0rlkj", "author": "ada",
     "body": "Note G has a program.", "score": 5},
    {"id": "soux67glw62sjx0", "post": "cagzde72kg0rlkj", "author": "alan",
     "body": "Lady Lovelace's objection.", "score": 2},
]
PUBLIC = {"listRule": "", "viewRule": "", "createRule": "", "updateRule": "", "deleteRule": ""}
AUTODATES = [{"name": "created", "type": "autodate", "onCreate": True},
             {"name": "updated", "type": "autodate", "onCreate": True, "onUpdate": True}]


def call(base, method, path, body=None, token=None):
    request = urllib.request.Request(base + path, method=method,
                                     data=None if body is None else json.dumps(body).encode())
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", token)
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read() or b"null")


def main(base, email, password):
    token = call(base, "POST", "/api/collections/_superusers/auth-with-password",
                 {"identity": email, "password": password})["token"]
    posts = call(base, "POST", "/api/collections", {
        "name": "posts", "type": "base", **PUBLIC, "fields": [
            {"name": "title", "type": "text", "required": True},
            {"name": "body", "type": "text"},
            {"name": "status", "type": "select", "values": ["draft", "published"], "maxSelect": 1},
            {"name": "views", "type": "number"}, *AUTODATES]}, token)
    call(base, "POST", "/api/collections", {
        "name": "comments", "type": "base", **PUBLIC, "fields": [
            {"name": "post", "type": "relation", "collectionId": posts["id"], "maxSelect": 1,
             "cascadeDelete": False},
            {"name": "author", "type": "text", "required": True},
            {"name": "body", "type": "text"},
            {"name": "score", "type": "number"}, *AUTODATES]}, token)
    for record in POSTS:
        call(base, "POST", "/api/collections/posts/records", record, token)
    for record in COMMENTS:
        call(base, "POST", "/api/collections/comments/records", record, token)


if __name__ == "__main__":
    main(*sys.argv[1:4])
