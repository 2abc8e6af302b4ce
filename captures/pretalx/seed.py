#!/usr/bin/env python3
"""Seed a fresh pretalx 2026.2.1 (after seed_db.py: organiser `capenv`, events capcon27 and
capmeet27, token.txt) with a fixed data set through its API, DIRECTLY on the app port (not through
the recording proxy), so the seed is not part of the HAR. Then give the values the API cannot set
fixed values in the database (argument 2): the speakers' and submissions' codes and tokens and the
options' identifiers (random) and every
created/updated stamp, so a fresh start matches on any day.
Usage: python seed.py http://127.0.0.1:PORT DB_FILE

On a fresh database the ids are deterministic (one sequence per table):
  capcon27: submission types 1 Talk (30 min, made with the event), 3 Workshop (90);
            tracks 1 Backend, 2 Frontend; tags 1 keynote, 2 beginner; rooms 1 Hall A (300),
            2 Room B (80); questions 1 AUDIENCE (choice, options 1 Beginners, 2 Experts),
            2 COMPANY (text, speaker); submissions PTXA01 "Scaling SQLite" (Talk, Backend, keynote;
            speaker SPKALI Ali Kaya), PTXB02 "CSS in depth" (Workshop, Frontend, beginner;
            speaker SPKBEA Bea Lund)
  capmeet27: submission type 2 Talk (made with the event); room 3 Main stage (120); track 3 Community
"""
import json
import sqlite3
import sys
import urllib.request
from pathlib import Path

BASE = sys.argv[1].rstrip("/") + "/api/events/"
DB = sys.argv[2]
TOKEN = (Path(__file__).parent / "token.txt").read_text().strip()
STAMP = "2026-11-02 10:00:00"


def call(method, path, body=None):
    req = urllib.request.Request(BASE + path, method=method,
                                 data=None if body is None else json.dumps(body).encode(),
                                 headers={"Authorization": "Token " + TOKEN,
                                          "Content-Type": "application/json"})
    with urllib.request.urlopen(req) as r:
        assert r.status in (200, 201), (method, path, r.status)
        return json.loads(r.read() or b"null")


def ml(en, de):
    return {"en": en, "de": de}


E, M = "capcon27/", "capmeet27/"
assert call("POST", E + "submission-types/", {"name": ml("Workshop", "Workshop"), "default_duration": 90})["id"] == 3
assert call("POST", E + "tracks/", {"name": ml("Backend", "Backend"), "color": "#1f77b4", "position": 0,
                                    "description": ml("Servers and data", "Server und Daten")})["id"] == 1
assert call("POST", E + "tracks/", {"name": ml("Frontend", "Frontend"), "color": "#ff7f0e", "position": 1})["id"] == 2
assert call("POST", E + "tags/", {"tag": "keynote", "color": "#d62728", "is_public": True})["id"] == 1
assert call("POST", E + "tags/", {"tag": "beginner", "color": "#2ca02c", "description": ml("For newcomers", "")})["id"] == 2
assert call("POST", E + "rooms/", {"name": ml("Hall A", "Saal A"), "capacity": 300, "position": 0})["id"] == 1
assert call("POST", E + "rooms/", {"name": ml("Room B", "Raum B"), "capacity": 80, "position": 1,
                                   "description": ml("Second floor", "Zweiter Stock")})["id"] == 2
q1 = call("POST", E + "questions/", {"question": ml("Audience level", "Zielgruppe"), "identifier": "AUDIENCE",
                                     "variant": "choices", "target": "submission", "position": 0,
                                     "options": [{"answer": ml("Beginners", "Anfänger")},
                                                 {"answer": ml("Experts", "Fortgeschrittene")}]})
assert q1["id"] == 1, q1
assert call("POST", E + "questions/", {"question": ml("Company", "Firma"), "identifier": "COMPANY",
                                       "variant": "string", "target": "speaker", "position": 1})["id"] == 2
a = call("POST", E + "submissions/", {"title": "Scaling SQLite", "submission_type": 1, "track": 1, "tags": [1],
                                      "abstract": "How far one file goes.", "content_locale": "en"})
b = call("POST", E + "submissions/", {"title": "CSS in depth", "submission_type": 3, "track": 2, "tags": [2],
                                      "abstract": "Selectors, cascade, layers.", "content_locale": "en"})
call("POST", E + f"submissions/{a['code']}/add-speaker/", {"email": "ali@capenv.test", "name": "Ali Kaya"})
call("POST", E + f"submissions/{b['code']}/add-speaker/", {"email": "bea@capenv.test", "name": "Bea Lund"})
assert call("POST", M + "rooms/", {"name": ml("Main stage", "Hauptbühne"), "capacity": 120})["id"] == 3
assert call("POST", M + "tracks/", {"name": ml("Community", "Gemeinschaft"), "color": "#9467bd"})["id"] == 3

# What the API cannot set: fixed codes and tokens instead of random ones, one instant for every
# created/updated stamp (the server is stopped between this and any other call: gunicorn serves
# one request at a time and the seed is its only client).
db = sqlite3.connect(DB)
for table, code, extra in (("submission_submission", a["code"], "PTXA01"), ("submission_submission", b["code"], "PTXB02")):
    db.execute(f"UPDATE {table} SET code = ?, invitation_token = ?, review_code = ? WHERE code = ?",
               (extra, "INVITE" + extra + "0" * 20, "REVIEW" + extra + "0" * 20, code))
for email, code in (("ali@capenv.test", "SPKALI"), ("bea@capenv.test", "SPKBEA")):
    db.execute("UPDATE person_speakerprofile SET code = ? WHERE user_id = "
               "(SELECT id FROM person_user WHERE email = ?)", (code, email))
    db.execute("UPDATE person_user SET code = ? WHERE email = ?", (code, email))
db.execute("UPDATE submission_answeroption SET identifier = 'OPT' || id")
tables = [t for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
for table in tables:
    columns = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
    for column in ("created", "updated"):
        if column in columns:
            db.execute(f"UPDATE {table} SET {column} = ? WHERE {column} IS NOT NULL", (STAMP,))
db.commit()
db.close()
