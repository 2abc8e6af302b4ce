#!/usr/bin/env python3
"""Seed a fresh Kolibri 0.19.5 through its own REST API (standard library only), then fix the two
sessions the driver and the probes send.

Usage: seed.py BASE_URL KOLIBRI_HOME

Runs directly on the application's port (start.sh), never through a recording proxy. Logs in as
the superuser start.sh provisioned (POST /api/auth/session/, as Kolibri's own sign-in page does)
and sends JSON with the session cookie and its CSRF token. What it makes (README "Seed data"), in
facility `Riverside School`: learners lena, marco and sara, coach ruth; classroom `Class 4A` with
learner group `Readers`; lena and marco members of Class 4A, lena of Readers; ruth a coach of
Class 4A; lesson `Fractions` and draft quiz `Quiz: fractions` of Class 4A. Ids are the
application's own (random 32-hex uuids; a draft quiz's an integer): probes read them by name.

Kolibri has only session authentication (SessionAuthentication and CSRF). So that every call of
the capture and of the probes can send fixed credentials, the sessions the seed opened for admin
and for learner lena get fixed throwaway keys in sessions.sqlite3 (FIXED_SESSIONS); the CSRF
token is a fixed 64-character value, sent as both cookie and X-CSRFToken header.
"""
import http.cookies
import json
import sqlite3
import sys
import urllib.error
import urllib.request
from pathlib import Path

BASE = sys.argv[1].rstrip("/")
HOME = Path(sys.argv[2])
CSRF = "capenv0kolibri0throwaway0csrf0token00000000000000000000000000001"
FIXED_SESSIONS = {"admin": "capenv0kolibri0throwaway0admin0session",
                  "lena": "capenv0kolibri0throwaway0lena0session"}
PASSWORDS = {"admin": "capenv-admin-pass", "lena": "capenv-lena-pass"}


def call(method, path, body=None, session=None, expect=(200, 201, 204)):
    """Answer (parsed JSON or None, the session cookie the answer set or None)."""
    data = None if body is None else json.dumps(body).encode()
    cookie = f"kolibri_csrftoken={CSRF}" + (f"; kolibri={session}" if session else "")
    request = urllib.request.Request(BASE + path, data=data, method=method,
                                     headers={"Cookie": cookie, "X-CSRFToken": CSRF})
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=120) as answer:
            status, raw, headers = answer.status, answer.read(), answer.headers
    except urllib.error.HTTPError as error:
        status, raw, headers = error.code, error.read(), error.headers
    if status not in expect:
        raise SystemExit(f"seed: {method} {path} answered {status}: {raw[:300]!r}")
    jar = http.cookies.SimpleCookie()
    for line in headers.get_all("Set-Cookie") or []:
        jar.load(line)
    return (json.loads(raw) if raw else None), (jar["kolibri"].value if "kolibri" in jar else None)


def login(username, facility):
    return call("POST", "/api/auth/session/", {"username": username, "password": PASSWORDS[username],
                                               "facility": facility})[1]


facility = call("GET", "/api/auth/facility/")[0][0]["id"]
admin = login("admin", facility)


def send(method, path, body=None):
    return call(method, path, body, session=admin)[0]


def user(username, full_name, password):
    return send("POST", "/api/auth/facilityuser/", {"username": username, "full_name": full_name,
                                                    "password": password, "facility": facility})["id"]


lena = user("lena", "Lena Okafor", PASSWORDS["lena"])
marco = user("marco", "Marco Rossi", "capenv-marco-pass")
user("sara", "Sara Lind", "capenv-sara-pass")
ruth = user("ruth", "Ruth Mensah", "capenv-ruth-pass")
send("POST", "/api/auth/role/", {"user": ruth, "collection": facility, "kind": "classroom assignable coach"})
classroom = send("POST", "/api/auth/classroom/", {"name": "Class 4A", "parent": facility})["id"]
readers = send("POST", "/api/auth/learnergroup/", {"name": "Readers", "parent": classroom})["id"]
for member, collection in ((lena, classroom), (marco, classroom), (lena, readers)):
    send("POST", "/api/auth/membership/", {"user": member, "collection": collection})
send("POST", "/api/auth/role/", {"user": ruth, "collection": classroom, "kind": "coach"})
send("POST", "/api/lessons/lesson/", {"title": "Fractions", "description": "Halves and quarters",
                                      "collection": classroom, "resources": [], "active": False,
                                      "assignments": [classroom]})
send("POST", "/api/exams/exam/", {"title": "Quiz: fractions", "collection": classroom, "question_count": 0,
                                  "question_sources": [], "assignments": [classroom],
                                  "learners_see_fixed_order": False, "data_model_version": 3})

sessions = {"admin": admin, "lena": login("lena", facility)}
with sqlite3.connect(HOME / "sessions.sqlite3") as db:
    for name, key in sessions.items():
        changed = db.execute("UPDATE kolibriauth_session SET session_key = ?, expire_date = '2099-01-01 00:00:00'"
                             " WHERE session_key = ?", (FIXED_SESSIONS[name], key)).rowcount
        if changed != 1:
            raise SystemExit(f"seed: the session of {name} was not found in sessions.sqlite3")
