#!/usr/bin/env python3
"""Scenario driver for ARA Records Ansible 1.8.0's REST API (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:18121 --mode capture [-v]

No authentication (start.sh: reads and writes need no login, ARA's default); every write sends
JSON as ARA's Ansible callback does. Paths have no trailing slash (`/api/v1/playbooks/1`). Lists
are Django REST Framework pages `{count, next, previous, results}` (limit/offset, absolute links
naming http://127.0.0.1), sorted by `order=` and filtered by field (`?status=`, `?name=`,
`?playbook=`, `?label=`). Lists show references as ids; item reads embed the playbook (and play,
task, host) as objects and add the compressed members (file content, record value, result
content, host facts). The seed (seed.py, run by start.sh, not recorded): README "Seed data". Every
call is sequential, with a random 50-150 ms sleep before it.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

API = "/api/v1"
NEW_YML = "- hosts: db\n  tasks:\n    - name: Back up the database\n      command: pg_dump app\n"


def make_driver(base, min_sleep, max_sleep, verbose):
    return Driver(base, min_sleep, max_sleep, verbose, token=None)


def capture(d):
    call, check = d.call, d.check

    def get(where, expect=200, **params):
        return call("GET", API + where, params=params or None, expect=expect)[1]

    def send(method, path, body=None, expect=200, raw=None):
        return call(method, API + path, body=body, raw=raw, expect=expect)[1]

    def ids(page):
        return [item.get("id") for item in page.get("results", [])] if isinstance(page, dict) else None

    def field(answer, key):
        return answer.get(key) if isinstance(answer, dict) else None

    # ---- a. reads before any write: the root, every list and the seed's items
    call("GET", API + "/")
    check("playbooks", ids(get("/playbooks")), [2, 1])
    for pid in (1, 2):
        get(f"/playbooks/{pid}")
    get("/labels")
    for lid in (1, 2):
        get(f"/labels/{lid}")
    get("/plays")
    get("/plays/1")
    get("/plays/2")
    get("/tasks")
    for tid in (1, 2, 3):
        get(f"/tasks/{tid}")
    get("/hosts")
    for hid in (1, 2, 3):
        get(f"/hosts/{hid}")
    get("/latesthosts")
    get("/results")
    for rid in (1, 3, 5):
        get(f"/results/{rid}")
    get("/files")
    get("/files/1")
    get("/files/2")
    get("/records")
    get("/records/1")
    get("/records/2")

    # ---- b. filters, ordering and paging
    get("/playbooks", status="completed")
    get("/playbooks", status="failed")
    get("/playbooks", name="site")
    get("/playbooks", label="nightly")
    get("/playbooks", label="env:prod")
    get("/playbooks", order="started")
    get("/playbooks", limit="1")
    get("/playbooks", limit="1", offset="1")
    get("/tasks", playbook="1")
    get("/tasks", status="failed")
    get("/tasks", order="-started")
    get("/hosts", name="web1")
    get("/hosts", playbook="2")
    get("/hosts", failed__gt="0")
    get("/results", status="failed")
    get("/results", playbook="1", limit="2")
    get("/results", playbook="1", limit="2", offset="2")
    get("/results", host="2")
    get("/records", key="release")
    get("/records", playbook="2")
    get("/files", path="deploy")
    get("/labels", name="nightly")
    get("/plays", playbook="1")

    # ---- c. absences
    for path in ("/playbooks/99", "/plays/99", "/tasks/99", "/hosts/99", "/results/99", "/files/99",
                 "/records/99", "/labels/99"):
        get(path, expect=404)
    get("/playbooks/abc", expect=404)

    # ---- d. labels: create, PUT (rename), PATCH, conflicts and validation, delete
    lab = send("POST", "/labels", {"name": "canary"}, expect=201)
    lab_id = field(lab, "id")
    get(f"/labels/{lab_id}")
    get("/labels")
    send("POST", "/labels", {"name": "canary"}, expect=400)          # taken name
    send("POST", "/labels", {}, expect=400)                          # no name
    send("POST", "/labels", {"name": ""}, expect=400)                 # blank name
    send("PUT", f"/labels/{lab_id}", {"name": "canary-2"})
    get(f"/labels/{lab_id}")
    send("PATCH", f"/labels/{lab_id}", {"name": "canary-3"})
    get(f"/labels/{lab_id}")
    send("PATCH", f"/labels/{lab_id}", {"name": "nightly"}, expect=400)  # taken by label 2
    get(f"/labels/{lab_id}")
    send("PUT", "/labels/99", {"name": "ghost"}, expect=404)
    send("PATCH", "/labels/99", {"name": "ghost"}, expect=404)
    lab2 = send("POST", "/labels", {"name": "weekly"}, expect=201)
    lab2_id = field(lab2, "id")
    get("/labels", name="weekly")
    send("DELETE", f"/labels/{lab2_id}", expect=204)
    get(f"/labels/{lab2_id}", expect=404)
    get("/labels")
    send("DELETE", f"/labels/{lab2_id}", expect=404)

    # ---- e. a new playbook as the callback reports it: playbook, file, play, hosts, tasks, results, records
    pb = send("POST", "/playbooks", {
        "name": "Backup", "ansible_version": "2.16.3", "client_version": "1.8.0", "python_version": "3.11.2",
        "status": "running", "path": "/home/ops/ansible/backup.yml", "controller": "ops-laptop",
        "user": "ops", "labels": ["env:prod", "backup"], "arguments": {"check": True, "forks": 2},
        "started": "2026-12-03T01:00:00Z"}, expect=201)
    pb_id = field(pb, "id")
    get(f"/playbooks/{pb_id}")
    check("playbooks after create", ids(get("/playbooks")), [pb_id, 2, 1])
    get("/labels")
    get("/playbooks", label="backup")
    send("POST", "/playbooks", {"name": "no path", "ansible_version": "2.16.3"}, expect=400)
    send("POST", "/playbooks", {"path": "/x.yml", "ansible_version": "2.16.3", "status": "bogus"}, expect=400)
    fl = send("POST", "/files", {"playbook": pb_id, "path": "/home/ops/ansible/backup.yml", "content": NEW_YML},
              expect=201)
    fl_id = field(fl, "id")
    get(f"/files/{fl_id}")
    get("/files", playbook=str(pb_id))
    send("POST", "/files", {"playbook": 99, "path": "/x.yml", "content": "x"}, expect=400)
    pl = send("POST", "/plays", {"name": "db", "uuid": "5254000a-0003-0000-0000-000000000001", "playbook": pb_id,
                                 "status": "running", "started": "2026-12-03T01:00:01Z"}, expect=201)
    pl_id = field(pl, "id")
    get(f"/plays/{pl_id}")
    get("/plays", playbook=str(pb_id))
    send("POST", "/plays", {"name": "db", "playbook": pb_id}, expect=400)  # no uuid
    h1 = send("POST", "/hosts", {"name": "db1", "playbook": pb_id}, expect=201)
    h1_id = field(h1, "id")
    h2 = send("POST", "/hosts", {"name": "db2", "playbook": pb_id}, expect=201)
    h2_id = field(h2, "id")
    get(f"/hosts/{h1_id}")
    get("/hosts", playbook=str(pb_id))
    get("/latesthosts")
    tk = send("POST", "/tasks", {"name": "Back up the database", "action": "command", "lineno": 3, "tags": ["db"],
                                 "handler": False, "playbook": pb_id, "play": pl_id, "file": fl_id,
                                 "status": "running", "started": "2026-12-03T01:00:02Z"}, expect=201)
    tk_id = field(tk, "id")
    get(f"/tasks/{tk_id}")
    get("/tasks", playbook=str(pb_id))
    send("POST", "/tasks", {"name": "no action", "playbook": pb_id, "play": pl_id, "file": fl_id}, expect=400)
    r1 = send("POST", "/results", {"playbook": pb_id, "play": pl_id, "task": tk_id, "host": h1_id, "status": "ok",
                                   "changed": True, "ignore_errors": False,
                                   "content": {"rc": 0, "stdout": "dumped 42 tables"},
                                   "started": "2026-12-03T01:00:02Z", "ended": "2026-12-03T01:00:09Z"}, expect=201)
    r1_id = field(r1, "id")
    r2 = send("POST", "/results", {"playbook": pb_id, "play": pl_id, "task": tk_id, "host": h2_id,
                                   "status": "failed", "changed": False, "ignore_errors": True,
                                   "content": {"rc": 1, "stderr": "connection refused"},
                                   "started": "2026-12-03T01:00:02Z", "ended": "2026-12-03T01:00:04Z"}, expect=201)
    r2_id = field(r2, "id")
    get(f"/results/{r1_id}")
    get(f"/results/{r2_id}")
    get("/results", playbook=str(pb_id))
    get("/results", status="failed")
    send("POST", "/results", {"playbook": pb_id, "play": pl_id, "task": tk_id, "host": 99, "status": "ok"},
         expect=400)
    get(f"/playbooks/{pb_id}")  # its items counts just before the record: the create's effect on them shows next
    rec = send("POST", "/records", {"playbook": pb_id, "key": "dump_size", "value": {"bytes": 1048576},
                                    "type": "json"}, expect=201)
    rec_id = field(rec, "id")
    get(f"/records/{rec_id}")
    get("/records", playbook=str(pb_id))
    send("POST", "/records", {"playbook": pb_id, "value": "x"}, expect=400)  # no key
    get(f"/playbooks/{pb_id}")

    # ---- f. PATCH updates as the callback finishes: task, hosts, play, playbook
    send("PATCH", f"/tasks/{tk_id}", {"status": "completed", "ended": "2026-12-03T01:00:09Z"})
    get(f"/tasks/{tk_id}")
    get("/tasks", status="completed")
    send("PATCH", f"/hosts/{h1_id}", {"ok": 1, "changed": 1, "failed": 0, "skipped": 0, "unreachable": 0})
    send("PATCH", f"/hosts/{h2_id}", {"ok": 0, "changed": 0, "failed": 1, "skipped": 0, "unreachable": 0})
    get(f"/hosts/{h1_id}")
    get(f"/hosts/{h2_id}")
    get("/hosts", failed__gt="0")
    send("PATCH", f"/plays/{pl_id}", {"status": "completed", "ended": "2026-12-03T01:00:10Z"})
    get(f"/plays/{pl_id}")
    send("PATCH", f"/playbooks/{pb_id}", {"status": "completed", "ended": "2026-12-03T01:00:11Z"})
    get(f"/playbooks/{pb_id}")
    get("/playbooks", status="completed")
    send("PATCH", f"/playbooks/{pb_id}", {"labels": ["env:prod", "backup", "reviewed"]})
    get(f"/playbooks/{pb_id}")
    get("/labels")
    send("PATCH", f"/playbooks/{pb_id}", {"status": "finished"}, expect=400)  # not a status
    get(f"/playbooks/{pb_id}")
    send("PATCH", f"/records/{rec_id}", {"value": {"bytes": 2097152}})
    get(f"/records/{rec_id}")
    send("PATCH", f"/results/{r2_id}", {"ignore_errors": False})
    get(f"/results/{r2_id}")
    get("/results", status="failed")
    send("PATCH", f"/files/{fl_id}", {"path": "/home/ops/ansible/backup-db.yml"})
    get(f"/files/{fl_id}")

    # ---- g. PUT updates (every writable field sent)
    send("PUT", f"/records/{rec_id}", {"playbook": pb_id, "key": "dump_size_mb", "value": 2, "type": "int"})
    get(f"/records/{rec_id}")
    get("/records", key="dump_size_mb")
    send("PUT", f"/records/{rec_id}", {"key": "only a key"}, expect=400)  # playbook missing
    send("PUT", f"/plays/{pl_id}", {"name": "databases", "uuid": "5254000a-0003-0000-0000-000000000001",
                                    "playbook": pb_id, "status": "completed",
                                    "started": "2026-12-03T01:00:01Z", "ended": "2026-12-03T01:00:12Z"})
    get(f"/plays/{pl_id}")
    send("PUT", f"/hosts/{h2_id}", {"name": "db2", "playbook": pb_id, "ok": 1, "changed": 0, "failed": 0,
                                    "skipped": 0, "unreachable": 0, "facts": {"ansible_os_family": "Debian"}})
    get(f"/hosts/{h2_id}")
    send("PUT", f"/playbooks/{pb_id}", {"name": "Backup (rerun)", "ansible_version": "2.16.4",
                                        "path": "/home/ops/ansible/backup.yml", "status": "completed",
                                        "labels": ["backup"], "arguments": {"check": False},
                                        "started": "2026-12-03T01:00:00Z", "ended": "2026-12-03T01:00:20Z"})
    get(f"/playbooks/{pb_id}")
    get("/playbooks", label="env:prod")
    send("PUT", "/playbooks/99", {"path": "/x.yml", "ansible_version": "2.16.3"}, expect=404)
    send("PATCH", "/records/99", {"key": "x"}, expect=404)
    send("PATCH", "/hosts/99", {"ok": 1}, expect=404)
    send("PATCH", "/tasks/99", {"status": "completed"}, expect=404)

    # ---- h. a second run on a seeded host: latest hosts move, duplicate host and file creates are get-or-create
    again = send("POST", "/hosts", {"name": "db1", "playbook": pb_id}, expect=201)
    check("host get-or-create", field(again, "id"), h1_id)
    send("POST", "/files", {"playbook": pb_id, "path": "/home/ops/ansible/backup-db.yml", "content": NEW_YML},
         expect=201)
    get("/files", playbook=str(pb_id))
    web = send("POST", "/hosts", {"name": "web1", "playbook": pb_id}, expect=201)
    web_id = field(web, "id")
    get("/latesthosts")
    get("/hosts", name="web1")

    # ---- i. malformed bodies
    send("POST", "/labels", raw="{not json", expect=400)
    send("PATCH", f"/hosts/{h1_id}", {"ok": "many"}, expect=400)
    send("POST", "/records", raw="[]", expect=400)

    # ---- j. deletes: leaves first, then a playbook with everything beneath it
    send("DELETE", f"/records/{rec_id}", expect=204)
    get(f"/records/{rec_id}", expect=404)
    get("/records")
    get(f"/playbooks/{pb_id}")
    send("DELETE", f"/results/{r2_id}", expect=204)
    get(f"/results/{r2_id}", expect=404)
    get("/results", playbook=str(pb_id))
    get(f"/tasks/{tk_id}")
    send("DELETE", f"/hosts/{web_id}", expect=204)
    get(f"/hosts/{web_id}", expect=404)
    get("/hosts", name="web1")
    get("/latesthosts")
    send("DELETE", f"/labels/{lab_id}", expect=204)
    get(f"/labels/{lab_id}", expect=404)
    get("/labels")
    send("DELETE", f"/playbooks/{pb_id}", expect=204)
    get(f"/playbooks/{pb_id}", expect=404)
    check("playbooks after delete", ids(get("/playbooks")), [2, 1])
    get(f"/plays/{pl_id}", expect=404)
    get(f"/tasks/{tk_id}", expect=404)
    get(f"/results/{r1_id}", expect=404)
    get(f"/hosts/{h1_id}", expect=404)
    get(f"/files/{fl_id}", expect=404)
    get("/hosts")
    get("/results")
    get("/tasks")
    get("/files")
    get("/latesthosts")
    get("/labels")
    send("DELETE", f"/playbooks/{pb_id}", expect=404)
    send("DELETE", "/hosts/99", expect=404)

    # ---- k. the seed after it all: a result, a host and a record of playbook 2 changed and read back
    send("PATCH", "/results/5", {"status": "ok", "changed": True})
    get("/results/5")
    get("/results", status="failed")
    send("PATCH", "/hosts/3", {"ok": 1, "failed": 0})
    get("/hosts/3")
    send("PATCH", "/playbooks/2", {"status": "completed"})
    get("/playbooks/2")
    get("/playbooks", status="failed")
    send("DELETE", "/records/2", expect=204)
    get("/records", playbook="2")
    get("/playbooks/2")
    get("/playbooks")


drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:18121")
