#!/usr/bin/env python3
"""Seed a fresh FlexGet 3.22.8 (run by start.sh, straight to the app port, not recorded).

Usage: seed.py API_BASE TOKEN DB_FILE

1. Replaces the random API token the daemon gave its user (flexget) by TOKEN, in the database.
2. Through the REST API: movie lists Watchlist (3 movies, with imdb/tmdb identifiers) and Classics
   (2 movies), entry lists downloads (3 entries) and archive (1 entry), pending list approvals
   (2 entries, one approved), series Example Show (begin S01E01) and Second Show (begin S02E05).
3. Runs the task seed-history once (three mock entries, accepted: seen and history hold them).
4. Sets every date and time the database holds to a fixed one (2024-01-0x, a minute per row id), so
   that every start on any day answers the same seed: `added_on`, `first_seen` and friends.
Only the standard library (runs on the app's own venv python).
"""
import json
import sqlite3
import sys
import time
import urllib.request

API, TOKEN, DB = sys.argv[1], sys.argv[2], sys.argv[3]


def set_token():
    for _ in range(100):  # the daemon commits its user right after the server starts
        with sqlite3.connect(DB) as db:
            if db.execute("SELECT count(*) FROM users").fetchone()[0]:
                db.execute("UPDATE users SET token = ?", (TOKEN,))
                return
        time.sleep(0.1)
    raise SystemExit("no user in the database")


def call(method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(API + path, data=data, method=method,
                                 headers={"Authorization": f"Token {TOKEN}", "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read() or b"null")


def seed():
    watch = call("POST", "/movie_list/", {"name": "Watchlist"})["id"]
    classics = call("POST", "/movie_list/", {"name": "Classics"})["id"]
    for lst, title, year, ids in (
            (watch, "Arrival", 2016, [{"imdb_id": "tt2543164"}, {"tmdb_id": 329865}]),
            (watch, "Heat", 1995, [{"imdb_id": "tt0113277"}]),
            (watch, "Paterson", 2016, []),
            (classics, "Casablanca", 1942, [{"imdb_id": "tt0034583"}]),
            (classics, "Metropolis", 1927, [{"imdb_id": "tt0017136"}, {"tmdb_id": 19}])):
        call("POST", f"/movie_list/{lst}/movies/", {"movie_name": title, "movie_year": year,
                                                    "movie_identifiers": ids})
    downloads = call("POST", "/entry_list/", {"name": "downloads"})["id"]
    archive = call("POST", "/entry_list/", {"name": "archive"})["id"]
    for lst, title, url in (
            (downloads, "Example.Show.S01E01.720p.HDTV", "http://127.0.0.1:9/example-show-s01e01"),
            (downloads, "Example.Show.S01E02.720p.HDTV", "http://127.0.0.1:9/example-show-s01e02"),
            (downloads, "Open.Movie.2008.1080p", "http://127.0.0.1:9/open-movie"),
            (archive, "Old.Release.1999.DVDRip", "http://127.0.0.1:9/old-release")):
        call("POST", f"/entry_list/{lst}/entries/", {"title": title, "original_url": url})
    approvals = call("POST", "/pending_list/", {"name": "approvals"})["id"]
    first = call("POST", f"/pending_list/{approvals}/entries/",
                 {"title": "Second.Show.S02E05.1080p.WEB", "original_url": "http://127.0.0.1:9/second-show-s02e05"})
    call("POST", f"/pending_list/{approvals}/entries/",
         {"title": "Nature.Film.2020.2160p", "original_url": "http://127.0.0.1:9/nature-film"})
    call("PUT", f"/pending_list/{approvals}/entries/{first['id']}/", {"operation": "approve"})
    call("POST", "/series/", {"name": "Example Show", "begin_episode": "S01E01"})
    call("POST", "/series/", {"name": "Second Show", "begin_episode": "S02E05", "alternate_names": ["Show Two"]})
    call("POST", "/tasks/execute/", {"tasks": ["seed-history"]})
    for _ in range(600):
        if not call("GET", "/tasks/queue/") and call("GET", "/history/"):
            break
        time.sleep(0.1)
    else:
        raise SystemExit("seed-history did not run")


def fix_times():
    """Every DATETIME column: 2024-01-01 plus one minute per rowid (distinct and ordered as made)."""
    with sqlite3.connect(DB) as db:
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        for table in tables:
            for _cid, column, kind, *_ in db.execute(f'PRAGMA table_info("{table}")').fetchall():
                if kind.upper() in ("DATETIME", "TIMESTAMP", "DATE"):
                    db.execute(f'UPDATE "{table}" SET "{column}" = strftime(\'%Y-%m-%d %H:%M:%f\', '
                               f'\'2024-01-01 00:00:00\', \'+\' || rowid || \' minutes\') '
                               f'WHERE "{column}" IS NOT NULL')


set_token()
seed()
fix_times()
