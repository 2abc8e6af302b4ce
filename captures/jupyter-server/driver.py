#!/usr/bin/env python3
"""Scenario driver for Jupyter Server 2.21.1 (talks to the mitmproxy reverse proxy).

Usage:
  python driver.py --base http://127.0.0.1:42031 --mode capture   # ~215 calls

Auth: `Authorization: token jupyter-capture-token-not-a-secret-0001` (start.sh sets it). The seed
(seed.py, not recorded) holds README.md, notes.txt, data/measurements.csv, data/raw/sensor-01.json,
notebooks/analysis.ipynb, the empty directory scratch/, and one console session
(scratch/seed-console) with its kernel; the driver learns their ids from GET /api/sessions.
Every call is sequential, with a random 50-150 ms sleep before it. The cookie jar is cleared after
every call, so requests never carry the `username-…` cookie Jupyter sets on every answer. Kernels
get a fixed quiet time (not polled) after a start or restart, so the entry count does not vary.
"""
import sys
import time
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

TOKEN = "jupyter-capture-token-not-a-secret-0001"
NEVER = "00000000-0000-4000-8000-000000000000"     # a UUID no session or kernel ever had


def notebook(*cells):
    return {"nbformat": 4, "nbformat_minor": 5,
            "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3 (ipykernel)",
                                        "language": "python"}},
            "cells": [dict(c) for c in cells]}


def md(cid, src):
    return {"id": cid, "cell_type": "markdown", "metadata": {}, "source": src}


def code(cid, src):
    return {"id": cid, "cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
            "source": src}


def text(content):
    return {"type": "file", "format": "text", "content": content}


def c(path):
    """The contents URL of an API path, each segment percent-encoded (spaces become %20)."""
    return "/api/contents" + ("/" + urllib.parse.quote(path) if path else "")


def make_driver(base, min_sleep, max_sleep, verbose):
    return Driver(base, min_sleep, max_sleep, verbose, token=TOKEN, scheme="token")


