#!/usr/bin/env python3
"""Scenario driver for Mistral 23.0.0's v2 REST API (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:18911 --mode capture [-v]

Definitions (workflows, workbooks, ad-hoc actions) are written as text/plain YAML bodies: POST to the
collection creates every workflow (action) the text defines and answers `{"workflows": [...]}`
(`{"actions": [...]}`), a workbook its one object; PUT to the collection updates the entities the text
names (by the names inside it), PUT to a workflow's item path updates that one. Environments and cron
triggers take JSON; an environment is updated by PUT to the collection naming it in the body. Items
are read by name or by UUID; lists are `{"<collection>": [...]}` with `fields=`, `sort_keys`/
`sort_dirs`, `limit`/`marker` (a `next` link) and column filters (`name=in:a,b`, `tags=`,
`workflow_name=`). No auth (one default project). The seed (seed.py, run by start.sh, not recorded):
README "Seed data". Every call is sequential, with a random 50-150 ms sleep before it.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

TEXT = {"Content-Type": "text/plain"}
BACKUP_ID = "3f1c0000-aaaa-4bbb-8ccc-000000000001"
NOTIFY_ID = "3f1c0000-aaaa-4bbb-8ccc-000000000002"
CLEANUP_ID = "3f1c0000-aaaa-4bbb-8ccc-000000000003"
OPS_ID = "3f1c0000-aaaa-4bbb-8ccc-000000000011"
SHOUT_ID = "3f1c0000-aaaa-4bbb-8ccc-000000000022"
STAGING_ID = "3f1c0000-aaaa-4bbb-8ccc-000000000031"
NIGHTLY_ID = "3f1c0000-aaaa-4bbb-8ccc-000000000041"

DEPLOY = """---
version: "2.0"
deploy:
  type: direct
  description: Rolls out a release
  tags: [release]
  input:
    - version
    - replicas: 2
  tasks:
    roll:
      action: std.echo output=<% $.version %>
"""
DEPLOY_V2 = """---
version: "2.0"
deploy:
  type: direct
  description: Rolls out a release, then checks it
  tags: [release, checked]
  input:
    - version
    - replicas: 3
  tasks:
    roll:
      action: std.echo output=<% $.version %>
      on-success: [check]
    check:
      action: std.noop
"""
PAIR = """---
version: "2.0"
archive:
  type: direct
  tags: [storage]
  tasks:
    pack:
      action: std.noop
purge:
  type: reverse
  input: [older_than]
  tasks:
    drop:
      action: std.noop
"""
PURGE_V2 = """---
version: "2.0"
purge:
  type: reverse
  description: Drops old data
  input: [older_than, {dry_run: true}]
  tasks:
    drop:
      action: std.noop
"""
NOTIFY_V2 = """version: "2.0"
notify:
  type: direct
  tags: [alerts]
  input: [recipient, {channel: mail}]
  tasks:
    send:
      action: std.echo output=<% $.recipient %>
"""
INFRA = """---
version: "2.0"
name: infra
description: Infrastructure chores
tags: [infra]
actions:
  ping:
    base: std.echo
    base-input:
      output: pong
workflows:
  rotate:
    type: direct
    tasks:
      swap:
        action: std.noop
"""
INFRA_V2 = """---
version: "2.0"
name: infra
description: Infrastructure chores, rotated weekly
tags: [infra, weekly]
actions:
  ping:
    base: std.echo
    base-input:
      output: pong pong
workflows:
  rotate:
    type: direct
    tasks:
      swap:
        action: std.noop
  audit:
    type: direct
    tasks:
      look:
        action: std.noop
"""
WHISPER = """---
version: "2.0"
whisper:
  description: Whispers a text
  base: std.echo
  base-input:
    output: "(<% $.text %>)"
  input: [text]
"""
WHISPER_V2 = """---
version: "2.0"
whisper:
  description: Whispers a text softly
  tags: [quiet]
  base: std.echo
  base-input:
    output: "(<% $.text %>...)"
  input: [text, {volume: 1}]
"""
SHOUT_V2 = """---
version: "2.0"
shout:
  description: Shouts a text twice
  base: std.echo
  base-input:
    output: "<% $.text %>! <% $.text %>!"
  input: [text]
