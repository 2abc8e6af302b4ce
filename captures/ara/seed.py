#!/usr/bin/env python3
"""Seed a fresh ARA API server through its own REST API (standard library only).

Usage: seed.py BASE_URL

Runs directly on the application's port (start.sh), never through a recording proxy. Every write
is JSON, as ARA's Ansible callback posts it (plain text file content and JSON arguments, facts,
result contents and record values, which the server compresses), with fixed `started`/`ended`
clocks; `created`/`updated` are the server's own. What it makes (README "Seed data"): labels
`env:prod` and `nightly`; playbook 1 `site.yml` (completed, labels both) with its file, play 1,
tasks 1-2, hosts web1 and db1, results 1-4 and a record `release`; playbook 2 `deploy.yml` (failed,
label nightly) with its file, play 2, task 3, host web1, results 5 (failed) and a record `ticket`;
labels `archived`, `team:ops`, `flaky` (3-5) no playbook carries.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "kit"))
from seed_calls import checked_call  # noqa: E402

BASE = sys.argv[1].rstrip("/") + "/api/v1"


def send(method, path, body):
    return checked_call(BASE, method, path, None, body, expect=(200, 201))


SITE_YML = "- hosts: all\n  tasks:\n    - name: Install nginx\n      package: name=nginx\n    - name: Start nginx\n      service: name=nginx state=started\n"
DEPLOY_YML = "- hosts: web\n  tasks:\n    - name: Copy release\n      copy: src=app.tgz dest=/srv/\n"

# playbook 1: site.yml, two tasks on two hosts, completed
site = send("POST", "/playbooks", {
    "name": "Site", "ansible_version": "2.16.3", "client_version": "1.8.0", "python_version": "3.11.2",
    "status": "running", "path": "/home/ops/ansible/site.yml", "controller": "ops-laptop", "user": "ops",
    "labels": ["env:prod", "nightly"], "arguments": {"check": False, "forks": 5, "inventory": ["hosts.ini"]},
    "started": "2026-11-30T08:00:00Z"})["id"]
site_file = send("POST", "/files", {"playbook": site, "path": "/home/ops/ansible/site.yml", "content": SITE_YML})["id"]
play1 = send("POST", "/plays", {"name": "all", "uuid": "5254000a-0001-0000-0000-000000000001", "playbook": site,
                                "status": "running", "started": "2026-11-30T08:00:01Z"})["id"]
hosts = {name: send("POST", "/hosts", {"name": name, "playbook": site})["id"] for name in ("web1", "db1")}
for lineno, (name, action) in enumerate((("Install nginx", "package"), ("Start nginx", "service"))):
    task = send("POST", "/tasks", {"name": name, "action": action, "lineno": 3 + 2 * lineno, "tags": ["web"],
                                   "handler": False, "playbook": site, "play": play1, "file": site_file,
                                   "status": "running", "started": f"2026-11-30T08:00:0{2 + lineno}Z"})["id"]
    for host, changed in (("web1", lineno == 0), ("db1", False)):
        send("POST", "/results", {"playbook": site, "play": play1, "task": task, "host": hosts[host],
                                  "status": "ok", "changed": changed, "ignore_errors": False,
                                  "content": {"msg": f"{name} on {host}", "changed": changed},
                                  "started": f"2026-11-30T08:00:0{2 + lineno}Z",
                                  "ended": f"2026-11-30T08:00:0{3 + lineno}Z"})
    send("PATCH", f"/tasks/{task}", {"status": "completed", "ended": f"2026-11-30T08:00:0{3 + lineno}Z"})
send("PATCH", f"/hosts/{hosts['web1']}", {"ok": 1, "changed": 1, "failed": 0, "skipped": 0, "unreachable": 0})
send("PATCH", f"/hosts/{hosts['db1']}", {"ok": 2, "changed": 0, "failed": 0, "skipped": 0, "unreachable": 0})
send("POST", "/records", {"playbook": site, "key": "release", "value": "2026.11", "type": "text"})
send("PATCH", f"/plays/{play1}", {"status": "completed", "ended": "2026-11-30T08:00:05Z"})
send("PATCH", f"/playbooks/{site}", {"status": "completed", "ended": "2026-11-30T08:00:06Z"})

# playbook 2: deploy.yml, one task failed on one host
deploy = send("POST", "/playbooks", {
    "name": "Deploy", "ansible_version": "2.16.3", "client_version": "1.8.0", "python_version": "3.11.2",
    "status": "running", "path": "/home/ops/ansible/deploy.yml", "controller": "ci-runner", "user": "ci",
    "labels": ["nightly"], "arguments": {"check": False, "forks": 10}, "started": "2026-12-01T02:00:00Z"})["id"]
deploy_file = send("POST", "/files", {"playbook": deploy, "path": "/home/ops/ansible/deploy.yml",
                                      "content": DEPLOY_YML})["id"]
play2 = send("POST", "/plays", {"name": "web", "uuid": "5254000a-0002-0000-0000-000000000001", "playbook": deploy,
                                "status": "running", "started": "2026-12-01T02:00:01Z"})["id"]
web1 = send("POST", "/hosts", {"name": "web1", "playbook": deploy})["id"]
task3 = send("POST", "/tasks", {"name": "Copy release", "action": "copy", "lineno": 3, "tags": [],
                                "handler": False, "playbook": deploy, "play": play2, "file": deploy_file,
                                "status": "running", "started": "2026-12-01T02:00:02Z"})["id"]
send("POST", "/results", {"playbook": deploy, "play": play2, "task": task3, "host": web1, "status": "failed",
                          "changed": False, "ignore_errors": False,
                          "content": {"msg": "Could not find or access 'app.tgz'", "failed": True},
                          "started": "2026-12-01T02:00:02Z", "ended": "2026-12-01T02:00:03Z"})
send("PATCH", f"/tasks/{task3}", {"status": "failed", "ended": "2026-12-01T02:00:03Z"})
send("PATCH", f"/hosts/{web1}", {"ok": 0, "changed": 0, "failed": 1, "skipped": 0, "unreachable": 0})
send("POST", "/records", {"playbook": deploy, "key": "ticket", "value": {"id": "OPS-12", "url": "https://tickets.example/OPS-12"},
                          "type": "json"})
send("PATCH", f"/plays/{play2}", {"status": "completed", "ended": "2026-12-01T02:00:04Z"})
send("PATCH", f"/playbooks/{deploy}", {"status": "failed", "ended": "2026-12-01T02:00:05Z"})

# labels made ahead of the runs that will carry them (no playbook carries them yet)
for name in ("archived", "team:ops", "flaky"):
    send("POST", "/labels", {"name": name})
