#!/usr/bin/env python3
"""Seed a fresh Jupyter Server through its API on the app port: files and directories by PUT
to /api/contents, then one console session (which starts its kernel) by POST /api/sessions.

Usage: python seed.py http://127.0.0.1:PORT TOKEN
Standard library only (runs with the Jupyter venv's python). The seed is never recorded.
"""
import json
import sys
import urllib.request

NOTEBOOK = {
    "nbformat": 4,
    "nbformat_minor": 5,
    "metadata": {
        "kernelspec": {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"},
        "language_info": {"name": "python"},
    },
    "cells": [
        {"id": "intro", "cell_type": "markdown", "metadata": {},
         "source": "# Temperature analysis\nReads `data/measurements.csv`."},
        {"id": "load", "cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
         "source": "import csv\nrows = list(csv.DictReader(open('../data/measurements.csv')))\nlen(rows)"},
    ],
}

SEED = [
    ("data", {"type": "directory"}),
    ("data/raw", {"type": "directory"}),
    ("notebooks", {"type": "directory"}),
    ("scratch", {"type": "directory"}),
    ("README.md", {"type": "file", "format": "text",
                   "content": "# Capture workspace\n\nFiles for the capenv recording of Jupyter Server.\n"}),
    ("notes.txt", {"type": "file", "format": "text",
                   "content": "buy milk\ncall Ada about the sensor data\n"}),
    ("data/measurements.csv", {"type": "file", "format": "text",
                               "content": "day,temp_c\nmon,11.5\ntue,12.0\nwed,9.75\n"}),
    ("data/raw/sensor-01.json", {"type": "file", "format": "text",
                                 "content": '{"sensor": "01", "unit": "C", "readings": [11.5, 12.0, 9.75]}\n'}),
    ("notebooks/analysis.ipynb", {"type": "notebook", "content": NOTEBOOK}),
]


# One console session with its own kernel, so sessions and kernels hold an entity from the start.
SESSION = {"path": "scratch/seed-console", "name": "Seed console", "type": "console",
           "kernel": {"name": "python3"}}


def send(base, token, method, path, model):
    req = urllib.request.Request(
        f"{base}{path}", method=method, data=json.dumps(model).encode(),
        headers={"Authorization": f"token {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        if r.status not in (200, 201):
            raise SystemExit(f"seed: {method} {path} -> {r.status}")
        return json.loads(r.read())


def main():
    base, token = sys.argv[1].rstrip("/"), sys.argv[2]
    for path, model in SEED:
        send(base, token, "PUT", f"/api/contents/{path}", model)
    session = send(base, token, "POST", "/api/sessions", SESSION)
    print(f"seeded {len(SEED)} paths, session {session['id']} with kernel {session['kernel']['id']}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
