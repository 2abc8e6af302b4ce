#!/usr/bin/env python3
"""Seed a fresh pretix 2026.8.0 (after seed_db.py: organizer `capenv`, token.txt) with a fixed
data set through its API, DIRECTLY on the app port (not through the recording proxy), so the seed
is not part of the HAR. Then give the one seeded value the API cannot set, the voucher's `created`
stamp, a fixed instant in the database (argument 2), so a fresh start matches on any day.
Usage: python seed.py http://127.0.0.1:PORT DB_FILE

On a fresh database the ids are deterministic (one sequence per table):
  events conf27 "Capenv Conf 2027" (Berlin, 2027-06-10/11), meetup27 "Capenv Meetup" (2027-03-04)
  conf27: tax rule 1 (VAT 19%); categories 1 Tickets, 2 Merchandise;
          items 1 Standard ticket 120.00, 2 Student ticket 60.00, 3 T-shirt 25.00 (variations 1 S,
          2 M, 3 L); quotas 1 Main quota (items 1, 2; 100), 2 Shirts (item 3; 50);
          question 1 COMPANY (text, items 1, 2), question 2 DIET (choice, options 1 Vegetarian,
          2 Vegan; item 1); vouchers 1 EARLYBIRD (10 %, item 1), 2 SPEAKER (free, item 1)
  meetup27: item 4 Meetup entry 0.00, quota 3 (item 4; 40)
"""
import json
import sqlite3
import sys
import urllib.request
from pathlib import Path

BASE = sys.argv[1].rstrip("/") + "/api/v1/organizers/capenv"
DB = sys.argv[2]
TOKEN = (Path(__file__).parent / "token.txt").read_text().strip()
VOUCHER_CREATED = "2026-12-01 09:00:00"


def call(method, path, body=None):
    req = urllib.request.Request(BASE + path, method=method,
                                 data=None if body is None else json.dumps(body).encode(),
                                 headers={"Authorization": "Token " + TOKEN,
                                          "Content-Type": "application/json"})
    with urllib.request.urlopen(req) as r:
        assert r.status in (200, 201), (method, path, r.status)
        return json.loads(r.read() or b"null")


def en(text):
    return {"en": text}


call("POST", "/events/", {"name": en("Capenv Conf 2027"), "slug": "conf27", "currency": "EUR",
                          "date_from": "2027-06-10T09:00:00Z", "date_to": "2027-06-11T17:00:00Z",
                          "timezone": "Europe/Berlin", "location": en("Berlin")})
call("POST", "/events/", {"name": en("Capenv Meetup"), "slug": "meetup27", "currency": "EUR",
                          "date_from": "2027-03-04T18:00:00Z", "timezone": "Europe/Berlin",
                          "location": en("Hamburg")})
E = "/events/conf27"
assert call("POST", E + "/taxrules/", {"name": en("VAT"), "rate": "19.00"})["id"] == 1
assert call("POST", E + "/categories/", {"name": en("Tickets"), "position": 0})["id"] == 1
assert call("POST", E + "/categories/", {"name": en("Merchandise"), "position": 1})["id"] == 2
assert call("POST", E + "/items/", {"name": en("Standard ticket"), "default_price": "120.00", "category": 1,
                                    "tax_rule": 1, "admission": True, "position": 0})["id"] == 1
assert call("POST", E + "/items/", {"name": en("Student ticket"), "default_price": "60.00", "category": 1,
                                    "tax_rule": 1, "admission": True, "position": 1,
                                    "description": en("Valid student ID required")})["id"] == 2
shirt = call("POST", E + "/items/", {"name": en("T-shirt"), "default_price": "25.00", "category": 2,
                                     "tax_rule": 1, "admission": False, "position": 2,
                                     "variations": [{"value": en("S"), "position": 0},
                                                    {"value": en("M"), "position": 1},
                                                    {"value": en("L"), "position": 2}]})
assert shirt["id"] == 3 and [v["id"] for v in shirt["variations"]] == [1, 2, 3], shirt
assert call("POST", E + "/quotas/", {"name": "Main quota", "size": 100, "items": [1, 2]})["id"] == 1
assert call("POST", E + "/quotas/", {"name": "Shirts", "size": 50, "items": [3], "variations": [1, 2, 3]})["id"] == 2
assert call("POST", E + "/questions/", {"question": en("Company"), "identifier": "COMPANY", "type": "S",
                                        "required": False, "items": [1, 2], "position": 0})["id"] == 1
q2 = call("POST", E + "/questions/", {"question": en("Dietary preference"), "identifier": "DIET", "type": "C",
                                      "required": False, "items": [1], "position": 1,
                                      "options": [{"answer": en("Vegetarian"), "identifier": "VEG"},
                                                  {"answer": en("Vegan"), "identifier": "VGN"}]})
assert q2["id"] == 2 and [o["id"] for o in q2["options"]] == [1, 2], q2
assert call("POST", E + "/vouchers/", {"code": "EARLYBIRD", "max_usages": 20, "price_mode": "percent",
                                       "value": "10.00", "item": 1, "tag": "early"})["id"] == 1
assert call("POST", E + "/vouchers/", {"code": "SPEAKER", "max_usages": 1, "price_mode": "set",
                                       "value": "0.00", "item": 1, "tag": "speakers",
                                       "comment": "for the keynote"})["id"] == 2
M = "/events/meetup27"
assert call("POST", M + "/items/", {"name": en("Meetup entry"), "default_price": "0.00", "admission": True})["id"] == 4
assert call("POST", M + "/quotas/", {"name": "Room", "size": 40, "items": [4]})["id"] == 3

with sqlite3.connect(DB) as db:
    db.execute("UPDATE pretixbase_voucher SET created = ?", (VOUCHER_CREATED,))
print("seeded", file=sys.stderr)
