#!/usr/bin/env python3
"""Seed a fresh I Hate Money 7.2.1 through its REST API (not recorded).

Usage: python3 seed.py BASE_URL

Three projects, each made by POST /api/projects and filled with HTTP Basic auth (project id +
private code), one call each and in this order, so that every start gives the same ids (members and
bills are numbered across the whole database, SQLite AUTOINCREMENT):
  household (EUR, code "house-code"): members alice, bob, carol (weight 2), dave (ids 1-4);
      bills 1-5 (groceries, rent, internet, cinema, and a reimbursement bob -> alice)
  weekend-trip (no currency, XXX, code "trip-code"): members erin, frank, grace (ids 5-7);
      bills 6-8 (fuel, cabin, dinner)
  office (USD, code "office-code"): members heidi, ivan (ids 8-9), no bills
Bill dates are fixed; each bill's creation_date is the day the seed runs (the server's clock).
Standard library only.
"""
import base64
import json
import sys
import urllib.request

PROJECTS = [
    {"id": "household", "name": "Household", "password": "house-code",
     "contact_email": "alice@example.com", "default_currency": "EUR"},
    {"id": "weekend-trip", "name": "Weekend trip", "password": "trip-code",
     "contact_email": "erin@example.com", "default_currency": "XXX"},
    {"id": "office", "name": "Office lunches", "password": "office-code",
     "contact_email": "heidi@example.com", "default_currency": "USD"},
]
MEMBERS = {
    "household": [("alice", 1), ("bob", 1), ("carol", 2), ("dave", 1)],
    "weekend-trip": [("erin", 1), ("frank", 1), ("grace", 1)],
    "office": [("heidi", 1), ("ivan", 1)],
}
# (what, payer name, amount, date, owers, bill_type, external link)
BILLS = {
    "household": [
        ("groceries", "alice", "84.20", "2026-11-02", ["alice", "bob", "carol", "dave"], "Expense", ""),
        ("rent", "bob", "1200", "2026-11-01", ["alice", "bob", "carol"], "Expense",
         "https://example.com/lease.pdf"),
        ("internet", "carol", "39.99", "2026-11-05", ["alice", "bob", "carol", "dave"], "Expense", ""),
        ("cinema", "dave", "27", "2026-11-08", ["carol", "dave"], "Expense", ""),
        ("pay back", "bob", "50", "2026-11-10", ["alice"], "Reimbursement", ""),
    ],
    "weekend-trip": [
        ("fuel", "erin", "62.50", "2026-10-17", ["erin", "frank", "grace"], "Expense", ""),
        ("cabin", "frank", "310", "2026-10-17", ["erin", "frank", "grace"], "Expense", ""),
        ("dinner", "grace", "96.40", "2026-10-18", ["erin", "frank", "grace"], "Expense", ""),
    ],
    "office": [],
}


def call(base, method, path, body, auth=None):
    request = urllib.request.Request(base + path, method=method, data=json.dumps(body).encode())
    request.add_header("Content-Type", "application/json")
    if auth:
        request.add_header("Authorization", "Basic " + base64.b64encode(":".join(auth).encode()).decode())
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def main(base):
    for project in PROJECTS:
        pid = call(base, "POST", "/api/projects", project)
        assert pid == project["id"], pid
        auth = (project["id"], project["password"])
        ids = {}
        for name, weight in MEMBERS[pid]:
            ids[name] = call(base, "POST", f"/api/projects/{pid}/members", {"name": name, "weight": weight}, auth)
        for what, payer, amount, date, owers, kind, link in BILLS[pid]:
            call(base, "POST", f"/api/projects/{pid}/bills", {
                "what": what, "payer": ids[payer], "amount": amount, "date": date,
                "payed_for": [ids[name] for name in owers], "bill_type": kind,
                "external_link": link, "original_currency": project["default_currency"]}, auth)


if __name__ == "__main__":
    main(sys.argv[1].rstrip("/"))
