#!/usr/bin/env python3
"""Seed a fresh NocoDB 0.301.3 through its meta API (not recorded).

Usage: python3 seed.py BASE_URL EMAIL PASSWORD DB_FILE API_TOKEN

Signs in as the super admin start.sh made (NC_ADMIN_EMAIL / NC_ADMIN_PASSWORD), and with that
session's JWT (header xc-auth) creates a base `Library` and two tables with FIXED table ids (the
meta API takes an `id` member), so that every fresh start serves the same data paths
/api/v2/tables/{tableId}/records:
  Books    mw3b3pzrazmyg88  Title (SingleLineText, required), Author (SingleLineText),
                            Year (Number), Genre (SingleSelect: fiction | science | history),
                            Available (Checkbox)
  Members  m4p67nyzsoc3req  Name (SingleLineText, required), Email (Email), Joined (Date),
                            Active (Checkbox)
Every table also gets NocoDB's system columns: Id (integer primary key), CreatedAt, UpdatedAt.
The seed rows are inserted one by one in order, so their Ids are 1..n on every start.

Then it makes an API token for the driver (POST /api/v1/tokens) and sets that token's value to
the fixed throwaway API_TOKEN directly in the SQLite meta store (DB_FILE): NocoDB generates
token values and takes none from the client, and the recording and the probes need one value.
The token was never used before the change, so no cache holds the generated value.
Standard library only.
"""
import json
import sqlite3
import sys
import urllib.request

BOOKS_TABLE = "mw3b3pzrazmyg88"
MEMBERS_TABLE = "m4p67nyzsoc3req"
BOOKS = [
    {"Title": "The Left Hand of Darkness", "Author": "Ursula K. Le Guin", "Year": 1969, "Genre": "fiction",
     "Available": True},
    {"Title": "A Brief History of Time", "Author": "Stephen Hawking", "Year": 1988, "Genre": "science",
     "Available": True},
    {"Title": "The Guns of August", "Author": "Barbara Tuchman", "Year": 1962, "Genre": "history",
     "Available": False},
    {"Title": "Solaris", "Author": "Stanislaw Lem", "Year": 1961, "Genre": "fiction", "Available": True},
    {"Title": "The Selfish Gene", "Author": "Richard Dawkins", "Year": 1976, "Genre": "science",
     "Available": False},
]
MEMBERS = [
    {"Name": "Ada Byron", "Email": "ada@example.org", "Joined": "2024-03-01", "Active": True},
    {"Name": "Alan Mathison", "Email": "alan@example.org", "Joined": "2024-06-15", "Active": True},
    {"Name": "Grace Brewster", "Email": "grace@example.org", "Joined": "2025-01-20", "Active": False},
]


def call(base, method, path, body=None, headers=None):
    request = urllib.request.Request(base + path, method=method,
                                     data=None if body is None else json.dumps(body).encode())
    request.add_header("Content-Type", "application/json")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read() or b"null")


def text(name, column, required=False):
    return {"title": name, "column_name": column, "uidt": "SingleLineText", "rqd": required}


def main(base, email, password, db_file, api_token):
    jwt = call(base, "POST", "/api/v1/auth/user/signin", {"email": email, "password": password})["token"]
    auth = {"xc-auth": jwt}
    library = call(base, "POST", "/api/v2/meta/bases", {"title": "Library"}, auth)
    tables = f"/api/v2/meta/bases/{library['id']}/tables"
    call(base, "POST", tables, {"id": BOOKS_TABLE, "title": "Books", "table_name": "books", "columns": [
        text("Title", "title", required=True), text("Author", "author"),
        {"title": "Year", "column_name": "year", "uidt": "Number"},
        {"title": "Genre", "column_name": "genre", "uidt": "SingleSelect",
         "dtxp": "'fiction','science','history'"},
        {"title": "Available", "column_name": "available", "uidt": "Checkbox"}]}, auth)
    call(base, "POST", tables, {"id": MEMBERS_TABLE, "title": "Members", "table_name": "members", "columns": [
        text("Name", "name", required=True),
        {"title": "Email", "column_name": "email", "uidt": "Email"},
        {"title": "Joined", "column_name": "joined", "uidt": "Date", "meta": {"date_format": "YYYY-MM-DD"}},
        {"title": "Active", "column_name": "active", "uidt": "Checkbox"}]}, auth)
    for row in BOOKS:
        call(base, "POST", f"/api/v2/tables/{BOOKS_TABLE}/records", row, auth)
    for row in MEMBERS:
        call(base, "POST", f"/api/v2/tables/{MEMBERS_TABLE}/records", row, auth)
    made = call(base, "POST", "/api/v1/tokens", {"description": "capenv driver"}, auth)
    with sqlite3.connect(db_file, timeout=30) as db:
        db.execute("UPDATE nc_api_tokens SET token = ? WHERE id = ?", (api_token, made["id"]))
    call(base, "GET", f"/api/v2/tables/{BOOKS_TABLE}/records/1", headers={"xc-token": api_token})


if __name__ == "__main__":
    main(*sys.argv[1:6])