def capture(d):
    call, check = d.call, d.check

    # ---- a. reads before any write
    call("GET", "/api/status", expect=200)
    call("GET", "/api/kernelspecs", expect=200)
    call("GET", "/api/kernelspecs/python3", expect=200)
    call("GET", c(""), expect=200)
    call("GET", c("") + "?content=0", expect=200)
    for p in ["README.md", "notes.txt", "data", "data/measurements.csv", "data/raw",
              "data/raw/sensor-01.json", "notebooks", "notebooks/analysis.ipynb", "scratch"]:
        call("GET", c(p), expect=200)
    call("GET", c("notebooks/analysis.ipynb") + "/checkpoints", expect=200)
    call("GET", c("notes.txt") + "/checkpoints", expect=200)
    st, sessions = call("GET", "/api/sessions", expect=200)
    s0, k0 = sessions[0]["id"], sessions[0]["kernel"]["id"]          # the seeded console session
    call("GET", f"/api/sessions/{s0}", expect=200)
    call("GET", "/api/kernels", expect=200)
    call("GET", f"/api/kernels/{k0}", expect=200)
    call("GET", c("missing.txt"), expect=404)                   # never existed
    call("GET", c("data/raw/sensor-99.json"), expect=404)
    call("GET", c("no/such/dir"), expect=404)
    call("GET", f"/api/sessions/{NEVER}", expect=404)
    call("GET", f"/api/kernels/{NEVER}", expect=404)
    call("GET", "/api/kernelspecs/ruby", expect=404)

    # ---- b. creates: untitled names by POST to a directory, named paths by PUT, copies
    st, m = call("POST", c(""), {"type": "notebook"}, expect=201)
    check("untitled notebook", m.get("path"), "Untitled.ipynb")
    call("GET", c("Untitled.ipynb"), expect=200)
    call("GET", c(""), expect=200)
    st, m = call("POST", c(""), {"type": "file", "ext": ".txt"}, expect=201)
    check("untitled file", m.get("path"), "untitled.txt")
    call("GET", c("untitled.txt"), expect=200)
    call("GET", c(""), expect=200)
    st, m = call("POST", c(""), {"type": "directory"}, expect=201)
    check("untitled folder", m.get("path"), "Untitled Folder")
    call("GET", c("Untitled Folder"), expect=200)
    call("GET", c(""), expect=200)
    st, m = call("POST", c(""), {"type": "notebook"}, expect=201)   # the next untitled name
    check("untitled notebook 2", m.get("path"), "Untitled1.ipynb")
    call("GET", c("Untitled1.ipynb"), expect=200)
    call("GET", c(""), expect=200)
    st, m = call("POST", c("scratch"), {"type": "file"}, expect=201)  # no ext: "untitled"
    check("untitled in scratch", m.get("path"), "scratch/untitled")
    call("GET", c("scratch/untitled"), expect=200)
    call("GET", c("scratch"), expect=200)
    st, m = call("POST", c("data/raw"), {"type": "file", "ext": ".json"}, expect=201)
    check("untitled json", m.get("path"), "data/raw/untitled.json")
    call("GET", c("data/raw/untitled.json"), expect=200)
    call("GET", c("data/raw"), expect=200)
    call("PUT", c("data/raw/sensor-02.json"),
         text('{"sensor": "02", "unit": "C", "readings": [8.25, 8.5]}\n'), expect=201)
    call("GET", c("data/raw/sensor-02.json"), expect=200)
    call("GET", c("data/raw"), expect=200)
    call("PUT", c("reports"), {"type": "directory"}, expect=201)
    call("GET", c("reports"), expect=200)
    call("GET", c(""), expect=200)
    call("PUT", c("reports/summary.md"), text("# Summary\n\nMean temperature: 11.08 C\n"),
         expect=201)
    call("GET", c("reports/summary.md"), expect=200)
    call("PUT", c("reports/weekly.ipynb"),
         {"type": "notebook", "content": notebook(md("title", "# Weekly report"),
                                                  code("mean", "sum([11.5, 12.0, 9.75]) / 3"))},
         expect=201)
    call("GET", c("reports/weekly.ipynb"), expect=200)
    call("GET", c("reports"), expect=200)
    call("PUT", c("data/pixel.png"),
         {"type": "file", "format": "base64",
          "content": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="},
         expect=201)
    call("GET", c("data/pixel.png"), expect=200)
    call("GET", c("data"), expect=200)
    st, m = call("POST", c("notebooks"), {"copy_from": "notebooks/analysis.ipynb"}, expect=201)
    check("copy in place", m.get("path"), "notebooks/analysis-Copy1.ipynb")
    call("GET", c("notebooks/analysis-Copy1.ipynb"), expect=200)
    call("GET", c("notebooks"), expect=200)
    st, m = call("POST", c("reports"), {"copy_from": "notebooks/analysis.ipynb"}, expect=201)
    call("GET", c(m.get("path", "reports/analysis.ipynb")), expect=200)
    call("GET", c("reports"), expect=200)
    st, m = call("POST", c("scratch"), {"copy_from": "notes.txt"}, expect=201)
    call("GET", c(m.get("path", "scratch/notes.txt")), expect=200)
    call("GET", c("scratch"), expect=200)

    # ---- c. updates: saves (PUT to an existing path), renames and moves (PATCH), checkpoints
    call("PUT", c("notes.txt"), text("buy milk\ncall Ada about the sensor data\nwater the plants\n"),
         expect=200)
    call("GET", c("notes.txt"), expect=200)
    call("GET", c(""), expect=200)
    call("PUT", c("notebooks/analysis.ipynb"),
         {"type": "notebook", "content": notebook(
             md("intro", "# Temperature analysis\nReads `data/measurements.csv`."),
             code("load", "import csv\nrows = list(csv.DictReader(open('../data/measurements.csv')))\nlen(rows)"),
             code("mean", "sum(float(r['temp_c']) for r in rows) / len(rows)"))},
         expect=200)
    call("GET", c("notebooks/analysis.ipynb"), expect=200)
    call("GET", c("notebooks"), expect=200)
    call("PUT", c("Untitled.ipynb"),
         {"type": "notebook", "content": notebook(code("c1", "print('hello')"))}, expect=200)
    call("GET", c("Untitled.ipynb"), expect=200)
    call("PATCH", c("untitled.txt"), {"path": "todo.txt"}, expect=200)
    call("GET", c("untitled.txt"), expect=404)
    call("GET", c("todo.txt"), expect=200)
    call("GET", c(""), expect=200)
    call("PATCH", c("Untitled Folder"), {"path": "archive"}, expect=200)
    call("GET", c("archive"), expect=200)
    call("GET", c("Untitled Folder"), expect=404)
    call("PATCH", c("todo.txt"), {"path": "archive/todo.txt"}, expect=200)   # a move
    call("GET", c("archive/todo.txt"), expect=200)
    call("GET", c("archive"), expect=200)
    call("GET", c(""), expect=200)
    call("PATCH", c("Untitled.ipynb"), {"path": "notebooks/cleaning.ipynb"}, expect=200)
    call("GET", c("notebooks/cleaning.ipynb"), expect=200)
    call("GET", c("notebooks"), expect=200)
    call("PATCH", c("data/raw/untitled.json"), {"path": "data/raw/sensor-03.json"}, expect=200)
    call("PUT", c("data/raw/sensor-03.json"),
         text('{"sensor": "03", "unit": "F", "readings": [50.0]}\n'), expect=200)
    call("GET", c("data/raw/sensor-03.json"), expect=200)
    call("GET", c("data/raw"), expect=200)
    call("PATCH", c("reports"), {"path": "reports-2026"}, expect=200)        # a directory and its files
    call("GET", c("reports-2026"), expect=200)
    call("GET", c("reports-2026/summary.md"), expect=200)
    call("GET", c("reports/summary.md"), expect=404)
    call("GET", c(""), expect=200)
    # checkpoints of notes.txt: create, change the file, restore, create again, delete
    st, cp = call("POST", c("notes.txt") + "/checkpoints", expect=201)
    cid = cp.get("id", "checkpoint") if isinstance(cp, dict) else "checkpoint"
    call("GET", c("notes.txt") + "/checkpoints", expect=200)
    call("PUT", c("notes.txt"), text("everything was lost\n"), expect=200)
    call("GET", c("notes.txt"), expect=200)
    call("POST", c("notes.txt") + f"/checkpoints/{cid}", expect=204)       # restore
    call("GET", c("notes.txt"), expect=200)
    call("GET", c("notes.txt") + "/checkpoints", expect=200)
    call("POST", c("notes.txt") + "/checkpoints", expect=201)               # again: same id
    call("GET", c("notes.txt") + "/checkpoints", expect=200)
    call("DELETE", c("notes.txt") + f"/checkpoints/{cid}", expect=204)
    call("GET", c("notes.txt") + "/checkpoints", expect=200)
    call("POST", c("notebooks/analysis.ipynb") + "/checkpoints", expect=201)
    call("GET", c("notebooks/analysis.ipynb") + "/checkpoints", expect=200)

    # ---- d. kernels and sessions
    st, k1 = call("POST", "/api/kernels", {"name": "python3"}, expect=201)
    k1 = k1["id"]
    time.sleep(3.0)
    call("GET", f"/api/kernels/{k1}", expect=200)
    call("GET", "/api/kernels", expect=200)
    call("GET", "/api/status", expect=200)
    call("POST", f"/api/kernels/{k1}/interrupt", expect=204)
    call("GET", f"/api/kernels/{k1}", expect=200)
    call("POST", f"/api/kernels/{k1}/restart", expect=200)
    time.sleep(2.0)
    call("GET", f"/api/kernels/{k1}", expect=200)
    st, k2 = call("POST", "/api/kernels", expect=201)                        # no body: default kernel
    k2 = k2["id"]
    time.sleep(3.0)
    call("GET", f"/api/kernels/{k2}", expect=200)
    call("GET", "/api/kernels", expect=200)
    st, s1 = call("POST", "/api/sessions", {"path": "notebooks/analysis.ipynb", "name": "analysis.ipynb",
                                            "type": "notebook", "kernel": {"name": "python3"}},
                  expect=201)
    s1 = s1["id"]
    time.sleep(3.0)
    call("GET", f"/api/sessions/{s1}", expect=200)
    call("GET", "/api/sessions", expect=200)
    call("GET", "/api/kernels", expect=200)
    st, s2 = call("POST", "/api/sessions", {"path": "scratch/console-1", "name": "Console 1",
                                            "type": "console", "kernel": {"id": k1}}, expect=201)
    s2 = s2["id"]
    call("GET", f"/api/sessions/{s2}", expect=200)
    call("GET", "/api/sessions", expect=200)
    # a session for a path that already has one: answers that session, creates nothing
    st, again = call("POST", "/api/sessions", {"path": "notebooks/analysis.ipynb", "name": "analysis.ipynb",
                                               "type": "notebook", "kernel": {"name": "python3"}},
                     expect=201)
    check("same session", again.get("id"), s1)
    call("GET", "/api/sessions", expect=200)
    call("PATCH", f"/api/sessions/{s1}", {"path": "notebooks/cleaning.ipynb", "name": "cleaning.ipynb"},
         expect=200)
    call("GET", f"/api/sessions/{s1}", expect=200)
    call("GET", "/api/sessions", expect=200)
    call("PATCH", f"/api/sessions/{s2}", {"kernel": {"id": k2}}, expect=200)  # k1 is shut down
    call("GET", f"/api/sessions/{s2}", expect=200)
    call("GET", f"/api/kernels/{k1}", expect=404)
    call("GET", "/api/kernels", expect=200)
    call("DELETE", f"/api/sessions/{s1}", expect=204)                        # and its kernel
    call("GET", f"/api/sessions/{s1}", expect=404)
    call("GET", "/api/sessions", expect=200)
    call("GET", "/api/kernels", expect=200)
    call("DELETE", f"/api/kernels/{k2}", expect=204)                          # s2's kernel
    call("GET", f"/api/kernels/{k2}", expect=404)
    call("GET", f"/api/sessions/{s2}", expect=404)
    call("GET", "/api/sessions", expect=200)
    call("GET", "/api/kernels", expect=200)
    # the seeded session: rename, then end it (its kernel goes with it)
    call("PATCH", f"/api/sessions/{s0}", {"name": "Scratch console"}, expect=200)
    call("GET", f"/api/sessions/{s0}", expect=200)
    call("DELETE", f"/api/sessions/{s0}", expect=204)
    call("GET", f"/api/sessions/{s0}", expect=404)
    call("GET", f"/api/kernels/{k0}", expect=404)
    call("GET", "/api/sessions", expect=200)
    call("GET", "/api/kernels", expect=200)
    call("GET", "/api/status", expect=200)

    # ---- e. deletes, each followed by a read of the path (404) and of its directory
    call("DELETE", c("Untitled1.ipynb"), expect=204)
    call("GET", c("Untitled1.ipynb"), expect=404)
    call("GET", c(""), expect=200)
    call("DELETE", c("scratch/untitled"), expect=204)
    call("GET", c("scratch/untitled"), expect=404)
    call("GET", c("scratch"), expect=200)
    call("DELETE", c("archive"), expect=204)                                 # not empty: todo.txt
    call("GET", c("archive"), expect=404)
    call("GET", c("archive/todo.txt"), expect=404)
    call("GET", c(""), expect=200)
    call("DELETE", c("data/raw/sensor-02.json"), expect=204)
    call("GET", c("data/raw/sensor-02.json"), expect=404)
    call("GET", c("data/raw"), expect=200)
    call("DELETE", c("reports-2026"), expect=204)
    call("GET", c("reports-2026/weekly.ipynb"), expect=404)
    call("GET", c(""), expect=200)
    # a deleted path can be written again: the path is the identity
    call("PUT", c("data/raw/sensor-02.json"),
         text('{"sensor": "02", "unit": "C", "readings": [7.0]}\n'), expect=201)
    call("GET", c("data/raw/sensor-02.json"), expect=200)
    call("GET", c("data/raw"), expect=200)

    # ---- f. failing calls
    call("PATCH", c("missing.txt"), {"path": "found.txt"}, expect=404)
    call("PATCH", c("notes.txt"), {"path": "README.md"}, expect=409)          # target exists
    call("POST", c("notes.txt"), {"type": "file"}, expect=400)               # POST to a file
    call("POST", c("nowhere"), {"type": "file"}, expect=404)                 # no such directory
    # no content: a new path becomes an empty file (201), an existing one is refused (400)
    call("PUT", c("empty.txt"), {"type": "file", "format": "text"}, expect=201)
    call("PUT", c("empty.txt"), {"type": "file", "format": "text"}, expect=400)
    call("GET", c("empty.txt"), expect=200)
    call("PUT", c("copy.txt"), {"copy_from": "notes.txt"}, expect=400)
    call("GET", c("copy.txt"), expect=404)
    call("GET", c("notes.txt") + "?type=directory", expect=400)
    call("GET", c("data") + "?type=file", expect=400)
    call("GET", c("") + "?format=xml", expect=400)
    call("POST", c("notes.txt") + "/checkpoints/nosuch", expect=500)         # restore: unhandled
    call("DELETE", c("notes.txt") + "/checkpoints/nosuch", expect=404)
    call("GET", c("missing.txt") + "/checkpoints", expect=200)
    call("PATCH", f"/api/sessions/{NEVER}", {"name": "ghost"}, expect=404)
    call("DELETE", f"/api/sessions/{NEVER}", expect=404)
    call("DELETE", f"/api/kernels/{NEVER}", expect=404)
    call("POST", f"/api/kernels/{NEVER}/interrupt", expect=404)
    call("POST", "/api/sessions", {"path": "x.ipynb", "type": "notebook", "kernel": {"name": "ruby"}},
         expect=501)
    call("POST", "/api/sessions", {"type": "notebook"}, expect=400)            # no path
    call("POST", "/api/sessions", raw='{"path": "broken json', expect=400)
    call("GET", c(""), token=None, expect=403)
    call("GET", c(""), token="not-the-token-000000000000000000000000", expect=403)

    # ---- g. formats, content=0, hashes, and the final state
    call("GET", c("notebooks/analysis.ipynb") + "?content=0", expect=200)
    call("GET", c("notebooks/analysis.ipynb") + "?type=file&format=text", expect=200)
    call("GET", c("notes.txt") + "?format=base64", expect=200)
    call("GET", c("notes.txt") + "?hash=1", expect=200)
    call("GET", c("data") + "?content=0", expect=200)
    call("GET", c("data/raw") + "?hash=1", expect=500)                       # a directory has no hash
    call("GET", c("data/pixel.png") + "?content=0", expect=200)
    for p in ["", "data", "data/raw", "notebooks", "scratch", "notes.txt"]:
        call("GET", c(p), expect=200)
    call("GET", "/api/sessions", expect=200)
    call("GET", "/api/kernels", expect=200)
    call("GET", "/api/status", expect=200)



if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:42031")
