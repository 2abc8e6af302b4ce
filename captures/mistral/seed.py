#!/usr/bin/env python3
"""Seed a fresh Mistral 23.0.0 through its own API, then fix the random ids and clocks in its SQLite database.

Usage: seed.py BASE_URL DATABASE_FILE  (run by start.sh on the app port, never through the recording proxy)

What it makes (README "Seed data"), every definition a text/plain YAML body:
- workflow backup (direct, tags nightly, input target and mode=full, two tasks);
- workflow notify (reverse, input recipient);
- workbook ops (tags ops): its action ops.greet (base std.echo) and workflow ops.cleanup;
- ad-hoc action shout (base std.echo, input text);
- environment staging (JSON body: variables region eu, replicas 2);
- cron trigger nightly-backup on backup (pattern 0 3 * * *, input target=db).
Ids are random UUIDs at the create and rewritten here to fixed ones (the cron trigger's workflow_id
with its workflow's), and every created_at to 2026-01-01 00:00:00, before anything else reads them.
"""
import json
import sqlite3
import sys
import urllib.request

BASE, DATABASE = sys.argv[1].rstrip("/"), sys.argv[2]
CLOCK = "2026-01-01 00:00:00"

BACKUP = """---
version: "2.0"
backup:
  type: direct
  description: Copies a target
  tags: [nightly]
  input:
    - target
    - mode: full
  tasks:
    copy:
      action: std.echo output=<% $.target %>
      on-success: [verify]
    verify:
      action: std.noop
"""
NOTIFY = """---
version: "2.0"
notify:
  type: reverse
  input: [recipient]
  tasks:
    send:
      action: std.noop
"""
OPS = """---
version: "2.0"
name: ops
description: Operations
tags: [ops]
actions:
  greet:
    base: std.echo
    base-input:
      output: "hello <% $.who %>"
    input: [who]
workflows:
  cleanup:
    type: direct
    tasks:
      sweep:
        action: std.noop
"""
SHOUT = """---
version: "2.0"
shout:
  description: Shouts a text
  base: std.echo
  base-input:
    output: "<% $.text %>!"
  input: [text]
"""


def call(method, path, body=None, text=None):
    if text is not None:
        data, kind = text.encode(), "text/plain"
    else:
        data, kind = (None if body is None else json.dumps(body).encode()), "application/json"
    request = urllib.request.Request(BASE + path, data=data, method=method, headers={"Content-Type": kind})
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read() or b"null")


call("POST", "/v2/workflows", text=BACKUP)
call("POST", "/v2/workflows", text=NOTIFY)
call("POST", "/v2/workbooks", text=OPS)
call("POST", "/v2/actions", text=SHOUT)
call("POST", "/v2/environments", {"name": "staging", "description": "Staging", "variables": {"region": "eu", "replicas": 2}})
call("POST", "/v2/cron_triggers", {"name": "nightly-backup", "workflow_name": "backup", "pattern": "0 3 * * *",
                                    "workflow_input": {"target": "db"}})

FIXED = {  # table: {name: fixed id}
    "workflow_definitions_v2": {"backup": "3f1c0000-aaaa-4bbb-8ccc-000000000001",
                                "notify": "3f1c0000-aaaa-4bbb-8ccc-000000000002",
                                "ops.cleanup": "3f1c0000-aaaa-4bbb-8ccc-000000000003"},
    "workbooks_v2": {"ops": "3f1c0000-aaaa-4bbb-8ccc-000000000011"},
    "action_definitions_v2": {"ops.greet": "3f1c0000-aaaa-4bbb-8ccc-000000000021",
                              "shout": "3f1c0000-aaaa-4bbb-8ccc-000000000022"},
    "environments_v2": {"staging": "3f1c0000-aaaa-4bbb-8ccc-000000000031"},
    "cron_triggers_v2": {"nightly-backup": "3f1c0000-aaaa-4bbb-8ccc-000000000041"},
}
database = sqlite3.connect(DATABASE)
with database:
    for table, ids in FIXED.items():
        for name, fixed in ids.items():
            old = database.execute(f"SELECT id FROM {table} WHERE name = ?", (name,)).fetchone()[0]
            database.execute(f"UPDATE {table} SET id = ?, created_at = ? WHERE id = ?", (fixed, CLOCK, old))
            if table == "workflow_definitions_v2":
                database.execute("UPDATE cron_triggers_v2 SET workflow_id = ? WHERE workflow_id = ?", (fixed, old))
database.close()