"""


def make_driver(base, min_sleep, max_sleep, verbose):
    return Driver(base, min_sleep, max_sleep, verbose)


def capture(d):
    call, check = d.call, d.check

    def get(path, expect=200, **params):
        return call("GET", path, params=params or None, expect=expect)[1]

    def text(method, path, body, expect):
        return call(method, path, raw=body, headers=TEXT, expect=expect)[1]

    def names(answer, key):
        return [e["name"] for e in answer[key]] if isinstance(answer, dict) and key in answer else answer

    # ---- a. reads before any write
    get("/")
    get("/v2/")
    check("workflows before", names(get("/v2/workflows"), "workflows"), ["backup", "notify", "ops.cleanup"])
    get("/v2/workflows/backup")
    get(f"/v2/workflows/{NOTIFY_ID}")
    get("/v2/workflows/ops.cleanup")
    get(f"/v2/workflows/{BACKUP_ID}")
    get("/v2/workbooks")
    get("/v2/workbooks/ops")
    get("/v2/actions")
    get("/v2/actions/shout")
    get(f"/v2/actions/{SHOUT_ID}", expect=404)  # actions are read by name only
    get("/v2/actions/ops.greet")
    get("/v2/actions/std.echo")
    get("/v2/environments")
    get("/v2/environments/staging")
    get("/v2/cron_triggers")
    get("/v2/cron_triggers/nightly-backup")
    get(f"/v2/cron_triggers/{NIGHTLY_ID}")
    # absences
    get("/v2/workflows/deploy", expect=404)
    get("/v2/workflows/3f1c0000-aaaa-4bbb-8ccc-0000000000ff", expect=404)
    get("/v2/workbooks/infra", expect=404)
    get("/v2/actions/whisper", expect=404)
    get("/v2/environments/production", expect=404)
    get("/v2/cron_triggers/hourly", expect=404)

    # ---- b. list queries
    get("/v2/workflows", fields="name,tags")
    get("/v2/workflows", sort_keys="name", sort_dirs="desc")
    first = get("/v2/workflows", limit="1", sort_keys="name", sort_dirs="asc")
    if isinstance(first, dict) and first.get("workflows"):
        get("/v2/workflows", limit="1", sort_keys="name,id", sort_dirs="asc,asc", marker=first["workflows"][0]["id"])
    get("/v2/workflows", tags="nightly")
    get("/v2/workflows", name="in:backup,notify", fields="name,input")
    get("/v2/workflows", name="neq:backup", fields="name")
    get("/v2/workbooks", fields="name,tags")
    get("/v2/environments", fields="name,variables")
    get("/v2/cron_triggers", workflow_name="backup")

    # ---- c. workflow creates (text/plain YAML)
    created = text("POST", "/v2/workflows", DEPLOY, 201)
    deploy_id = created["workflows"][0]["id"] if isinstance(created, dict) else None
    get("/v2/workflows/deploy")
    get(f"/v2/workflows/{deploy_id}")
    check("workflows after deploy", names(get("/v2/workflows"), "workflows"), ["backup", "notify", "ops.cleanup", "deploy"])
    get("/v2/workflows", tags="release", fields="name,tags")
    pair = text("POST", "/v2/workflows", PAIR, 201)
    check("pair made", names(pair, "workflows"), ["archive", "purge"])
    get("/v2/workflows/archive")
    get("/v2/workflows/purge")
    get("/v2/workflows", fields="name,input")
    # refused creates
    text("POST", "/v2/workflows", DEPLOY, 409)
    text("POST", "/v2/workflows", "version: [2.0\n", 400)
    text("POST", "/v2/workflows", 'version: "2.0"\nbroken:\n  type: direct\n', 400)
    call("POST", "/v2/workflows", {"name": "json-wf"}, expect=400)
    get("/v2/workflows", fields="name")

    # the same name in another namespace (a query parameter): another workflow
    call("POST", "/v2/workflows", raw=PURGE_V2, headers=TEXT, params={"namespace": "team"}, expect=201)
    get("/v2/workflows/purge", namespace="team")
    get("/v2/workflows/purge")
    get("/v2/workflows", namespace="team", fields="name,namespace")
    get("/v2/workflows", fields="name,namespace")

    # ---- d. workflow updates: PUT to the collection (names in the text) and to the item path
    text("PUT", "/v2/workflows", DEPLOY_V2, 200)
    get("/v2/workflows/deploy")
    get("/v2/workflows", tags="checked", fields="name,tags")
    text("PUT", "/v2/workflows", PURGE_V2, 200)
    get("/v2/workflows/purge")
    get("/v2/workflows/archive")
    text("PUT", f"/v2/workflows/{NOTIFY_ID}", NOTIFY_V2, 200)
    get("/v2/workflows/notify")
    get(f"/v2/workflows/{NOTIFY_ID}")
    get("/v2/workflows", tags="alerts", fields="name,tags")
    text("PUT", "/v2/workflows", 'version: "2.0"\nghost:\n  tasks:\n    t:\n      action: std.noop\n', 404)
    text("PUT", "/v2/workflows", "version: [2.0\n", 400)
    get("/v2/workflows/deploy")

    # ---- e. workbooks: a workbook makes its workflows and actions, named under it
    made = text("POST", "/v2/workbooks", INFRA, 201)
    get("/v2/workbooks/infra")
    if isinstance(made, dict):
        get(f"/v2/workbooks/{made['id']}", expect=404)  # workbooks are read by name only
    get("/v2/workbooks")
    get("/v2/workflows/infra.rotate")
    get("/v2/actions/infra.ping")
    get("/v2/workflows", fields="name")
    text("POST", "/v2/workbooks", INFRA, 409)
    text("PUT", "/v2/workbooks", INFRA_V2, 200)
    get("/v2/workbooks/infra")
    get("/v2/workflows/infra.audit")
    get("/v2/workflows/infra.rotate")
    get("/v2/actions/infra.ping")
    get("/v2/workflows", fields="name")
    get("/v2/workbooks", tags="weekly", fields="name,tags")

    # ---- f. ad-hoc actions (text/plain YAML)
    text("POST", "/v2/actions", WHISPER, 201)
    get("/v2/actions/whisper")
    text("POST", "/v2/actions", WHISPER, 409)
    text("PUT", "/v2/actions", WHISPER_V2, 200)
    get("/v2/actions/whisper")
    text("PUT", f"/v2/actions/{SHOUT_ID}", SHOUT_V2, 200)
    get("/v2/actions/shout")
    text("PUT", "/v2/actions", 'version: "2.0"\nmissing:\n  base: std.noop\n', 404)

    # ---- g. environments (JSON; updated by PUT to the collection naming the environment)
    call("POST", "/v2/environments", {"name": "production", "description": "Production",
                                      "variables": {"region": "us", "replicas": 5}}, expect=201)
    get("/v2/environments/production")
    get("/v2/environments")
    call("POST", "/v2/environments", {"name": "production", "variables": {}}, expect=409)
    call("PUT", "/v2/environments", {"name": "production", "variables": {"region": "us", "replicas": 7}}, expect=200)
    get("/v2/environments/production")
    call("PUT", "/v2/environments", {"name": "staging", "description": "Staging, shared"}, expect=200)
    get("/v2/environments/staging")
    get(f"/v2/environments/{STAGING_ID}", expect=404)
    call("PUT", "/v2/environments", {"name": "qa", "variables": {"a": 1}}, expect=404)
    get("/v2/environments", fields="name,description")

    # ---- h. cron triggers (JSON; a workflow named or by id)
    call("POST", "/v2/cron_triggers", {"name": "hourly-deploy", "workflow_name": "deploy", "pattern": "0 * * * *",
                                       "workflow_input": {"version": "1.2"}}, expect=201)
    get("/v2/cron_triggers/hourly-deploy")
    get("/v2/cron_triggers", workflow_name="deploy")
    call("POST", "/v2/cron_triggers", {"name": "weekly-archive", "workflow_name": "archive", "pattern": "0 4 * * 0",
                                       "remaining_executions": 3}, expect=201)
    get("/v2/cron_triggers/weekly-archive")
    call("POST", "/v2/cron_triggers", {"name": "hourly-deploy", "workflow_name": "deploy", "pattern": "0 * * * *",
                                       "workflow_input": {"version": "1.2"}}, expect=409)
    call("POST", "/v2/cron_triggers", {"name": "bad-pattern", "workflow_name": "deploy", "pattern": "61 * * * *",
                                       "workflow_input": {"version": "1"}}, expect=400)
    call("POST", "/v2/cron_triggers", {"name": "no-input", "workflow_name": "deploy", "pattern": "0 * * * *"},
         expect=400)
    call("POST", "/v2/cron_triggers", {"name": "no-workflow", "workflow_name": "nosuch", "pattern": "0 * * * *"},
         expect=404)
    get("/v2/cron_triggers")

    # ---- i. deletes, each read after
    call("DELETE", "/v2/workflows/deploy", expect=400)  # a cron trigger holds it
    get("/v2/workflows/deploy")
    call("DELETE", "/v2/cron_triggers/hourly-deploy", expect=204)
    get("/v2/cron_triggers/hourly-deploy", expect=404)
    get("/v2/cron_triggers")
    call("DELETE", "/v2/cron_triggers/hourly-deploy", expect=404)
    call("DELETE", "/v2/workflows/deploy", expect=204)
    get("/v2/workflows/deploy", expect=404)
    if deploy_id:
        get(f"/v2/workflows/{deploy_id}", expect=404)
    get("/v2/workflows", fields="name")
    call("DELETE", "/v2/workflows/deploy", expect=404)
    call("DELETE", "/v2/workflows/purge", params={"namespace": "team"}, expect=204)
    get("/v2/workflows/purge", namespace="team", expect=404)
    get("/v2/workflows/purge")
    call("DELETE", f"/v2/cron_triggers/{NIGHTLY_ID}", expect=204)
    get("/v2/cron_triggers/nightly-backup", expect=404)
    call("DELETE", f"/v2/workflows/{BACKUP_ID}", expect=204)
    get("/v2/workflows/backup", expect=404)
    get("/v2/workflows", fields="name")
    call("DELETE", "/v2/actions/whisper", expect=204)
    get("/v2/actions/whisper", expect=404)
    call("DELETE", "/v2/actions/whisper", expect=404)
    call("DELETE", "/v2/actions/std.echo", expect=404)
    get("/v2/actions/std.echo")
    call("DELETE", "/v2/environments/production", expect=204)
    get("/v2/environments/production", expect=404)
    get("/v2/environments")
    call("DELETE", "/v2/environments/production", expect=404)
    # a workbook delete takes only the workbook: its workflows, actions and cron trigger stay
    call("POST", "/v2/cron_triggers", {"name": "rotate-daily", "workflow_name": "infra.rotate", "pattern": "0 5 * * *"},
         expect=201)
    get("/v2/cron_triggers/rotate-daily")
    call("DELETE", "/v2/workbooks/infra", expect=204)
    get("/v2/workbooks/infra", expect=404)
    get("/v2/workflows/infra.rotate")
    get("/v2/workflows/infra.audit")
    get("/v2/actions/infra.ping")
    get("/v2/cron_triggers/rotate-daily")
    get("/v2/workbooks")
    get("/v2/workflows", fields="name")
    call("DELETE", "/v2/workbooks/infra", expect=404)
    call("DELETE", "/v2/workflows/infra.audit", expect=204)
    get("/v2/workflows/infra.audit", expect=404)
    call("DELETE", "/v2/actions/infra.ping", expect=204)
    get("/v2/actions/infra.ping", expect=404)
    call("DELETE", "/v2/cron_triggers/weekly-archive", expect=204)
    call("DELETE", "/v2/workflows/archive", expect=204)
    get("/v2/workflows/archive", expect=404)
    get("/v2/cron_triggers")

    # ---- j. recreate a deleted name: a new id
    again = text("POST", "/v2/workflows", DEPLOY, 201)
    if isinstance(again, dict) and deploy_id:
        check("a recreated workflow takes a new id", again["workflows"][0]["id"] != deploy_id, True)
    get("/v2/workflows/deploy")
    get("/v2/workflows")
    get("/v2/workbooks")
    get("/v2/actions/shout")
    get("/v2/environments")
    get("/v2/cron_triggers")


drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:18911")
